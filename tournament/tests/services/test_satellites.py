"""Satellites: seats to a target event, a remainder prize, no order among the seat winners."""

from __future__ import annotations

import pytest
from django.utils import timezone

from actions.bust import BustReport, bust_undo_last, entries_bust
from actions.tournaments import tournament_reopen
from tournament.models import Entry, Status, Tournament
from tournament.selectors import payout_amounts, satellite_seats, tournament_numbers

pytestmark = pytest.mark.django_db


@pytest.fixture
def satellite(make_tournament, register):
    # 20 entries at 100.00: a pool of 2,000.00 buys 3 seats of 550.00 and leaves 350.00.
    t = make_tournament(
        status="registering", buy_in=10000, satellite_seat_value=55000, satellite_target="Main"
    )
    entries = [register(t) for _ in range(20)]
    Tournament.objects.filter(pk=t.pk).update(
        status=Status.RUNNING,
        registration_closed_at=timezone.now(),  # the field is final
    )
    t.refresh_from_db()
    return t, entries


def test_the_pool_buys_seats_and_a_remainder(satellite):
    t, _ = satellite
    assert tournament_numbers(t).prize_pool == 200_000
    assert satellite_seats(t) == 3
    assert payout_amounts(t) == [55_000, 55_000, 55_000, 35_000]


def test_seats_are_won_when_as_many_players_are_left(satellite, actor):
    t, entries = satellite
    for e in entries[:16]:
        entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    bubble = entries_bust(tournament=t, busts=[BustReport(entry=entries[16])], actor=actor)[0]
    assert bubble.place == 4 and bubble.prize == 35_000 and not bubble.won_seat
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    winners = list(Entry.objects.filter(tournament=t, won_seat=True))
    assert len(winners) == 3
    assert {(w.place, w.prize) for w in winners} == {(1, 55_000)}
    assert sum(Entry.objects.filter(tournament=t).values_list("prize", flat=True)) == 200_000
    # After the director reopens the satellite, an undo takes the seats back.
    tournament_reopen(tournament=t, actor=actor)
    bust_undo_last(tournament=t, actor=actor)
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    assert not Entry.objects.filter(tournament=t, won_seat=True).exists()


def test_several_out_in_one_hand_across_the_seat_line(satellite, actor):
    t, entries = satellite
    for e in entries[:15]:
        entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)
    # 5 left; two out in one hand leaves 3: the satellite is over.
    out = entries_bust(
        tournament=t,
        busts=[
            BustReport(entry=entries[15], stack_at_hand_start=1000),
            BustReport(entry=entries[16], stack_at_hand_start=2000),
        ],
        actor=actor,
    )
    assert [(e.place, e.prize) for e in out] == [(4, 35_000), (5, 0)]
    assert Entry.objects.filter(tournament=t, won_seat=True).count() == 3
