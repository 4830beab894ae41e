"""A refused form comes back with the error and every value as typed."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from rules_engine.models import ColourUp
from tables import services as seating


@pytest.fixture
def floor_client(client, floor_user):
    client.force_login(floor_user)
    return client


@pytest.fixture
def running(make_tournament, register, actor):
    t = make_tournament(status="running", late_registration_until_level=6)
    entries = [register(t) for _ in range(6)]
    seating.seats_draw(tournament=t, actor=actor)
    return t, entries


def _input(html: str, name: str) -> str:
    match = re.search(rf'<input[^>]*name="{name}"[^>]*>', html)
    assert match, name
    return match.group(0)


def test_refused_bust_keeps_ticks_stacks_and_numbers(floor_client, running):
    t, entries = running
    a, b = entries[0], entries[1]
    r = floor_client.post(
        reverse("bust", args=[t.pk]),
        {
            "entry": [a.pk, b.pk],
            f"stack_{a.pk}": "12000",
            f"stack_{b.pk}": "8000",
            f"by_{a.pk}": "twelve",  # not an entry number: refused
        },
    )
    html = r.content.decode()
    assert "Enter who knocked a player out as entry numbers" in html
    assert 'value="12000"' in _input(html, f"stack_{a.pk}")
    assert 'value="8000"' in _input(html, f"stack_{b.pk}")
    assert 'value="twelve"' in _input(html, f"by_{a.pk}")
    assert re.search(rf'value="{a.pk}" id="bust-{a.pk}" checked', html)
    assert re.search(rf'value="{b.pk}" id="bust-{b.pk}" checked', html)
    assert not re.search(rf'value="{entries[2].pk}" id="bust-{entries[2].pk}" checked', html)
    assert t.entries.filter(status="active").count() == 6


def _table_and_seats(t):
    table = t.tables.filter(is_open=True).order_by("number").first()
    return table, sorted(table.assignments.values_list("seat", flat=True))


def test_colour_up_says_the_button_comes_first_and_waits_for_it(floor_client, running):
    t, _entries = running
    table, _seats = _table_and_seats(t)
    url = reverse("colour-up", args=[t.pk])
    html = floor_client.get(url, {"table": table.number}).content.decode()
    assert "the button must be set at this table" in html
    assert f"The button is not set at table {table.number}." in html
    assert re.search(r"<fieldset[^>]* disabled", html)
    assert reverse("table-detail", args=[t.pk, table.number]) in html


def test_refused_colour_up_keeps_the_counts(floor_client, running, actor):
    t, _entries = running
    table, seats = _table_and_seats(t)
    seating.button_set(table=table, seat=seats[0], actor=actor)
    url = reverse("colour-up", args=[t.pk])
    html = floor_client.get(url, {"table": table.number}).content.decode()
    assert not re.search(r"<fieldset[^>]* disabled", html)
    data = {"table": table.number, "removed": 25, "new_value": 100}
    data.update({f"chips_{s}": str(i + 3) for i, s in enumerate(seats)})
    data[f"chips_{seats[1]}"] = "seven"  # refused
    data[f"only_{seats[2]}"] = "on"
    r = floor_client.post(url, data)
    assert r.status_code == 400
    html = r.content.decode()
    assert f"Enter how many chips seat {seats[1]} has" in html
    assert 'value="3"' in _input(html, f"chips_{seats[0]}")
    assert 'value="seven"' in _input(html, f"chips_{seats[1]}")
    assert "checked" in _input(html, f"only_{seats[2]}")
    assert "checked" not in _input(html, f"only_{seats[3]}")
    assert not ColourUp.objects.exists()


def test_refused_structure_keeps_every_row_and_names_the_level(floor_client, running):
    t, _entries = running
    rows = {
        "kind": ["level", "level", "break", "level"],
        "small_blind": ["100", "300", "0", "400"],
        "big_blind": ["200", "250", "0", "800"],  # level 2: small blind above the big blind
        "ante": ["0", "0", "0", "100"],
        "minutes": ["20", "25", "15", "30"],
        "color_up": ["", "", "25", ""],
        "bb_ante": ["4"],
    }
    r = floor_client.post(reverse("structure-editor", args=[t.pk]), rows)
    assert r.status_code == 400
    page = r.content.decode()
    assert "Level 2: the small blind is larger than the big blind." in page
    html = page[
        page.index('id="levels-form"') : page.index("</form>", page.index('id="levels-form"'))
    ]
    assert re.findall(r'name="minutes" value="(\d+)"', html) == rows["minutes"]
    assert re.findall(r'name="big_blind" value="(\d+)"', html) == rows["big_blind"]
    assert 'name="color_up" value="25"' in html
    assert re.search(r'name="bb_ante" value="4" checked', html)
    assert t.structure.levels.count() == 7  # nothing saved


def test_refused_structure_row_is_named_by_its_level(floor_client, running):
    t, _entries = running
    rows = {
        "kind": ["level", "break", "level"],
        "small_blind": ["100", "0", "2OO"],
        "big_blind": ["200", "0", "400"],
        "ante": ["0", "0", "0"],
        "minutes": ["20", "15", "20"],
        "color_up": ["", "", ""],
    }
    r = floor_client.post(reverse("structure-editor", args=[t.pk]), rows)
    html = r.content.decode()
    assert "Level 2: enter whole numbers." in html
    assert 'value="2OO"' in html


def test_refused_generator_keeps_its_values(floor_client, running):
    t, _entries = running
    r = floor_client.post(
        reverse("structure-generate", args=[t.pk]),
        {
            "starting_stack": "30000",
            "level_minutes": "900",  # too long
            "target_hours": "5",
            "break_every": "3",
            "break_minutes": "12",
        },
    )
    assert r.status_code == 400
    html = r.content.decode()
    assert 'value="900"' in _input(html, "level_minutes")
    assert 'value="12"' in _input(html, "break_minutes")
    assert reverse("structure-editor", args=[t.pk]) in html  # the levels form posts there


def test_refused_payouts_keep_the_amounts(client, director, running):
    t, _entries = running
    client.force_login(director)
    r = client.post(reverse("payouts-edit", args=[t.pk]), {"amount": ["300", "200", "12,5x"]})
    assert r.status_code == 400
    html = r.content.decode()
    assert re.findall(r'name="amount" value="([^"]*)"', html) == ["300", "200", "12,5x"]
    assert not t.payouts.exists()


def test_refused_report_confirmation_keeps_the_stack_typed(floor_client, running, actor):
    from tables.models import TableReport

    t, _entries = running
    table, seats = _table_and_seats(t)
    seating.report_bust(table=table, seat=seats[0], stack_at_hand_start=None, actor=actor)
    report = TableReport.objects.get()
    r = floor_client.post(
        reverse("seating-action", args=[t.pk, "report"]),
        {"report": report.pk, "confirm": "1", "reports": [report.pk], f"stack_{report.pk}": "4k"},
        follow=True,
    )
    html = r.content.decode()
    assert "Stacks are whole numbers of chips." in html
    assert 'value="4k"' in _input(html, f"stack_{report.pk}")
    report.refresh_from_db()
    assert report.resolved_at is None
    again = floor_client.get(reverse("seating", args=[t.pk])).content.decode()
    assert 'value="4k"' not in _input(again, f"stack_{report.pk}")  # kept once, not for ever
