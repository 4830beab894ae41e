"""Chip counts in German: "Chipcount", never a bare "Count", and figures grouped as a German
reader writes them (105.010, not 105010)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from core.errors import FloorError
from counts.services import count_record
from counts.tests.test_counts import at_table, night  # noqa: F401 (a fixture)
from eventlog.words import event_sentence

pytestmark = pytest.mark.django_db


BARE_COUNT = re.compile(r"(?<![\w-])Counts?\b")


@pytest.fixture
def floor_de(floor_user):
    c = Client(HTTP_ACCEPT_LANGUAGE="de")
    c.force_login(floor_user)
    return c


def test_the_counts_page_says_chipcount(floor_de, night):  # noqa: F811
    url = reverse("counts-console", args=[night.pk])
    page = floor_de.get(url + "?table=1").content.decode()
    assert "Chipcount" in page
    assert not BARE_COUNT.findall(re.sub(r"<[^>]+>", " ", page))
    players = at_table(night, 1)
    response = floor_de.post(url, {"form": "player", "number": players[0].number, "count": ""})
    assert "Geben Sie den Chipcount ein." in response.content.decode()
    response = floor_de.post(
        url, {"form": "player", "number": players[0].number, "count": "21000"}, follow=True
    )
    assert f"Chipcount von #{players[0].number} erfasst: 21.000." in response.content.decode()


def test_a_count_above_the_chips_in_play_is_refused_with_grouped_figures(night, actor):  # noqa: F811
    entry = at_table(night, 1)[0]
    with translation.override("de"), pytest.raises(FloorError) as refused:
        count_record(tournament=night, entry=entry, count=405_010, actor=actor)
    assert str(refused.value) == (
        f"#{entry.number}: 405.010 Chips sind mehr, als das Turnier im Spiel hat (360.000)."
    )
    with translation.override("en"), pytest.raises(FloorError) as refused:
        count_record(tournament=night, entry=entry, count=405_010, actor=actor)
    assert "405,010 chips" in str(refused.value) and "(360,000)" in str(refused.value)


def test_the_event_log_groups_chip_counts(night, actor):  # noqa: F811
    entry = at_table(night, 1)[0]
    count_record(tournament=night, entry=entry, count=21_000, actor=actor)
    count_record(tournament=night, entry=entry, count=105_010, actor=actor)
    event = night.events.filter(action="chips.count").order_by("-id").first()
    with translation.override("de"):
        line = event_sentence(event)
    assert "105.010" in line and "21.000" in line
