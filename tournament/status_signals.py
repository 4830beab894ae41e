"""What the tournament app tells the layer above (actions/receivers.py) and the other apps:
its end, its reopening, an edit of its structure, seats freed, a player joining the field.

Sent inside the transaction that changes the status, with the tournament row locked, so what
other apps do on them (the clock stops, `clocks/receivers.py`) commits or rolls back with it.
Receivers take keyword arguments `tournament` and `actor` (a `tournament.events.Actor`).
"""

from __future__ import annotations

from django.dispatch import Signal

# The tournament has just finished: the last bust, a satellite's last seat, or a director's
# status change.
tournament_finished = Signal()

# Players left or came back to seats outside the tables app (a bust, its undo, a voided
# registration): arguments `tournament_id` and `table_ids`. The tables app tells those tables'
# screens (tables/receivers.py).
seats_changed = Signal()

# An entry joined the field in play (a late registration, a promoted alternate, a voided
# registration given back): arguments `tournament`, `entry`, `actor`. Once seats are drawn the
# layer above has the tables app seat it (actions/receivers.py).
entry_joined_field = Signal()

# A player is about to enter the tournament (before anything is written): arguments
# `tournament` and `player`. A receiver refuses the entry by raising FloorError; an event with
# starting flights refuses a player its policy keeps out of another flight (festivals/).
entry_registering = Signal()
