"""No 500 from input: NUL bytes, digits of other scripts, numbers beyond the columns, deep JSON,
outside `next` addresses. Each case once answered 500 (or redirected off the site)."""

from __future__ import annotations

import json

import pytest

from tables import services as seating
from tournament.models import Status, Tournament

pytestmark = pytest.mark.django_db

HUGE = str(2**70)


@pytest.fixture
def running(make_tournament, register, actor):
    t = make_tournament(status="registering")
    for _ in range(6):
        register(t)
    seating.tables_create(tournament=t, count=1, actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    return t


def _ok(response, url=""):
    assert response.status_code < 500, (url, response.status_code)
    return response


@pytest.mark.parametrize("q", ["a\x00b", "\x00", "²", "٣", HUGE, "x" * 10_000, "12\x00"])
def test_searches_take_any_text(client, floor_user, running, q):
    pk = running.pk
    _ok(client.get(f"/t/{pk}/find/", {"q": q}))
    _ok(client.get(f"/t/{pk}/find/", {"q": q}, HTTP_HX_REQUEST="true"))
    client.force_login(floor_user)
    for url in (
        f"/console/t/{pk}/desk/",
        f"/console/t/{pk}/players/",
        f"/console/t/{pk}/seating/",
        f"/console/t/{pk}/rulings/",
        f"/api/tournaments/{pk}/entries/",
        "/api/players/",
        f"/api/tournaments/{pk}/rulings/",
    ):
        _ok(client.get(url, {"q": q}), url)
    _ok(client.get(f"/console/t/{pk}/desk/players/", {"name": q}))
    _ok(client.get(f"/console/t/{pk}/history/", {"action": q}))
    _ok(client.get(f"/console/t/{pk}/desk/", {"last": q}))
    _ok(client.get(f"/console/t/{pk}/print/seat-list/", {"table": q}))
    _ok(client.get(f"/console/t/{pk}/colour-up/", {"table": q, "removed": q, "done": q}))


@pytest.mark.parametrize("value", ["²", "abc", HUGE, "-1", "1.5", "\x00"])
def test_seating_and_desk_actions_refuse_odd_numbers(client, floor_user, running, value):
    pk = running.pk
    client.force_login(floor_user)
    for action, data in (
        ("open", {"count": value}),
        ("break", {"table": value}),
        ("button", {"table": value, "seat": value}),
        ("move", {"entry": value, "table": value, "seat": value}),
        ("undo", {"event": value}),
        ("report", {"report": value, "reports": value}),
    ):
        _ok(client.post(f"/console/t/{pk}/seating/{action}/", data), action)
    _ok(client.post(f"/console/t/{pk}/bust/", {"entry": [value, "1"], "by_1": value}))
    _ok(client.post(f"/console/t/{pk}/desk/", {"name": "A B", "player": value}))
    _ok(client.post(f"/console/t/{pk}/deal/", {"stack_1": value, "unit": value}))
    _ok(client.post(f"/console/t/{pk}/payouts/edit", {"amount": [value, HUGE + "00"]}))
    _ok(client.post(f"/console/t/{pk}/clock/set_remaining", {"time": f"{value}:{value}"}))
    _ok(client.post(f"/console/t/{pk}/clock/jump", {"level": value}))
    _ok(client.post(f"/console/t/{pk}/structure/template/", {"template": value}))


@pytest.mark.parametrize("value", ["²", HUGE, "-3", "\x00"])
def test_dealer_actions_refuse_odd_numbers(client, running, value):
    table = running.tables.first()
    base = f"/d/{table.dealer_token}"
    for action, data in (
        ("hand", {"hand": value}),
        ("bust", {"seat": value, "stack": value}),
        ("time", {"seat": value}),
        ("floor", {"note": "spill\x00" + value}),
    ):
        _ok(client.post(f"{base}/{action}/", data), action)


def test_blinds_beyond_the_columns_are_refused(client, floor_user, director, running):
    client.force_login(floor_user)
    levels = [{"small_blind": 2**40, "big_blind": 2**41, "minutes": 20}]
    r = client.put(
        f"/api/tournaments/{running.pk}/levels/", levels, content_type="application/json"
    )
    assert r.status_code == 400
    r = client.post(
        f"/console/t/{running.pk}/structure/",
        {
            "kind": ["level"],
            "small_blind": [HUGE],
            "big_blind": [HUGE],
            "ante": ["0"],
            "minutes": ["20"],
            "color_up": [""],
        },
    )
    assert r.status_code < 500
    client.force_login(director)
    r = client.put(
        f"/api/tournaments/{running.pk}/payouts/",
        {"amounts": [2**40]},
        content_type="application/json",
    )
    assert r.status_code == 400


def test_deeply_nested_json_is_a_400(client, director, running):
    client.force_login(director)
    deep = "[" * 100_000 + "]" * 100_000
    for method, url in (
        ("patch", f"/api/tournaments/{running.pk}/"),
        ("put", f"/api/tournaments/{running.pk}/levels/"),
        ("post", f"/api/tournaments/{running.pk}/busts/"),
    ):
        r = getattr(client, method)(url, deep, content_type="application/json")
        assert r.status_code == 400, (url, r.status_code)
    body = json.dumps({"a": 1})
    assert client.post("/api/players/", body, content_type="application/json").status_code < 500


@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example/", "/\\evil.example/", "javascript:x"]
)
def test_next_never_leaves_the_site(client, floor_user, running, target):
    client.force_login(floor_user)
    r = client.post(f"/console/t/{running.pk}/seating/h4h/", {"on": "0", "next": target})
    assert r.status_code == 302 and r["Location"] == f"/console/t/{running.pk}/seating/"
    entry = running.entries.first()
    r = client.post(f"/console/t/{running.pk}/entry/{entry.pk}/buy/rebuy", {"next": target})
    assert r.status_code == 302 and r["Location"] == f"/console/t/{running.pk}/desk/"


def test_next_inside_the_site_is_followed(client, floor_user, running):
    client.force_login(floor_user)
    target = f"/console/t/{running.pk}/tables/1/"
    r = client.post(f"/console/t/{running.pk}/seating/h4h/", {"on": "0", "next": target})
    assert r["Location"] == target


@pytest.mark.parametrize("target", ["²", "abc", "1" * 20, "desk"])
def test_next_that_is_no_address_goes_back_to_the_page(client, floor_user, running, target):
    """The rebuy and add-on menus' `next` as a bare word was taken for a URL name: a 500."""
    client.force_login(floor_user)
    entry = running.entries.first()
    for kind in ("rebuy", "addon"):
        r = client.post(
            f"/console/t/{running.pk}/entry/{entry.pk}/buy/{kind}",
            {"next": target, "method": "cash"},
        )
        assert r.status_code == 302 and r["Location"] == f"/console/t/{running.pk}/desk/"


@pytest.mark.parametrize("value", ["²", "٣", "1²", "²,5", "2,²"])
def test_new_tournament_withholding_in_other_digits_is_refused(
    client, director, chip_set, template, value
):
    """`withholding_bp=²` on the new-tournament form was a 500 ("²".isdigit() is True)."""
    from tournament.models import Tournament

    client.force_login(director)
    before = Tournament.objects.count()
    r = client.post(
        "/console/new/",
        {
            "name": "Cup",
            "starts_at": "2030-01-01T19:00",
            "buy_in": "100",
            "starting_stack": "20000",
            "withholding_bp": value,
        },
    )
    assert r.status_code == 400, r.status_code
    assert "percentage" in r.content.decode()
    assert Tournament.objects.count() == before
