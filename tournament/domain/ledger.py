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


def unexplained(report: CageReport, house: HouseResult, still_owed: int) -> int:
    """The money held that nothing explains (0 when the ledger reconciles): the real money
    held, less what the house keeps, less what the players are still owed, less the satellite
    seats given out and plus those taken in (their money sits in another tournament's pool)."""
    return report.held_total - house.total - still_owed - report.seats_out + report.seats_in
