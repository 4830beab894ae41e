"""A penalty given by the floor (rules_engine), and what follows in the other apps: a
disqualified player is out at once (actions/bust.py), the table's tablets show who sits out.

Check → do → notify: the rules engine checks and records the penalty; a disqualification
busts the player through the bust's command (its own check, do and notify); the tablet of the
player's table is told."""

from __future__ import annotations

from django.db import transaction

from actions.bust import BustReport, entries_bust
from rules_engine.models import Penalty, PenaltyKind
from rules_engine.services import penalty_record
from tables.live import notify_tables
from tournament.events import Actor
from tournament.models import Tournament


@transaction.atomic
def penalty_give(
    *,
    tournament: Tournament,
    number: int,
    kind: str,
    count: int,
    reason: str,
    actor: Actor,
) -> Penalty:
    """Give a penalty to entry `number` (see `rules_engine.services.penalty_record`). A
    disqualification takes the player's chips out of play: the player is out at once (tda-de
    71)."""
    # Check and do (rules_engine): refused, or recorded and logged.
    penalty, table_id = penalty_record(
        tournament=tournament, number=number, kind=kind, count=count, reason=reason, actor=actor
    )
    if kind == PenaltyKind.DISQUALIFICATION:
        entries_bust(tournament=tournament, busts=[BustReport(entry=penalty.entry)], actor=actor)
    # Notify: the tablet of the player's table shows who sits out (the console is not told).
    if table_id is not None:
        notify_tables(tournament.pk, [table_id], console=False)
    return penalty
