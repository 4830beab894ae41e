"""Who shows first (tda-de 16-17, bdpv 2.5.5, 6.27) and the new bet facts (tda-de 60,
bdpv 2.4.10, 5.10) through the ruling assistant and the API."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules_engine.models import Ruling

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(client, floor_user):
    client.force_login(floor_user)
    return client


def post(client, url, data, **extra):
    return client.post(url, data, content_type="application/json", **extra)


def test_show_order_endpoint(api, make_tournament):
    t = make_tournament()
    url = reverse("api-show-order", args=[t.pk])
    out = post(api, url, {"seats": [2, 6, 8], "button": 4, "aggressor": 8}).json()
    assert out["result"]["order"] == [8, 2, 6] and out["result"]["first"] == 8
    assert out["result"]["first_because"] == "last_aggressor"
    assert [r["id"] for r in out["rules"]] == ["tda-de 17", "tda-de 13"]
    assert out["text"].startswith("Seat 8 shows first")
    assert out["ruleset"] == "tda-de" and out["situation"] == "show_order"
    checked = post(api, url, {"seats": [2, 6, 8], "button": 4, "aggressor": None}).json()
    assert checked["result"]["first"] == 6
    all_in = post(api, url, {"seats": [2, 6, 8], "button": 4, "all_in": [2]}).json()
    assert all_in["result"]["all_face_up"] and all_in["rules"][0]["id"] == "tda-de 16"
    german = post(api, url, {"seats": [2, 6], "button": 4}, HTTP_ACCEPT_LANGUAGE="de").json()
    assert german["rules"][0]["title"] == "Reihenfolge beim Showdown"
    assert not Ruling.objects.exists()


def test_show_order_endpoint_under_bdpv(api, make_tournament):
    t = make_tournament(ruleset="bdpv")
    url = reverse("api-show-order", args=[t.pk])
    bet = post(api, url, {"seats": [2, 6, 8], "button": 4, "aggressor": 2}).json()
    assert bet["rules"][0]["id"] == "bdpv 2.5.5"
    checked = post(api, url, {"seats": [2, 6, 8], "button": 4}).json()
    assert checked["result"]["floor_sets_order"] and checked["rules"][0]["id"] == "bdpv 1.1.1"
    assert any("floor decides" in step for step in checked["steps"])
    side_pot = post(api, url, {"seats": [2, 6, 8], "button": 4, "aggressor": 8, "all_in": [2]})
    assert not side_pot.json()["result"]["all_face_up"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"seats": [3], "button": 1}, "seats"),
        ({"seats": [3, 3], "button": 1}, "seats"),
        ({"seats": [3, 11], "button": 1}, "seats"),
        ({"seats": [3, 4], "button": 1, "aggressor": 5}, "aggressor"),
        ({"seats": [3, 4], "button": 1, "all_in": [5]}, "all_in"),
        ({"seats": [3, 4]}, "button"),
        ({"seats": "3, 4", "button": 1}, "seats"),
    ],
)
def test_show_order_bad_input_is_a_clear_400(api, make_tournament, body, field):
    t = make_tournament()
    r = post(api, reverse("api-show-order", args=[t.pk]), body)
    assert r.status_code == 400, r.content
    assert field in r.json()


def test_show_order_seats_beyond_the_table_are_refused_by_the_ruling(api, make_tournament):
    t = make_tournament()
    r = post(
        api,
        reverse("api-show-order", args=[t.pk]),
        {"seats": [2, 8], "button": 1, "table_seats": 6},
    )
    assert r.status_code == 400 and "seat 8" in r.json()["detail"]


def test_show_order_through_suggest_and_recorded(api, make_tournament):
    t = make_tournament()
    facts = {"seats": "2, 6, 8", "button": 4, "table_seats": 9, "aggressor": "", "all_in": ""}
    out = post(
        api,
        reverse("api-ruling-suggest", args=[t.pk]),
        {"situation": "show_order", "facts": facts},
    ).json()
    assert out["result"]["order"] == [6, 8, 2]
    r = post(api, reverse("api-rulings", args=[t.pk]), {"situation": "show_order", "facts": facts})
    assert r.status_code == 201 and r.json()["rules"] == ["tda-de 17", "tda-de 13"]
    for bad in ({"seats": "2, x", "button": 4, "table_seats": 9}, {"seats": [2, 6]}, {}):
        r = post(
            api,
            reverse("api-ruling-suggest", args=[t.pk]),
            {"situation": "show_order", "facts": bad},
        )
        assert r.status_code == 400, bad


def test_show_order_needs_the_floor(client, make_tournament):
    t = make_tournament()
    r = post(client, reverse("api-show-order", args=[t.pk]), {"seats": [2, 6], "button": 1})
    assert r.status_code in (401, 403)


def test_assistant_page_who_shows_first(api, make_tournament):
    t = make_tournament()
    url = reverse("rulings", args=[t.pk])
    page = api.get(url, {"situation": "show_order"}).content.decode()
    assert "Seats still in the hand" in page
    facts = {"situation": "show_order", "seats": "2, 6, 8", "button": "4", "table_seats": "9"}
    page = api.post(url, {**facts, "aggressor": "8", "action": "suggest"}).content.decode()
    assert "Seat 8 shows first" in page and "tda-de 1.0 · 17" in page and "Showdown order" in page
    german = api.post(
        url, {**facts, "all_in": "2", "action": "suggest"}, HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "tda-de 1.0 · 16" in german and "Aufdecken beim All-in" in german
    assert api.post(url, {**facts, "action": "record", "table": "3"}).status_code == 302
    assert Ruling.objects.get().situation == "show_order"


def test_bet_facts_missed_raise_and_change(api, make_tournament):
    bdpv = make_tournament(ruleset="bdpv")
    facts = {
        "current_bet": 400,
        "in_front": 0,
        "last_raise": 300,
        "stack": 5000,
        "big_blind": 100,
        "verbal": "none",
        "chips": [100],
        "missed_raise": True,
    }
    url = reverse("api-ruling-suggest", args=[bdpv.pk])
    out = post(api, url, {"situation": "bet_interpretation", "facts": facts}).json()
    assert out["result"]["outcome"] == "take_back" and out["rules"][0]["id"] == "bdpv 2.4.10"
    assert "takes the chips back" in out["text"]
    late = {**facts, "acted_since": True}
    out = post(api, url, {"situation": "bet_interpretation", "facts": late}).json()
    assert out["result"]["outcome"] == "call"
    tda = make_tournament()
    change = {
        "current_bet": 325,
        "in_front": 0,
        "last_raise": 325,
        "stack": 100000,
        "big_blind": 100,
        "verbal": "none",
        "chips": [500, 25],
        "expects_change": True,
    }
    out = post(
        api,
        reverse("api-ruling-suggest", args=[tda.pk]),
        {"situation": "bet_interpretation", "facts": change},
    ).json()
    assert out["result"]["to"] == 650 and "tda-de 60" in [r["id"] for r in out["rules"]]


@pytest.fixture
def dealt_table(make_tournament, register, actor):
    from tables import services as tables
    from tables.models import Table

    def make(**options):
        t = make_tournament(status="running", late_registration_until_level=6, **options)
        for _ in range(6):
            register(t)
        tables.seats_draw(tournament=t, actor=actor)
        table = Table.objects.filter(tournament=t).first()
        seated = sorted(table.assignments.values_list("seat", flat=True))
        Table.objects.filter(pk=table.pk).update(button_seat=seated[0])
        table.refresh_from_db()
        return table, seated

    return make


def test_dealer_tablet_who_shows_first(client, dealt_table):
    table, seated = dealt_table()
    url = reverse("dealer", args=[table.dealer_token])
    page = client.get(url).content.decode()
    # At first: everybody seated is in the hand, nobody bet: left of the button starts.
    assert "Who shows first?" in page and 'id="show-sheet"' in page
    assert f"Seat {seated[1]} shows first" in page
    # The dealer ticks who is left and who bet last: only the answer comes back.
    query = {"show": "1", "in_hand": [seated[1], seated[3]], "aggressor": str(seated[3])}
    hint = client.get(url, query, HTTP_HX_REQUEST="true").content.decode()
    assert f"Seat {seated[3]} shows first" in hint and "tda-de 17" in hint
    assert 'id="show-sheet"' not in hint
    all_in = {**query, "all_in": [seated[1]]}
    hint = client.get(url, all_in, HTTP_HX_REQUEST="true").content.decode()
    assert "All hands are turned face up" in hint and "tda-de 16" in hint
    alone = client.get(url, {"show": "1", "in_hand": [seated[1]]}, HTTP_HX_REQUEST="true")
    assert alone.status_code == 200 and "two or more hands" in alone.content.decode()


def test_dealer_tablet_who_shows_first_under_bdpv(client, dealt_table):
    table, seated = dealt_table(ruleset="bdpv")
    url = reverse("dealer", args=[table.dealer_token])
    query = {"show": "1", "in_hand": seated[:3], "aggressor": str(seated[2])}
    hint = client.get(url, query, HTTP_HX_REQUEST="true").content.decode()
    assert f"Seat {seated[2]} shows first" in hint and "bdpv 2.5.5" in hint


def test_dealer_tablet_without_a_button_has_no_helper(client, make_tournament, register, actor):
    from tables import services as tables
    from tables.models import Table

    t = make_tournament(status="running", late_registration_until_level=6)
    for _ in range(4):
        register(t)
    tables.seats_draw(tournament=t, actor=actor)
    table = Table.objects.filter(tournament=t).first()
    Table.objects.filter(pk=table.pk).update(button_seat=None)
    page = client.get(reverse("dealer", args=[table.dealer_token])).content.decode()
    assert 'id="show-sheet"' not in page
