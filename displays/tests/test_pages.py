"""The display pages: who may see and do what, and every view rendered as a screen shows it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from displays.domain.views import Kind, Layout, Step
from displays.models import Display
from displays.services import display_assign
from leagues import services as leagues
from tables import services as seating
from tournament.models import Event

pytestmark = pytest.mark.django_db


def test_anonymous_gets_the_pairing_page_only(client, screen):
    _client, display = screen
    page = client.get("/display/").content.decode()
    assert display.code in page and "ds-code" in page
    assert client.cookies["floor_display"]["httponly"]
    # The same screen keeps its code when it opens the page again.
    assert Display.objects.count() == 1
    for url in ("/console/displays/", f"/console/displays/{display.pk}/"):
        response = client.get(url)
        assert response.status_code == 302 and response["Location"].startswith("/login/")
    response = client.post("/console/displays/", {"code": display.code, "name": "Bar"})
    assert response.status_code == 302 and not Display.objects.get(pk=display.pk).paired
    # Unpaired, a screen has no views.
    assert client.get("/display/view/0/").status_code == 404


def test_floor_staff_see_the_list_but_cannot_pair_or_assign(client, floor_user, screen, paired):
    _c, display = paired
    client.force_login(floor_user)
    page = client.get("/console/displays/")
    assert page.status_code == 200 and "Bar" in page.content.decode()
    assert 'id="pair-code"' not in page.content.decode()
    assert client.post("/console/displays/", {"code": "AAAAAA", "name": "x"}).status_code == 403
    edit = client.get(f"/console/displays/{display.pk}/")
    assert edit.status_code == 200 and 'id="assign-readonly"' in edit.content.decode()
    before = Event.objects.count()
    assert (
        client.post(
            f"/console/displays/{display.pk}/", {"s1-kind": "slide", "s1-title": "x"}
        ).status_code
        == 403
    )
    assert (
        client.post(reverse("display-rename", args=[display.pk]), {"name": "x"}).status_code == 403
    )
    assert client.post(reverse("display-remove", args=[display.pk])).status_code == 403
    assert Event.objects.count() == before


def test_a_director_pairs_with_the_code_and_assigns_a_view(
    client, director, screen, make_tournament
):
    screen_client, display = screen
    t = make_tournament(status="running")
    client.force_login(director)
    response = client.post("/console/displays/", {"code": display.code.lower(), "name": "Bar"})
    assert response.status_code == 302
    assert response["Location"] == f"/console/displays/{display.pk}/"
    response = client.post(
        f"/console/displays/{display.pk}/",
        {
            "s1-kind": "clock",
            "s1-tournament": t.pk,
            "s1-layout": "clock_only",
            "s1-seconds": "30",
            "s2-kind": "payouts",
            "s2-tournament": t.pk,
            "s2-seconds": "15",
        },
    )
    assert response.status_code == 302
    display.refresh_from_db()
    assert [s["kind"] for s in display.steps] == ["clock", "payouts"]
    assert display.steps[0]["layout"] == "clock_only" and display.steps[0]["figures"] == []
    page = client.get("/console/displays/").content.decode()
    assert "Test Cup" in page and "30 s" in page
    # The screen shows it: its views are its own pages.
    clock = screen_client.get("/display/view/0/?v=2")
    assert clock.status_code == 200
    body = clock.content.decode()
    assert "dv-ok" in body and "dl-clock_only" in body and "bs-time" in body
    assert "frame-ancestors 'self'" in clock["Content-Security-Policy"]
    assert clock["X-Frame-Options"] == "SAMEORIGIN"
    # The screen's own page is never framed.
    assert "frame-ancestors 'none'" in screen_client.get("/display/")["Content-Security-Policy"]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "at least one view"),
        ({"s1-kind": "slide", "s1-title": "<script>x</script>"}, "plain text"),
        ({"s1-kind": "clock", "s1-tournament": "987654", "s1-figures": "pool"}, "no longer exists"),
        (
            {
                "s1-kind": "clock",
                "s1-tournament": "1",
                "s1-figures": "pool",
                "s1-seconds": "2",
                "s2-kind": "slide",
                "s2-title": "x",
            },
            "between 5 and 600",
        ),
    ],
)
def test_refusals_are_shown_in_the_console(client, director, paired, data, message):
    _c, display = paired
    client.force_login(director)
    response = client.post(f"/console/displays/{display.pk}/", data)
    assert response.status_code == 400
    assert message in response.content.decode()


@pytest.fixture
def night(make_tournament, register, actor):
    t = make_tournament(status="registering", venue="Casino")
    for i in range(20):
        register(t, name=f"Spieler {chr(65 + i)}")
    seating.tables_create(tournament=t, count=3, actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    return t


def test_every_view_renders_for_its_screen(paired, night, make_tournament, actor):
    screen_client, display = paired
    other = make_tournament(name="Turbo")
    league = leagues.league_create(name="Freitagsliga", public=True)
    season = leagues.season_create(league=league, name="2026")
    steps = [
        Step(Kind.CLOCK, tournament=night.pk, layout=Layout.PORTRAIT),
        Step(Kind.LOBBY, tournaments=(night.pk, other.pk)),
        Step(Kind.SEATING, tournament=night.pk),
        Step(Kind.TABLES, tournament=night.pk),
        Step(Kind.PAYOUTS, tournament=night.pk),
        Step(Kind.RESULTS, tournament=night.pk),
        Step(Kind.STANDINGS, season=season.pk),
        Step(Kind.SLIDE, title="Happy hour", text="Fish & chips < 10 €"),
    ]
    display_assign(display_id=display.pk, steps=steps, actor=actor)
    expect = [
        "bs-time",
        "Turbo",
        "Spieler A",
        "dv-tcard",
        "dv-money",
        "No player is out yet",
        "ls-table",
        "Fish &amp; chips &lt; 10 €",
    ]
    for index, needle in enumerate(expect):
        response = screen_client.get(f"/display/view/{index}/")
        body = response.content.decode()
        assert response.status_code == 200, index
        assert "dv-ok" in body and needle in body, (index, needle)


def test_a_view_whose_tournament_is_gone_is_not_marked_good(paired, make_tournament, actor):
    screen_client, display = paired
    t = make_tournament()
    display_assign(display_id=display.pk, steps=[Step(Kind.SEATING, tournament=t.pk)], actor=actor)
    t.delete()
    response = screen_client.get("/display/view/0/")
    assert response.status_code == 410 and "dv-ok" not in response.content.decode()


def test_new_screens_from_one_address_are_limited(client, monkeypatch, one_rate_window):
    from displays import views

    monkeypatch.setattr(views, "NEW_SCREENS_PER_HOUR", 2)
    for _ in range(2):
        client.cookies.clear()
        assert client.get("/display/").status_code == 200
    client.cookies.clear()
    assert client.get("/display/").status_code == 429
    assert Display.objects.count() == 2


def test_a_clock_chosen_for_sound_speaks(client, director, paired, make_tournament):
    screen_client, display = paired
    t = make_tournament(status="running")
    client.force_login(director)
    data = {"s1-kind": "clock", "s1-tournament": t.pk, "s1-figures": "pool", "s1-sound": "1"}
    assert client.post(f"/console/displays/{display.pk}/", data).status_code == 302
    display.refresh_from_db()
    assert display.steps[0]["sound"] is True
    body = screen_client.get("/display/view/0/").content.decode()
    assert "dv-ok" in body
    from clocks import views as clock_views

    if hasattr(clock_views, "speech_config"):
        assert 'id="speech-config"' in body


@pytest.mark.parametrize(
    ("language", "written"),
    [("en", "Wed 25 Nov 2026"), ("de", "Mi., 25. Nov. 2026"), ("en-us", "Wed 25 Nov 2026")],
)
def test_the_lobby_writes_the_date_in_the_pages_language(
    paired, make_tournament, actor, language, written
):
    """Not the US short form (11/25/2026) on an English page: a German page gets the German
    form, and an English one the day before the month, whatever the browser asks for."""
    import datetime
    from unittest import mock

    screen_client, display = paired
    t = make_tournament(name="Deepstack")
    display_assign(
        display_id=display.pk, steps=[Step(Kind.LOBBY, tournaments=(t.pk,))], actor=actor
    )
    at = datetime.datetime(2026, 11, 25, 18, 30, tzinfo=datetime.UTC)
    with mock.patch("displays.views.timezone.now", return_value=at):
        body = screen_client.get(
            "/display/view/0/", headers={"accept-language": language}
        ).content.decode()
    assert f'<span class="dv-sub">{written}</span>' in body
    assert "11/25/2026" not in body
