"""Login throttling: an account from one address locks after a few failures, an address after
more; a lock refuses even the right password, shows its end on the login page, leaves an audit
record and lifts after the cool-off or when a director resets it; password checks are bounded
per process. The admin login is guarded the same way; the API takes no password."""

from __future__ import annotations

import base64
import logging
import os
import threading
from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.core.management import call_command
from django.test import override_settings
from django.urls import reverse

from core.login import _HASHERS, HASHING_NICENESS, PASSWORD_CHECKS
from tournament.models import Event

pytestmark = pytest.mark.django_db

A = "10.1.1.1"
B = "10.2.2.2"


def attempt(client, username, password, *, address=A, url=None, **extra):
    return client.post(
        url or reverse("login"),
        {"username": username, "password": password},
        REMOTE_ADDR=address,
        **extra,
    )


def logged_in(response):
    return response.status_code == 302 and response["Location"] == reverse("console-home")


def test_five_failures_lock_the_account_from_that_address_even_for_the_right_password(
    client, director, caplog
):
    for _ in range(4):
        assert attempt(client, "dir", "wrong").status_code == 200  # the form's own error
    with caplog.at_level(logging.WARNING, logger="floor.login"):
        fifth = attempt(client, "dir", "wrong")
    assert fifth.status_code == 429
    assert fifth["X-Floor-Login"] == "locked"
    assert int(fifth["Retry-After"]) > 14 * 60
    assert "Too many failed logins. Please try again in 15 minutes" in fifth.content.decode()
    assert 'id="id_password"' in fifth.content.decode()  # the login page, not a bare 429
    assert "login locked" in caplog.text and "'dir'" in caplog.text

    right = attempt(client, "dir", "pw-director-123")
    assert right.status_code == 429 and not right.wsgi_request.user.is_authenticated

    locks = Event.objects.filter(action="login.locked")
    assert locks.count() == 1  # refused tries during the lock are not new locks
    assert locks.get().payload["account"] == "dir"
    assert locks.get().source == A


def test_a_lock_never_covers_the_account_from_elsewhere(client, director):
    for _ in range(6):
        attempt(client, "dir", "wrong", address=A)
    assert logged_in(attempt(client, "dir", "pw-director-123", address=B))


def test_twenty_failures_lock_the_address_for_every_account(client, director, floor_user):
    for n in range(20):
        attempt(client, f"guess{n}", "wrong", address=A)
    refused = attempt(client, "flo", "pw-floor-123", address=A)
    assert refused.status_code == 429 and refused["X-Floor-Login"] == "locked"
    assert logged_in(attempt(client, "flo", "pw-floor-123", address=B))


def test_tries_during_a_lock_do_not_prolong_it_and_it_lifts_after_the_cool_off(client, director):
    for _ in range(5):
        attempt(client, "dir", "wrong")
    locked_at = set(AccessAttempt.objects.values_list("attempt_time", flat=True))
    for _ in range(3):
        assert attempt(client, "dir", "wrong").status_code == 429
    assert set(AccessAttempt.objects.values_list("attempt_time", flat=True)) == locked_at
    for row in AccessAttempt.objects.all():
        row.attempt_time -= timedelta(minutes=16)
        row.save()
    assert logged_in(attempt(client, "dir", "pw-director-123"))


def test_a_director_lifts_a_lock_with_axes_reset(client, director):
    for _ in range(5):
        attempt(client, "dir", "wrong")
    assert attempt(client, "dir", "pw-director-123").status_code == 429
    call_command("axes_reset", verbosity=0)
    assert logged_in(attempt(client, "dir", "pw-director-123"))


def test_logging_in_to_another_account_does_not_forgive_failures_against_the_director(
    client, director, floor_user
):
    for _ in range(4):
        attempt(client, "dir", "wrong")
    assert logged_in(attempt(client, "flo", "pw-floor-123"))
    client.logout()
    assert attempt(client, "dir", "wrong").status_code == 429


