"""The cash ledger of a tournament day, and the cage report that reconciles it (docs/ledger.md).

Every movement of money at the cage is one line: its amount is signed (above zero money came
in, below zero it went out) and split into the players' money (`prizes`: the prize pool and the
bounties) and the house's (`fees`). Lines are never changed; a correction is a new line.

How a line was paid decides whose money it is:

- cash, card and bank transfer move real money;
- a voucher or a staff comp brings nothing in: the house pays the entry;
- a satellite seat brings nothing in either: the satellite's prize pool paid it, and the
  satellite's payout of that seat leaves no money either.

The report answers three questions for one tournament or a whole day: what came in and went out
per method (what the drawer and the card terminal should show), what the house keeps (fees and
withholding, less what it put in: house contribution, guarantee overlay, comps and vouchers, cash
differences), and whether that reconciles: the real money held equals what the house keeps plus
what is still owed to the players, plus satellite seats given out less those taken in.

An event with starting flights counts its money once (`Reckoning`, `event_reckoning`): each
flight holds what was paid there and carries its players' money to the Day 2's one prize pool;
the Day 2 owes that pool (with the house's overlay up to the guarantee) and pays it out.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

METHODS = ("cash", "card", "transfer", "voucher", "satellite", "comp", "unrecorded")
# Money that really moves (a purchase made before the ledger is taken to have been paid).
REAL = frozenset({"cash", "card", "transfer", "unrecorded"})
HOUSE_PAYS = frozenset({"voucher", "comp"})
SEAT = "satellite"
# What a player may pay with, and what a payout may be paid with.
PURCHASE_METHODS = ("cash", "card", "transfer", "voucher", "satellite", "comp")
PAYOUT_METHODS = ("cash", "transfer", "satellite")

PURCHASE_KINDS = frozenset({"buyin", "reentry", "rebuy", "addon", "refund"})
PAYOUT = "payout"
CORRECTION = "correction"

BASIS_POINTS = 10_000  # 100 %
MAX_WITHHOLDING_BP = 5_000  # a staff fee above half the pool is a typing error


class LedgerError(ValueError):
    """A line or a report that cannot be. `code` names the rule."""

    def __init__(self, code: str, message: str = "") -> None:
        super().__init__(message or code)
        self.code = code


@dataclass(frozen=True)
class Line:
    kind: str
    method: str
    amount: int
    prizes: int = 0
    fees: int = 0


def line_check(line: Line) -> None:
    """A line's parts add up, it moves money, and its method and kind fit each other."""
    if line.method not in METHODS:
        raise LedgerError("method")
    if line.amount == 0:
        raise LedgerError("zero")
    if line.amount != line.prizes + line.fees:
        raise LedgerError("parts")
    if line.kind == PAYOUT and (
        line.fees != 0 or line.method not in (*PAYOUT_METHODS, "unrecorded")
    ):
        raise LedgerError("payout")


def withheld(contributions: int, withholding_bp: int) -> int:
    """The staff fee taken from the players' contributions, rounded down to the cent."""
    if contributions < 0:
        raise LedgerError("contributions")
    if not 0 <= withholding_bp <= MAX_WITHHOLDING_BP:
        raise LedgerError("withholding")
    return contributions * withholding_bp // BASIS_POINTS


@dataclass(frozen=True)
class Pool:
    """How the prize pool is made: the players' contributions, less the staff fee, plus the
    house's contribution, topped up to the guarantee by the overlay (which the house pays)."""

    contributions: int
    withheld: int
    house: int
    guarantee: int
    overlay: int
    total: int


def pool_of(
    contributions: int, *, withholding_bp: int = 0, house: int = 0, guarantee: int = 0
) -> Pool:
    if house < 0 or guarantee < 0:
        raise LedgerError("negative")
    kept = withheld(contributions, withholding_bp)
    before = contributions - kept + house
    overlay = max(guarantee - before, 0)
    return Pool(contributions, kept, house, guarantee, overlay, before + overlay)


def _by_method() -> dict[str, int]:
    return dict.fromkeys(METHODS, 0)


