"""The full stack's side: the task queued after the commit by its name, beat's sweep, and a
broker that is down never failing the action that queued."""

from __future__ import annotations

import pytest

from config.celery import app
from webhooks import tasks, wakeup


def test_beat_sends_the_retries_and_prunes():
    schedule = app.conf.beat_schedule
    assert schedule["webhooks-send"]["task"] == wakeup.SEND == tasks.deliveries_send.name
    assert schedule["webhooks-send"]["schedule"] == tasks.SWEEP_SECONDS <= 30
    assert schedule["webhooks-prune"]["task"] == tasks.deliveries_prune.name


@pytest.fixture
def celery_stack(settings, monkeypatch):
    settings.FLOOR_TICKER = "celery"
    sent: list[tuple[str, tuple]] = []
    monkeypatch.setattr(
        wakeup.current_app, "send_task", lambda name, args: sent.append((name, args))
    )
    return sent


def test_the_task_is_queued_by_its_name_with_the_rows(celery_stack):
    wakeup.woken.clear()
    wakeup.dispatch([4, 5])
    assert celery_stack == [(wakeup.SEND, ([4, 5],))]
    assert wakeup.woken.is_set()


def test_a_broker_that_is_down_is_logged_not_raised(settings, monkeypatch, caplog):
    settings.FLOOR_TICKER = "celery"

    def down(name, args):
        raise ConnectionError("no broker")

    monkeypatch.setattr(wakeup.current_app, "send_task", down)
    wakeup.dispatch([1])
    assert "could not queue" in caplog.text
