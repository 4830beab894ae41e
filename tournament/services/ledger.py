"""Writes to the cash ledger (docs/ledger.md): a line for every purchase, refund and payout,
written in the transaction of the change it records, and the corrections a director makes.

Lines are never changed or deleted (tournament.models.LedgerLine refuses it); a correction is a
new line, event-logged with its reason.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from django.db import transaction
from django.db.models import Sum
from django.utils.translation import gettext as _

from core.errors import FloorError
from tournament.domain.ledger import (
    PAYOUT_METHODS,
    PURCHASE_METHODS,
    LedgerError,
    Line,
    line_check,
)
from tournament.events import Actor, event_record
from tournament.locks import lock_tournament
from tournament.models import (
    Entry,
    LedgerKind,
    LedgerLine,
    PaymentMethod,
    Purchase,
    Tournament,
)


def _names(methods: Sequence[str]) -> str:
    labels = dict(PaymentMethod.choices)
    return ", ".join(str(labels[m]) for m in methods)


def purchase_method(text: object) -> str:
    """How a purchase was paid, as typed or sent; a clear error when missing or unknown."""
    method = str(text or "").strip().lower()
    if method not in PURCHASE_METHODS:
        raise FloorError(
            _("Say how it was paid: %(methods)s.") % {"methods": _names(PURCHASE_METHODS)},
            code="payment_method",
        )
    return method


def payout_method(text: object) -> str:
    method = str(text or "").strip().lower()
    if method not in PAYOUT_METHODS:
        raise FloorError(
            _("Say how it was paid out: %(methods)s.") % {"methods": _names(PAYOUT_METHODS)},
            code="payment_method",
        )
    return method


def _line(**fields: object) -> LedgerLine:
    line = LedgerLine(**fields)
    try:
        line_check(Line(line.kind, line.method, line.amount, line.prizes, line.fees))
    except LedgerError as exc:
        raise FloorError(_("This ledger line does not balance."), code="ledger") from exc
    return line


def purchase_recorded(
    *, purchase: Purchase, tournament: Tournament, method: str, actor: Actor
) -> None:
    """The money of a purchase came in (call inside the purchase's transaction)."""
    total = purchase.price + purchase.fee
    if total == 0:
        return  # a free entry moves no money
    _line(
        tournament=tournament,
        entry_id=purchase.entry_id,
        purchase=purchase,
        kind=purchase.kind,
        method=method,
        amount=total,
        prizes=purchase.price,
        fees=purchase.fee,
        recorded_by=actor.label[:120],
    ).save()


def _net_by_purchase(purchase_ids: Iterable[int]) -> dict[tuple[int, str], tuple[int, int]]:
    """What each purchase's lines hold now, per method: (players' money, fees)."""
    rows = (
        LedgerLine.objects.filter(purchase_id__in=list(purchase_ids))
        .values("purchase_id", "method")
        .annotate(prizes=Sum("prizes"), fees=Sum("fees"))
    )
    return {(r["purchase_id"], r["method"]): (r["prizes"], r["fees"]) for r in rows}


def purchases_refunded(
    *, purchases: Sequence[Purchase], tournament: Tournament, actor: Actor, note: str = ""
) -> int:
    """The money of these purchases went back, by the way each was paid. Returns the amount."""
    lines = []
    for (purchase_id, method), (prizes, fees) in sorted(
        _net_by_purchase(p.pk for p in purchases).items()
    ):
        if prizes + fees == 0:
            continue
        entry_id = next(p.entry_id for p in purchases if p.pk == purchase_id)
        lines.append(
            _line(
                tournament=tournament,
                entry_id=entry_id,
                purchase_id=purchase_id,
                kind=LedgerKind.REFUND,
                method=method,
                amount=-(prizes + fees),
                prizes=-prizes,
                fees=-fees,
                note=note[:200],
                recorded_by=actor.label[:120],
            )
        )
    LedgerLine.objects.bulk_create(lines)
    return -sum(line.amount for line in lines)


def refunds_taken_back(
    *, purchases: Sequence[Purchase], tournament: Tournament, actor: Actor, note: str = ""
) -> None:
    """A refund undone (a void taken back): a purchase whose lines hold nothing now takes its
    money in again, by the methods its refund went out with."""
    by_purchase = {p.pk: p for p in purchases}
    held: dict[int, int] = defaultdict(int)
    for (purchase_id, _method), (prizes, fees) in _net_by_purchase(by_purchase).items():
        held[purchase_id] += prizes + fees
    refunds = (
        LedgerLine.objects.filter(purchase_id__in=list(by_purchase), kind=LedgerKind.REFUND)
        .values("purchase_id", "method")
        .annotate(prizes=Sum("prizes"), fees=Sum("fees"))
        .order_by("purchase_id", "method")
    )
    lines = [
        _line(
            tournament=tournament,
            entry_id=by_purchase[r["purchase_id"]].entry_id,
            purchase_id=r["purchase_id"],
            kind=by_purchase[r["purchase_id"]].kind,
            method=r["method"],
            amount=-(r["prizes"] + r["fees"]),
            prizes=-r["prizes"],
            fees=-r["fees"],
            note=note[:200],
            recorded_by=actor.label[:120],
        )
        for r in refunds
        if held[r["purchase_id"]] == 0 and r["prizes"] + r["fees"] != 0
    ]
    LedgerLine.objects.bulk_create(lines)


def payout_recorded(*, entry: Entry, amount: int, method: str, actor: Actor) -> None:
    """Money paid out to an entry (above zero) or collected back from it (below zero)."""
    if amount == 0:
        return
    _line(
        tournament_id=entry.tournament_id,
        entry=entry,
        kind=LedgerKind.PAYOUT,
        method=method,
        amount=-amount,
        prizes=-amount,
        fees=0,
        recorded_by=actor.label[:120],
    ).save()


def _reason(text: object) -> str:
    reason = " ".join(str(text or "").split())[:200]
    if not reason:
        raise FloorError(_("Give the reason for the correction."), code="reason")
    return reason


@transaction.atomic
def method_change(
    *, tournament: Tournament, line_id: int, method: str, reason: str, actor: Actor
) -> list[LedgerLine]:
    """A line was paid another way than recorded (card, not cash): two new lines take it off
    the recorded method and put it on the right one. The line itself stays as it was."""
    lock_tournament(tournament.pk)
    reason = _reason(reason)
    line = LedgerLine.objects.filter(pk=line_id, tournament=tournament).first()
    if line is None:
        raise FloorError(_("There is no such ledger line in this tournament."))
    payout = line.kind == LedgerKind.PAYOUT
    method = payout_method(method) if payout else purchase_method(method)
    if method == line.method:
        raise FloorError(_("The line was recorded with this method already."))
    kind = LedgerKind.PAYOUT if payout else LedgerKind.CORRECTION
    common = {
        "tournament": tournament,
        "entry_id": line.entry_id,
        "purchase_id": line.purchase_id,
        "kind": kind,
        "corrects": line,
        "note": reason,
        "recorded_by": actor.label[:120],
    }
    pair = [
        _line(
            method=line.method, amount=-line.amount, prizes=-line.prizes, fees=-line.fees, **common
        ),
        _line(method=method, amount=line.amount, prizes=line.prizes, fees=line.fees, **common),
    ]
    LedgerLine.objects.bulk_create(pair)
    event_record(
        tournament=tournament,
        action="ledger.method_change",
        actor=actor,
        payload={"line": line.pk, "from": line.method, "to": method, "amount": line.amount},
    )
    return pair


@transaction.atomic
def cash_difference(
    *, tournament: Tournament, amount: int, method: str, reason: str, actor: Actor
) -> LedgerLine:
    """The count of the drawer (or the terminal) differs from the ledger: the difference is
    recorded as the house's money, above zero when there is more than recorded."""
    lock_tournament(tournament.pk)
    reason = _reason(reason)
    method = purchase_method(method)
    if method not in ("cash", "card", "transfer"):
        raise FloorError(_("A counted difference is in cash, on the card terminal or the bank."))
    if amount == 0:
        raise FloorError(_("Enter the difference: above zero when more was counted."))
    line = _line(
        tournament=tournament,
        kind=LedgerKind.CORRECTION,
        method=method,
        amount=amount,
        prizes=0,
        fees=amount,
        note=reason,
        recorded_by=actor.label[:120],
    )
    line.save()
    event_record(
        tournament=tournament,
        action="ledger.difference",
        actor=actor,
        payload={"line": line.pk, "method": method, "amount": amount},
    )
    return line
