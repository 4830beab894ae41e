"""The registration desk: players, entries, re-entries, rebuys, add-ons, alternates, refunds.

Every service locks the tournament row first, so two desks registering at once cannot hand out
the same player number or break the limits.

These are the tournament's part of a registration. What other apps add (an event's flight
policy, the places held for sign-ups, a seat once seats are drawn, the seat an unregistered
entry frees) is in the commands of actions/registration.py, which the desk, the API and the
check-in call.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import NamedTuple

from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from clocks.selectors import current_level_number
from core.errors import FloorError
from tournament.domain.lifecycle import (
    RegistrationError,
    check_purchase,
)
from tournament.events import Actor, event_record
from tournament.field import entry_rules
from tournament.live import notify_board
from tournament.locks import lock_tournament
from tournament.models import (
    BountyKind,
    Entry,
    EntryStatus,
    Player,
    Purchase,
    PurchaseKind,
    RegistrationKey,
    Status,
    Tournament,
)
from tournament.services import ledger
from tournament.services.eliminations import prizes_refresh


def places_renumber(tournament: Tournament) -> None:
    """The field changed size: every finishing place given so far moves with it (place =
    entries + 1 - elimination rank). One statement; call inside the transaction that changed
    the field, after the change."""
    entries = Tournament.objects.values_list("entries_counted", flat=True).get(pk=tournament.pk)
    Entry.objects.filter(
        tournament_id=tournament.pk, status=EntryStatus.BUSTED, elimination_rank__isnull=False
    ).exclude(place=entries + 1 - F("elimination_rank")).update(
        place=entries + 1 - F("elimination_rank")
    )


def _current_level(tournament: Tournament, now: datetime | None) -> int | None:
    return current_level_number(tournament, now)


def _refuse(exc: RegistrationError) -> FloorError:
    return FloorError(registration_message(exc), code=getattr(exc, "code", "invalid"))


def registration_message(exc: RegistrationError) -> str:
    """The refusal in the user's language, from the domain's error code and parameters."""
    code = getattr(exc, "code", "")
    params = dict(getattr(exc, "params", {}) or {})
    messages = {
        "status": _("Registration is not open for this tournament."),
        "late_registration_closed": _("Late registration closed after level %(level)s."),
        "registration_closed": _("Registration is closed for this tournament."),
        "reentry_closed": _("Re-entry closed after level %(level)s."),
        "entry_limit": _("This player has used all %(limit)s entries."),
        "active_entry": _("This player already has a live entry."),
        "rebuy_closed": _("Rebuys closed after level %(level)s."),
        "rebuy_limit": _("This entry has used all %(limit)s rebuys."),
        "addon_closed": _("Add-ons closed after level %(level)s."),
        "addon_limit": _("This entry has used all %(limit)s add-ons."),
        "not_alive": _("Only a player still in the tournament can do that."),
        "not_offered": _("This tournament offers no %(kind)s."),
    }
    template = messages.get(code)
    if template is None:
        return str(exc)
    try:
        return template % params
    except (KeyError, TypeError, ValueError):
        return str(exc)


@transaction.atomic
def player_create(
    *, name: str, display_name: str = "", email: str = "", phone: str = "", actor: Actor
) -> Player:
    name = " ".join(name.split())
    if len(name) < 2:
        raise FloorError(_("Enter the player's name."), field="name")
    display_name = " ".join(display_name.split()) or _default_display_name(name)
    player = Player.objects.create(
        name=name, display_name=display_name[:60], email=email.strip(), phone=phone.strip()
    )
    event_record(
        tournament=None, action="player.create", actor=actor, payload={"player": player.pk}
    )
    return player


def _default_display_name(name: str) -> str:
    """'Anna Maria Schmidt' -> 'Anna S.': enough to find a seat, not a full name in public."""
    parts = name.split()
    if len(parts) == 1:
        return parts[0]
    return f"{parts[0]} {parts[-1][0]}."


def _purchase_counts(entry: Entry | None, player_entries: list[Entry]) -> dict[str, int]:
    counts = {
        "entries": sum(1 for e in player_entries if e.status != EntryStatus.UNREGISTERED),
        "rebuy": 0,
        "addon": 0,
    }
    if entry is not None:
        for p in entry.purchases.filter(refunded=False):
            if p.kind in ("rebuy", "addon"):
                counts[p.kind] += 1
    return counts


# The longest one-time key a registration may carry (desk form, `Idempotency-Key` header).
KEY_LENGTH = 100


def registration_key(text: str | None) -> str:
    """A one-time registration key as sent, checked: printable ASCII, at most 100 characters.
    Empty: no key (the registration is not protected against a second submission)."""
    key = (text or "").strip()
    if len(key) > KEY_LENGTH or not all(33 <= ord(c) <= 126 for c in key):
        raise FloorError(
            _("The registration key must be 1 to %(n)s printable characters.") % {"n": KEY_LENGTH},
            field="idempotency_key",
        )
    return key


def key_used(tournament: Tournament, key: str) -> bool:
    """Whether a registration with this key has been made in the tournament."""
    return bool(key) and RegistrationKey.objects.filter(tournament=tournament, key=key).exists()


def _replayed(tournament_pk: int, key: str, fingerprint: str) -> Entry | None:
    """The entry a registration with this key made before, or None. Call with the tournament
    row locked. The same key with another request is refused."""
    if not key:
        return None
    found = (
        RegistrationKey.objects.select_related("entry__player")
        .filter(tournament_id=tournament_pk, key=key)
        .first()
    )
    if found is None:
        return None
    if found.fingerprint and fingerprint and found.fingerprint != fingerprint:
        raise FloorError(
            _("This registration key was already used for another registration."),
            code="key_reused",
        )
    entry = found.entry
    entry.replayed = True  # type: ignore[attr-defined]
    return entry


@dataclass
class Registration:
    """A registration checked under the tournament's lock (`entry_register_check`), to be
    written by `entry_create` in the same transaction; `replayed` is the entry a registration
    with the same key made before (then nothing is to be written)."""

    tournament: Tournament
    player: Player
    has_busted: bool
    method: str
    idempotency_key: str
    fingerprint: str
    replayed: Entry | None = None


def entry_register_check(
    *,
    tournament: Tournament,
    player: Player,
    now: datetime | None = None,
    idempotency_key: str = "",
    fingerprint: str = "",
    method: str = "cash",
) -> Registration:
    """Lock the tournament and check that `player` may enter (tda-de 27: a re-entry after a
    bust); refused with FloorError. Call inside the transaction that writes the entry."""
    method = ledger.purchase_method(method)
    tournament = lock_tournament(tournament.pk, key=True)
    fingerprint = fingerprint or f"player:{player.pk}"
    checked = Registration(
        tournament=tournament,
        player=player,
        has_busted=False,
        method=method,
        idempotency_key=idempotency_key,
        fingerprint=fingerprint,
        replayed=_replayed(tournament.pk, idempotency_key, fingerprint),
    )
    if checked.replayed is not None:
        return checked
    player_entries = list(tournament.entries.filter(player=player))
    alive = any(e.status in (EntryStatus.ACTIVE, EntryStatus.ALTERNATE) for e in player_entries)
    checked.has_busted = any(e.status == EntryStatus.BUSTED for e in player_entries)
    try:
        check_purchase(
            "reentry" if checked.has_busted else "buyin",
            rules=entry_rules(tournament),
            status=tournament.status,
            current_level=_current_level(tournament, now),
            purchases_so_far=_purchase_counts(None, player_entries),
            player_is_alive=alive,
            player_has_active_entry=alive,
        )
    except RegistrationError as exc:
        raise _refuse(exc) from exc
    return checked


def entry_create(checked: Registration, *, actor: Actor) -> Entry:
    """Write the entry `entry_register_check` allowed: its number, the buy-in in the cash ledger
    (docs/ledger.md), its key, the event; beyond the room's capacity it waits as an alternate
    (tda-de 7). Places given so far move down one when the field grows."""
    tournament, player, has_busted = checked.tournament, checked.player, checked.has_busted
    live = tournament.players_left  # the locked row's count (tournament/counters.py)
    number = (tournament.entries.aggregate(m=Max("number"))["m"] or 0) + 1
    is_alternate = tournament.capacity is not None and live >= tournament.capacity
    alternate_position = None
    if is_alternate:
        last = tournament.entries.filter(status=EntryStatus.ALTERNATE).aggregate(
            m=Max("alternate_position")
        )["m"]
        alternate_position = (last or 0) + 1
    try:
        with transaction.atomic():
            entry = Entry.objects.create(
                tournament=tournament,
                player=player,
                number=number,
                is_reentry=has_busted,
                status=EntryStatus.ALTERNATE if is_alternate else EntryStatus.ACTIVE,
                alternate_position=alternate_position,
                bounty=tournament.bounty if tournament.bounty_kind != BountyKind.NONE else 0,
            )
    except IntegrityError as exc:
        raise FloorError(_("This player already has a live entry.")) from exc
    purchase = Purchase.objects.create(
        entry=entry,
        kind=PurchaseKind.REENTRY if has_busted else PurchaseKind.BUYIN,
        price=tournament.buy_in,
        fee=tournament.fee,
        chips=tournament.starting_stack,
    )
    ledger.purchase_recorded(
        purchase=purchase, tournament=tournament, method=checked.method, actor=actor
    )
    if checked.idempotency_key:
        RegistrationKey.objects.create(
            tournament=tournament,
            key=checked.idempotency_key,
            entry=entry,
            fingerprint=checked.fingerprint[:200],
        )
    event_record(
        tournament=tournament,
        action="entry.register",
        actor=actor,
        payload={
            "entry": entry.pk,
            "number": number,
            "player": player.pk,
            "kind": "reentry" if has_busted else "buyin",
            "alternate": is_alternate,
            "price": tournament.buy_in,
            "fee": tournament.fee,
            "method": checked.method,
        },
    )
    notify_board(tournament.pk, "entries")
    if not is_alternate and tournament.entries_counted > tournament.players_left:
        places_renumber(tournament)  # the field grew: every place given so far moves down one
    return entry


def registration_replayed(
    *, tournament: Tournament, idempotency_key: str, fingerprint: str
) -> Entry | None:
    """The entry a registration with this key made before (the tournament locked first), or
    None; without a key, None and nothing read."""
    if not idempotency_key:
        return None
    locked = lock_tournament(tournament.pk, key=True)
    return _replayed(locked.pk, idempotency_key, fingerprint)


@transaction.atomic
def entry_purchase(
    *, entry: Entry, kind: str, actor: Actor, now: datetime | None = None, method: str = "cash"
) -> Purchase:
    """A rebuy or an add-on for a live entry, within the limits and before the level cut-off,
    paid by `method` (recorded in the cash ledger)."""
    if kind not in (PurchaseKind.REBUY, PurchaseKind.ADDON):
        raise FloorError(_("Choose a rebuy or an add-on."))
    method = ledger.purchase_method(method)
    tournament = lock_tournament(entry.tournament_id, key=True)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    alive = entry.status == EntryStatus.ACTIVE
    try:
        check_purchase(
            kind,
            rules=entry_rules(tournament),
            status=tournament.status,
            current_level=_current_level(tournament, now),
            purchases_so_far=_purchase_counts(entry, []),
            player_is_alive=alive,
            player_has_active_entry=alive,
        )
    except RegistrationError as exc:
        raise _refuse(exc) from exc
    if kind == PurchaseKind.REBUY:
        price, fee, chips = tournament.rebuy_price, tournament.rebuy_fee, tournament.rebuy_chips
    else:
        price, fee, chips = tournament.addon_price, tournament.addon_fee, tournament.addon_chips
    purchase = Purchase.objects.create(entry=entry, kind=kind, price=price, fee=fee, chips=chips)
    ledger.purchase_recorded(purchase=purchase, tournament=tournament, method=method, actor=actor)
    event_record(
        tournament=tournament,
        action=f"entry.{kind}",
        actor=actor,
        payload={
            "entry": entry.pk,
            "number": entry.number,
            "price": price,
            "fee": fee,
            "method": method,
        },
    )
    notify_board(tournament.pk, "entries")
    return purchase


class Withdrawn(NamedTuple):
    tournament: Tournament  # the locked row
    entry: Entry
    was_alternate: bool


def entry_withdraw(*, entry: Entry, actor: Actor) -> Withdrawn:
    """Take an entry back with a full refund — only before the tournament starts (refused with
    FloorError otherwise). The tournament's part of `actions.registration.entry_unregister`,
    which frees its seat and gives its place to the waiting list or the first alternate. Call
    inside that transaction."""
    tournament = lock_tournament(entry.tournament_id, key=True)
    entry = Entry.objects.select_for_update().get(pk=entry.pk)
    if tournament.status not in (Status.PLANNED, Status.REGISTERING):
        raise FloorError(_("Entries can only be refunded before the tournament starts."))
    if tournament.pooled:
        # A Day 2's entry is a bag its flight's closed day carried in (festivals/): nothing was
        # paid for it here, and the Day-2 draw would still seat it.
        raise FloorError(
            _(
                "A Day 2's entry is a bag from its flight: reopen that flight's bag and tag instead."
            ),
            code="day2_entry",
        )
    if entry.status not in (EntryStatus.ACTIVE, EntryStatus.ALTERNATE):
        raise FloorError(_("This entry is not registered."))
    refund = 0
    bought = list(entry.purchases.filter(refunded=False))
    for purchase in bought:
        refund += purchase.price + purchase.fee
    entry.purchases.update(refunded=True)
    ledger.purchases_refunded(purchases=bought, tournament=tournament, actor=actor)
    was_alternate = entry.status == EntryStatus.ALTERNATE
    entry.status = EntryStatus.UNREGISTERED
    entry.alternate_position = None
    entry.save(update_fields=["status", "alternate_position"])
    event_record(
        tournament=tournament,
        action="entry.unregister",
        actor=actor,
        payload={"entry": entry.pk, "number": entry.number, "refund": refund},
    )
    return Withdrawn(tournament, entry, was_alternate)


class Promoted(NamedTuple):
    entry: Entry
    alternate_position: int  # its place in the line, for an undo


def alternate_in(*, tournament: Tournament, actor: Actor) -> Promoted | None:
    """Give the freed place to the first alternate in line, if the room has one: the entry is
    in the field (places move with it). Its seat is the caller's (actions.registration:
    `alternate_promote_next`). Call inside a transaction, with the tournament locked."""
    if tournament.capacity is not None:
        # The count as it is now (the caller's copy of the row may be older than its writes).
        live = Tournament.objects.values_list("players_left", flat=True).get(pk=tournament.pk)
        if live >= tournament.capacity:
            return None
    nxt = (
        tournament.entries.select_for_update()
        .filter(status=EntryStatus.ALTERNATE)
        .order_by("alternate_position")
        .first()
    )
    if nxt is None:
        return None
    position = nxt.alternate_position or 0
    nxt.status = EntryStatus.ACTIVE
    nxt.alternate_position = None
    nxt.save(update_fields=["status", "alternate_position"])
    event_record(
        tournament=tournament,
        action="entry.alternate_in",
        actor=actor,
        payload={"entry": nxt.pk, "number": nxt.number},
    )
    places_renumber(tournament)
    return Promoted(nxt, position)


@transaction.atomic
def registration_close(*, tournament: Tournament, actor: Actor) -> Tournament:
    """Close registration: no more late entries or re-entries, alternates still waiting for a
    seat are refunded. From now the field is final, and with it every finishing place; busts
    already recorded get the prizes of their final places."""
    tournament = lock_tournament(tournament.pk, key=True)
    if tournament.status not in (Status.REGISTERING, Status.RUNNING, Status.FINAL_TABLE):
        raise FloorError(_("Registration can only be closed while the tournament is on."))
    if tournament.registration_closed_at is not None:
        raise FloorError(_("Registration is closed already."))
    waiting = list(tournament.entries.select_for_update().filter(status=EntryStatus.ALTERNATE))
    refunds = []
    for entry in waiting:
        bought = list(entry.purchases.filter(refunded=False))
        refund = sum(p.price + p.fee for p in bought)
        entry.purchases.update(refunded=True)
        ledger.purchases_refunded(purchases=bought, tournament=tournament, actor=actor)
        entry.status = EntryStatus.UNREGISTERED
        entry.alternate_position = None
        refunds.append({"entry": entry.pk, "number": entry.number, "refund": refund})
    if waiting:
        Entry.objects.bulk_update(waiting, ["status", "alternate_position"])
    tournament.registration_closed_at = timezone.now()
    tournament.save(update_fields=["registration_closed_at"])
    # The counts kept on the locked row (tournament/counters.py): while every entry counted
    # still plays, nobody is out, and there is no finishing place to move nor prize to give
    # (a Day 2 closing at its draw: three statements fewer). Refunded alternates count in
    # neither.
    if tournament.players_left < tournament.entries_counted:
        places_renumber(tournament)

        prizes_refresh(tournament=tournament)
    event_record(
        tournament=tournament,
        action="registration.close",
        actor=actor,
        payload={"alternates_refunded": refunds},
    )
    notify_board(tournament.pk, "entries")
    return tournament


@transaction.atomic
def registration_reopen(*, tournament: Tournament, actor: Actor) -> Tournament:
    """Undo a close of registration made by mistake, while no prize has been given yet."""
    tournament = lock_tournament(tournament.pk, key=True)
    if tournament.registration_closed_at is None:
        raise FloorError(_("Registration is not closed."))
    if tournament.status not in (Status.REGISTERING, Status.RUNNING):
        raise FloorError(_("Registration can only be reopened while the tournament is on."))
    if tournament.entries.filter(status=EntryStatus.BUSTED, prize__gt=0).exists():
        raise FloorError(
            _("Players have finished in the money: registration cannot be opened again.")
        )
    tournament.registration_closed_at = None
    tournament.save(update_fields=["registration_closed_at"])
    event_record(tournament=tournament, action="registration.reopen", actor=actor, payload={})
    notify_board(tournament.pk, "entries")
    return tournament
