"""Registration desk services: limits, windows, alternates, refunds, and nothing half-written."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from actions import registration as registering
from core.errors import FloorError
from tournament.models import EntryStatus, Event, Purchase
from tournament.selectors import tournament_numbers
from tournament.services import registration

pytestmark = pytest.mark.django_db


def start_clock(tournament, minutes_ago: int) -> None:
    from clocks.models import Clock, ClockEvent

    clock, _ = Clock.objects.get_or_create(tournament=tournament)
    ClockEvent.objects.create(
        clock=clock, kind="start", at=timezone.now() - timedelta(minutes=minutes_ago)
    )


def test_register_assigns_numbers_and_takes_the_buy_in(make_tournament, register):
    t = make_tournament(status="registering")
    a = register(t, "Anna Schmidt")
    b = register(t, "Ben Weber")
    assert (a.number, b.number) == (1, 2)
    assert a.player.display_name == "Anna S."
    numbers = tournament_numbers(t)
    assert numbers.entries == 2
    assert numbers.prize_pool == 2 * 10000
    assert numbers.fees == 2 * 1000
    assert Event.objects.filter(tournament=t, action="entry.register").count() == 2


def test_registration_closed_while_planned(make_tournament, register):
    t = make_tournament()
    with pytest.raises(FloorError):
        register(t)
    assert t.entries.count() == 0


def test_no_second_live_entry(make_tournament, actor):
    t = make_tournament(status="registering", max_entries_per_player=3)
    player = registration.player_create(name="Clara Braun", actor=actor)
    registering.entry_register(tournament=t, player=player, actor=actor)
    with pytest.raises(FloorError, match="live entry"):
        registering.entry_register(tournament=t, player=player, actor=actor)
    assert t.entries.count() == 1


def test_reentry_after_bust_within_limit(make_tournament, actor, register):
    from actions.bust import BustReport, entries_bust

    t = make_tournament(
        status="running",
        max_entries_per_player=2,
        reentry_until_level=4,
        late_registration_until_level=4,
    )
    start_clock(t, 1)
    player = registration.player_create(name="David Koch", actor=actor)
    first = registering.entry_register(tournament=t, player=player, actor=actor)
    register(t)
    register(t)
    entries_bust(tournament=t, busts=[BustReport(entry=first)], actor=actor)
    again = registering.entry_register(tournament=t, player=player, actor=actor)
    assert again.is_reentry
    assert again.purchases.get().kind == "reentry"
    entries_bust(tournament=t, busts=[BustReport(entry=again)], actor=actor)
    with pytest.raises(FloorError):
        registering.entry_register(tournament=t, player=player, actor=actor)


def test_late_registration_closes_after_the_level(make_tournament, register):
    t = make_tournament(status="running", late_registration_until_level=1)
    start_clock(t, 5)  # level 1 of 20 minutes: still open
    register(t)
    t2 = make_tournament(name="Late", status="running", late_registration_until_level=1)
    start_clock(t2, 45)  # level 2 (second 20-minute level) is running
    with pytest.raises(FloorError, match="closed"):
        register(t2)
    assert t2.entries.count() == 0


def test_capacity_makes_alternates_and_refund_promotes(make_tournament, register, actor):
    t = make_tournament(status="registering", capacity=2)
    a = register(t)
    register(t)
    c = register(t)
    assert c.status == EntryStatus.ALTERNATE
    assert c.alternate_position == 1
    registering.entry_unregister(entry=a, actor=actor)
    c.refresh_from_db()
    assert c.status == EntryStatus.ACTIVE
    assert tournament_numbers(t).entries == 2


def test_unregister_refunds_before_start_only(make_tournament, register, actor):
    t = make_tournament(status="registering")
    e = register(t)
    registering.entry_unregister(entry=e, actor=actor)
    assert Purchase.objects.get(entry=e).refunded
    assert tournament_numbers(t).prize_pool == 0
    t2 = make_tournament(name="Running", status="running", late_registration_until_level=3)
    start_clock(t2, 1)
    e2 = register(t2)
    with pytest.raises(FloorError):
        registering.entry_unregister(entry=e2, actor=actor)
    e2.refresh_from_db()
    assert e2.status == EntryStatus.ACTIVE


def test_rebuy_and_addon_limits(make_tournament, register, actor):
    t = make_tournament(
        status="running",
        late_registration_until_level=3,
        rebuys_max=1,
        rebuy_price=5000,
        rebuy_chips=20000,
        rebuy_until_level=3,
        addons_max=1,
        addon_price=5000,
        addon_chips=30000,
        addon_until_level=3,
    )
    start_clock(t, 1)
    e = register(t)
    registration.entry_purchase(entry=e, kind="rebuy", actor=actor)
    with pytest.raises(FloorError):
        registration.entry_purchase(entry=e, kind="rebuy", actor=actor)
    registration.entry_purchase(entry=e, kind="addon", actor=actor)
    with pytest.raises(FloorError):
        registration.entry_purchase(entry=e, kind="addon", actor=actor)
    numbers = tournament_numbers(t)
    assert numbers.prize_pool == 10000 + 5000 + 5000
    assert numbers.chips_in_play == 20000 + 20000 + 30000


def test_player_name_is_required(actor, db):
    with pytest.raises(FloorError):
        registration.player_create(name=" ", actor=actor)
