"""The shot clock of a table and the players' time-bank cards (tables/domain/shotclock.py).

Starting, restarting ("next decision") and stopping the clock happen many times a hand: they
change the table's clock row and tell its tablets and the seating chart, without an event-log
row. A time-bank card used and the cards coming back (a new day, the final table) are recorded
in the event log. Neither rulebook has a shot clock; the called clock (tda-de 29, bdpv NL 12,
`tables/services/timecalls.py`) works beside it.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import Conflict, FloorError
from live.realtime import broadcast_on_commit, console_group
from tables.domain import shotclock as domain
from tables.live import notify_tables
from tables.messages import ShotClockPayload
from tables.models import SeatAssignment, ShotClock, Table, TimeBank
from tables.selectors import shot_clock_of, shot_clock_rules
from tournament.events import Actor, event_record
from tournament.locks import lock_tournament
from tournament.models import Tournament


class StaleTap(Conflict):
    """The tap was made on a view of the shot clock that has changed since (a double tap, or
    another tablet of the table acted first)."""


def _locked_clock(table: Table) -> tuple[Table, ShotClock]:
    """The tournament, the table and its shot clock row, locked (in that order,
    tournament/locks.py); refused when the tournament plays without a shot clock."""
    lock_tournament(table.tournament_id, only=("id",))
    table = (
        Table.objects.select_for_update(no_key=True, of=("self",))
        .select_related("tournament")
        .get(pk=table.pk)
    )
    if not table.tournament.shot_clock:
        raise FloorError(_("This tournament plays without a shot clock."))
    row, _created = ShotClock.objects.get_or_create(table=table)
    row = ShotClock.objects.select_for_update().get(pk=row.pk)
    return table, row


def _stale(row: ShotClock, version: int | None) -> bool:
    return version is not None and version != row.version


def _save(table: Table, row: ShotClock, clock: domain.ShotClock, *, card: bool = False) -> None:
    row.started_at = (
        None
        if clock.started_ms is None
        else datetime.fromtimestamp(clock.started_ms / 1000, tz=timezone.get_current_timezone())
    )
    row.seconds = clock.seconds
    row.seat = clock.seat
    row.cards_used = clock.cards_used
    row.version += 1
    row.save()
    _notify(table, clock, row.version, card=card)


def _notify(table: Table, clock: domain.ShotClock, version: int, *, card: bool) -> None:
    """The table's tablets get their table (with the clock); the seating chart the clock, and
    after a card the table's card too (the cards left changed)."""
    notify_tables(table.tournament_id, [table.pk], console=card)
    payload: ShotClockPayload = {
        "table": table.number,
        "ends_ms": clock.ends_ms,
        "seconds": clock.seconds,
        "version": version,
    }
    broadcast_on_commit(console_group(table.tournament_id), "shot_clock", dict(payload))


def _now_ms(now: datetime | None) -> int:
    return int((now or timezone.now()).timestamp() * 1000)


@transaction.atomic
def shot_clock_start(
    *, table: Table, version: int | None = None, now: datetime | None = None
) -> domain.ShotClock:
    """Start the clock on the decision now due, with the full seconds: from idle, or as the
    next decision while it runs or after the time is up. `version`: the clock's version the
    tablet showed; a tap on an older view does nothing, so a double tap starts once."""
    table, row = _locked_clock(table)
    if _stale(row, version):
        return shot_clock_of(row)
    clock = domain.start(shot_clock_rules(table.tournament), _now_ms(now))
    _save(table, row, clock)
    return clock


@transaction.atomic
def shot_clock_stop(*, table: Table, version: int | None = None) -> None:
    """No decision is timed any more (the hand is over, the table pauses)."""
    table, row = _locked_clock(table)
    if _stale(row, version) or row.started_at is None:
        return
    _save(table, row, domain.stop())


def shot_clock_hand_done(table: Table) -> None:
    """A hand is done: a running clock stops. Call inside the transaction of "hand done"."""
    ShotClock.objects.filter(table=table, started_at__isnull=False).update(
        started_at=None, seconds=0, seat=None, cards_used=0, version=F("version") + 1
    )


@transaction.atomic
def time_bank_use(
    *,
    table: Table,
    seat: int,
    actor: Actor,
    version: int | None = None,
    now: datetime | None = None,
) -> domain.ShotClock:
    """The player in `seat` plays a time-bank card: its seconds are added to the running clock
    and the card is counted against the player's entry (the cards follow the player to another
    table). Refused when the clock is idle or out of time, or the player has no card left, and
    when `version` is not the clock's (`StaleTap`: a double tap uses one card)."""
    table, row = _locked_clock(table)
    if _stale(row, version):
        raise StaleTap(_("The shot clock changed meanwhile; no card was used. Look and tap again."))
    assignment = (
        SeatAssignment.objects.filter(table=table, seat=seat).select_related("entry").first()
    )
    if assignment is None:
        raise FloorError(_("Nobody sits in seat %(s)s.") % {"s": seat})
    entry = assignment.entry
    bank, _created = TimeBank.objects.get_or_create(entry=entry)
    bank = TimeBank.objects.select_for_update().get(pk=bank.pk)
    rules = shot_clock_rules(table.tournament)
    now_ms = _now_ms(now)
    try:
        clock = domain.use_card(shot_clock_of(row), rules, used=bank.used, seat=seat, now_ms=now_ms)
    except domain.NotRunning as exc:
        raise FloorError(_("Start the shot clock first, then use the card.")) from exc
    except domain.TimeIsUp as exc:
        raise FloorError(
            _("The time is up: a time-bank card is used before the shot clock runs out.")
        ) from exc
    except domain.NoCardsLeft as exc:
        raise Conflict(_("Seat %(s)s has no time-bank card left.") % {"s": seat}) from exc
    bank.used += 1
    bank.save(update_fields=["used"])
    left = domain.cards_left(rules, bank.used)
    event_record(
        tournament=table.tournament,
        action="table.time_bank",
        actor=actor,
        payload={
            "table": table.number,
            "seat": seat,
            "entry": entry.number,
            "seconds": rules.card_seconds,
            "left": left,
        },
    )
    _save(table, row, clock, card=True)
    return clock


@transaction.atomic
def time_banks_reset(*, tournament: Tournament, occasion: str, actor: Actor) -> int:
    """Every player's time-bank cards come back: `occasion` "day" (a director starts a new
    day) or "final_table" (the final table is drawn). Refused ("day") or skipped
    ("final_table") when the tournament's setting does not bring them back then. Returns how
    many players had used cards."""
    tournament = lock_tournament(tournament.pk)
    if occasion != "day" and not tournament.shot_clock:
        return 0
    if not domain.resets_on(tournament.time_bank_reset, occasion):
        if occasion == "day":
            raise FloorError(_("This tournament's time-bank cards do not come back each day."))
        return 0
    players = TimeBank.objects.filter(entry__tournament=tournament, used__gt=0).update(used=0)
    event_record(
        tournament=tournament,
        action="time_bank.reset",
        actor=actor,
        payload={"occasion": occasion, "players": players},
    )
    tables = Table.objects.filter(tournament=tournament, is_open=True).values_list("pk", flat=True)
    notify_tables(tournament.pk, list(tables))
    return players
