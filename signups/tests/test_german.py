"""Sign-ups in German: a sheet's places are "Plätze" (seats), not finishing places; check-in's
payment choice has a visible label that says what it is; staff log in ("Login für Personal")
where players sign up ("Anmelden")."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from signups import services as su
from signups.models import SignUp
from signups.tests.test_views import NOBODY

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(make_tournament, actor):
    t = make_tournament(status="registering", capacity=6)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=4, reserved=0, check_in_deadline=None
    )
    su.signup_create(tournament=t, display_name="Anna", actor=NOBODY)
    return t


@pytest.fixture
def floor_de(floor_user):
    c = Client(HTTP_ACCEPT_LANGUAGE="de")
    c.force_login(floor_user)
    return c


def _label_of(page: str, field_id: str) -> str:
    found = re.search(rf'<label for="{field_id}"([^>]*)>([^<]*)</label>', page)
    assert found, field_id
    assert "sr-only" not in found.group(1), "the label is visible"
    return found.group(2)


def test_the_sheet_settings_call_places_plaetze(floor_de, night, director):
    boss = Client(HTTP_ACCEPT_LANGUAGE="de")
    boss.force_login(director)
    page = boss.get(reverse("signups", args=[night.pk])).content.decode()
    assert _label_of(page, "id_places") == "Plätze"
    assert "Platzierungen" not in page


def test_check_in_names_the_payment_method(floor_de, night):
    page = floor_de.get(reverse("signups", args=[night.pk])).content.decode()
    signup = SignUp.objects.get(display_name="Anna")
    assert _label_of(page, f"su-m-{signup.pk}") == "Zahlungsart"
    assert "Ausgezahlt von" not in page


def test_staff_log_in_where_players_sign_up(night):
    public = Client(HTTP_ACCEPT_LANGUAGE="de")
    page = public.get(reverse("signup", args=[night.pk])).content.decode()
    assert "Login für Personal" in page and "Anmeldung für Personal" not in page
    login = public.get(reverse("login")).content.decode()
    assert "<h1>Login für Personal</h1>" in login and ">Einloggen</button>" in login
