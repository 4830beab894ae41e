"""What the tournament app tells the layer above (actions/receivers.py) and the other apps:
its end, its reopening, an edit of its structure, seats freed, a player joining the field.

Sent inside the transaction that changes the status, with the tournament row locked, so what
other apps do on them (the clock stops, `clocks/receivers.py`) commits or rolls back with it.
Receivers take keyword arguments `tournament` and `actor` (a `tournament.events.Actor`).
"""

from __future__ import annotations

from django.dispatch import Signal

# The tournament has just finished by a director's status change (the last bust stops the
# clock itself: actions/bust.py).
tournament_finished = Signal()

# A director has just reopened a finished tournament.
tournament_reopened = Signal()

# The levels of a running tournament were edited: the clock's next level end may have moved.
structure_changed = Signal()

# Players left or came back to seats outside the tables app (a voided registration, a refund):
# arguments `tournament_id` and `table_ids`. The tables app tells those tables' screens
# (actions/receivers.py). A bust and its undo tell them themselves (actions/bust.py).
seats_changed = Signal()

# An entry joined the field in play (a late registration, a promoted alternate, a voided
# registration given back): arguments `tournament`, `entry`, `actor`. Once seats are drawn the
# layer above has the tables app seat it (actions/receivers.py).
entry_joined_field = Signal()

# A player is about to enter the tournament (before anything is written): arguments
# `tournament` and `player`. A receiver refuses the entry by raising FloorError; an event with
# starting flights refuses a player its policy keeps out of another flight (festivals/).
entry_registering = Signal()
