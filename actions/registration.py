"""Registration at the desk, across the apps it touches: a player enters (the event's flight
policy and the places held for sign-ups may refuse; once seats are drawn the entry gets a
random seat, tda-de 7), an entry is refunded before the start (its seat is freed and goes to
the waiting list of sign-ups or to the first alternate), an alternate takes a freed place.

Each command is one transaction, read top to bottom: check (the tournament's lock taken
first), do (each app writes its own tables through its services), notify (the screens). The
desk, the API, the sign-ups' check-in and the demo call these.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from festivals.policy import flight_entry_check
from signups.services import seat_freed, walk_in_check
from tables.live import notify_tables
from tables.services import entry_seat, seating_is_drawn
from tables.services.corrections import entry_seat_release
from tournament.domain.names import fold
from tournament.events import Actor
from tournament.live import notify_board, notify_seats
from tournament.models import Entry, EntryStatus, Player, Tournament
from tournament.services import ledger, registration
from tournament.services.registration import Promoted


@transaction.atomic
def entry_register(
    *,
    tournament: Tournament,
    player: Player,
    actor: Actor,
    now: datetime | None = None,
    idempotency_key: str = "",
    fingerprint: str = "",
    method: str = "cash",
    checking_in: bool = False,
) -> Entry:
    """Register `player`: a first entry or a re-entry (tda-de 27), an alternate beyond the
    room's capacity (tda-de 7), seated at random once seats are drawn. A second registration
    with the same `idempotency_key` returns the first one's entry, marked `replayed`, and
    changes nothing. `checking_in`: the entry takes the place a sign-up held (the check-in's
    command), so the places held for sign-ups do not refuse it."""
    # Check: the tournament's limits, then the event's flight policy, then the seats held for
    # sign-ups (a walk-in, not a check-in).
    checked = registration.entry_register_check(
        tournament=tournament,
        player=player,
        now=now,
        idempotency_key=idempotency_key,
        fingerprint=fingerprint,
        method=method,
    )
    if checked.replayed is not None:
        return checked.replayed
    flight_entry_check(tournament=checked.tournament, player=player)
    if not checking_in:
        walk_in_check(checked.tournament)
    # Do: the entry (the tournament tells the board), then its seat (the tables tell theirs).
    entry = registration.entry_create(checked, actor=actor)
    entry_seat_if_drawn(checked.tournament, entry, actor)
    return entry


@transaction.atomic
def player_register(
    *,
    tournament: Tournament,
    name: str,
    display_name: str = "",
    email: str = "",
    phone: str = "",
    actor: Actor,
    idempotency_key: str = "",
    method: str = "cash",
) -> Entry:
    """A new player and their first entry, in one transaction: a refused registration (closed,
    late registration over, a bad name, no seat) leaves no player row with contact data.
    A key used before returns that registration's entry and creates no player."""
    fingerprint = "name:" + fold(name)
    method = ledger.purchase_method(method)
    again = registration.registration_replayed(
        tournament=tournament, idempotency_key=idempotency_key, fingerprint=fingerprint
    )
    if again is not None:
        return again
    player = registration.player_create(
        name=name, display_name=display_name, email=email, phone=phone, actor=actor
    )
    return entry_register(
        tournament=tournament,
        player=player,
        actor=actor,
        idempotency_key=idempotency_key,
        fingerprint=fingerprint,
        method=method,
    )


@transaction.atomic
def entry_unregister(*, entry: Entry, actor: Actor) -> Entry:
    """Take an entry back with a full refund, only before the tournament starts: its seat is
    freed and goes first to the waiting list of sign-ups, then to the first alternate."""
    # Check and do (the tournament): refused after the start; refunded and logged.
    withdrawn = registration.entry_withdraw(entry=entry, actor=actor)
    tournament, entry = withdrawn.tournament, withdrawn.entry
    # Do (the other apps): the seat is freed, the waiting list moves up, an alternate comes in.
    freed = entry_seat_release(entry_id=entry.pk)
    seat_freed(tournament.pk, Actor.system("seat freed"))
    if not withdrawn.was_alternate:
        alternate_promote_next(tournament=tournament, actor=actor)
    # Notify.
    if freed:
        notify_tables(tournament.pk, freed)
    notify_board(tournament.pk, "entries")
    return entry


def alternate_promote_next(*, tournament: Tournament, actor: Actor) -> Promoted | None:
    """Give a freed place to the first alternate in line, if the room has one: seated at
    random once seats are drawn, the player's phone told either way. Returns the entry with
    the place it had in the line. Call inside the command's transaction, with the tournament
    locked."""
    promoted = registration.alternate_in(tournament=tournament, actor=actor)
    if promoted is not None and not entry_seat_if_drawn(tournament, promoted.entry, actor):
        notify_seats([promoted.entry.pk])  # a seat given has told the phone already
    return promoted


def entry_seat_if_drawn(tournament: Tournament, entry: Entry, actor: Actor) -> bool:
    """An entry that joined the field in play (a late entry, a promoted alternate, a void
    undone) gets a random seat once seats are drawn (tda-de 7). Returns whether it was
    seated."""
    if entry.status != EntryStatus.ACTIVE or not seating_is_drawn(tournament):
        return False
    entry_seat(tournament=tournament, entry=entry, actor=actor)
    return True
