"""Reads of the cash ledger: the cage report of a tournament and of a day (docs/ledger.md).

The report takes the money from the ledger and what is owed from the tournament's records
(its prize pool, bounties and payments), so a ledger that drifted from the records shows as a
difference instead of being hidden. An event's money is counted once (tournament/domain/
ledger.py, `Reckoning`): each flight holds what was paid there and carries its players' money
to the Day 2, which owes the one pool and pays it out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.domain.ledger import (
    PAYOUT,
    CageReport,
    HouseResult,
    Line,
    Pool,
    Reckoning,
    reckon,
    reckonings_sum,
    report_of,
)
from tournament.models import LedgerLine, Tournament
from tournament.selectors import tournament_numbers


@dataclass(frozen=True)
class Check:
    label: str
    ledger: int
    records: int

    @property
    def ok(self) -> bool:
        return self.ledger == self.records


class _Reckoned:
    """The figures a cage report reads off its reckoning (`reckoning`, a field of each report)."""

    reckoning: Reckoning

    @property
    def report(self) -> CageReport:
        return self.reckoning.report

    @property
    def house(self) -> HouseResult:
        return self.reckoning.house

    @property
    def still_owed(self) -> int:
        return self.reckoning.still_owed

    @property
    def carried_out(self) -> int:
        return self.reckoning.carried_out

    @property
    def carried_in(self) -> int:
        return self.reckoning.carried_in

    @property
    def unexplained(self) -> int:
        return self.reckoning.unexplained


@dataclass
class TournamentCage(_Reckoned):
    """One tournament's cage report. An event's flight has no pool of its own (`pool` None):
    it holds the money paid there and carries its players' money to the Day 2 (`day2`), which
    counts it as carried in, owes the pool and pays it out."""

    tournament: Tournament
    reckoning: Reckoning
    pool: Pool | None
    bounty_pool: int
    paid_records: int
    checks: list[Check] = field(default_factory=list)
    day2: Tournament | None = None

    @property
    def own_contributions(self) -> int:
        """The players' contributions to the pool taken in this tournament's own cage."""
        if self.pool is None:
            return self.carried_out
        return self.pool.contributions - self.carried_in

    @property
    def balanced(self) -> bool:
        return self.unexplained == 0 and all(c.ok for c in self.checks)


def _lines(queryset: object) -> list[Line]:
    return [
        Line(kind, method, amount, prizes, fees)
        for kind, method, amount, prizes, fees in queryset.values_list(  # type: ignore[attr-defined]
            "kind", "method", "amount", "prizes", "fees"
        )
    ]


def tournament_cage(tournament: Tournament, lines: list[Line] | None = None) -> TournamentCage:
    """`lines`: the tournament's ledger lines when the caller has read them already."""
    numbers = tournament_numbers(tournament)
    assert numbers.pool is not None
    if lines is None:
        lines = _lines(LedgerLine.objects.filter(tournament=tournament))
    report = report_of(lines)
    paid = tournament.entries.aggregate(s=Sum("paid_amount"))["s"] or 0
    own_money = numbers.contributions - numbers.carried_in + numbers.bounty_pool
    checks = [
        Check(_("Players' money taken in"), report.prizes_in, own_money),
        Check(_("Fees taken in"), report.fees_in, numbers.fees - numbers.carried_fees),
        Check(_("Paid out to players"), report.paid_out, paid),
    ]
    day2 = None
    if tournament.pool_to_id:
        # A flight: its players' money goes to its event's Day 2, which owes and pays it.
        day2 = Tournament.objects.get(pk=tournament.pool_to_id)
        reckoning = reckon(report, None, paid=paid, carried_out=own_money)
        pool = None
    else:
        if tournament.pooled:
            flights = (
                LedgerLine.objects.filter(tournament__pool_to=tournament)
                .exclude(kind=PAYOUT)
                .aggregate(s=Sum("prizes"))["s"]
            )
            checks.append(Check(_("Carried in from the flights"), flights or 0, numbers.carried_in))
        reckoning = reckon(
            report,
            numbers.pool,
            bounties=numbers.bounty_pool,
            paid=paid,
            carried_in=numbers.carried_in,
        )
        pool = numbers.pool
    return TournamentCage(
        tournament=tournament,
        reckoning=reckoning,
        pool=pool,
        bounty_pool=numbers.bounty_pool,
        paid_records=paid,
        checks=checks,
        day2=day2,
    )


