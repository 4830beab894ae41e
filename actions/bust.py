"""A bust, from the button to every screen: one player out, or several in the same hand.

The desk's *Bust* button (tournament/desk_views.py), the API, a dealer's report confirmed by
the floor (`report_resolve`) and a disqualification (actions/penalties.py) all call
`entries_bust`. Read it top to bottom:

1. **Check** (tournament): lock the tournament, then the entries; refuse what cannot be (not
   running, out already, a stack above the chips in play, nobody left to win, the money
   reached while registration is open, a paid prize that would move); rank the hand with the
   busts recorded for it before (bdpv 6.28, tda-de) and price it. Nothing is written yet.
2. **Do**, in the same transaction:
   - the seats are freed (tables: the seat rows are the tables app's), in the same statement
     as the finish of the player out when there is one;
   - the finishes, the finishes that moved, the bounties, the winner and the end of the
     tournament, the event-log line `entry.bust` (tournament);
   - a finished tournament stops its clock (clocks);
   - while the field still grows, the first alternate waiting takes the freed place
     (tournament; once seats are drawn the tables app seats them:
     `actions.registration.alternate_promote_next`).
3. **Notify**, each message built when the transaction commits and only while someone listens:
   - the bubble or the money reached, spoken in the room (clocks);
   - the board to every screen of the tournament (players left, average, prize pool, results);
   - each busted player's phone ("out in place N"), and the phones of the players whose finish
     moved or who won;
   - the tables' tablets and the console (the seats freed).

A failed check raises `FloorError` and changes nothing: the transaction rolls back whole.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from django.db import transaction

from actions.registration import alternate_promote_next
from clocks.announcements import announce_bubble
from clocks.services import clock_stop
from tables.live import notify_tables
from tables.models import TableReport
from tables.selectors import where_entries_sit
from tables.services.reports import report_resolve_begin, report_resolve_finish
from tables.services.seats import seats_free, seats_give_back
from tournament.events import Actor
from tournament.live import notify_board, notify_seats
from tournament.models import Entry, Tournament
from tournament.services import eliminations
from tournament.services.eliminations import BustReport

__all__ = ["BustReport", "bust_undo_last", "entries_bust", "report_resolve"]


@transaction.atomic
def entries_bust(
    *, tournament: Tournament, busts: Sequence[BustReport], actor: Actor
) -> list[Entry]:
    """Bust one entry, or several out in the same hand; returns them by place."""
    # Check: locked, refused or ranked and priced; nothing written.
    plan = eliminations.bust_check(tournament=tournament, busts=busts, where_sat=where_entries_sit)

    # Do: the seats (tables), the finishes and the log line (tournament), the clock, the
    # alternate.
    finish = eliminations.bust_finish_statement(plan)  # None: several out, or SQLite
    seats = seats_free(entry_ids=plan.entry_ids, along=finish)
    done = eliminations.bust_record(
        plan, seats=seats, finish_written=finish is not None, actor=actor
    )
    if done.finished:
        clock_stop(tournament=done.tournament, actor=actor)
    if done.promotes_alternate:
        alternate_promote_next(tournament=done.tournament, actor=actor)

    # Notify: the room, the screens, the phones, the tablets and the console.
    announce_bubble(
        tournament.pk, [e.place or 0 for e in done.busted], paid_at_most=done.paid_at_most
    )
    notify_board(
        tournament.pk, "bust", {"busted": [{"entry": e.pk, "place": e.place} for e in done.busted]}
    )
    notify_seats((e.pk for e in done.busted), "bust")
    notify_seats(done.places_moved)
    notify_tables(tournament.pk, done.table_ids)
    return done.busted


@transaction.atomic
def bust_undo_last(
    *,
    tournament: Tournament,
    actor: Actor,
    correct_payments: bool = False,
    sequence: int | None = None,
) -> list[Entry]:
    """Undo the most recent bust (all players of that hand): they are back in play, in their
    seats where still free. `correct_payments` and `sequence`: see
    `tournament.services.eliminations.bust_undo_record`. Returns the entries back in play."""
    # Check and do (tournament): refused, or the finishes undone and logged.
    undone = eliminations.bust_undo_record(
        tournament=tournament, actor=actor, correct_payments=correct_payments, sequence=sequence
    )
    # Do (tables): the seats given back where nobody has sat down since.
    tables = seats_give_back(undone.seats)

    # Notify: the phones, the tablets and the console, the board.
    notify_seats(undone.busted_ids)
    notify_tables(tournament.pk, tables)
    notify_board(tournament.pk, "bust_undo")
    return undone.restored


@transaction.atomic
def report_resolve(
    *,
    report: TableReport,
    confirm: bool,
    actor: Actor,
    eliminated_by: tuple[int, ...] | Mapping[int, tuple[int, ...]] = (),
    stacks: Mapping[int, int | None] | None = None,
) -> TableReport:
    """The floor confirms a dealer's bust report (with the other reports of its hand: the
    players are out, ranked together) or dismisses it, or marks a floor call done. See
    `tables.services.reports.report_resolve_begin` for `eliminated_by` and `stacks`."""
    # Check (tables): the report and its hand's reports locked, after the tournament.
    resolving = report_resolve_begin(
        report=report, confirm=confirm, eliminated_by=eliminated_by, stacks=stacks
    )
    # Do: the busts confirmed (the command above, from its check to its messages), then the
    # reports resolved, logged and shown (tables).
    if resolving.busts:
        entries_bust(
            tournament=resolving.tournament,
            busts=[BustReport(**b) for b in resolving.busts],
            actor=actor,
        )
    return report_resolve_finish(resolving, actor=actor)
