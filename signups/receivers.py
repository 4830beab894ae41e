"""Walk-ins and sign-ups share the seats (docs/signups.md): a registration at the desk that is
not a check-in takes a seat nobody has taken or was promised (the places held back are the
desk's); while every seat is taken or promised and a sign-up holds or waits for a place, it is
refused. A seat freed at the desk before the start goes to the waiting list."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from signups.services import checking_in, seat_freed, walk_in_check
from tournament.events import Actor
from tournament.models import Event
from tournament.status_signals import entry_registering


@receiver(entry_registering, dispatch_uid="signups.walk_ins")
def walk_ins_share_the_seats(*, tournament: Any, player: Any, **_kw: Any) -> None:
    if checking_in.get():
        return
    walk_in_check(tournament)


# An entry leaving the field before the start frees its seat for the waiting list.
SEAT_FREED = frozenset({"entry.unregister", "correction.void"})


@receiver(post_save, sender=Event, dispatch_uid="signups.seat_freed")
def a_freed_seat_moves_the_list_up(*, instance: Event, created: bool, **_kw: Any) -> None:
    if created and instance.action in SEAT_FREED and instance.tournament_id is not None:
        seat_freed(instance.tournament_id, Actor.system("seat freed"))
