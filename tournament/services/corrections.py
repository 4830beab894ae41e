"""Corrections at the desk, at any time (also while the clock runs): void a wrong registration,
change the person on an entry, fix a misspelt name, move a purchase to the entry it belongs to.

Each correction is one transaction and one `correction.*` event whose payload holds what the
undo needs; `correction_undo` restores the state before it exactly, or refuses (saying why)
when later changes make that impossible. An undo is itself recorded (`correction.undo`), and a
correction is undone at most once.

A voided registration leaves the field as if it had never played: no place, no prize, not
counted in the entries or the players left, its seat freed; its money is refunded (out of the
prize pool) or moved to another entry. Places, payouts and the average stack follow from the
counts the database keeps (tournament/counters.py), as after an unregistration before the start;
finishes recorded so far are renumbered (`places_renumber`) and, once the field is final, get
the prizes of their new places. Money already paid is handled as an undone bust handles it: the
correction is refused unless `correct_payments` is set, and then the payout desk shows the
difference as a correction to collect (a `payout.correction` event).

A void and its undo free or give back a seat and move an alternate: those are commands across
apps (actions/corrections.py), which call the steps here (`entry_void_check`, `entry_void_apply`,
`entry_void_record`; `correction_undo_check`, `void_undo_check`, ...) around the tables' part.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from core.errors import FloorError
from tournament.events import Actor, event_record
from tournament.field import field_is_final
from tournament.live import notify_board
from tournament.locks import lock_tournament
from tournament.models import (
    Entry,
    EntryStatus,
    Event,
    Player,
    Purchase,
    PurchaseKind,
    Status,
    Tournament,
)
from tournament.selectors import event_renumbered
from tournament.services import ledger
from tournament.services.eliminations import prizes_changed, prizes_write
from tournament.services.registration import (
    Promoted,
    _default_display_name,
    places_renumber,
    player_create,
)

VOID = "correction.void"
PERSON = "correction.person"
NAME = "correction.name"
MONEY = "correction.money"
UNDO = "correction.undo"
CORRECTIONS = (VOID, PERSON, NAME, MONEY)

_COUNTED = (EntryStatus.ACTIVE, EntryStatus.BUSTED)


def _entry_by_number(tournament: Tournament, number: int | None) -> Entry:
    entry = (
        Entry.objects.select_for_update()
        .select_related("player")
        .filter(tournament=tournament, number=number or 0)
        .first()
    )
    if entry is None:
        raise FloorError(_("There is no entry #%(n)s in this tournament.") % {"n": number})
    return entry


def _live_entry_of(tournament: Tournament, player_id: int, *, besides: int) -> Entry | None:
    return (
        tournament.entries.filter(
            player_id=player_id, status__in=[EntryStatus.ACTIVE, EntryStatus.ALTERNATE]
        )
        .exclude(pk=besides)
        .first()
    )


def _money_follows_field(tournament: Tournament, *, correct_payments: bool) -> list[dict[str, int]]:
    """The field changed size: renumber the finishes recorded so far and, once the field is
    final, give them the prizes of their new places. A prize already paid that would change
    refuses the correction unless `correct_payments` is set. Returns the paid entries whose
    prize changed (for a `payout.correction` event)."""

    places_renumber(tournament)
    fresh = Tournament.objects.get(pk=tournament.pk)
    if not field_is_final(fresh):
        return []
    changed = prizes_changed(fresh)
    paid = [e for e in changed if e.paid_amount > 0]
    if paid and not correct_payments:
        raise FloorError(
            _(
                "This changes prizes that have been paid already (%(who)s). Going on turns that "
                "payment into a correction at the payout desk: confirm to go on."
            )
            % {"who": ", ".join(f"#{e.number}" for e in sorted(paid, key=lambda x: x.number))},
            code="paid",
        )
    prizes_write(changed)
    return [{"entry": e.pk, "number": e.number, "paid": e.paid_amount} for e in paid]


def _payout_correction(
    tournament: Tournament, actor: Actor, event: Event, paid: list[dict[str, int]]
) -> None:
    if paid:
        event_record(
            tournament=tournament,
            action="payout.correction",
            actor=actor,
            payload={"correction": event.pk, "entries": paid},
        )


# --- Void a registration ----------------------------------------------------------------


def _not_carried(tournament: Tournament) -> None:
    """A Day 2's entries are the bags its flights' closed days carried in (festivals): their
    registration, person and money are corrected in the flight, whose reopened day carries the
    bag again. Only the spelling of a name is fixed here (it is the person's, everywhere)."""
    if tournament.pooled:
        raise FloorError(
            _(
                "This entry is a bag carried from a flight: correct its registration, person "
                "or money in that flight."
            ),
            code="day2_entry",
        )


@dataclass
class Void:
    """A void checked under the tournament's lock (`entry_void_check`), then written: the
    money (`entry_void_apply`), and after the other apps' part the places, prizes and event
    (`entry_void_record`)."""

    tournament: Tournament
    entry: Entry
    target: Entry | None
    purchases: list[int] = field(default_factory=list)
    amount: int = 0
    status_before: str = ""
    position_before: int | None = None

    @property
    def was_active(self) -> bool:
        return self.status_before == EntryStatus.ACTIVE


def entry_void_check(*, entry: Entry, move_to: int | None = None) -> Void:
    """Lock the tournament and refuse (FloorError) a void that cannot be: the tournament has
    ended, the entry is out or not registered, a deal was made, it won bounties, it would end
    the tournament without a winner, or `move_to` names no entry in the field."""
    tournament = lock_tournament(entry.tournament_id, key=True)
    _not_carried(tournament)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if tournament.status == Status.FINISHED:
        raise FloorError(
            _("The tournament has ended: the director reopens it before a registration is voided.")
        )
    if entry.status == EntryStatus.BUSTED:
        raise FloorError(
            _("#%(n)s is out already: undo that bust first, then void the registration.")
            % {"n": entry.number}
        )
    if entry.status == EntryStatus.UNREGISTERED:
        raise FloorError(_("#%(n)s is not registered.") % {"n": entry.number})
    if tournament.deals.exists():
        raise FloorError(_("A deal was made on this prize pool: no registration can be voided."))
    if entry.bounties_won:
        raise FloorError(
            _("#%(n)s has won bounties: undo those busts first.") % {"n": entry.number}
        )
    if entry.hits:  # a voided entry's knock-outs would be lost to the league's `h`
        raise FloorError(
            _("#%(n)s has knocked players out: undo those busts first.") % {"n": entry.number}
        )
    if (
        entry.status == EntryStatus.ACTIVE
        and tournament.status in (Status.RUNNING, Status.FINAL_TABLE)
        and tournament.players_left <= 2
        and tournament.entries_counted > tournament.players_left
    ):
        raise FloorError(_("Only two players are left: the tournament would end without a winner."))
    target = None
    if move_to is not None:
        target = _entry_by_number(tournament, move_to)
        if target.pk == entry.pk:
            raise FloorError(_("Choose another entry to move the money to."))
        if target.status not in _COUNTED:
            raise FloorError(
                _("#%(n)s is not in the field: money can only move to an entry that plays.")
                % {"n": target.number}
            )
    return Void(tournament=tournament, entry=entry, target=target)


def entry_void_apply(void: Void, *, actor: Actor) -> None:
    """The voided registration's money is refunded, or booked on the target entry; the entry
    leaves the field. Its seat is the tables app's (actions/corrections.py)."""
    tournament, entry, target = void.tournament, void.entry, void.target
    purchases = list(entry.purchases.filter(refunded=False).order_by("pk"))
    void.amount = sum(p.price + p.fee for p in purchases)
    void.purchases = [p.pk for p in purchases]
    if target is not None:
        Purchase.objects.filter(pk__in=void.purchases).update(entry=target)
    else:
        Purchase.objects.filter(pk__in=void.purchases).update(refunded=True)
        ledger.purchases_refunded(purchases=purchases, tournament=tournament, actor=actor)
    void.status_before = entry.status
    void.position_before = entry.alternate_position
    entry.status = EntryStatus.UNREGISTERED
    entry.alternate_position = None
    entry.save(update_fields=["status", "alternate_position"])


def entry_void_record(
    void: Void,
    *,
    actor: Actor,
    seat: dict[str, Any] | None,
    promoted: Promoted | None,
    correct_payments: bool,
) -> Event:
    """After the seat was freed (`seat`, as the undo gives it back) and an alternate took the
    place (`promoted`): places and prizes follow the field (refused when paid prizes would
    change, unless `correct_payments`), and the correction is logged. Returns its event."""
    tournament, entry, target = void.tournament, void.entry, void.target
    paid = _money_follows_field(tournament, correct_payments=correct_payments)
    event = event_record(
        tournament=tournament,
        action=VOID,
        actor=actor,
        payload={
            "entry": entry.pk,
            "number": entry.number,
            "player": entry.player_id,
            "status": void.status_before,
            "alternate_position": void.position_before,
            "purchases": void.purchases,
            "amount": void.amount,
            "refunded": target is None,
            "moved_to": {"entry": target.pk, "number": target.number} if target else None,
            "seat": seat,
            "promoted": {
                "entry": promoted.entry.pk,
                "number": promoted.entry.number,
                "alternate_position": promoted.alternate_position,
            }
            if promoted
            else None,
            "payments_corrected": paid,
        },
    )
    return event


def entry_void_told(void: Void, event: Event, *, actor: Actor) -> None:
    """After the void's event: the paid prizes it changed go to the payout desk as a
    correction to collect, and the board is told."""
    paid = event.payload["payments_corrected"]
    _payout_correction(void.tournament, actor, event, paid)
    notify_board(void.tournament.pk, "entries")


@dataclass
class VoidUndo:
    """An undo of a void checked by `void_undo_check` (the seat's check is the tables app's)."""

    event: Event
    entry: Entry
    purchases: list[Purchase]
    back: Entry | None  # the alternate who took the place and goes back into the line

    @property
    def seat(self) -> dict[str, Any] | None:
        seat: dict[str, Any] | None = self.event.payload.get("seat")
        return seat


def void_undo_check(tournament: Tournament, event: Event) -> VoidUndo:
    """Refuse (FloorError) an undo of a void that later changes make impossible: the
    tournament ended, the entry is registered again or its player plays another, registration
    closed on an alternate, its money changed, the alternate who took the place is out."""
    p = event.payload
    entry = Entry.objects.select_for_update().get(pk=p["entry"], tournament=tournament)
    if tournament.status == Status.FINISHED:
        raise FloorError(
            _("The tournament has ended: the director reopens it before a void is undone.")
        )
    if entry.status != EntryStatus.UNREGISTERED:
        raise FloorError(_("#%(n)s is registered again.") % {"n": entry.number})
    other = _live_entry_of(tournament, entry.player_id, besides=entry.pk)
    if other is not None:
        raise FloorError(_("The player has another live entry now (#%(n)s).") % {"n": other.number})
    if p["status"] == EntryStatus.ALTERNATE and tournament.registration_closed_at is not None:
        raise FloorError(_("Registration has closed since: the alternate cannot wait again."))
    purchases = list(Purchase.objects.select_for_update().filter(pk__in=p["purchases"]))
    moved = p.get("moved_to")
    expected_entry = moved["entry"] if moved else entry.pk
    if len(purchases) != len(p["purchases"]) or any(
        x.entry_id != expected_entry or x.refunded != (moved is None) for x in purchases
    ):
        raise FloorError(_("The money of this registration has been changed since."))
    back = None
    if p.get("promoted"):
        back = Entry.objects.select_for_update().get(pk=p["promoted"]["entry"])
        if back.status != EntryStatus.ACTIVE:
            raise FloorError(
                _("Alternate #%(n)s, who took the place, is not in play any more.")
                % {"n": back.number}
            )
    return VoidUndo(event=event, entry=entry, purchases=purchases, back=back)


def void_undo_apply(tournament: Tournament, undo: VoidUndo, *, actor: Actor) -> None:
    """The alternate who took the place waits again where it waited, the money comes back to
    the entry, the entry is in the field again as it was. Seats are the tables app's."""
    p = undo.event.payload
    back, entry = undo.back, undo.entry
    if back is not None:
        back.status = EntryStatus.ALTERNATE
        back.alternate_position = p["promoted"]["alternate_position"]
        back.save(update_fields=["status", "alternate_position"])
    ids = [x.pk for x in undo.purchases]
    if p.get("moved_to"):
        Purchase.objects.filter(pk__in=ids).update(entry=entry)
    else:
        Purchase.objects.filter(pk__in=ids).update(refunded=False)
        ledger.refunds_taken_back(purchases=undo.purchases, tournament=tournament, actor=actor)
    entry.status = p["status"]
    entry.alternate_position = p.get("alternate_position")
    entry.save(update_fields=["status", "alternate_position"])


def void_undo_money(
    tournament: Tournament, undo: VoidUndo, *, correct_payments: bool
) -> dict[str, Any]:
    """Places and prizes follow the field again; returns what the undo's event adds."""
    paid = _money_follows_field(tournament, correct_payments=correct_payments)
    return {"entry": undo.entry.pk, "number": undo.entry.number, "payments_corrected": paid}


# --- Change the person on an entry ------------------------------------------------------


@transaction.atomic
def entry_change_player(
    *,
    entry: Entry,
    actor: Actor,
    player: Player | None = None,
    name: str = "",
    display_name: str = "",
) -> Event:
    """Another person takes the entry: an existing player, or a new one (`name`). The entry
    keeps its number, seat, chips and money."""
    tournament = lock_tournament(entry.tournament_id, key=True)
    _not_carried(tournament)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.status == EntryStatus.UNREGISTERED:
        raise FloorError(_("#%(n)s is not registered.") % {"n": entry.number})
    created = player is None
    if player is None:
        player = player_create(name=name, display_name=display_name, actor=actor)
    if player.pk == entry.player_id:
        raise FloorError(_("This entry belongs to that player already."))
    if entry.status in (EntryStatus.ACTIVE, EntryStatus.ALTERNATE):
        other = _live_entry_of(tournament, player.pk, besides=entry.pk)
        if other is not None:
            raise FloorError(
                _("%(name)s plays already with #%(n)s.") % {"name": player.name, "n": other.number}
            )
    before = entry.player_id
    entry.player = player
    entry.save(update_fields=["player"])
    event = event_record(
        tournament=tournament,
        action=PERSON,
        actor=actor,
        payload={
            "entry": entry.pk,
            "number": entry.number,
            "player_before": before,
            "player": player.pk,
            "created": created,
        },
    )
    notify_board(tournament.pk, "entries")
    return event


def _person_undo(tournament: Tournament, event: Event) -> dict[str, Any]:
    p = event.payload
    entry = Entry.objects.select_for_update().get(pk=p["entry"], tournament=tournament)
    if entry.player_id != p["player"]:
        raise FloorError(_("#%(n)s has been given to another person since.") % {"n": entry.number})
    previous = Player.objects.filter(pk=p["player_before"]).first()
    if previous is None:
        raise FloorError(_("The previous player has been deleted since."))
    if entry.status in (EntryStatus.ACTIVE, EntryStatus.ALTERNATE):
        other = _live_entry_of(tournament, previous.pk, besides=entry.pk)
        if other is not None:
            raise FloorError(
                _("%(name)s plays already with #%(n)s.")
                % {"name": previous.name, "n": other.number}
            )
    entry.player = previous
    entry.save(update_fields=["player"])
    removed = False
    if p.get("created") and not Entry.objects.filter(player_id=p["player"]).exists():
        # The person was created by this correction and plays nowhere: no record is kept.
        Player.objects.filter(pk=p["player"]).delete()
        removed = True
    return {"entry": entry.pk, "number": entry.number, "player_removed": removed}


# --- Fix a misspelt name ----------------------------------------------------------------


@transaction.atomic
def player_rename(
    *,
    player: Player,
    name: str,
    display_name: str = "",
    actor: Actor,
    tournament: Tournament | None = None,
    number: int | None = None,
) -> Event:
    """Correct the spelling of a player's name (and display name). An empty display name
    follows the new name when it was the one made from the old name. The search key follows
    (tournament/signals.py)."""
    if tournament is not None:
        tournament = lock_tournament(tournament.pk, key=True)
    player = Player.objects.select_for_update().get(pk=player.pk)
    name = " ".join(name.split())
    if len(name) < 2:
        raise FloorError(_("Enter the player's name."), field="name")
    display = " ".join(display_name.split())
    if not display:
        derived = player.display_name == _default_display_name(player.name)
        display = _default_display_name(name) if derived else player.display_name
    display = display[:60]
    if name == player.name and display == player.display_name:
        raise FloorError(_("The name is unchanged."), field="name")
    before = {"name": player.name, "display_name": player.display_name}
    player.name, player.display_name = name, display
    player.save(update_fields=["name", "display_name", "search_key"])
    event = event_record(
        tournament=tournament,
        action=NAME,
        actor=actor,
        payload={
            "player": player.pk,
            "number": number,
            "before": before,
            "after": {"name": name, "display_name": display},
        },
    )
    if tournament is not None:
        notify_board(tournament.pk, "entries")
    return event


def _name_undo(event: Event) -> dict[str, Any]:
    p = event.payload
    player = Player.objects.select_for_update().filter(pk=p["player"]).first()
    if player is None:
        raise FloorError(_("The player has been deleted since."))
    after = p["after"]
    if player.name != after["name"] or player.display_name != after["display_name"]:
        raise FloorError(_("The name has been changed again since."))
    player.name = p["before"]["name"]
    player.display_name = p["before"]["display_name"]
    player.save(update_fields=["name", "display_name", "search_key"])
    return {"player": player.pk}


# --- Move money between entries ---------------------------------------------------------


def _limit_check(tournament: Tournament, purchase: Purchase, target: Entry) -> None:
    limits: dict[str, int] = {
        PurchaseKind.REBUY.value: tournament.rebuys_max,
        PurchaseKind.ADDON.value: tournament.addons_max,
    }
    if purchase.kind not in limits:
        return
    have = target.purchases.filter(kind=purchase.kind, refunded=False).count()
    if have >= limits[purchase.kind]:
        raise FloorError(
            _("#%(n)s has used all %(limit)s of these already.")
            % {"n": target.number, "limit": limits[purchase.kind]}
        )


@transaction.atomic
def purchase_move(*, purchase: Purchase, to_number: int | None, actor: Actor) -> Event:
    """A buy-in, re-entry, rebuy or add-on booked on the wrong entry moves to the right one.
    The prize pool, chips and counts stay as they are."""
    tournament = lock_tournament(purchase.entry.tournament_id, key=True)
    _not_carried(tournament)
    purchase = Purchase.objects.select_for_update().select_related("entry").get(pk=purchase.pk)
    if purchase.refunded:
        raise FloorError(_("This purchase has been refunded."))
    source = purchase.entry
    target = _entry_by_number(tournament, to_number)
    if target.pk == source.pk:
        raise FloorError(_("Choose another entry to move the money to."))
    if target.status == EntryStatus.UNREGISTERED:
        raise FloorError(
            _("#%(n)s is not in the field: money can only move to an entry that plays.")
            % {"n": target.number}
        )
    _limit_check(tournament, purchase, target)
    purchase.entry = target
    purchase.save(update_fields=["entry"])
    event = event_record(
        tournament=tournament,
        action=MONEY,
        actor=actor,
        payload={
            "purchase": purchase.pk,
            "kind": purchase.kind,
            "amount": purchase.price + purchase.fee,
            "from": {"entry": source.pk, "number": source.number},
            "to": {"entry": target.pk, "number": target.number},
        },
    )
    notify_board(tournament.pk, "entries")
    return event


def _money_undo(tournament: Tournament, event: Event) -> dict[str, Any]:
    p = event.payload
    purchase = Purchase.objects.select_for_update().filter(pk=p["purchase"]).first()
    if purchase is None or purchase.refunded or purchase.entry_id != p["to"]["entry"]:
        raise FloorError(_("This money has been moved or refunded again since."))
    source = Entry.objects.select_for_update().get(pk=p["from"]["entry"], tournament=tournament)
    if source.status == EntryStatus.UNREGISTERED:
        raise FloorError(
            _("#%(n)s has been voided since: the money cannot go back.") % {"n": source.number}
        )
    _limit_check(tournament, purchase, source)
    purchase.entry = source
    purchase.save(update_fields=["entry"])
    return {"purchase": purchase.pk}


# --- Undo -------------------------------------------------------------------------------


def undone_ids(tournament: Tournament, event_ids: list[int]) -> set[int]:
    """Which of these correction events have been undone (one query over their undos only)."""
    return {
        int(undoes)
        for undoes in tournament.events.filter(
            action=UNDO, payload__undoes__in=event_ids
        ).values_list("payload__undoes", flat=True)
    }


def recent_corrections(
    tournament: Tournament, limit: int = 8, *, entry: Entry | None = None
) -> list[Event]:
    """The latest corrections (of one entry or its player, when given), newest first, each
    marked `undone`."""
    events = tournament.events.filter(action__in=CORRECTIONS)
    if entry is not None:
        events = events.filter(Q(payload__entry=entry.pk) | Q(payload__player=entry.player_id))
    rows = list(events.order_by("-id")[:limit])
    done = undone_ids(tournament, [e.pk for e in rows]) if rows else set()
    for e in rows:
        e.undone = e.pk in done  # type: ignore[attr-defined]
    return rows


def correction_undo_check(*, tournament: Tournament, event_id: int) -> tuple[Tournament, Event]:
    """Lock the tournament and find the correction to undo; refused (FloorError) when there
    is none, it was undone already, or it came with an imported tournament. Returns the locked
    row and the correction's event."""
    tournament = lock_tournament(tournament.pk, key=True)
    event = tournament.events.filter(pk=event_id, action__in=CORRECTIONS).first()
    if event is None:
        raise FloorError(_("There is no such correction to undo."))
    if undone_ids(tournament, [event.pk]):
        raise FloorError(_("This correction has been undone already."))
    if event_renumbered(event=event):
        raise FloorError(
            _("This correction was recorded before the tournament was imported: undo it by hand.")
        )
    return tournament, event


def correction_undo_apply(tournament: Tournament, event: Event) -> dict[str, Any]:
    """Undo a correction of the person, the name or the money (a void's undo gives a seat
    back: actions/corrections.py); refused when later changes make it impossible. Returns what
    the undo's event adds."""
    if event.action == PERSON:
        return _person_undo(tournament, event)
    if event.action == NAME:
        return _name_undo(event)
    return _money_undo(tournament, event)


def correction_undo_record(
    tournament: Tournament, event: Event, *, actor: Actor, result: dict[str, Any]
) -> Event:
    """Log the undo of `event` (with `result`), a payout correction it made, and tell the
    board. Returns the undo's event."""
    undo = event_record(
        tournament=tournament,
        action=UNDO,
        actor=actor,
        payload={"undoes": event.pk, "correction": event.action, **event.payload, **result},
    )
    _payout_correction(tournament, actor, undo, result.get("payments_corrected") or [])
    notify_board(tournament.pk, "entries")
    return undo