@dataclass
class DayCage(_Reckoned):
    """The tournaments that started on one day (a night past midnight stays on its day), in one
    currency, with their sums."""

    day: date
    currency: str
    tournaments: list[TournamentCage]
    reckoning: Reckoning

    @property
    def balanced(self) -> bool:
        return self.unexplained == 0 and all(t.balanced for t in self.tournaments)


def day_bounds(day: date) -> tuple[datetime, datetime]:
    start = timezone.make_aware(datetime.combine(day, time.min))
    return start, timezone.make_aware(datetime.combine(day + timedelta(days=1), time.min))


def day_tournaments(day: date) -> list[Tournament]:
    start, end = day_bounds(day)
    return list(
        Tournament.objects.filter(starts_at__gte=start, starts_at__lt=end).order_by(
            "starts_at", "pk"
        )
    )


def _cages(tournaments: list[Tournament]) -> list[TournamentCage]:
    """The cage reports of `tournaments`, the ledger read once for all of them."""
    lines: dict[int, list[Line]] = {t.pk: [] for t in tournaments}
    rows = LedgerLine.objects.filter(tournament_id__in=list(lines)).values_list(
        "tournament_id", "kind", "method", "amount", "prizes", "fees"
    )
    for tournament_id, kind, method, amount, prizes, fees in rows:
        lines[tournament_id].append(Line(kind, method, amount, prizes, fees))
    return [tournament_cage(t, lines[t.pk]) for t in tournaments]


def day_cages(day: date) -> list[DayCage]:
    """One report per currency played that day. Each tournament counts as its own report does:
    an event's flight holds its money and carries its players' part to the Day 2, the Day 2
    owes the pool; on a day with both the carried amounts cancel out."""
    by_currency: dict[str, list[TournamentCage]] = {}
    for cage in _cages(day_tournaments(day)):
        by_currency.setdefault(cage.tournament.currency, []).append(cage)
    return [
        DayCage(
            day=day,
            currency=currency,
            tournaments=cages,
            reckoning=reckonings_sum(c.reckoning for c in cages),
        )
        for currency, cages in sorted(by_currency.items())
    ]


@dataclass
class EventCage(_Reckoned):
    """An event's money at once: its flights, then its Day 2. Taken in the flights, carried into
    the one pool, paid out from the Day 2; the house pays the overlay up to the guarantee."""

    day2: Tournament
    parts: list[TournamentCage]
    reckoning: Reckoning

    @property
    def flights(self) -> list[TournamentCage]:
        return self.parts[:-1]

    @property
    def pool(self) -> Pool | None:
        return self.parts[-1].pool

    @property
    def balanced(self) -> bool:
        return self.unexplained == 0 and all(p.balanced for p in self.parts)


def event_cage(tournament: Tournament) -> EventCage | None:
    """The event `tournament` (a flight or a Day 2) belongs to; None for a tournament alone."""
    if tournament.pooled:
        day2 = tournament
    elif tournament.pool_to_id:
        day2 = Tournament.objects.get(pk=tournament.pool_to_id)
    else:
        return None
    flights = list(Tournament.objects.filter(pool_to=day2).order_by("starts_at", "pk"))
    parts = _cages([*flights, day2])
    return EventCage(day2=day2, parts=parts, reckoning=reckonings_sum(p.reckoning for p in parts))


def ledger_lines(tournament_ids: list[int]) -> list[LedgerLine]:
    return list(
        LedgerLine.objects.filter(tournament_id__in=tournament_ids)
        .select_related("tournament", "entry__player")
        .order_by("at", "id")
    )
