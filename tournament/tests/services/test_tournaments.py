"""Tournament lifecycle, settings, structures and payouts services."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from core.errors import FloorError
from tournament.domain.structure import LevelSpec
from tournament.models import Event, Status, Tournament
from tournament.services import payouts, tournaments

pytestmark = pytest.mark.django_db


def test_create_copies_the_template(make_tournament, template):
    t = make_tournament()
    assert t.structure_id != template.pk
    assert t.structure.levels.count() == template.levels.count()
    assert Event.objects.filter(tournament=t, action="tournament.create").exists()


@pytest.mark.parametrize(
    "bad",
    [
        {"seats_per_table": 11},
        {"seats_per_table": 1},
        {"buy_in": -5},
        {"currency": "EURO"},
        {"starting_stack": 0},
    ],
)
def test_bad_values_are_refused(make_tournament, bad):
    before = Tournament.objects.count()
    with pytest.raises(FloorError):
        make_tournament(**bad)
    assert Tournament.objects.count() == before


def test_only_legal_status_changes(make_tournament, actor):
    t = make_tournament()
    with pytest.raises(FloorError):
        tournaments.tournament_status_set(tournament=t, status="finished", actor=actor)
    t.refresh_from_db()
    assert t.status == Status.PLANNED
    tournaments.tournament_status_set(tournament=t, status="registering", actor=actor)
    tournaments.tournament_status_set(tournament=t, status="running", actor=actor)
    t.refresh_from_db()
    assert t.status == Status.RUNNING


def test_buy_in_frozen_once_paid(make_tournament, register, actor):
    t = make_tournament(status="registering")
    register(t)
    with pytest.raises(FloorError):
        tournaments.tournament_update(tournament=t, actor=actor, buy_in=20000)
    t.refresh_from_db()
    assert t.buy_in == 10000
    tournaments.tournament_update(tournament=t, actor=actor, name="Renamed")
    t.refresh_from_db()
    assert t.name == "Renamed"


def test_played_levels_cannot_change(make_tournament, actor):
    from clocks.models import Clock, ClockEvent

    t = make_tournament(status="running")
    clock = Clock.objects.create(tournament=t)
    ClockEvent.objects.create(clock=clock, kind="start", at=timezone.now() - timedelta(minutes=30))
    levels = tournaments.level_specs(t.structure)
    changed = [LevelSpec(50, 100, 0, False, 20), *levels[1:]]
    with pytest.raises(FloorError):
        tournaments.structure_replace_levels(tournament=t, levels=changed, actor=actor)
    future = [*levels[:2], LevelSpec(0, 0, 0, False, 15, True, ()), *levels[3:]]
    tournaments.structure_replace_levels(tournament=t, levels=future, actor=actor)
    assert t.structure.levels.get(position=3).minutes == 15


def test_invalid_structure_changes_nothing(make_tournament, actor):
    t = make_tournament()
    before = tournaments.level_specs(t.structure)
    with pytest.raises(FloorError):
        tournaments.structure_replace_levels(
            tournament=t, levels=[LevelSpec(200, 100, 0, False, 20)], actor=actor
        )
    assert tournaments.level_specs(t.structure) == before


def test_manual_payouts_must_sum_to_the_pool(make_tournament, register, actor):
    t = make_tournament(status="registering")
    for _ in range(10):
        register(t)
    with pytest.raises(FloorError):
        payouts.payouts_set(tournament=t, amounts=[50000, 40000], actor=actor)
    assert not t.payouts.exists()
    payouts.payouts_set(tournament=t, amounts=[60000, 40000], actor=actor)
    assert list(t.payouts.values_list("amount", flat=True)) == [60000, 40000]


def test_event_log_is_append_only(make_tournament):
    t = make_tournament()
    event = Event.objects.filter(tournament=t).first()
    assert event is not None
    with pytest.raises(PermissionError):
        event.save()
    with pytest.raises(PermissionError):
        event.delete()
    with pytest.raises(PermissionError):
        Event.objects.filter(tournament=t).update(action="x")
    with pytest.raises(PermissionError):
        Event.objects.filter(tournament=t).delete()
