"""The button, "hand done" and hand-for-hand."""

from __future__ import annotations

from dataclasses import asdict

from django.db import transaction
from django.utils.translation import gettext as _

from clocks.selectors import clock_state_for
from core.errors import FloorError
from live.realtime import broadcast_on_commit, tournament_group
from tables.domain.button import Blinds, ButtonError, deal_next_hand, first_hand
from tables.live import notify_tables
from tables.models import SeatAssignment, Table
from tables.selectors import leaving_seats
from tables.services.shotclock import shot_clock_hand_done
from tables.words import button_reason
from tournament.events import Actor, event_record
from tournament.locks import lock_tournament
from tournament.models import Tournament


@transaction.atomic
def button_set(*, table: Table, seat: int, actor: Actor) -> Table:
    """The floor sets (or corrects) the button; the blinds follow for the next hand."""
    lock_tournament(table.tournament_id, only=("id",))
    table = Table.objects.select_for_update(no_key=True).get(pk=table.pk)
    players = set(table.assignments.filter(must_wait=False).values_list("seat", flat=True))
    try:
        blinds = first_hand(table.seats, players, seat)
    except ButtonError as exc:
        raise FloorError(
            _("The button cannot go there: %(reason)s") % {"reason": button_reason(exc)}
        ) from exc
    table.set_blinds(blinds)
    table.save(update_fields=["button_seat", "small_blind_seat", "big_blind_seat"])
    event_record(
        tournament=table.tournament,
        action="table.button",
        actor=actor,
        payload={"table": table.number, **asdict(blinds)},
    )
    notify_tables(table.tournament_id, [table.pk])
    return table


def hand_finish(
    *, table: Table, actor: Actor, hand_number: int | None = None
) -> tuple[Table, bool]:
    """The dealer finished a hand: the next hand's positions by the dead-button rules (tda-de
    32-34, bdpv 3.2) and players who waited for the button dealt in. Idempotent per hand: a
    repeated tap with the same `hand_number` does nothing. Returns the table and whether a hand
    was finished. Call inside the transaction of `actions.tables.hand_done`, which counts the
    penalised players' hands (rules_engine).

    Players reported out in the hand just finished are not dealt into the next one, whether
    the floor has confirmed their bust yet or not: the big blind moves on past them, so the
    next hand is the same whatever the order of "hand done" and the confirmation."""
    # The same lock order as every seat change: the tournament, then the table, then seats.
    lock_tournament(table.tournament_id)
    table = (
        Table.objects.select_for_update(no_key=True).select_related("tournament").get(pk=table.pk)
    )
    if hand_number is not None and hand_number != table.hand_number:
        return table, False
    rows = list(table.assignments.select_for_update())
    leaving = leaving_seats(table, rows)
    previous = table.blinds()
    table.previous_button_seat = table.button_seat
    table.previous_small_blind_seat = table.small_blind_seat
    table.previous_big_blind_seat = table.big_blind_seat
    _deal_next_hand(table, rows, previous, leaving)
    table.hand_number += 1
    shot_clock_hand_done(table)
    tournament = table.tournament
    table.hand_level = _level_index(tournament)
    if tournament.hand_for_hand:
        table.h4h_done_round = tournament.h4h_round
    table.save(
        update_fields=[
            "button_seat",
            "small_blind_seat",
            "big_blind_seat",
            "previous_button_seat",
            "previous_small_blind_seat",
            "previous_big_blind_seat",
            "hand_number",
            "hand_level",
            "h4h_done_round",
        ]
    )
    event_record(
        tournament=tournament,
        action="table.hand",
        actor=actor,
        payload={
            "table": table.number,
            "hand": table.hand_number,
            "button": table.button_seat,
            "big_blind": table.big_blind_seat,
            "not_dealt_in": sorted(leaving),
        },
    )
    if tournament.hand_for_hand:
        _h4h_maybe_next(tournament, actor)
    notify_tables(tournament.pk, [table.pk])
    return table, True


def _deal_next_hand(
    table: Table, rows: list[SeatAssignment], previous: Blinds | None, leaving: set[int]
) -> None:
    """Set the positions of the table's next hand from the hand before it (`previous`) by the
    one rule for "the next hand" (`tables.domain.button.deal_next_hand`): players reported out
    are not dealt in; players waiting for the button (tda-de 7, 9) are dealt in once it has
    passed them, or at once when fewer than two players would be dealt in without them."""
    playing = {r.seat for r in rows if not r.must_wait and r.seat not in leaving}
    waiting = {r.seat for r in rows if r.must_wait and r.seat not in leaving}
    if len(playing) < 2:
        playing |= waiting  # no hand without them: everyone at the table is dealt in
    if len(playing) < 2:
        return
    if previous is None:
        blinds, dealt = first_hand(table.seats, playing, min(playing)), frozenset(playing)
    else:
        blinds, dealt = deal_next_hand(table.seats, previous, playing, waiting)
    table.set_blinds(blinds)
    released = [r for r in rows if r.must_wait and r.seat in dealt]
    for r in released:
        r.must_wait = False
    if released:
        SeatAssignment.objects.bulk_update(released, ["must_wait"])


def _level_index(tournament: Tournament) -> int:
    state = clock_state_for(tournament)
    return state.level_index if state.started else -1


def _h4h_maybe_next(tournament: Tournament, actor: Actor) -> None:
    tournament = lock_tournament(tournament.pk)
    pending = tournament.tables.filter(is_open=True, h4h_done_round__lt=tournament.h4h_round)
    if pending.exists():
        return
    tournament.h4h_round += 1
    tournament.save(update_fields=["h4h_round"])
    event_record(
        tournament=tournament,
        action="h4h.next",
        actor=actor,
        payload={"round": tournament.h4h_round},
    )
    # Every tablet takes the new round from this one message (static/tables/dealer.js).
    broadcast_on_commit(
        tournament_group(tournament.pk), "h4h", {"on": True, "round": tournament.h4h_round}
    )


@transaction.atomic
def hand_for_hand_set(*, tournament: Tournament, on: bool, actor: Actor) -> Tournament:
    tournament = lock_tournament(tournament.pk)
    tournament.hand_for_hand = on
    if on:
        tournament.h4h_round += 1
    tournament.save(update_fields=["hand_for_hand", "h4h_round"])
    event_record(
        tournament=tournament,
        action="h4h.set",
        actor=actor,
        payload={"on": on, "round": tournament.h4h_round},
    )
    broadcast_on_commit(
        tournament_group(tournament.pk), "h4h", {"on": on, "round": tournament.h4h_round}
    )
    return tournament
