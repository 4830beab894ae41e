"""Actions at the tables that reach another app.

- `hand_done`: a dealer's "hand done" (the tablet, the console, the API). Check → do → notify:
  the tables app checks the tap (a repeated tap for a hand already finished does nothing),
  deals the next hand (the button, the blinds, players waiting dealt in, the shot clock), logs
  it and tells the table's tablets; then every penalised player seated there sits out one hand
  less (rules_engine, tda-de 69).
- `balance_apply`, `table_break`, `final_table_draw`: the floor moves players (the console, the
  API, the demo). Check → do → notify: the tables app checks (the plan still current, the table
  breakable, the field small enough for the final table; refused with `FloorError`, nothing
  changed), moves the players, closes tables, logs the moves and tells the players' phones,
  the tablets and the console; then the room hears it (clocks: players moved to balance, the
  table broken, the final table drawn), once, when the change commits.
"""

from __future__ import annotations

from django.db import transaction

from clocks.announcements import (
    announce_final_table,
    announce_players_moved,
    announce_table_break,
)
from rules_engine.services import penalties_count_hand
from tables.domain.seating import Move
from tables.models import Table
from tables.services import balancing
from tables.services.hands import hand_finish
from tournament.events import Actor
from tournament.models import Tournament


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


@transaction.atomic
def balance_apply(*, tournament: Tournament, signature: str, actor: Actor) -> list[Move]:
    """Apply the balancing plan the floor saw (`signature`; refused with `Conflict` and the new
    plan when the tables changed since). Returns the moves made."""
    # Check, do and notify (tables): the plan checked, the players moved, logged, and the
    # phones, the tablets and the console told.
    moves = balancing.balance_apply(tournament=tournament, signature=signature, actor=actor)
    # Notify (clocks): "Table 3: a player moves to table 5", once per pair of tables.
    announce_players_moved(tournament.pk, ((m.from_table, m.to_table) for m in moves))
    return moves


@transaction.atomic
def table_break(*, tournament: Tournament, number: int, actor: Actor) -> list[Move]:
    """Break table `number` (tda-de 9): its players are redrawn at random into open seats.
    Returns the moves made (none for an empty table: it just closes)."""
    # Check, do and notify (tables): the table closed, its players redrawn, logged, and the
    # phones, the tablets and the console told.
    moves = balancing.table_break(tournament=tournament, number=number, actor=actor)
    # Notify (clocks): the room hears of a break that moved players.
    if moves:
        announce_table_break(tournament.pk, number)
    return moves


@transaction.atomic
def final_table_draw(
    *, tournament: Tournament, actor: Actor, table_number: int | None = None
) -> list[Move]:
    """Random redraw of everyone left at the final table (tda-de 11, at `table_number` or the
    lowest open table); the other tables close. Returns the moves made."""
    # Check, do and notify (tables): the field checked, the players redrawn, the other tables
    # closed, the status and the time banks, logged, and the phones, the tablets and the
    # console told.
    moves = balancing.final_table_draw(
        tournament=tournament, actor=actor, table_number=table_number
    )
    # Notify (clocks): "The final table is drawn at table N".
    announce_final_table(tournament.pk, moves[0].to_table if moves else None, len(moves))
    return moves
