"""The announcer reads only the clocks that are due (#27): each clock keeps its next due
instant, set by every command, announcement and structure edit; an idle pass is one query
whatever the number of running clocks; the ticker sleeps until the soonest due instant."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.utils import timezone

from actions.tournaments import structure_replace_levels
from clocks import ticker
from clocks.models import Clock
from clocks.selectors import clock_state_for
from clocks.services import (
    clock_command,
    clocks_announce_due,
    clocks_reschedule_all,
    clocks_reschedule_some,
    next_due,
)
from tournament.services.tournaments import level_specs

pytestmark = pytest.mark.django_db


@pytest.fixture
def started(make_tournament, register, actor):
    def make(minutes_ago: float = 0, **options):
        t = make_tournament(status="registering", **options)
        register(t)
        register(t)
        at = timezone.now() - timedelta(minutes=minutes_ago)
        clock_command(tournament=t, kind="start", actor=actor, now=at)
        t.refresh_from_db()
        return t

    return make


def _due(t):
    return Clock.objects.get(tournament=t).next_due_at


def test_a_started_clock_is_due_at_the_end_of_its_level(started):
    t = started()
    state = clock_state_for(t)
    assert abs((_due(t) - state.level_ends_at).total_seconds()) < 1


def test_pause_clears_the_due_instant_and_resume_sets_it(started, actor):
    t = started()
    clock_command(tournament=t, kind="pause", actor=actor)
    assert _due(t) is None
    clock_command(tournament=t, kind="resume", actor=actor)
    assert _due(t) is not None
    clock_command(tournament=t, kind="add", seconds=-60, actor=actor)
    assert abs((_due(t) - clock_state_for(t).level_ends_at).total_seconds()) < 1


def test_a_due_clock_is_announced_once_and_then_due_at_the_next_level_end(started):
    t = started()
    end = _due(t)
    just_after = end + timedelta(seconds=1)
    assert clocks_announce_due(now=end - timedelta(seconds=1)) == 0
    assert clocks_announce_due(now=just_after) == 1
    assert clocks_announce_due(now=just_after) == 0  # exactly once
    assert t.events.filter(action__in=["clock.level", "clock.break"]).count() == 1
    following = clock_state_for(t, just_after).level_ends_at
    assert abs((_due(t) - following).total_seconds()) < 1


def test_an_idle_pass_is_one_query_whatever_the_number_of_clocks(
    started, django_assert_max_num_queries
):
    clocks = [started() for _ in range(30)]
    soon = min(_due(t) for t in clocks)
    with django_assert_max_num_queries(1):
        assert clocks_announce_due(now=soon - timedelta(seconds=5)) == 0
    with django_assert_max_num_queries(1):
        assert next_due() == soon


def test_a_structure_edit_moves_the_due_instant(started, actor):
    t = started()
    before = _due(t)
    specs = level_specs(t.structure)
    shorter = [specs[0].__class__(**{**specs[0].__dict__, "minutes": 1}), *specs[1:]]
    structure_replace_levels(tournament=t, levels=shorter, actor=actor)
    assert _due(t) < before - timedelta(minutes=5)


def test_the_safety_net_repairs_a_lost_due_instant(started):
    t = started(minutes_ago=60)  # several level ends since, none announced by a ticker
    Clock.objects.filter(tournament=t).update(next_due_at=None)
    assert clocks_announce_due() == 0  # lost: nothing reads it
    assert clocks_reschedule_all() == 1
    assert clocks_announce_due() >= 1  # caught up, marked late


def test_the_safety_net_goes_a_slice_at_a_time(started, django_assert_max_num_queries):
    clocks = [started(minutes_ago=60) for _ in range(3)]
    Clock.objects.update(next_due_at=None)
    ids = sorted(Clock.objects.values_list("pk", flat=True))
    with django_assert_max_num_queries(3 + 2):  # clocks, events, levels; one update each
        assert clocks_reschedule_some(after=0, limit=2) == (2, ids[1])
    assert [_due(t) is not None for t in clocks] == [True, True, False]
    assert clocks_reschedule_some(after=ids[1], limit=2) == (1, None)
    assert all(_due(t) is not None for t in clocks)
    assert clocks_reschedule_some(after=ids[2], limit=2) == (0, None)


def test_the_ticker_announces_what_is_due_between_two_slices_of_the_net(monkeypatch):
    """A net over hundreds of clocks takes a while: the level ends falling meanwhile are
    announced after each slice, not after the whole net."""
    calls: list[str] = []
    stop = threading.Event()
    slices = iter([10, 20, None])

    def net(after):
        calls.append(f"net from {after}")
        return next(slices)

    def tick():
        calls.append("tick")
        if calls.count("tick") == 4:
            stop.set()
        return 0

    monkeypatch.setattr(ticker, "_safety_net", net)
    monkeypatch.setattr(ticker, "tick_once", tick)
    monkeypatch.setattr(ticker, "_next_due", lambda: None)
    ticker.run_forever(interval=0.01, stop=stop)
    assert calls == [
        "net from 0",
        "tick",
        "net from 10",
        "tick",
        "net from 20",
        "tick",
        "tick",  # the net is through: the next one in SAFETY_SECONDS
    ]


@pytest.mark.parametrize(
    ("due_in", "expected"),
    [(None, 5.0), (-3.0, 0.0), (0.25, 0.25), (90.0, 5.0)],
)
def test_the_ticker_sleeps_until_the_next_due_instant(due_in, expected):
    now = timezone.now()
    due = None if due_in is None else now + timedelta(seconds=due_in)
    assert ticker.sleep_for(due, now, idle=5.0) == pytest.approx(expected)


def test_a_command_between_the_announcers_read_and_its_write_keeps_its_due_instant(
    started, actor, monkeypatch
):
    """The announcer reads a clock without its lock; a command that commits before the
    announcer writes the due instant it worked out keeps the instant the command set."""
    from clocks import services

    t = started(minutes_ago=5)
    clock_command(tournament=t, kind="pause", actor=actor)
    # Due by its row (as after a change outside the services), not by its history: the
    # announcer's pass finds nothing to announce and writes the instant it works out.
    Clock.objects.filter(tournament=t).update(next_due_at=timezone.now() - timedelta(seconds=1))
    worked_out = services.due_at

    def resumed_meanwhile(state, announced_level, now):
        monkeypatch.setattr(services, "due_at", worked_out)  # once (the command uses it too)
        clock_command(tournament=t, kind="resume", actor=actor)
        return worked_out(state, announced_level, now)

    monkeypatch.setattr(services, "due_at", resumed_meanwhile)
    clocks_announce_due()
    # Paused when read (no instant); resumed before the write: the level's end stands.
    assert _due(t) is not None
    assert abs((_due(t) - clock_state_for(t).level_ends_at).total_seconds()) < 1
