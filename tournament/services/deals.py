"""Final-table deals and the payout desk."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.errors import FloorError
from core.figures import chips, money
from core.reasons import reason_text
from tournament.domain.collation import name_key
from tournament.domain.deals import DealError, DealProposal, propose
from tournament.events import Actor, event_record
from tournament.live import notify_board
from tournament.locks import lock_tournament
from tournament.models import Deal, DealShare, Entry, EntryStatus, Status, Tournament
from tournament.selectors import payout_amounts, tournament_numbers
from tournament.services import ledger

MAX_DEAL_PLAYERS = 10


@dataclass(frozen=True)
class DealInput:
    stacks: Mapping[int, int]  # entry id -> chips
    unit: int = 100
    play_for: int = 0
    chips_in_play: int | None = None


def players_left(tournament: Tournament) -> list[Entry]:
    return list(
        tournament.entries.filter(status=EntryStatus.ACTIVE)
        .select_related("player")
        .order_by("number")
    )


def open_prizes(tournament: Tournament) -> list[int]:
    """The prizes of the places still to be decided, best first."""
    left = tournament.entries.filter(status=EntryStatus.ACTIVE).count()
    payouts = payout_amounts(tournament)
    return [payouts[i] if i < len(payouts) else 0 for i in range(left)]


def _check(tournament: Tournament, data: DealInput) -> list[Entry]:
    if tournament.status not in (Status.RUNNING, Status.FINAL_TABLE):
        raise FloorError(_("A deal is made while the tournament is running."))
    if tournament.deals.exists():
        raise FloorError(_("This tournament has a deal already."))
    entries = players_left(tournament)
    if not 2 <= len(entries) <= MAX_DEAL_PLAYERS:
        raise FloorError(_("A deal needs 2 to %(n)s players left.") % {"n": MAX_DEAL_PLAYERS})
    if set(data.stacks) != {e.pk for e in entries}:
        raise FloorError(_("Enter a stack for every player left, and only for them."))
    return entries


# The deal domain's other reasons (tournament/domain/deals.py), in the reader's words.
DEAL_REASONS = {
    "the rounding unit must be at least 1": gettext_lazy("round to at least 1 cent."),
    "the shares do not add up to the total": gettext_lazy("the shares do not add up to the total."),
    "a deal needs at least two players": gettext_lazy("a deal needs at least two players."),
    "a stack cannot be negative": gettext_lazy("a stack cannot be negative."),
    "there are no chips in play": gettext_lazy("there are no chips in play."),
    "a prize cannot be negative": gettext_lazy("a prize cannot be negative."),
    "prizes must not rise from one place to the next": gettext_lazy(
        "the prizes must not rise from one place to the next."
    ),
}
DEAL_PATTERNS = [
    (
        re.compile(r"ICM is computed exactly for up to (?P<n>\d+) players"),
        gettext_lazy("ICM is computed for at most %(n)s players."),
    ),
    (re.compile(r"unknown deal method '(?P<m>.*)'"), gettext_lazy("unknown method “%(m)s”.")),
]


def _deal_error(exc: DealError, currency: str) -> str:
    p = exc.params
    if exc.code == "stacks_sum":
        return _(
            "The deal does not work: the stacks add up to %(s)s chips, but %(c)s are in play."
        ) % {"s": chips(p["stacks"]), "c": chips(p["chips"])}
    if exc.code == "play_for":
        return _(
            "The deal does not work: leave between 0 and %(m)s (first minus second prize) to "
            "play for."
        ) % {"m": money(p["most"], currency)}
    if exc.code == "custom_sum":
        return _("The custom split adds up to %(a)s, but %(t)s is to be shared.") % {
            "a": money(p["amounts"], currency),
            "t": money(p["total"], currency),
        }
    if exc.code in ("custom_missing", "custom_negative"):
        return _("Enter a custom share (0 or more) for every player.")
    return _("The deal does not work: %(reason)s") % {
        "reason": reason_text(exc, DEAL_REASONS, DEAL_PATTERNS)
    }


def deal_proposals(
    tournament: Tournament, data: DealInput, custom: Mapping[int, int] | None = None
) -> tuple[list[Entry], dict[str, DealProposal]]:
    """ICM and chip chop (and the custom split, when given) side by side."""
    entries = _check(tournament, data)
    stacks = [data.stacks[e.pk] for e in entries]
    prizes = open_prizes(tournament)
    out: dict[str, DealProposal] = {}
    try:
        for method in ("icm", "chip_chop"):
            out[method] = propose(
                method,
                stacks,
                prizes,
                unit=data.unit,
                play_for=data.play_for,
                chips_in_play=data.chips_in_play,
            )
        if custom:
            out["custom"] = propose(
                "custom",
                stacks,
                prizes,
                unit=data.unit,
                play_for=data.play_for,
                custom=[custom.get(e.pk, 0) for e in entries],
                chips_in_play=data.chips_in_play,
            )
    except DealError as exc:
        raise FloorError(_deal_error(exc, tournament.currency)) from exc
    return entries, out


@transaction.atomic
def deal_record(
    *,
    tournament: Tournament,
    data: DealInput,
    method: str,
    consents: Sequence[int],
    actor: Actor,
    custom: Mapping[int, int] | None = None,
) -> Deal:
    """Record the deal every player agreed to. From now on each player's prize is their share;
    the winner also gets what was left to play for. Recorded money never changes silently:
    there is one deal per tournament and it is in the event log."""
    tournament = lock_tournament(tournament.pk, key=True)
    entries, proposals = deal_proposals(tournament, data, custom)
    if method not in proposals:
        raise FloorError(_("Choose ICM, chip chop or a custom split with amounts."))
    missing = [e.number for e in entries if e.pk not in set(consents)]
    if missing:
        raise FloorError(
            _("Every player must agree. Missing: %(n)s")
            % {"n": ", ".join(f"#{n}" for n in missing)}
        )
    proposal = proposals[method]
    deal = Deal.objects.create(
        tournament=tournament,
        method=method,
        play_for=proposal.play_for,
        unit=data.unit,
        total=proposal.total,
        recorded_by=actor.label[:120],
    )
    DealShare.objects.bulk_create(
        DealShare(deal=deal, entry=e, stack=data.stacks[e.pk], amount=a, consented=True)
        for e, a in zip(entries, proposal.amounts, strict=True)
    )
    event_record(
        tournament=tournament,
        action="deal.record",
        actor=actor,
        payload={
            "deal": deal.pk,
            "method": method,
            "play_for": proposal.play_for,
            "shares": [
                {"entry": e.pk, "number": e.number, "stack": data.stacks[e.pk], "amount": a}
                for e, a in zip(entries, proposal.amounts, strict=True)
            ],
        },
    )
    notify_board(tournament.pk, "deal")
    return deal


def deal_prizes(tournament: Tournament) -> tuple[dict[int, int], int] | None:
    """Entry id -> agreed share, and the amount left to play for; None without a deal."""
    deal = tournament.deals.first()
    if deal is None:
        return None
    return dict(deal.shares.values_list("entry_id", "amount")), deal.play_for


# --- Payout desk -----------------------------------------------------------------------------


def amount_owed(entry: Entry) -> int:
    """What the entry is owed in all: its prize once it has finished (before that, a share
    agreed in a deal, which is already certain), plus the bounties it has won."""
    share = getattr(entry, "deal_share", None)
    if entry.prize > 0 or share is None:
        return entry.prize + entry.bounties_won
    return share.amount + entry.bounties_won


def owed(tournament: Tournament) -> list[Entry]:
    """Everyone owed money (a prize, an agreed deal share or bounties) or paid some, best place
    first (a shared place in German order of the names). Each entry carries `owed` (in all) and `open` (not paid yet; below zero when more was
    paid than is owed now, after an undone bust: a correction to collect back)."""
    rows = list(
        tournament.entries.filter(
            Q(prize__gt=0)
            | Q(deal_share__isnull=False)
            | Q(bounties_won__gt=0)
            | Q(paid_amount__gt=0)
        )
        .select_related("player", "deal_share")
        .order_by(F("place").asc(nulls_first=True), "number")
    )
    rows.sort(key=lambda e: (e.place is not None, e.place or 0, name_key(e.player.name)))
    for e in rows:
        e.owed = amount_owed(e)  # type: ignore[attr-defined]
        e.open = e.owed - e.paid_amount  # type: ignore[attr-defined]
        e.collect = max(-e.open, 0)  # type: ignore[attr-defined]
    return rows


@transaction.atomic
def prize_paid(
    *, tournament: Tournament, entry_id: int, actor: Actor, method: str = "cash"
) -> Entry:
    """Pay what is open to the entry, by `method` (recorded in the cash ledger). A player paid
    their deal share while still in play and who then wins what was left to play for is paid
    the difference later, as a new event."""
    method = ledger.payout_method(method)
    lock_tournament(tournament.pk, only=("id",))
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("deal_share")
        .filter(pk=entry_id, tournament=tournament)
        .first()
    )
    total = amount_owed(entry) if entry is not None else 0
    if entry is None or total <= 0:
        raise FloorError(_("Nothing is owed to this entry."))
    amount = total - entry.paid_amount
    if amount <= 0:
        raise FloorError(_("This prize has been paid already."))
    entry.paid_amount = total
    entry.paid_at = timezone.now()
    entry.paid_by = actor.label[:120]
    entry.save(update_fields=["paid_amount", "paid_at", "paid_by"])
    ledger.payout_recorded(entry=entry, amount=amount, method=method, actor=actor)
    event_record(
        tournament=tournament,
        action="payout.paid",
        actor=actor,
        payload={
            "entry": entry.pk,
            "number": entry.number,
            "amount": amount,
            "total": total,
            "method": method,
        },
    )
    return entry


@transaction.atomic
def payment_collected(
    *, tournament: Tournament, entry_id: int, actor: Actor, method: str = "cash"
) -> Entry:
    """Money paid too much (a bust undone after the payout, a correction that lowered a prize)
    came back to the cage: the entry's payment goes down to what it is owed now."""
    method = ledger.payout_method(method)
    lock_tournament(tournament.pk, only=("id",))
    entry = (
        Entry.objects.select_for_update(of=("self",))
        .select_related("deal_share")
        .filter(pk=entry_id, tournament=tournament)
        .first()
    )
    if entry is None:
        raise FloorError(_("There is no such entry in this tournament."))
    back = entry.paid_amount - max(amount_owed(entry), 0)
    if back <= 0:
        raise FloorError(_("Nothing was paid too much to this entry."))
    entry.paid_amount -= back
    entry.save(update_fields=["paid_amount"])
    ledger.payout_recorded(entry=entry, amount=-back, method=method, actor=actor)
    event_record(
        tournament=tournament,
        action="payout.collected",
        actor=actor,
        payload={"entry": entry.pk, "number": entry.number, "amount": back, "method": method},
    )
    return entry


def desk_totals(tournament: Tournament) -> dict[str, int]:
    rows = owed(tournament)
    return {
        "owed": sum(e.owed for e in rows),  # type: ignore[attr-defined]
        "paid": sum(e.paid_amount for e in rows),
        "open": sum(max(e.open, 0) for e in rows),  # type: ignore[attr-defined]
        "to_collect": sum(max(-e.open, 0) for e in rows),  # type: ignore[attr-defined]
        "pool": tournament_numbers(tournament).prize_pool,
    }
