"""Reads of the cash ledger: the cage report of a tournament and of a day (docs/ledger.md).

The report takes the money from the ledger and what is owed from the tournament's records
(its prize pool, bounties and payments), so a ledger that drifted from the records shows as a
difference instead of being hidden.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.domain.ledger import (
    CageReport,
    HouseResult,
    Line,
    Pool,
    house_result,
    report_of,
    unexplained,
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


@dataclass
class TournamentCage:
    tournament: Tournament
    report: CageReport
    pool: Pool
    bounty_pool: int
    house: HouseResult
    paid_records: int
    still_owed: int
    unexplained: int
    checks: list[Check] = field(default_factory=list)

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
    house = house_result(report, [numbers.pool])
    paid = tournament.entries.aggregate(s=Sum("paid_amount"))["s"] or 0
    still_owed = numbers.prize_pool + numbers.bounty_pool - paid
    checks = [
        Check(
            _("Players' money taken in"),
            report.prizes_in,
            numbers.contributions + numbers.bounty_pool,
        ),
        Check(_("Fees taken in"), report.fees_in, numbers.fees),
        Check(_("Paid out to players"), report.paid_out, paid),
    ]
    return TournamentCage(
        tournament=tournament,
        report=report,
        pool=numbers.pool,
        bounty_pool=numbers.bounty_pool,
        house=house,
        paid_records=paid,
        still_owed=still_owed,
        unexplained=unexplained(report, house, still_owed),
        checks=checks,
    )


@dataclass
class DayCage:
    """The tournaments that started on one day (a night past midnight stays on its day), in one
    currency, with their sums."""

    day: date
    currency: str
    tournaments: list[TournamentCage]
    report: CageReport
    house: HouseResult
    still_owed: int
    unexplained: int

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


def day_cages(day: date) -> list[DayCage]:
    """One report per currency played that day; the ledger is read once for all of them."""
    tournaments = day_tournaments(day)
    lines: dict[int, list[Line]] = {t.pk: [] for t in tournaments}
    rows = LedgerLine.objects.filter(tournament_id__in=list(lines)).values_list(
        "tournament_id", "kind", "method", "amount", "prizes", "fees"
    )
    for tournament_id, kind, method, amount, prizes, fees in rows:
        lines[tournament_id].append(Line(kind, method, amount, prizes, fees))
    by_currency: dict[str, list[TournamentCage]] = {}
    for t in tournaments:
        by_currency.setdefault(t.currency, []).append(tournament_cage(t, lines[t.pk]))
    days = []
    for currency, cages in sorted(by_currency.items()):
        report = report_of(line for c in cages for line in lines[c.tournament.pk])
        house = house_result(report, [c.pool for c in cages])
        owed = sum(c.still_owed for c in cages)
        days.append(
            DayCage(
                day=day,
                currency=currency,
                tournaments=cages,
                report=report,
                house=house,
                still_owed=owed,
                unexplained=unexplained(report, house, owed),
            )
        )
    return days


def ledger_lines(tournament_ids: list[int]) -> list[LedgerLine]:
    return list(
        LedgerLine.objects.filter(tournament_id__in=tournament_ids)
        .select_related("tournament", "entry__player")
        .order_by("at", "id")
    )
