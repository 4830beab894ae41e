"""Actions at a table that reach another app.

`hand_done`: a dealer's "hand done" (the tablet, the console, the API). Check → do → notify:
the tables app checks the tap (a repeated tap for a hand already finished does nothing),
deals the next hand (the button, the blinds, players waiting dealt in, the shot clock), logs
it and tells the table's tablets; then every penalised player seated there sits out one hand
less (rules_engine, tda-de 69)."""

from __future__ import annotations

from django.db import transaction

from rules_engine.services import penalties_count_hand
from tables.models import Table
from tables.services.hands import hand_finish
from tournament.events import Actor


@transaction.atomic
def hand_done(*, table: Table, actor: Actor, hand_number: int | None = None) -> Table:
    """The dealer finished a hand at `table` (`hand_number`: the hand the tablet showed; a
    repeated tap for it does nothing). Returns the table, at its next hand."""
    # Check, do and notify (tables): the next hand dealt, logged, shown on the tablets.
    table, finished = hand_finish(table=table, actor=actor, hand_number=hand_number)
    # Do (rules_engine): the penalised players at the table have one hand less to sit out.
    if finished:
        penalties_count_hand(table)
    return table
