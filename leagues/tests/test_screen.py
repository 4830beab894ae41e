"""The standings on a big screen: the page and its JSON (public leagues only, ETag and 304),
the console's link, and the kept standings after corrections: a read that reuses what it kept
gives exactly what a read from nothing gives (docs/leagues.md)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from actions.bust import BustReport, entries_bust
from actions.registration import entry_register
from leagues import services as svc
from leagues.selectors import season_standings, standings_cache_clear
from tests.test_csp import assert_strict
from tournament.models import Entry, Player, Tournament
from tournament.services.registration import player_create, registration_close

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(actor):
    return [player_create(name=f"Spieler{i:02d} Nachname{i:02d}", actor=actor) for i in range(14)]


@pytest.fixture
def play(make_tournament, actor):
    """A finished tournament of `order` (players, winner first)."""

    def run(order, name="Friday", days_ago=1):
        t = make_tournament(
            name=name, status="running", starts_at=timezone.now() - timedelta(days=days_ago)
        )
        entries = [entry_register(tournament=t, player=p, actor=actor) for p in order]
        registration_close(tournament=t, actor=actor)
        for e in reversed(entries[1:]):
            entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)
        t.refresh_from_db()
        return t

    return run


@pytest.fixture
def season(db):
    league = svc.league_create(name="Freitagsliga", public=True)
    return svc.season_create(league=league, name="2026")


def _plain(standings):
    """What a reader sees, without the object identities."""
    return [
        (r.rank, r.player_id, r.name, r.total, r.participation, r.played, list(r.cells), r.struck)
        for r in standings.rows
    ]


def _fresh(season, **kw):
    standings_cache_clear()
    return _plain(season_standings(season, **kw))


def test_kept_standings_equal_a_fresh_read_after_every_kind_of_change(season, people, play):
    ts = [
        play(people[i : i + 10] if i % 2 else list(reversed(people[i : i + 10])), f"F{i}", 9 - i)
        for i in range(4)
    ]
    for t in ts:
        svc.season_tournament_add(season=season, tournament=t)
    season = svc.season_update(
        season=season, name="2026", scoring="dpsb", best_n=2, participation="5"
    )
    first = _plain(season_standings(season))
    assert first == _fresh(season)
    # One result corrected (plain SQL, no event): only that tournament is scored again, and the
    # standings read from what was kept are exactly those read from nothing.
    season_standings(season)
    winner = Entry.objects.get(tournament=ts[1], place=1)
    third = Entry.objects.get(tournament=ts[1], place=3)
    Entry.objects.filter(pk=winner.pk).update(place=3)
    Entry.objects.filter(pk=third.pk).update(place=1)
    after = _plain(season_standings(season))
    assert after != first
    assert after == _fresh(season)
    row = next(r for r in season_standings(season).rows if r.player_id == third.player_id)
    assert row.cells[1].place == 1 and row.cells[1].points == 10 * 100 * 50  # 10 entries: 50 %
    # A player's entry given to someone else: the old player may leave the standings.
    season_standings(season)
    Entry.objects.filter(tournament=ts[3], place=5).update(player=people[13])
    assert _plain(season_standings(season)) == _fresh(season)
    # The scoring, best N and the tournaments of the season change the whole table.
    season_standings(season)
    season = svc.season_update(season=season, name="2026", scoring="dpsb", best_n=None)
    assert _plain(season_standings(season)) == _fresh(season)
    season_standings(season)
    svc.season_tournament_remove(season=season, tournament=ts[0])
    assert [r.tournament.pk for r in season_standings(season).tournaments] == [t.pk for t in ts[1:]]
    assert _plain(season_standings(season)) == _fresh(season)


def test_a_new_display_name_shows_without_a_changed_result(season, people, play):
    t = play(people[:10])
    svc.season_tournament_add(season=season, tournament=t)
    season_standings(season)
    Player.objects.filter(pk=people[0].pk).update(display_name="Die Siegerin")
    assert season_standings(season).rows[0].name == "Die Siegerin"


def test_the_screen_and_its_json(client, season, people, play):
    t = play(people[:10])
    running = play(people[:10], name="Running")
    Tournament.objects.filter(pk=running.pk).update(status="running")
    svc.season_tournament_add(season=season, tournament=t)
    svc.season_tournament_add(season=season, tournament=running)
    page = client.get(reverse("season-screen", args=[season.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="league-screen-config"' in html and "leagues/screen.js" in html
    assert "<style" not in html and "style=" not in html
    assert_strict(page, "league screen")  # the policy's header, no inline code
    config = json.loads(
        html.split('id="league-screen-config" type="application/json">')[1].split("</script>")[0]
    )
    assert config["pageSeconds"] == 12 and config["refreshSeconds"] == 30
    assert config["snapshot"]["rows"][0]["rank"] == 1
    assert client.get(reverse("season-screen", args=[season.pk]) + "?seconds=2").status_code == 200

    url = reverse("season-standings-json", args=[season.pk])
    r = client.get(url)
    assert r.status_code == 200 and r["Cache-Control"] == "no-cache"
    data = r.json()
    assert (data["tournaments"], data["finished"], data["league"]) == (2, 1, "Freitagsliga")
    top = data["rows"][0]
    # 10 entries: 50 % of a pool of 1000 points; public names only.
    assert top == {"rank": 1, "name": "Spieler00 N.", "points": "500", "counted": 1, "played": 1}
    assert len(data["rows"]) == 10
    assert r["ETag"] == config["etag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=r["ETag"]).status_code == 304
    # A corrected result: a new body and a new ETag.
    second = Entry.objects.get(tournament=t, place=2)
    first = Entry.objects.get(tournament=t, place=1)
    Entry.objects.filter(pk=first.pk).update(place=2)
    Entry.objects.filter(pk=second.pk).update(place=1)
    changed = client.get(url, HTTP_IF_NONE_MATCH=r["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != r["ETag"]
    assert changed.json()["rows"][0]["name"] == "Spieler01 N."


def test_the_screen_is_for_public_leagues_only(client, director, season):
    season.league.public = False
    season.league.save()
    for name in ("season-screen", "season-standings-json"):
        assert client.get(reverse(name, args=[season.pk])).status_code == 404
        assert client.get(reverse(name, args=[season.pk + 999])).status_code == 404
    client.force_login(director)
    html = client.get(reverse("season", args=[season.pk])).content.decode()
    assert "season-screen-link" not in html
    season.league.public = True
    season.league.save()
    html = client.get(reverse("season", args=[season.pk])).content.decode()
    assert reverse("season-screen", args=[season.pk]) in html
