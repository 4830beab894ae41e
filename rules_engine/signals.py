"""What the rules engine tells the layer above (actions/receivers.py). Sent inside the
transaction that made the change."""

from __future__ import annotations

from django.dispatch import Signal

# A disqualification (tda-de 71): `tournament`, `entry`, `actor`. The player is out at once.
disqualified = Signal()

# A penalty was given to a player seated at table `table_id` of `tournament_id`: the tablet
# shows who sits out.
penalty_given = Signal()
