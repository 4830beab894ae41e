"""What the bust path (tournament/services/eliminations.py) tells the layer above until its
command (actions/bust.py) calls the other apps itself: the tournament's end, seats freed, an
alternate joining the field. Every other path calls the apps by its command in actions/
(registration, corrections, sign-ups, the tournament's status and structure) and sends none.

Sent inside the transaction of the change, with the tournament row locked, so what other apps
do on them (the clock stops, `clocks/receivers.py`) commits or rolls back with it.
Receivers take keyword arguments `tournament` and `actor` (a `tournament.events.Actor`).
"""

from __future__ import annotations

from django.dispatch import Signal

# The tournament has just finished: the last bust, a satellite's last seat.
tournament_finished = Signal()

# Players left or came back to seats outside the tables app (a bust, its undo): arguments
# `tournament_id` and `table_ids`. The tables app tells those tables' screens
# (actions/receivers.py).
seats_changed = Signal()

# An alternate joined the field after a bust (`registration.alternate_promote_next`):
# arguments `tournament`, `entry`, `actor`. Once seats are drawn the layer above has the tables
# app seat it (actions/receivers.py).
entry_joined_field = Signal()
