"""What the tables app tells the layer above (actions/receivers.py) so that other apps can act
on it. Sent inside the transaction that made the change."""

from __future__ import annotations

from django.dispatch import Signal

# A dealer finished a hand at `table` (the hand number has moved on): penalised players seated
# there sit out one hand less.
hand_finished = Signal()

# The floor confirmed reported busts: `tournament`, `busts` (dicts: entry, stack_at_hand_start,
# eliminated_by, hand_number, button_seat, h4h_round) and `actor`. The players are out now.
busts_confirmed = Signal()
