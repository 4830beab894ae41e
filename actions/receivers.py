"""The flows from one app into another that still travel by signal. Each receiver runs inside
the transaction of the change that sent its signal, so both commit or roll back together.

Registration, check-in, voids and their undos, the tournament's status and structure are
commands (actions/registration.py, signups.py, corrections.py, tournaments.py) that call each
app's services in turn; they send none of these signals.

| signal (sender app)                      | what follows (app)                                  |
|------------------------------------------|-----------------------------------------------------|
| seats_changed (tournament: a bust, its   | the tables' tablets and the console are told        |
|   undo; until the bust's command tells   |   (tables.live)                                     |
|   them itself)                           |                                                     |
| entry_joined_field (tournament: an       | a random seat once seats are drawn, tda-de 7        |
|   alternate in after a bust; until the   |   (tables.services.entry_seat)                      |
|   bust's command seats it itself)        |                                                     |
| hand_finished (tables: hand done)        | penalised players sit out one hand less, tda-de 69  |
|                                          |   (rules_engine.services.penalties_count_hand)      |
| busts_confirmed (tables: dealer reports  | the players are out, ranked together                |
|   confirmed by the floor)                |   (tournament.services.eliminations.entries_bust)   |
| disqualified (rules_engine: penalty)     | the player is out at once, tda-de 71 (entries_bust) |
| penalty_given (rules_engine)             | the tablet shows who sits out (tables.live)         |
| post_save of Event (tournament: a table  | the screens that speak announce it                  |
|   broken, a balance, hand-for-hand on,   |   (clocks.announcements.announce_logged)            |
|   the final table, a bust at the bubble; |                                                     |
|   registration closed or reopened by     | they take the new end of late registration (the     |
|   hand, the late-registration level)     |   live message `speech`)                            |

The last one stays a signal on purpose: every service of every app writes event-log rows, and
what the room hears follows the row, whoever wrote it; a sender that had to know the clocks'
announcements would have to be each of them.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from clocks.announcements import announce_logged
from rules_engine.services import penalties_count_hand
from rules_engine.signals import disqualified, penalty_given
from tables.live import notify_tables
from tables.services import entry_seat, seating_is_drawn
from tables.signals import busts_confirmed, hand_finished
from tournament.models import Event
from tournament.services.eliminations import BustReport, entries_bust
from tournament.status_signals import entry_joined_field, seats_changed


@receiver(seats_changed)
def tell_the_tables(*, tournament_id: int, table_ids: list[int], **_: Any) -> None:
    notify_tables(tournament_id, table_ids)


@receiver(entry_joined_field)
def seat_the_new_player(*, tournament: Any, entry: Any, actor: Any, **_: Any) -> None:
    if seating_is_drawn(tournament):
        entry_seat(tournament=tournament, entry=entry, actor=actor)


@receiver(hand_finished)
def count_penalty_hands(*, table: Any, **_: Any) -> None:
    penalties_count_hand(table)


@receiver(busts_confirmed)
def bust_the_reported(
    *, tournament: Any, busts: list[dict[str, Any]], actor: Any, **_: Any
) -> None:
    entries_bust(tournament=tournament, busts=[BustReport(**b) for b in busts], actor=actor)


@receiver(disqualified)
def bust_the_disqualified(*, tournament: Any, entry: Any, actor: Any, **_: Any) -> None:
    entries_bust(tournament=tournament, busts=[BustReport(entry=entry)], actor=actor)


@receiver(penalty_given)
def show_the_penalty(*, tournament_id: int, table_id: int, **_: Any) -> None:
    notify_tables(tournament_id, [table_id], console=False)


@receiver(post_save, sender=Event)
def announce_in_the_room(*, instance: Event, created: bool, **_: Any) -> None:
    if created:
        announce_logged(instance)
