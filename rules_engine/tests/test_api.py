"""The ruling API: suggestions with cited rules, recorded rulings, penalties."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules_engine.models import Penalty, Ruling
from tables import services as tables
from tournament.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(client, floor_user):
    client.force_login(floor_user)
    return client


def post(client, url, data, **extra):
    return client.post(url, data, content_type="application/json", **extra)


def test_suggest_oversized_chip_out_of_turn_and_four_card_flop(api, make_tournament):
    t = make_tournament()
    url = reverse("api-ruling-suggest", args=[t.pk])
    chip = post(
        api,
        url,
        {
            "situation": "bet_interpretation",
            "facts": {
                "current_bet": 400,
                "in_front": 0,
                "last_raise": 400,
                "stack": 20000,
                "big_blind": 200,
                "verbal": "none",
                "chips": [5000],
            },
        },
    ).json()
    assert chip["result"]["outcome"] == "call" and chip["result"]["to"] == 400
    assert chip["rules"][0]["id"] == "tda-de 49" and chip["rules"][0]["summary"]
    oot = post(
        api, url, {"situation": "out_of_turn", "facts": {"action": "bet", "action_changed": True}}
    ).json()
    assert "not binding" in oot["text"] and oot["rules"][0]["id"] == "tda-de 44"
    flop = post(
        api, url, {"situation": "four_card_flop", "facts": {}}, HTTP_ACCEPT_LANGUAGE="de"
    ).json()
    assert "vier Karten" in " ".join(flop["steps"]) and flop["rules"][0]["title"]


def test_showdown_through_the_api(api, make_tournament):
    t = make_tournament()
    out = post(
        api,
        reverse("api-ruling-suggest", args=[t.pk]),
        {
            "situation": "showdown",
            "facts": {
                "board": "Ac Kd Qh Js Tc",
                "hands": "2: 2c 3d\n5: 4h 5s",
                "contributions": "2: 525\n5: 525",
                "button": 3,
                "table_seats": 9,
                "smallest_chip": 100,
            },
        },
    ).json()
    assert out["result"]["won"] == {"5": 550, "2": 500}
    assert [r["id"] for r in out["rules"]] == ["tda-de 13", "tda-de 12", "tda-de 20"]


def test_bad_facts_are_a_clear_400_and_change_nothing(api, make_tournament):
    t = make_tournament()
    url = reverse("api-ruling-suggest", args=[t.pk])
    for body in (
        {"situation": "nonsense", "facts": {}},
        {"situation": "misdeal", "facts": {"cause": "dropped", "so_far": "none"}},
        {"situation": "bet_interpretation", "facts": {"current_bet": -1}},
        {"situation": "showdown", "facts": {"board": "As As Kd 2c 3c"}},
        {"situation": "premature_card"},
    ):
        r = post(api, url, body)
        assert r.status_code == 400, body
        assert r.json()
    r = post(
        api,
        reverse("api-rulings", args=[t.pk]),
        {"situation": "burn_error", "facts": {}, "follows": False},
    )
    assert r.status_code == 400
    assert not Ruling.objects.exists()


def test_record_and_list_rulings(api, make_tournament):
    t = make_tournament(ruleset="bdpv")
    url = reverse("api-rulings", args=[t.pk])
    r = post(
        api,
        url,
        {
            "situation": "misdeal",
            "facts": {"cause": "first_card_wrong_seat", "so_far": "two_no_chips"},
            "table": 4,
            "players": "#12",
        },
    )
    assert r.status_code == 201, r.content
    assert r.json()["rules"] == ["bdpv 2.1", "bdpv 2.2"]
    assert Event.objects.filter(tournament=t, action="ruling.record").count() == 1
    listed = api.get(url).json()
    assert len(listed) == 1 and listed[0]["table"] == 4
    assert api.get(url, {"q": "2.2"}).json()
    assert not api.get(url, {"q": "tda-de"}).json()


def test_facts_with_a_nul_character_are_refused_not_a_server_error(api, make_tournament):
    """PostgreSQL cannot store a NUL character in JSON: a clear 400, nothing recorded."""
    t = make_tournament(ruleset="bdpv")
    url = reverse("api-rulings", args=[t.pk])
    for facts in ({"cause\x00": "x"}, {"cause": ["first\x00card"]}):
        r = post(api, url, {"situation": "misdeal", "facts": facts})
        assert r.status_code == 400, r.content
        assert "facts" in r.json()
    assert not Ruling.objects.exists()


def test_a_table_or_hand_beyond_what_a_column_holds_is_a_clear_400(api, make_tournament):
    """A number past PostgreSQL's integer is refused with the field named, not a server error."""
    t = make_tournament(ruleset="bdpv")
    url = reverse("api-rulings", args=[t.pk])
    misdeal = {"cause": "first_card_wrong_seat", "so_far": "two_no_chips"}
    for field in ("table", "hand"):
        r = post(api, url, {"situation": "misdeal", "facts": misdeal, field: 2**31})
        assert r.status_code == 400, r.content
        assert field in r.json()
    assert not Ruling.objects.exists()
    penalty = {"entry_number": 2**31, "kind": "hands", "count": 1, "reason": "x"}
    r = post(api, reverse("api-penalties", args=[t.pk]), penalty)
    assert r.status_code == 400 and "entry_number" in r.json(), r.content


