"""Seating in German: why a table cannot be broken is said in German, and the seating chart's
button opens tables ("Tische öffnen") where its figure counts the open ones ("Offene Tische")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

import tables.domain.button as button
import tables.domain.seating as seating
from core.errors import FloorError
from tables import services as svc
from tables.domain.button import ButtonError
from tables.domain.seating import SeatingError
from tables.tests.services.test_seating_services import field, layout  # noqa: F401 (a fixture)
from tables.words import button_reason, seating_reason

pytestmark = pytest.mark.django_db


def test_a_table_that_cannot_be_broken_says_why_in_german(field, actor):  # noqa: F811
    t, _entries = field(20, final_table_size=9)
    svc.seats_draw(tournament=t, actor=actor)
    counts = layout(t)
    room = sum(9 - n for number, n in counts.items() if number != 3)
    with translation.override("de"), pytest.raises(FloorError) as refused:
        svc.table_break(tournament=t, number=3, actor=actor)
    assert str(refused.value) == (
        "Dieser Tisch kann nicht aufgelöst werden: Umzusetzen: "
        f"{counts[3]} Spieler; freie Sitze an den anderen Tischen: nur {room}."
    )
    with translation.override("en"), pytest.raises(FloorError) as refused:
        svc.table_break(tournament=t, number=3, actor=actor)
    assert "Players to move" in str(refused.value)


@pytest.mark.parametrize(
    ("error", "german"),
    [
        (
            SeatingError("x", code="no_fit", players=20, seats=18),
            "20 Spieler passen nicht auf 18 Sitze.",
        ),
        (SeatingError("x", code="last_table"), "Der letzte Tisch kann nicht aufgelöst werden."),
        (SeatingError("x", code="taken", table=2, seat=5), "An Tisch 2 ist Sitz 5 besetzt."),
        (
            SeatingError("x", code="final_fit", players=11, seats=9),
            "11 Spieler passen nicht an einen Finaltisch mit 9 Sitzen.",
        ),
    ],
)
def test_every_seating_refusal_has_german_words(error, german):
    with translation.override("de"):
        assert seating_reason(error) == german


def test_every_coded_seating_refusal_of_the_domain_is_worded():
    """A code the domain raises without words here would show its English to a German floor."""
    codes = set(re.findall(r'code="([a-z_]+)"', Path(seating.__file__).read_text()))
    assert len(codes) > 10
    with translation.override("de"):
        for code in codes:
            error = SeatingError("english words", code=code, players=3, seats=2, table=1, seat=1)
            assert seating_reason(error) != "english words", code


def test_the_seating_charts_button_opens_tables(floor_user, field):  # noqa: F811
    t, _entries = field(4)
    client = Client(HTTP_ACCEPT_LANGUAGE="de")
    client.force_login(floor_user)
    page = client.get(reverse("seating", args=[t.pk])).content.decode()
    assert '<button class="btn small" type="submit">Tische öffnen</button>' in page
    assert ">Offene Tische<" in page


def _raised(module, error: str) -> list[str]:
    """The reasons a domain module raises `error` with, as written (f-strings as patterns)."""
    return re.findall(rf'raise {error}\(\s*f?"([^"]+)"', Path(module.__file__).read_text())


def test_every_button_refusal_has_german_words():
    reasons = _raised(button, "ButtonError")
    assert len(reasons) >= 6
    with translation.override("de"):
        for reason in reasons:
            text = re.sub(r"\{[^}]+\}", "3", reason)
            assert button_reason(ButtonError(text)) != text, reason
        assert button_reason(ButtonError("a hand needs two players")) == (
            "eine Hand braucht zwei Spieler."
        )