def test_the_accounts_own_login_forgives_its_typos(client, director):
    for _ in range(4):
        attempt(client, "dir", "wrong")
    assert logged_in(attempt(client, "dir", "pw-director-123"))
    client.logout()
    for _ in range(4):
        assert attempt(client, "dir", "wrong").status_code == 200


def test_the_admin_login_locks_the_same_way(client, director):
    url = reverse("admin:login")
    for _ in range(5):
        last = attempt(client, "dir", "wrong", url=url)
    assert last.status_code == 429 and last["X-Floor-Login"] == "locked"
    assert attempt(client, "dir", "pw-director-123", url=url).status_code == 429


@override_settings(FLOOR_TRUSTED_PROXIES=["127.0.0.1"])
def test_the_lock_counts_the_client_address_the_proxy_reports(client, director):
    for _ in range(5):
        attempt(client, "dir", "wrong", address="127.0.0.1", HTTP_X_FORWARDED_FOR=A)
    assert AccessAttempt.objects.get().ip_address == A
    other = attempt(client, "dir", "pw-director-123", address="127.0.0.1", HTTP_X_FORWARDED_FOR=B)
    assert logged_in(other)


@pytest.mark.parametrize("taken_after_the_peek", [False, True])
def test_over_the_bound_a_login_is_answered_at_once_and_not_counted(
    client, director, monkeypatch, taken_after_the_peek
):
    if taken_after_the_peek:  # the last slot went to another thread between peek and check
        monkeypatch.setattr("core.login._slot_free", lambda: True)
    held = 0
    while PASSWORD_CHECKS.acquire(blocking=False):
        held += 1
    try:
        busy = attempt(client, "dir", "pw-director-123")
    finally:
        for _ in range(held):
            PASSWORD_CHECKS.release()
    assert held >= 1
    assert busy.status_code == 429 and busy["X-Floor-Login"] == "busy"
    assert "try again in a moment" in busy.content.decode()
    assert not AccessAttempt.objects.exists()
    assert logged_in(attempt(client, "dir", "pw-director-123"))


def test_the_api_takes_no_password(client, director):
    basic = base64.b64encode(b"dir:pw-director-123").decode()
    response = client.post(
        reverse("api-tournaments"),
        {},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Basic {basic}",
    )
    assert response.status_code in (401, 403)


def test_passwords_are_hashed_at_a_lower_cpu_priority():
    nice = _HASHERS.submit(lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
    assert nice.result() >= HASHING_NICENESS


def test_a_password_stored_with_an_older_hasher_is_upgraded_at_login(client, director):
    director.password = make_password("pw-director-123", hasher="md5")
    director.save()
    newer = ["django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher"]
    with override_settings(PASSWORD_HASHERS=[*newer, *settings.PASSWORD_HASHERS]):
        assert logged_in(attempt(client, "dir", "pw-director-123"))
    director.refresh_from_db()
    assert director.password.startswith("pbkdf2_sha1$")


@override_settings(FLOOR_LOGIN_POSTS_PER_MINUTE=3)
def test_an_address_posting_logins_faster_than_a_person_is_refused_before_the_form(
    client, director, one_rate_window
):
    address = "10.9.9.9"
    for _ in range(3):
        assert attempt(client, "nobody", "wrong", address=address).status_code == 200
    refused = attempt(client, "dir", "pw-director-123", address=address)
    assert refused.status_code == 429 and refused["X-Floor-Login"] == "rate"
    assert not refused.wsgi_request.user.is_authenticated
    assert "Too many login attempts from this address" in refused.content.decode()
    assert 'id="id_password"' in refused.content.decode()
    # Nothing was hashed or counted for the refused post; another address logs in as usual.
    assert not AccessAttempt.objects.filter(username="dir").exists()
    assert logged_in(attempt(client, "dir", "pw-director-123", address=B))
