"""Imports from other programs: The Tournament Director's `.tdt` files read as data
(`imports/domain/td3.py`, docs/td3-format.md), each turned into a finished tournament with its
people, entries, busts, places and prizes (`imports/services.py`), the TD3 player's UUID kept as an
external id so the next file finds the same person, and each imported tournament remembered so it
is not imported twice."""
