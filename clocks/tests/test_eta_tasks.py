"""The full stack announces a level end at its instant (#27): every clock command arms a Celery
task with the clock's next due instant as its ETA, the task announces exactly once and arms the
next level end, a stale task does nothing, and only near-term instants are armed (the Redis
broker's visibility timeout)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clocks import tasks, wakeup
from clocks.models import Clock
from clocks.services import clock_command
from config.celery import app

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch, settings):
    """The full stack's mode, with the broker replaced by a list of (args, eta)."""
    settings.FLOOR_TICKER = "celery"
    monkeypatch.setattr(wakeup, "_eager", lambda: False)
    sent: list[tuple[tuple[int, ...], object]] = []

    def apply_async(args, eta):
        sent.append((tuple(args), eta))

    monkeypatch.setattr(tasks.clock_due, "apply_async", apply_async)  # the task's own retry
    monkeypatch.setattr(wakeup, "_send", lambda clock_pk, eta: apply_async((clock_pk,), eta))
    return sent


@pytest.fixture
def started(make_tournament, register, actor, django_capture_on_commit_callbacks):
    def make(seconds_ago: float = 19 * 60):
        # Levels of 20 minutes: by default level 1 ends in a minute (within the horizon).
        t = make_tournament(status="registering")
        register(t)
        with django_capture_on_commit_callbacks(execute=True):
            clock_command(
                tournament=t,
                kind="start",
                actor=actor,
                now=timezone.now() - timedelta(seconds=seconds_ago),
            )
        t.refresh_from_db()
        return t

    return make


def _clock(t):
    return Clock.objects.get(tournament=t)


def test_a_start_arms_the_level_end(queued, started):
    t = started()
    clock = _clock(t)
    assert queued == [((clock.pk,), clock.next_due_at)]


def test_each_instant_is_armed_once(queued, started):
    t = started()
    clock = _clock(t)
    assert not wakeup.arm(clock.pk, clock.next_due_at)
    assert tasks.arm_within(600) == 0
    assert len(queued) == 1


def test_a_command_arms_the_new_instant(queued, started, actor, django_capture_on_commit_callbacks):
    t = started()
    with django_capture_on_commit_callbacks(execute=True):
        clock_command(tournament=t, kind="add", seconds=-30, actor=actor)
    assert [eta for _args, eta in queued] == [queued[0][1], _clock(t).next_due_at]
    with django_capture_on_commit_callbacks(execute=True):
        clock_command(tournament=t, kind="pause", actor=actor)
    assert len(queued) == 2  # nothing is due while paused


def test_only_near_term_instants_are_armed(queued):
    now = timezone.now()
    assert not wakeup.arm(1, now + timedelta(seconds=wakeup.ARM_HORIZON + 1), now)
    assert wakeup.arm(1, now + timedelta(seconds=wakeup.ARM_HORIZON - 1), now)
    options = app.conf.broker_transport_options or {}
    assert wakeup.horizon() <= float(options.get("visibility_timeout", 3600)) / 2


def test_the_task_announces_once_and_arms_the_next_level_end(queued, started):
    # Levels of 20 minutes: level 1 ended 18 minutes ago, level 2 ends in 2 minutes.
    t = started(seconds_ago=38 * 60)
    clock = _clock(t)
    assert clock.next_due_at < timezone.now()
    assert tasks.clock_due(clock.pk) == 1
    clock.refresh_from_db()
    assert clock.announced_level == 1
    assert clock.next_due_at > timezone.now() + timedelta(seconds=100)
    assert queued[-1] == ((clock.pk,), clock.next_due_at)
    assert tasks.clock_due(clock.pk) == 0  # a second delivery: exactly once
    assert t.events.filter(action__in=["clock.level", "clock.break"]).count() == 1


def test_a_stale_task_does_nothing(queued, started, actor, django_capture_on_commit_callbacks):
    t = started()
    clock = _clock(t)
    with django_capture_on_commit_callbacks(execute=True):
        clock_command(tournament=t, kind="pause", actor=actor)
    before = len(queued)
    assert tasks.clock_due(clock.pk) == 0
    assert len(queued) == before
    assert not t.events.filter(action__in=["clock.level", "clock.break"]).exists()


def test_a_task_that_ran_early_tries_again_at_the_instant(queued, started):
    t = started()
    clock = _clock(t)
    soon = timezone.now() + timedelta(milliseconds=30)
    Clock.objects.filter(pk=clock.pk).update(next_due_at=soon)
    assert tasks.clock_due(clock.pk) == 0
    args, eta = queued[-1]
    assert args == (clock.pk, 1) and eta >= soon


def test_beat_is_the_safety_net_every_few_seconds():
    schedule = app.conf.beat_schedule
    assert schedule["clock-tick"]["schedule"] == tasks.TICK_SECONDS <= 10
    assert schedule["clock-reschedule"]["task"] == "clocks.tasks.clocks_reschedule"
