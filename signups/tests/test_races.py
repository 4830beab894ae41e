"""Many phones at once, on PostgreSQL (row locks): K places give exactly K confirmed and the rest
waiting in arrival order; cancellations at random each move exactly one sign-up up; no-shows at
the deadline give their places to the list in order."""

from __future__ import annotations

import random
import threading
from datetime import timedelta

import pytest
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from actions.signups import signup_check_in
from core.errors import FloorError
from signups import services as su
from signups.models import SignUp, SignUpSheet, SignUpStatus
from tournament.events import Actor

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

PLACES, PHONES = 10, 40


@pytest.fixture(autouse=True)
def _postgres_only():
    if not settings.TEST_ON_POSTGRES:
        pytest.skip("races are tested on PostgreSQL (row locks); this run uses SQLite")


def _all_at_once(work, count):
    errors: list[BaseException] = []
    start = threading.Barrier(count)

    def run(i):
        try:
            start.wait()
            work(i)
        except BaseException as exc:
            errors.append(exc)
        finally:
            close_old_connections()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors


def test_k_places_k_confirmed_the_rest_waiting_in_arrival_order(make_tournament, actor):
    t = make_tournament(status="registering")
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=PLACES, reserved=0, check_in_deadline=None
    )
    phone = Actor.system("phone")
    _all_at_once(
        lambda i: su.signup_create(
            tournament=t, display_name=f"Phone {i}", actor=phone, nonce=f"n{i}"
        ),
        PHONES,
    )
    rows = list(SignUp.objects.filter(sheet__tournament=t).order_by("sequence"))
    assert [r.sequence for r in rows] == list(range(1, PHONES + 1))
    assert [r.status for r in rows] == ["confirmed"] * PLACES + ["waiting"] * (PHONES - PLACES)

    # Random cancellations, all at once: each one that held a place moves exactly one up.
    rng = random.Random(5)
    leaving = rng.sample([r for r in rows if r.status == "confirmed"], 4)
    _all_at_once(lambda i: su.signup_cancel(signup=leaving[i], actor=phone), len(leaving))
    after = {r.sequence: r.status for r in SignUp.objects.filter(sheet__tournament=t)}
    confirmed = sorted(s for s, st in after.items() if st == SignUpStatus.CONFIRMED)
    assert len(confirmed) == PLACES
    assert confirmed[-4:] == [11, 12, 13, 14]  # the first four waiting, in arrival order

    # The deadline: nobody checked in, every holder a no-show, the next ten move up in order.
    SignUpSheet.objects.filter(tournament=t).update(
        check_in_deadline=timezone.now() - timedelta(seconds=1)
    )
    _all_at_once(lambda i: su.deadline_check(t), 5)  # five pages at once: applied once
    final = {r.sequence: r.status for r in SignUp.objects.filter(sheet__tournament=t)}
    assert sorted(s for s, st in final.items() if st == "confirmed") == list(range(15, 25))
    assert sum(1 for st in final.values() if st == "no_show") == PLACES


def test_sign_ups_cancellations_and_staff_at_once_keep_the_counts_and_the_order(
    make_tournament, actor
):
    """Phones (one statement each), staff sign-ups (under the lock) and cancellations all at
    once: never more places held than offered, no free place while someone waits, the kept
    counts equal to the rows, the waiting list in arrival order."""
    t = make_tournament(status="registering")
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=PLACES, reserved=0, check_in_deadline=None
    )
    phone = Actor.system("phone")
    first = [
        su.signup_create(tournament=t, display_name=f"Early {i}", actor=phone) for i in range(8)
    ]

    def work(i):
        if i < 6:
            su.signup_cancel(signup=first[i], actor=phone)
        elif i < 12:
            su.signup_create(tournament=t, display_name=f"Staff {i}", actor=actor, by_staff=True)
        else:
            su.signup_create(tournament=t, display_name=f"Phone {i}", actor=phone, nonce=f"m{i}")

    _all_at_once(work, 40)
    rows = list(SignUp.objects.filter(sheet__tournament=t).order_by("sequence"))
    assert [r.sequence for r in rows] == list(range(1, len(rows) + 1)) and len(rows) == 42
    held = [r for r in rows if r.status == SignUpStatus.CONFIRMED]
    waiting = [r.sequence for r in rows if r.status == SignUpStatus.WAITING]
    assert len(held) == PLACES  # 42 - 6 cancelled = 36 for 10 places
    assert len(waiting) == 26 and waiting == sorted(waiting)
    assert max(r.sequence for r in held) < min(waiting)  # the places went first come first
    sheet = SignUpSheet.objects.get(tournament=t)
    assert (sheet.held, sheet.waiting, sheet.sequence) == (PLACES, 26, 42)


def test_walk_ins_and_sign_ups_at_once_never_promise_a_seat_twice(make_tournament, actor):
    """Capacity 10 with 2 held back: walk-ins at the desk and phones signing up, all at once.
    Entries playing and places promised never exceed the seats; every refused walk-in is
    refused for that reason; every sign-up with a place checks in as a playing entry."""
    from actions.registration import player_register
    from tournament.models import EntryStatus

    t = make_tournament(status="registering", capacity=PLACES)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=None, reserved=2, check_in_deadline=None
    )
    phone = Actor.system("phone")
    refused: list[str] = []

    def work(i):
        if i % 2:
            su.signup_create(tournament=t, display_name=f"Phone {i}", actor=phone, nonce=f"w{i}")
            return
        try:
            player_register(tournament=t, name=f"Walk In {i}", actor=actor)
        except FloorError as exc:
            refused.append(exc.code)

    _all_at_once(work, 30)
    playing = t.entries.filter(status=EntryStatus.ACTIVE).count()
    promised = SignUp.objects.filter(sheet__tournament=t, status=SignUpStatus.CONFIRMED)
    assert playing + promised.count() == PLACES  # full, never more
    assert set(refused) <= {"held_for_signups"} and playing + len(refused) == 15
    assert not t.entries.filter(status=EntryStatus.ALTERNATE).exists()
    assert promised.count() <= PLACES - 2  # the places held back stay the desk's
    sheet = SignUpSheet.objects.get(tournament=t)
    assert (sheet.promised, sheet.held) == (promised.count(), promised.count())
    for s in list(promised):
        signup_check_in(signup=s, actor=actor)
    assert t.entries.filter(status=EntryStatus.ACTIVE).count() == PLACES
    assert not t.entries.filter(status=EntryStatus.ALTERNATE).exists()


def test_one_person_signing_up_from_several_phones_at_once_gets_one_sign_up(make_tournament, actor):
    t = make_tournament(status="registering")
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=PLACES, reserved=0, check_in_deadline=None
    )
    phone = Actor.system("phone")
    refused: list[str] = []

    def work(i):
        try:
            su.signup_create(
                tournament=t,
                display_name="Anna",
                actor=phone,
                email="anna@example.org",
                consent=True,
                nonce=f"same{i}",
            )
        except su.SignedUpAlready as exc:
            refused.append(exc.code)

    _all_at_once(work, 12)
    assert SignUp.objects.filter(sheet__tournament=t).count() == 1 and len(refused) == 11
    assert SignUpSheet.objects.get(tournament=t).sequence == 1
