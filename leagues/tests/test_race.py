"""The season's race and a person's history with the database: the race read from the standings
(its last point is the standings' total), the SVG addresses (type, own policy, 404s, public names
only), the pages that show them and a season imported from TD3 files (docs/leagues.md, "The
season's race"; docs/players.md)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db.models import Count
from django.urls import reverse
from django.utils import timezone, translation

from core.charts import SVG_POLICY
from leagues import services as svc
from leagues.models import League, Season
from leagues.selectors import person_nights, season_race, season_standings
from tournament.models import Entry, EntryStatus, Player, Status, Tournament
from tournament.services import people

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("counters_agree")]

FILES = Path(__file__).resolve().parents[2] / "imports" / "tests" / "files"


def players(n: int) -> list[Player]:
    return Player.objects.bulk_create(
        Player(name=f"Geheim{i:02d} Vollname", display_name=f"Spieler {i:02d}") for i in range(n)
    )


def night(make_tournament, who: list[Player], *, days_ago: int, name: str = "Freitag"):
    """A finished tournament of `who` (winner first), written in bulk."""
    t = make_tournament(name=name, starts_at=timezone.now() - timedelta(days=days_ago))
    size = len(who)
    Entry.objects.bulk_create(
        Entry(
            tournament=t,
            player=p,
            number=i + 1,
            status=EntryStatus.ACTIVE if i == 0 else EntryStatus.BUSTED,
            place=i + 1,
            elimination_rank=size - i,
        )
        for i, p in enumerate(who)
    )
    Tournament.objects.filter(pk=t.pk).update(status=Status.FINISHED)
    t.refresh_from_db()
    return t


@pytest.fixture
def season(db):
    league = svc.league_create(name="Freitagsliga", public=True)
    return svc.season_create(league=league, name="2026")


@pytest.fixture
def played(season, make_tournament):
    """Four nights of twelve of fourteen people; table scoring, best 3, 1 point per night."""
    pool = players(14)
    for k in range(4):
        who = pool[k : k + 12][::-1] if k % 2 else pool[k : k + 12]
        svc.season_tournament_add(
            season=season, tournament=night(make_tournament, who, days_ago=30 - 7 * k)
        )
    return svc.season_update(
        season=season,
        name=season.name,
        scoring="table",
        table_text="100 70 50 40 30 20 10",
        best_n=3,
        participation=1,
    )


def test_the_race_ends_at_the_standings(played):
    standings = season_standings(played, public=True)
    race = season_race(played, standings)
    assert len(race.nights) == 4 and len(race.lines) == 10 and race.players == 14
    for line, row in zip(race.lines, standings.rows, strict=False):
        assert (line.player, line.name, line.totals[-1], line.ranks[-1]) == (
            row.player_id,
            row.name,
            row.total,
            row.rank,
        )


def svg(client, url):
    r = client.get(url)
    assert r.status_code == 200, r.content[:300]
    assert r["Content-Type"].startswith("image/svg+xml")
    assert r["Content-Security-Policy"] == SVG_POLICY
    return r.content.decode()


def test_race_svg_public_names_policy_and_etag(client, played):
    url = reverse("season-race-svg", args=[played.pk])
    body = svg(client, url)
    assert "<script" not in body
    assert "Spieler" in body and "Geheim" not in body and "Vollname" not in body
    dark = svg(client, url + "?dark=1")
    assert dark != body and "#0b1220" in dark
    assert svg(client, url + "?dark=1&screen=1") != dark
    again = client.get(url, HTTP_IF_NONE_MATCH=client.get(url)["ETag"])
    assert again.status_code == 304


def test_race_svg_404s(client, played, season):
    assert client.get(reverse("season-race-svg", args=[99999])).status_code == 404
    League.objects.filter(pk=season.league_id).update(public=False)
    assert client.get(reverse("season-race-svg", args=[season.pk])).status_code == 404
    assert client.get(reverse("season-public", args=[season.pk])).status_code == 404


def test_a_season_without_nights_says_so(client, season):
    body = svg(client, reverse("season-race-svg", args=[season.pk]))
    assert "No finished tournament in this season yet." in body
    page = client.get(reverse("season-public", args=[season.pk])).content.decode()
    assert "race-chart" not in page
    screen = client.get(reverse("season-screen", args=[season.pk])).content.decode()
    assert "ls-race" not in screen


def test_a_season_of_one_night_draws(client, season, make_tournament):
    svc.season_tournament_add(
        season=season, tournament=night(make_tournament, players(9), days_ago=2)
    )
    body = svg(client, reverse("season-race-svg", args=[season.pk]))
    assert "Spieler 00" in body
    page = client.get(reverse("season-public", args=[season.pk])).content.decode()
    assert 'id="race-chart"' in page and "After 1 night: Spieler 00 leads" in page


def test_a_shared_lead_is_said_so(client, season, make_tournament):
    a, b = players(2)
    for k, who in enumerate(([a, b], [b, a])):
        t = night(make_tournament, who, days_ago=9 - k)
        svc.season_tournament_add(season=season, tournament=t)
    svc.season_update(
        season=season,
        name=season.name,
        scoring="table",
        table_text="100 50",
        best_n=None,
        participation=0,
    )
    page = client.get(reverse("season-public", args=[season.pk])).content.decode()
    assert "After 2 nights: Spieler 00, Spieler 01 share the lead with 150 points." in page


def test_the_standings_page_and_the_screen_show_the_race(client, played):
    page = client.get(reverse("season-public", args=[played.pk])).content.decode()
    src = reverse("season-race-svg", args=[played.pk])
    assert f'src="{src}?dark=1"' in page
    table = page[page.index('id="race-chart"') : page.index("</figure>")]
    assert "Spieler" in table and "Geheim" not in page
    assert len(re.findall(r'<th scope="row">', table)) == 4  # a row per night
    with translation.override("de"):
        german = client.get(
            reverse("season-public", args=[played.pk]), HTTP_ACCEPT_LANGUAGE="de"
        ).content.decode()
    assert "Das Rennen der Saison" in german and "(Platz 1)" in german
    screen = client.get(reverse("season-screen", args=[played.pk])).content.decode()
    assert f'src="{src}?dark=1&amp;screen=1"' in screen and "data-chart-live" in screen
    assert "floor/charts.js" in screen


# --- a person's history ----------------------------------------------------------------------


@pytest.fixture
def profiles(actor):
    people.club_update(name="PC", public_profiles=True, actor=actor)


def test_person_charts_public_and_console(client, played, profiles, director):
    who = season_standings(played).rows[0].player_id
    history = person_nights(Player.objects.get(pk=who), public=True)
    assert history.with_points and len(history.nights) >= 3
    page = client.get(reverse("player-public", args=[who])).content.decode()
    assert 'id="person-finishes"' in page and 'id="person-points"' in page
    body = svg(client, reverse("player-chart-svg", args=[who, "finishes"]))
    assert "Geheim" not in body
    svg(client, reverse("player-chart-svg", args=[who, "points"]))
    assert client.get(reverse("player-chart-svg", args=[who, "nothing"])).status_code == 404
    assert client.get(reverse("player-chart-svg", args=[99999, "points"])).status_code == 404
    console = reverse("console-player-chart-svg", args=[who, "finishes"])
    assert client.get(console).status_code == 302  # staff only
    client.force_login(director)
    svg(client, console)
    detail = client.get(reverse("player-detail", args=[who])).content.decode()
    assert 'id="person-finishes"' in detail
    assert (
        client.get(reverse("console-player-chart-svg", args=[99999, "points"])).status_code == 404
    )


def test_person_charts_404_without_public_profiles(client, played):
    who = season_standings(played).rows[0].player_id
    assert client.get(reverse("player-chart-svg", args=[who, "finishes"])).status_code == 404


def test_a_person_with_none_or_one_tournament(client, profiles, make_tournament):
    (nobody,) = players(1)
    assert client.get(reverse("player-public", args=[nobody.pk])).status_code == 200
    body = svg(client, reverse("player-chart-svg", args=[nobody.pk, "finishes"]))
    assert "No results to draw yet." in body
    assert (
        'id="person-finishes"'
        not in client.get(reverse("player-public", args=[nobody.pk])).content.decode()
    )
    once = players(3)
    night(make_tournament, once, days_ago=1)
    body = svg(client, reverse("player-chart-svg", args=[once[1].pk, "finishes"]))
    assert "<script" not in body
    assert "No league points to draw yet." in svg(
        client, reverse("player-chart-svg", args=[once[1].pk, "points"])
    )
    page = client.get(reverse("player-public", args=[once[1].pk])).content.decode()
    assert 'id="person-finishes"' in page and 'id="person-points"' not in page


# --- a season imported from TD3 files ------------------------------------------------------


def test_a_season_imported_from_td3_files_draws(client, profiles):
    call_command("floor_import_td", *sorted(str(p) for p in FILES.glob("*.tdt")), stdout=None)
    # The samples name a season (the newest file) or none (a season made for the others).
    season = (
        Season.objects.select_related("league").annotate(n=Count("links")).order_by("-n").first()
    )
    League.objects.filter(pk=season.league_id).update(public=True)
    standings = season_standings(season, public=True)
    assert standings.rows
    race = season_race(season, standings)
    assert not race.empty
    assert [line.totals[-1] for line in race.lines] == [r.total for r in standings.rows[:10]]
    body = svg(client, reverse("season-race-svg", args=[season.pk]))
    assert race.lines[0].name in body
    page = client.get(reverse("season-public", args=[season.pk])).content.decode()
    assert 'id="race-chart"' in page
