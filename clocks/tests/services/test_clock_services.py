"""Clock commands and the exactly-once announcer on the real database."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clocks.models import Clock
from clocks.selectors import clock_state_for
from clocks.services import clock_command, clocks_announce_due
from core.errors import FloorError
from tournament.models import Event, Status

pytestmark = pytest.mark.django_db


@pytest.fixture
def tournament(make_tournament):
    return make_tournament(status="registering")


def test_start_runs_the_tournament_and_counts_down(tournament, actor):
    t0 = timezone.now()
    clock_command(tournament=tournament, kind="start", actor=actor, now=t0)
    tournament.refresh_from_db()
    assert tournament.status == Status.RUNNING
    state = clock_state_for(tournament, t0 + timedelta(minutes=5))
    assert state.level_index == 0
    assert state.remaining == pytest.approx(15 * 60)


def test_pause_freezes_and_resume_continues(tournament, actor):
    t0 = timezone.now()
    clock_command(tournament=tournament, kind="start", actor=actor, now=t0)
    clock_command(tournament=tournament, kind="pause", actor=actor, now=t0 + timedelta(minutes=2))
    later = clock_state_for(tournament, t0 + timedelta(minutes=30))
    assert not later.running
    assert later.remaining == pytest.approx(18 * 60)
    clock_command(tournament=tournament, kind="resume", actor=actor, now=t0 + timedelta(minutes=30))
    state = clock_state_for(tournament, t0 + timedelta(minutes=31))
    assert state.remaining == pytest.approx(17 * 60)


@pytest.mark.parametrize(
    ("kind", "kwargs"),
    [("pause", {}), ("add", {"seconds": 60}), ("jump", {"level": 2}), ("resume", {})],
)
def test_commands_before_start_are_refused(tournament, actor, kind, kwargs):
    with pytest.raises(FloorError):
        clock_command(tournament=tournament, kind=kind, actor=actor, **kwargs)
    assert not Event.objects.filter(action__startswith="clock.").exists()


def test_bad_adjustments_change_nothing(tournament, actor):
    t0 = timezone.now()
    clock_command(tournament=tournament, kind="start", actor=actor, now=t0)
    for kind, kwargs in [
        ("set_remaining", {"seconds": -5}),
        ("jump", {"level": 99}),
        ("start", {}),
        ("resume", {}),
    ]:
        with pytest.raises(FloorError):
            clock_command(tournament=tournament, kind=kind, actor=actor, now=t0, **kwargs)
    assert Clock.objects.get(tournament=tournament).events.count() == 1


def test_planned_tournament_cannot_start(make_tournament, actor):
    t = make_tournament()
    with pytest.raises(FloorError):
        clock_command(tournament=t, kind="start", actor=actor)


def test_level_ends_are_announced_exactly_once(tournament, actor):
    t0 = timezone.now() - timedelta(minutes=45)
    clock_command(tournament=tournament, kind="start", actor=actor, now=t0)
    # Level 2 started at minute 20 and the break at 40: both recorded, in order, the first late.
    assert clocks_announce_due() == 2
    assert clocks_announce_due() == 0
    assert clocks_announce_due(now=timezone.now() + timedelta(minutes=1)) == 0
    clock = Clock.objects.get(tournament=tournament)
    assert clock.announced_level == 2
    events = Event.objects.filter(action__in=["clock.level", "clock.break"]).order_by("id")
    assert [(e.action, e.payload["level_index"], e.payload["late"]) for e in events] == [
        ("clock.level", 1, True),
        ("clock.break", 2, False),
    ]


def test_two_tickers_never_double_announce(tournament, actor):
    t0 = timezone.now() - timedelta(minutes=25)
    clock_command(tournament=tournament, kind="start", actor=actor, now=t0)
    made = clocks_announce_due() + clocks_announce_due()
    assert made == 1
