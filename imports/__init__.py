"""Imports from other programs: The Tournament Director's `.tdt` files read as data
(`imports/domain/td3.py`, docs/td3-format.md), each turned into a finished tournament with its
people, entries, busts, places and prizes (`imports/services.py`), the TD3 player's UUID kept as an
external id so the next file finds the same person, each imported tournament remembered so it
is not imported twice, and the TD3 league's and season's UUIDs kept as external records (the
league and season they became are found and made by `actions/imports.py`: this app knows no
league)."""
