"""The flows from one app into another that still travel by signal. Each receiver runs inside
the transaction of the change that sent its signal, so both commit or roll back together.

The actions that span apps are commands (actions/bust.py, actions/penalties.py,
actions/tables.py) that call each app's services in turn. A signal remains where its sender
must not know its listeners:

| signal (sender app)                      | what follows (app)                                  |
|------------------------------------------|-----------------------------------------------------|
| seats_changed (tournament: void, refund) | the tables' tablets and the console are told        |
|                                          |   (tables.live)                                     |
| entry_joined_field (tournament: late     | a random seat once seats are drawn, tda-de 7        |
|   entry, alternate in, void undone)      |   (tables.services.entry_seat)                      |
| post_save of Event (tournament: a table  | the screens that speak announce it                  |
|   broken, a balance, hand-for-hand on,   |   (clocks.announcements.announce_logged)            |
|   the final table; registration closed   |                                                     |
|   or reopened by hand, the late-         | they take the new end of late registration (the     |
|   registration level)                    |   live message `speech`)                            |

The event log is written by every app's services for every change: which of its lines the
room hears is the announcements' business, not the writer's (a bust's bubble is announced by
actions/bust.py itself).
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from clocks.announcements import announce_logged
from tables.live import notify_tables
from tables.services import entry_seat, seating_is_drawn
from tournament.models import Event
from tournament.status_signals import entry_joined_field, seats_changed


@receiver(seats_changed)
def tell_the_tables(*, tournament_id: int, table_ids: list[int], **_: Any) -> None:
    notify_tables(tournament_id, table_ids)


@receiver(entry_joined_field)
def seat_the_new_player(*, tournament: Any, entry: Any, actor: Any, **_: Any) -> None:
    if seating_is_drawn(tournament):
        entry_seat(tournament=tournament, entry=entry, actor=actor)


@receiver(post_save, sender=Event)
def announce_in_the_room(*, instance: Event, created: bool, **_: Any) -> None:
    if created:
        announce_logged(instance)
