"""Actions on one tournament take its row lock first, then the rows below it (tournament/locks.py),
so two of them never wait for each other in a circle. On PostgreSQL (row locks), with real
transactions on two connections at once."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import close_old_connections, connection, transaction
from django.utils import timezone

from clocks.models import Clock
from clocks.services import clock_command, clocks_announce_due
from tournament.locks import lock_tournament
from tournament.models import Event

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres_only() -> None:
    if not settings.TEST_ON_POSTGRES:
        pytest.skip("lock order is tested on PostgreSQL (row locks); this run uses SQLite")


def _in_thread(work: Callable[[], Any]) -> tuple[threading.Thread, list[BaseException]]:
    errors: list[BaseException] = []

    def run() -> None:
        try:
            work()
        except BaseException as exc:
            errors.append(exc)
        finally:
            close_old_connections()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, errors


def _waiting_for_a_lock(seconds: float = 5) -> bool:
    """Whether another backend of this database waits for a lock, within `seconds`."""
    end = time.monotonic() + seconds
    with connection.cursor() as cursor:
        while time.monotonic() < end:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND wait_event_type = 'Lock'"
            )
            if cursor.fetchone()[0]:
                return True
            time.sleep(0.02)
    return False


def test_the_ticker_and_a_clock_command_at_once_do_not_deadlock(make_tournament, actor):
    """The ticker announcing a level and the floor pausing the clock at that moment. The
    command locks the tournament, then the clock; the ticker locked the clock first and then
    needed the tournament for its event-log line: each waited for the other and PostgreSQL
    cancelled one (a level not announced, or the floor's pause refused)."""
    t = make_tournament(status="registering")
    clock_command(
        tournament=t, kind="start", actor=actor, now=timezone.now() - timedelta(minutes=25)
    )
    clock = Clock.objects.get(tournament=t)

    command_holds_the_tournament = threading.Event()
    go_on = threading.Event()

    def command_in_its_order() -> None:
        # What clock_command does, held open between its two locks.
        with transaction.atomic():
            lock_tournament(t.pk, key=True)
            command_holds_the_tournament.set()
            assert go_on.wait(30)
            Clock.objects.select_for_update().get(pk=clock.pk)

    command, command_errors = _in_thread(command_in_its_order)
    assert command_holds_the_tournament.wait(10)
    ticker, ticker_errors = _in_thread(clocks_announce_due)
    assert _waiting_for_a_lock(), "the ticker should wait for the command"
    go_on.set()
    command.join(20)
    ticker.join(20)

    assert not command_errors and not ticker_errors, command_errors + ticker_errors
    assert Clock.objects.get(pk=clock.pk).announced_level == 1
    assert Event.objects.filter(tournament=t, action="clock.level").count() == 1


def test_a_phone_sign_up_in_one_statement_waits_for_the_tournament(make_tournament, actor):
    """The sign-up written in one statement (signups/services.py) takes the tournament's lock
    first, as every other writer of its event log: with the tournament held by another action,
    it waits, then goes through."""
    from signups import services as su

    t = make_tournament(status="registering", capacity=10)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=5, reserved=0, check_in_deadline=None
    )
    holds = threading.Event()
    go_on = threading.Event()

    def another_action() -> None:
        with transaction.atomic():
            lock_tournament(t.pk)
            holds.set()
            assert go_on.wait(30)

    other, other_errors = _in_thread(another_action)
    assert holds.wait(10)
    made: list[Any] = []
    phone, phone_errors = _in_thread(
        lambda: made.append(
            su.signup_by_phone(
                tournament_id=t.pk, actor=actor, display_name="Ada", nonce="one-statement"
            )
        )
    )
    waited = _waiting_for_a_lock()
    go_on.set()
    other.join(20)
    phone.join(20)

    assert waited, "the sign-up should wait for the tournament's lock"
    assert not other_errors and not phone_errors, other_errors + phone_errors
    assert made and made[0] is not None and made[0].status == "confirmed"
    assert Event.objects.filter(tournament=t, action="signup.create").count() == 1
