"""One numbering of levels on every page, in the clock JSON, the API and the event log.

The test structure (conftest `template`): levels 1 and 2 (20'), a 10' break, levels 3 to 6.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.formats import date_format

from actions.registration import entry_register
from clocks.services import clock_command, clocks_announce_due
from core.errors import FloorError
from eventlog.words import event_sentence
from tables import services as seating
from tournament.models import Event
from tournament.services.registration import player_create


@pytest.fixture
def floor_client(client, floor_user):
    client.force_login(floor_user)
    return client


@pytest.fixture
def started(make_tournament, register, actor):
    """A running tournament whose clock started `minutes` ago (45: the break after level 2;
    55: level 3)."""

    def make(minutes: int, **options):
        t = make_tournament(status="registering", **options)
        for _ in range(4):
            register(t)
        seating.seats_draw(tournament=t, actor=actor)
        clock_command(
            tournament=t,
            kind="start",
            actor=actor,
            now=timezone.now() - timedelta(minutes=minutes),
        )
        t.refresh_from_db()
        return t

    return make


def test_clock_json_numbers_levels_and_not_breaks(client, started):
    t = started(45)
    data = client.get(reverse("clock-json", args=[t.pk])).json()
    assert [lv["number"] for lv in data["levels"]] == [1, 2, None, 3, 4, 5, 6]
    assert [lv["after_level"] for lv in data["levels"]] == [None, None, 2, *[None] * 4]
    level = data["clock"]["level"]
    assert level["is_break"] and level["number"] is None and level["after_level"] == 2
    assert data["clock"]["next"]["number"] == 3


def test_after_the_break_every_screen_says_level_3(client, floor_client, started):
    t = started(55)
    data = client.get(reverse("clock-json", args=[t.pk])).json()
    assert data["clock"]["level"]["number"] == 3
    table = t.tables.first()
    dealer = client.get(reverse("dealer", args=[table.dealer_token])).content.decode()
    assert re.search(r'class="lv" id="d-lv">Level 3 ·', dealer)
    console = floor_client.get(reverse("console-clock", args=[t.pk])).content.decode()
    assert "Go to level 6" in console and "Go to level 7" not in console
    assert "Go to the break after level 2" in console


def test_the_dealer_tablet_shows_the_break_without_a_number(client, started):
    t = started(45)
    table = t.tables.first()
    dealer = client.get(reverse("dealer", args=[table.dealer_token])).content.decode()
    assert '<div class="lv" id="d-lv">Break</div>' in dealer


def _first_cells(html: str, table_id: str | None = None) -> list[str]:
    if table_id:
        html = html[html.index(f'id="{table_id}"') :]
    body = html[html.index("<tbody>") : html.index("</tbody>")]
    return re.findall(r"<tr[^>]*>\s*<td[^>]*>([^<]*)</td>", body)


def test_structure_tables_number_levels_not_rows(client, floor_client, started):
    t = started(55)
    editor = floor_client.get(reverse("structure-editor", args=[t.pk])).content.decode()
    assert _first_cells(editor, "levels") == ["1", "2", "", "3", "4", "5", "6"]
    assert "Levels 1 to 2 have been played and are history." in editor
    public = client.get(reverse("tournament-public", args=[t.pk])).content.decode()
    structure = public[public.index(">Structure</h2>") :]
    assert _first_cells(structure) == ["1", "2", "", "3", "4", "5", "6"]


def test_api_levels_carry_the_level_number(client, make_tournament):
    t = make_tournament()
    rows = client.get(f"/api/tournaments/{t.pk}/levels/").json()
    assert [r["level_number"] for r in rows] == [1, 2, None, 3, 4, 5, 6]
    assert [r["after_level"] for r in rows] == [None, None, 2, None, None, None, None]
    assert [r["position"] for r in rows] == [1, 2, 3, 4, 5, 6, 7]


def test_event_log_names_levels_by_number(started):
    t = started(5)
    clocks_announce_due(now=timezone.now() + timedelta(minutes=50))
    sentences = [event_sentence(e) for e in Event.objects.filter(tournament=t).order_by("id")]
    assert "Level 2 started" in sentences
    assert "Break after level 2 started" in sentences
    assert "Level 3 started" in sentences
    assert not any("row" in s for s in sentences)


def test_event_log_still_reads_events_without_a_number():
    old = Event(action="clock.level", payload={"level_index": 3})
    with translation.override("en"):  # another test on this worker may have left German on
        assert event_sentence(old) == "New level (row 4)"


def _register(t, actor, name):
    return entry_register(tournament=t, player=player_create(name=name, actor=actor), actor=actor)


def test_until_level_2_takes_late_entries_in_the_break_after_it(started, actor):
    in_break = started(45, late_registration_until_level=2)
    assert _register(in_break, actor, "Late Comer").number == 5
    level_3 = started(55, late_registration_until_level=2)
    with pytest.raises(FloorError):
        _register(level_3, actor, "Too Late")


def _local_time(instant):
    """The hour as the pages write it: with the date when it falls on another day than today
    (a night tournament's late registration closes after midnight)."""
    local = timezone.localtime(instant)
    if local.date() != timezone.localtime().date():
        return date_format(local, "SHORT_DATETIME_FORMAT")
    return date_format(local, "H:i")


def test_settings_and_overview_say_when_late_registration_closes(client, director, make_tournament):
    starts = (timezone.now() + timedelta(hours=2)).replace(second=0, microsecond=0)
    t = make_tournament(starts_at=starts, late_registration_until_level=2, status="registering")
    client.force_login(director)
    closes = _local_time(starts + timedelta(minutes=50))  # two levels and the break after them
    text = f"until the end of level 2 and the break after it, about {closes}"
    settings_page = client.get(reverse("tournament-settings", args=[t.pk])).content.decode()
    assert f"Now: {text}." in settings_page
    overview = client.get(reverse("tournament-overview", args=[t.pk])).content.decode()
    assert text in overview
    desk = client.get(reverse("desk", args=[t.pk])).content.decode()
    assert f"Late registration: {text}." in desk


def test_the_estimate_follows_the_running_clock(client, director, started):
    t = started(30, late_registration_until_level=3)  # level 2, 10 minutes left
    client.force_login(director)
    overview = client.get(reverse("tournament-overview", args=[t.pk])).content.decode()
    closes = _local_time(timezone.now() + timedelta(minutes=10 + 10 + 20))
    before = _local_time(timezone.now() + timedelta(minutes=10 + 10 + 20, seconds=-5))
    assert (
        f"until the end of level 3, about {closes}" in overview
        or f"until the end of level 3, about {before}" in overview
    )


def test_late_registration_closed_by_the_clock_says_so(client, director, started):
    t = started(55, late_registration_until_level=2)
    client.force_login(director)
    overview = client.get(reverse("tournament-overview", args=[t.pk])).content.decode()
    assert "closed: level 2 is over" in overview


def test_late_registration_closed_by_the_floor_says_so(client, director, started, actor):
    from tournament.services.registration import registration_close

    t = started(5, late_registration_until_level=4)
    registration_close(tournament=t, actor=actor)
    client.force_login(director)
    page = client.get(reverse("tournament-settings", args=[t.pk])).content.decode()
    assert "Now: closed by the floor." in page