def test_penalties_through_the_api(api, make_tournament, register, actor):
    t = make_tournament(status="running", late_registration_until_level=6)
    entries = [register(t) for _ in range(6)]
    tables.seats_draw(tournament=t, actor=actor)
    url = reverse("api-penalties", args=[t.pk])
    r = post(
        api,
        url,
        {
            "entry_number": entries[0].number,
            "kind": "rounds",
            "count": 1,
            "reason": "exposed cards",
        },
    )
    assert r.status_code == 201 and r.json()["hands"] == 6
    assert (
        post(api, url, {"entry_number": 999, "kind": "warning", "reason": "x"}).status_code == 400
    )
    assert Penalty.objects.count() == 1
    assert api.get(url).json()[0]["entry_number"] == entries[0].number


def test_anonymous_cannot_use_the_ruling_api(client, make_tournament):
    t = make_tournament()
    for name in ("api-ruling-suggest", "api-rulings", "api-penalties"):
        r = client.post(reverse(name, args=[t.pk]), {}, content_type="application/json")
        assert r.status_code in (401, 403)


BET = {
    "current_bet": 400,
    "in_front": 0,
    "last_raise": 400,
    "stack": 20000,
    "big_blind": 200,
    "verbal": "none",
    "chips": [5000],
}
SHOWDOWN = {
    "board": "Ac Kd Qh Js Tc",
    "hands": "2: 2c 3d\n5: 4h 5s",
    "contributions": "2: 525\n5: 525",
    "button": 3,
    "table_seats": 9,
    "smallest_chip": 100,
}


@pytest.mark.parametrize("value", ["abc", "²", {"a": 1}, [1, [2]], [{}], 2.5, str(10**20)])
def test_facts_of_the_wrong_type_are_a_400_naming_the_fact(api, make_tournament, value):
    """A word, a superscript digit or a nested value where the engine reads a number or a
    choice was a 500 (TypeError, ValueError deep in the engine)."""
    t = make_tournament()
    url = reverse("api-ruling-suggest", args=[t.pk])
    cases = [("bet_interpretation", BET, k) for k in BET]
    cases += [("showdown", SHOWDOWN, k) for k in SHOWDOWN]
    cases += [
        ("misdeal", {"cause": "two_exposed", "so_far": "none"}, "so_far"),
        ("misdeal", {"cause": "two_exposed", "so_far": "none"}, "cause"),
        ("out_of_turn", {"action": "bet"}, "action"),
        ("premature_card", {"street": "flop"}, "street"),
        ("show_order", {"seats": "2, 6, 8", "button": 4, "table_seats": 9}, "button"),
        ("show_order", {"seats": "2, 6, 8", "button": 4, "table_seats": 9}, "seats"),
    ]
    for situation, facts, key in cases:
        if isinstance(value, str) and key in ("board", "hands", "contributions", "seats"):
            continue  # texts: read further down (below)
        body = {"situation": situation, "facts": {**facts, key: value}}
        r = post(api, url, body)
        assert r.status_code == 400, (body, r.status_code)
        if not (key in ("board", "hands", "contributions") and isinstance(value, float)):
            assert key in r.json()["facts"], r.json()  # a number as text: read as text
    for facts in (
        {**SHOWDOWN, "hands": "²: 2c 3d\n5: 4h 5s"},
        {**SHOWDOWN, "contributions": "2: ²\n5: 525"},
        {**SHOWDOWN, "contributions": "2: 525\n5: " + "9" * 30},
    ):
        r = post(api, url, {"situation": "showdown", "facts": facts})
        assert r.status_code == 400 and r.json(), facts
    r = post(api, url, {"situation": "show_order", "facts": {"seats": "2, ², 8", "button": 4}})
    assert r.status_code == 400 and r.json()
    assert not Ruling.objects.exists()
