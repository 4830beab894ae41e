"""The clock stops when the tournament ends, and comes back paused when it is reopened."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from actions.bust import BustReport, entries_bust
from actions.tournaments import tournament_status_set
from clocks.selectors import clock_state_for
from clocks.services import clock_command, clock_reopen, clock_stop, clocks_announce_due
from core.errors import FloorError
from tournament.models import Status, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def playing(make_tournament, register, actor):
    """Three players, registration closed, the clock started five minutes ago."""
    t = make_tournament(status="registering")
    entries = [register(t) for _ in range(3)]
    clock_command(
        tournament=t, kind="start", actor=actor, now=timezone.now() - timedelta(minutes=5)
    )
    Tournament.objects.filter(pk=t.pk).update(registration_closed_at=timezone.now())
    t.refresh_from_db()
    return t, entries


def test_the_last_bust_stops_the_clock(playing, actor):
    t, entries = playing
    entries_bust(tournament=t, busts=[BustReport(entry=entries[0])], actor=actor)
    assert clock_state_for(t).running
    assert not t.events.filter(action="clock.stop").exists()

    entries_bust(tournament=t, busts=[BustReport(entry=entries[1])], actor=actor)
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    stop = t.events.get(action="clock.stop")
    assert stop.payload["level_index"] == 0
    assert 14 * 60 < stop.payload["remaining"] <= 15 * 60
    # Hours later the clock still shows the time it stopped at and announces nothing.
    later = timezone.now() + timedelta(hours=3)
    state = clock_state_for(t, later)
    assert state.stopped and not state.running and state.level_ends_at is None
    assert state.level_index == 0
    assert state.remaining == pytest.approx(stop.payload["remaining"], abs=1)
    assert clocks_announce_due(now=later) == 0
    assert not t.events.filter(action__in=["clock.level", "clock.break"]).exists()
    for kind in ("resume", "pause", "start"):
        with pytest.raises(FloorError, match="ended"):
            clock_command(tournament=t, kind=kind, actor=actor)
    # Stopping twice records nothing more.
    assert clock_stop(tournament=t, actor=actor) is False
    assert t.events.filter(action="clock.stop").count() == 1


def test_a_director_ending_the_tournament_stops_the_clock(playing, actor):
    t, _entries = playing
    tournament_status_set(tournament=t, status="finished", actor=actor)
    assert clock_state_for(t).stopped
    assert t.events.filter(action="clock.stop").count() == 1


def test_a_clock_never_started_has_nothing_to_stop(make_tournament, register, actor):
    t = make_tournament(status="running")
    assert clock_stop(tournament=t, actor=actor) is False
    assert not t.events.filter(action="clock.stop").exists()


def test_reopen_brings_the_clock_back_paused(playing, actor):
    t, entries = playing
    entries_bust(tournament=t, busts=[BustReport(entry=entries[0])], actor=actor)
    entries_bust(tournament=t, busts=[BustReport(entry=entries[1])], actor=actor)
    stopped_at = clock_state_for(t).remaining
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    assert clock_reopen(tournament=t, actor=actor) is True
    state = clock_state_for(t, timezone.now() + timedelta(minutes=10))
    assert not state.stopped and not state.running
    assert state.remaining == pytest.approx(stopped_at, abs=1)
    clock_command(tournament=t, kind="resume", actor=actor)
    assert clock_state_for(t).running
    assert clock_reopen(tournament=t, actor=actor) is False


def test_resume_after_a_reopen_without_the_clock(playing, actor):
    # A reopen that left the clock stopped: Resume takes it back and starts it in one go.
    t, _entries = playing
    tournament_status_set(tournament=t, status="finished", actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    state = clock_command(tournament=t, kind="resume", actor=actor)
    assert state.running and not state.stopped
    kinds = list(t.clock.events.values_list("kind", flat=True))
    assert kinds[-3:] == ["stop", "reopen", "resume"]


def test_the_screens_are_told(playing, actor, monkeypatch):
    sent: list[tuple[str, str, dict]] = []
    monkeypatch.setattr(
        "clocks.services.broadcast_on_commit",
        lambda group, event, data: sent.append((group, event, json.loads(json.dumps(data)))),
    )
    t, _entries = playing
    tournament_status_set(tournament=t, status="finished", actor=actor)
    clock = [data for _g, event, data in sent if event == "clock"]
    assert clock and clock[-1]["stopped"] is True and clock[-1]["running"] is False


def test_a_reopened_tournament_brings_the_clock_back(playing, actor):
    from actions.tournaments import tournament_reopen

    t, _entries = playing
    tournament_status_set(tournament=t, status="finished", actor=actor)
    t = tournament_reopen(tournament=t, actor=actor)
    state = clock_state_for(t)
    assert not state.stopped and not state.running
    assert t.events.filter(action="clock.reopen").count() == 1
