"""Sessions on shared floor laptops: a working day long, and "Log out everywhere" ends every
session of the account on every device (from the account page, or a director in the admin)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournament.events import Actor
from tournament.models import Event
from tournament.services.sessions import user_sessions_end
from tournament.session_selectors import user_session_keys

pytestmark = pytest.mark.django_db


def device(user):
    client = Client()
    client.force_login(user)
    return client


def in_console(client):
    return client.get(reverse("console-home")).status_code == 200


def test_a_login_lasts_a_working_day_also_across_a_browser_restart(floor_user):
    assert settings.FLOOR_SESSION_HOURS == 12
    assert settings.SESSION_COOKIE_AGE == 12 * 3600
    assert not settings.SESSION_EXPIRE_AT_BROWSER_CLOSE
    laptop = device(floor_user)
    expiry = laptop.session.get_expiry_date()
    assert timedelta(hours=11, minutes=59) < expiry - timezone.now() <= timedelta(hours=12)
    page = laptop.get(reverse("account")).content.decode()
    assert "lasts 12 hours" in page and "logged in on 1 device" in page


def test_log_out_everywhere_ends_every_session_of_the_account_only(floor_user, director):
    laptop, tablet, office = device(floor_user), device(floor_user), device(director)
    assert len(user_session_keys(user=floor_user)) == 2
    response = laptop.post(reverse("account"))
    assert response.status_code == 302 and response["Location"] == reverse("login")
    assert not in_console(laptop) and not in_console(tablet)
    assert in_console(office)
    assert user_session_keys(user=floor_user) == []
    event = Event.objects.get(action="sessions.ended")
    assert event.payload == {"account": "flo", "sessions": 2}
    assert event.actor == floor_user
    page = laptop.get(reverse("login")).content.decode()
    assert "logged out on every device (2 sessions ended)" in page


def test_the_service_ends_sessions_for_a_director(floor_user, director):
    laptop = device(floor_user)
    ended = user_sessions_end(user=floor_user, actor=Actor(user=director, label="dir"))
    assert ended == 1 and not in_console(laptop)


def test_a_director_logs_a_staff_account_out_everywhere_from_the_admin(
    floor_user, django_user_model
):
    boss = django_user_model.objects.create_superuser("boss", password="pw-boss-12345")
    laptop, admin = device(floor_user), device(boss)
    response = admin.post(
        reverse("admin:auth_user_changelist"),
        {"action": "log_out_everywhere", "_selected_action": [floor_user.pk]},
    )
    assert response.status_code == 302
    assert not in_console(laptop)
    assert in_console(admin)


def test_the_account_page_needs_a_login(client):
    response = client.post(reverse("account"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not Event.objects.filter(action="sessions.ended").exists()