@dataclass
class CageReport:
    """The sums of a set of ledger lines (one tournament, or a day of several)."""

    taken: dict[str, int] = field(default_factory=_by_method)  # purchases less refunds
    paid: dict[str, int] = field(default_factory=_by_method)  # payouts (positive)
    corrected: dict[str, int] = field(default_factory=_by_method)  # correction lines
    prizes_in: int = 0  # the players' money of purchases and refunds
    fees_in: int = 0  # the fees of purchases and refunds
    paid_out: int = 0  # all payouts, whatever the method
    cash_differences: int = 0  # corrections that change the house's money (fees part)
    house_paid_entries: int = 0  # voucher and comp purchases: the house paid these entries
    seats_in: int = 0  # entries paid with a satellite seat
    seats_out: int = 0  # payouts made as a satellite seat
    lines: int = 0

    @property
    def held(self) -> dict[str, int]:
        """Real money per method: what the drawer, the terminal and the bank should show."""
        return {m: self.taken[m] - self.paid[m] + self.corrected[m] for m in METHODS if m in REAL}

    @property
    def held_total(self) -> int:
        return sum(self.held.values())


def report_of(lines: Iterable[Line]) -> CageReport:
    """Sum the lines. Every line is checked: a line that does not add up is refused."""
    report = CageReport()
    for line in lines:
        line_check(line)
        report.lines += 1
        if line.kind == PAYOUT:
            report.paid[line.method] -= line.amount
            report.paid_out -= line.amount
            if line.method == SEAT:
                report.seats_out -= line.amount
        elif line.kind == CORRECTION:
            report.corrected[line.method] += line.amount
            report.cash_differences += line.fees
            report.prizes_in += line.prizes
            if line.method in HOUSE_PAYS:
                report.house_paid_entries += line.amount
            elif line.method == SEAT:
                report.seats_in += line.amount
        else:
            report.taken[line.method] += line.amount
            report.prizes_in += line.prizes
            report.fees_in += line.fees
            if line.method in HOUSE_PAYS:
                report.house_paid_entries += line.amount
            elif line.method == SEAT:
                report.seats_in += line.amount
    return report


@dataclass(frozen=True)
class HouseResult:
    fees: int
    withheld: int
    house_contribution: int
    overlay: int
    house_paid_entries: int
    cash_differences: int

    @property
    def total(self) -> int:
        return (
            self.fees
            + self.withheld
            + self.cash_differences
            - self.house_contribution
            - self.overlay
            - self.house_paid_entries
        )


def house_result(report: CageReport, pools: Iterable[Pool]) -> HouseResult:
    """What the house keeps of the lines in `report`, played for `pools`."""
    pools = list(pools)
    return HouseResult(
        fees=report.fees_in,
        withheld=sum(p.withheld for p in pools),
        house_contribution=sum(p.house for p in pools),
        overlay=sum(p.overlay for p in pools),
        house_paid_entries=report.house_paid_entries,
        cash_differences=report.cash_differences,
    )


def unexplained(
    report: CageReport,
    house: HouseResult,
    still_owed: int,
    *,
    carried_out: int = 0,
    carried_in: int = 0,
) -> int:
    """The money held that nothing explains (0 when the ledger reconciles): the real money
    held, less what the house keeps, less what the players are still owed, less the satellite
    seats given out and plus those taken in (their money sits in another tournament's pool).

    An event's flight carries its players' money to the Day 2's prize pool (`carried_out`): it
    holds that money but owes it to nobody itself. The Day 2 owes the whole pool and holds none
    of what the flights took (`carried_in`)."""
    return (
        report.held_total
        - house.total
        - still_owed
        - carried_out
        + carried_in
        - report.seats_out
        + report.seats_in
    )


