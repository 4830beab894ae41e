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
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from core.errors import FloorError
from tournament.events import Actor, event_record
from tournament.live import notify_board, notify_seats
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
from tournament.services.registration import (
    _default_display_name,
    _seat_if_drawn,
    alternate_promote_next,
    field_is_final,
    places_renumber,
    player_create,
)
from tournament.status_signals import seats_changed

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
    from tournament.services.eliminations import prizes_changed, prizes_write

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


@transaction.atomic
def entry_void(
    *,
    entry: Entry,
    actor: Actor,
    move_to: int | None = None,
    correct_payments: bool = False,
) -> Event:
    """Void a wrong registration. Its money is refunded, or, with `move_to` (an entry number),
    booked on that entry instead. Only a registration still in play or waiting can be voided:
    a bust is undone first. Returns the correction event."""
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
    was_active = entry.status == EntryStatus.ACTIVE
    if (
        was_active
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
    purchases = list(entry.purchases.filter(refunded=False).order_by("pk"))
    amount = sum(p.price + p.fee for p in purchases)
    ids = [p.pk for p in purchases]
    if target is not None:
        Purchase.objects.filter(pk__in=ids).update(entry=target)
    else:
        Purchase.objects.filter(pk__in=ids).update(refunded=True)
        ledger.purchases_refunded(purchases=purchases, tournament=tournament, actor=actor)
    seat = _seat_free(entry)
    status_before = entry.status
    position_before = entry.alternate_position
    entry.status = EntryStatus.UNREGISTERED
    entry.alternate_position = None
    entry.save(update_fields=["status", "alternate_position"])
    promoted = None
    if was_active:
        waiting = (
            tournament.entries.filter(status=EntryStatus.ALTERNATE)
            .order_by("alternate_position")
            .first()
        )
        nxt = alternate_promote_next(tournament=tournament, actor=actor)
        if nxt is not None and waiting is not None:
            promoted = {
                "entry": nxt.pk,
                "number": nxt.number,
                "alternate_position": waiting.alternate_position,
            }
    paid = _money_follows_field(tournament, correct_payments=correct_payments)
    event = event_record(
        tournament=tournament,
        action=VOID,
        actor=actor,
        payload={
            "entry": entry.pk,
            "number": entry.number,
            "player": entry.player_id,
            "status": status_before,
            "alternate_position": position_before,
            "purchases": ids,
            "amount": amount,
            "refunded": target is None,
            "moved_to": {"entry": target.pk, "number": target.number} if target else None,
            "seat": seat,
            "promoted": promoted,
            "payments_corrected": paid,
        },
    )
    _payout_correction(tournament, actor, event, paid)
    notify_board(tournament.pk, "entries")
    return event


def _seat_free(entry: Entry) -> dict[str, Any] | None:
    """Free the entry's seat; returns it for the undo."""
    from tables.models import SeatAssignment

    row = SeatAssignment.objects.select_related("table").filter(entry=entry).first()
    if row is None:
        return None
    seat = {
        "table": row.table_id,
        "table_number": row.table.number,
        "seat": row.seat,
        "must_wait": row.must_wait,
        "stack": row.stack,
    }
    row.delete()
    seats_changed.send(
        sender=Tournament, tournament_id=entry.tournament_id, table_ids=[row.table_id]
    )
    notify_seats([entry.pk])
    return seat


def _void_undo(
    tournament: Tournament, event: Event, actor: Actor, correct_payments: bool
) -> dict[str, Any]:
    from tables.models import SeatAssignment, Table

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
    promoted = p.get("promoted")
    if promoted:
        back = Entry.objects.select_for_update().get(pk=promoted["entry"])
        if back.status != EntryStatus.ACTIVE:
            raise FloorError(
                _("Alternate #%(n)s, who took the place, is not in play any more.")
                % {"n": back.number}
            )
    seat = p.get("seat")
    if seat:
        holder = (
            SeatAssignment.objects.select_related("entry")
            .filter(table_id=seat["table"], seat=seat["seat"])
            .first()
        )
        table = Table.objects.filter(pk=seat["table"], is_open=True).first()
        if table is None:
            raise FloorError(
                _("Table %(t)s has closed since: the seat cannot be given back.")
                % {"t": seat["table_number"]}
            )
        if holder is not None and not (promoted and holder.entry_id == promoted["entry"]):
            raise FloorError(
                _("Seat %(s)s at table %(t)s has been given to #%(n)s since.")
                % {"s": seat["seat"], "t": seat["table_number"], "n": holder.entry.number}
            )
    if promoted:
        SeatAssignment.objects.filter(entry_id=back.pk).delete()
        notify_seats([back.pk])
        back.status = EntryStatus.ALTERNATE
        back.alternate_position = promoted["alternate_position"]
        back.save(update_fields=["status", "alternate_position"])
    ids = [x.pk for x in purchases]
    if moved:
        Purchase.objects.filter(pk__in=ids).update(entry=entry)
    else:
        Purchase.objects.filter(pk__in=ids).update(refunded=False)
        ledger.refunds_taken_back(purchases=purchases, tournament=tournament, actor=actor)
    entry.status = p["status"]
    entry.alternate_position = p.get("alternate_position")
    entry.save(update_fields=["status", "alternate_position"])
    if seat:
        SeatAssignment.objects.create(
            entry=entry,
            table_id=seat["table"],
            seat=seat["seat"],
            must_wait=seat.get("must_wait", False),
            stack=seat.get("stack"),
        )
        seats_changed.send(
            sender=Tournament, tournament_id=tournament.pk, table_ids=[seat["table"]]
        )
        notify_seats([entry.pk])
    elif entry.status == EntryStatus.ACTIVE:
        _seat_if_drawn(tournament, entry, actor)
    paid = _money_follows_field(tournament, correct_payments=correct_payments)
    return {"entry": entry.pk, "number": entry.number, "payments_corrected": paid}


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


def _person_undo(tournament: Tournament, event: Event, actor: Actor) -> dict[str, Any]:
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


@transaction.atomic
def correction_undo(
    *, tournament: Tournament, event_id: int, actor: Actor, correct_payments: bool = False
) -> Event:
    """Undo one correction, restoring the state before it; refused when later changes make
    that impossible. Returns the undo's event."""
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
    if event.action == VOID:
        result = _void_undo(tournament, event, actor, correct_payments)
    elif event.action == PERSON:
        result = _person_undo(tournament, event, actor)
    elif event.action == NAME:
        result = _name_undo(event)
    else:
        result = _money_undo(tournament, event)
    undo = event_record(
        tournament=tournament,
        action=UNDO,
        actor=actor,
        payload={"undoes": event.pk, "correction": event.action, **event.payload, **result},
    )
    _payout_correction(tournament, actor, undo, result.get("payments_corrected") or [])
    notify_board(tournament.pk, "entries")
    return undo
