"""Dealer reports and the hand: busts of one hand ranked together whatever the order of
confirmation, and the next hand's blinds the same whether a bust is confirmed before or after
"hand done"."""

from __future__ import annotations

import pytest
from django.utils import timezone

from actions.bust import report_resolve
from actions.tables import hand_done
from core.errors import FloorError
from tables import services as svc
from tables.models import SeatAssignment, Table
from tournament.models import EntryStatus, Status, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def one_table(make_tournament, register, actor):
    """Nine players at one table, button in seat 1, registration closed."""

    def make(ruleset="tda-de", players=9):
        t = make_tournament(status="registering", ruleset=ruleset)
        for _ in range(players):
            register(t)
        svc.tables_create(tournament=t, count=1, actor=actor)
        svc.seats_draw(tournament=t, actor=actor)
        Tournament.objects.filter(pk=t.pk).update(
            status=Status.RUNNING, registration_closed_at=timezone.now()
        )
        t.refresh_from_db()
        table = Table.objects.get(tournament=t)
        first = min(SeatAssignment.objects.filter(table=table).values_list("seat", flat=True))
        svc.button_set(table=table, seat=first, actor=actor)
        table.refresh_from_db()
        return t, table

    return make


def _seat(table, seat):
    return SeatAssignment.objects.get(table=table, seat=seat)


def _blinds_after(order, one_table, actor):
    """Seat 4 (the big blind's next) is reported out; play the two steps in `order`."""
    _t, table = one_table()
    report = svc.report_bust(table=table, seat=4, stack_at_hand_start=None, actor=actor)
    for step in order:
        if step == "hand":
            hand_done(table=table, actor=actor, hand_number=table.hand_number)
        else:
            report_resolve(report=report, confirm=True, actor=actor)
    table.refresh_from_db()
    return table.blinds()


def test_next_hand_is_the_same_whether_the_bust_is_confirmed_before_or_after_hand_done(
    one_table, actor
):
    # Button 1, small blind 2, big blind 3; seat 4 would post the big blind next.
    before = _blinds_after(["confirm", "hand"], one_table, actor)
    after = _blinds_after(["hand", "confirm"], one_table, actor)
    assert before == after
    # tda-de 32-34: the big blind moves on to seat 5, never onto the empty seat 4.
    assert after.big_blind == 5 and after.small_blind == 3 and after.button == 2


def test_dismissed_report_after_hand_done_deals_the_player_in_again(one_table, actor):
    _t, table = one_table()
    report = svc.report_bust(table=table, seat=4, stack_at_hand_start=None, actor=actor)
    hand_done(table=table, actor=actor, hand_number=table.hand_number)
    table.refresh_from_db()
    assert table.big_blind_seat == 5
    report_resolve(report=report, confirm=False, actor=actor)
    table.refresh_from_db()
    assert table.big_blind_seat == 4


def test_busts_of_one_hand_are_ranked_together_whatever_the_order_of_confirmation(one_table, actor):
    # bdpv 6.28: equal stacks; seat 3 sits two seats clockwise from the button (seat 1), seat 7
    # six: seat 3 finishes higher, even when the floor confirms seat 7 first.
    _t, table = one_table("bdpv")
    e3, e7 = _seat(table, 3).entry, _seat(table, 7).entry
    svc.report_bust(table=table, seat=3, stack_at_hand_start=4000, actor=actor)
    later = svc.report_bust(table=table, seat=7, stack_at_hand_start=4000, actor=actor)
    hand_done(table=table, actor=actor, hand_number=table.hand_number)
    report_resolve(report=later, confirm=True, actor=actor)
    e3.refresh_from_db()
    e7.refresh_from_db()
    assert (e3.place, e7.place) == (8, 9)
    assert e3.bust_group == e7.bust_group


def test_a_late_report_of_a_recorded_hand_joins_its_ranking(one_table, register, actor):
    _t, table = one_table("tda-de")
    e2, e5, e8 = (_seat(table, s).entry for s in (2, 5, 8))
    first = svc.report_bust(table=table, seat=2, stack_at_hand_start=500, actor=actor)
    report_resolve(report=first, confirm=True, actor=actor)
    e2.refresh_from_db()
    assert e2.place == 9
    hand_done(table=table, actor=actor, hand_number=0)
    table.refresh_from_db()
    # Seat 8 goes out in hand 1 and is confirmed before the late report of hand 0 arrives.
    eight = svc.report_bust(table=table, seat=8, stack_at_hand_start=100, actor=actor)
    report_resolve(report=eight, confirm=True, actor=actor)
    e8.refresh_from_db()
    assert e8.place == 8
    # The dealer reports seat 5, also out in hand 0, with the bigger stack.
    late = svc.report_bust(table=table, seat=5, stack_at_hand_start=3000, actor=actor)
    late.hand_number = 0
    late.button_seat = 1
    late.save(update_fields=["hand_number", "button_seat"])
    report_resolve(report=late, confirm=True, actor=actor)
    for e in (e2, e5, e8):
        e.refresh_from_db()
    # Hand 0: seat 5 (3,000) above seat 2 (500); hand 1's bust moves up to 7th.
    assert (e5.place, e2.place, e8.place) == (8, 9, 7)
    assert e5.status == EntryStatus.BUSTED


def test_bad_reports_are_refused_and_change_nothing(one_table, actor):
    t, table = one_table(players=3)
    seats = sorted(SeatAssignment.objects.filter(table=table).values_list("seat", flat=True))
    empty = next(s for s in range(1, 10) if s not in seats)
    with pytest.raises(FloorError, match="Nobody sits"):
        svc.report_bust(table=table, seat=empty, stack_at_hand_start=None, actor=actor)
    first, other, last = seats
    with pytest.raises(FloorError, match="chips in play"):
        svc.report_bust(table=table, seat=first, stack_at_hand_start=10**9, actor=actor)
    svc.report_bust(table=table, seat=first, stack_at_hand_start=None, actor=actor)
    with pytest.raises(FloorError):
        svc.report_bust(table=table, seat=first, stack_at_hand_start=None, actor=actor)
    svc.report_bust(table=table, seat=other, stack_at_hand_start=None, actor=actor)
    with pytest.raises(FloorError, match="last player"):
        svc.report_bust(table=table, seat=last, stack_at_hand_start=None, actor=actor)
    assert t.entries.filter(status=EntryStatus.BUSTED).count() == 0