def reports_sum(reports: Iterable[CageReport]) -> CageReport:
    """The report of several sets of lines (a day's tournaments, an event's days) at once."""
    total = CageReport()
    for r in reports:
        for m in METHODS:
            total.taken[m] += r.taken[m]
            total.paid[m] += r.paid[m]
            total.corrected[m] += r.corrected[m]
        total.prizes_in += r.prizes_in
        total.fees_in += r.fees_in
        total.paid_out += r.paid_out
        total.cash_differences += r.cash_differences
        total.house_paid_entries += r.house_paid_entries
        total.seats_in += r.seats_in
        total.seats_out += r.seats_out
        total.lines += r.lines
    return total


def houses_sum(houses: Iterable[HouseResult]) -> HouseResult:
    houses = list(houses)
    return HouseResult(
        fees=sum(h.fees for h in houses),
        withheld=sum(h.withheld for h in houses),
        house_contribution=sum(h.house_contribution for h in houses),
        overlay=sum(h.overlay for h in houses),
        house_paid_entries=sum(h.house_paid_entries for h in houses),
        cash_differences=sum(h.cash_differences for h in houses),
    )


@dataclass(frozen=True)
class Reckoning:
    """One cage report's account of the money: what it holds (`report`), what the house keeps,
    the prizes it pays from (`prizes`: its pool and bounties; 0 for an event's flight, whose
    players' money is `carried_out` to the Day 2), what it has paid and what it still owes.

    A tournament of its own pays its own pool. An event counts its money once: each flight
    holds what was paid there and carries its players' money to the Day 2; the Day 2 counts
    it as `carried_in`, adds the house's overlay up to the guarantee, pays the places and owes
    the rest. Summed over the event (or a day) the carried amounts cancel out."""

    report: CageReport
    house: HouseResult
    prizes: int
    paid: int
    carried_out: int = 0
    carried_in: int = 0

    @property
    def still_owed(self) -> int:
        return self.prizes - self.paid

    @property
    def unexplained(self) -> int:
        return unexplained(
            self.report,
            self.house,
            self.still_owed,
            carried_out=self.carried_out,
            carried_in=self.carried_in,
        )


def reckon(
    report: CageReport,
    pool: Pool | None,
    *,
    bounties: int = 0,
    paid: int = 0,
    carried_out: int = 0,
    carried_in: int = 0,
) -> Reckoning:
    """The reckoning of one tournament's lines; `pool` None for an event's flight (it pays no
    prizes of its own: its players' money goes to the Day 2's pool)."""
    if pool is None and (bounties or carried_in):
        raise LedgerError("flight")
    return Reckoning(
        report=report,
        house=house_result(report, [pool] if pool is not None else []),
        prizes=(pool.total if pool is not None else 0) + bounties,
        paid=paid,
        carried_out=carried_out,
        carried_in=carried_in,
    )


def reckonings_sum(parts: Iterable[Reckoning]) -> Reckoning:
    """Several reckonings as one: a day's tournaments, or an event's flights and its Day 2."""
    parts = list(parts)
    return Reckoning(
        report=reports_sum(p.report for p in parts),
        house=houses_sum(p.house for p in parts),
        prizes=sum(p.prizes for p in parts),
        paid=sum(p.paid for p in parts),
        carried_out=sum(p.carried_out for p in parts),
        carried_in=sum(p.carried_in for p in parts),
    )


def event_reckoning(
    flights: Iterable[Iterable[Line]],
    day2: Iterable[Line],
    *,
    withholding_bp: int = 0,
    house: int = 0,
    guarantee: int = 0,
    paid: int = 0,
) -> list[Reckoning]:
    """An event's money from its lines: one reckoning per flight, then the Day 2's. Each flight
    carries the players' money it took to the one prize pool; the Day 2 counts those with its
    own, withholds the staff fee, adds the house's contribution and the overlay up to the
    guarantee, and owes that pool less what it has `paid`."""
    parts = []
    for lines in flights:
        report = report_of(lines)
        parts.append(reckon(report, None, carried_out=report.prizes_in))
    own = report_of(day2)
    carried = sum(p.carried_out for p in parts)
    pool = pool_of(
        carried + own.prizes_in, withholding_bp=withholding_bp, house=house, guarantee=guarantee
    )
    parts.append(reckon(own, pool, paid=paid, carried_in=carried))
    return parts
