"""Leagues with the database: services (check, then do), the standings selector, the pages with
their role checks, the public page and the CSV (docs/leagues.md)."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from actions.bust import BustReport, entries_bust
from core.errors import FloorError
from leagues import services as svc
from leagues.models import Scoring, Season, SeasonTournament
from leagues.selectors import as_points, finish_points, season_standings
from tournament.models import Entry, Tournament
from tournament.services.corrections import entry_change_player
from tournament.services.registration import player_create, registration_close

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(actor):
    names = [f"Spieler{i:02d} Nachname{i:02d}" for i in range(12)]
    return [player_create(name=n, actor=actor) for n in names]


@pytest.fixture
def play(make_tournament, actor):
    """A finished tournament of `order` (players, winner first)."""
    from actions.registration import entry_register

    def run(order, name="Friday", days_ago=1):
        t = make_tournament(
            name=name, status="running", starts_at=timezone.now() - timedelta(days=days_ago)
        )
        entries = [entry_register(tournament=t, player=p, actor=actor) for p in order]
        registration_close(tournament=t, actor=actor)
        for e in reversed(entries[1:]):
            entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)
        t.refresh_from_db()
        assert t.status == "finished"
        return t

    return run


@pytest.fixture
def season(db):
    league = svc.league_create(name="Freitagsliga", public=True)
    return svc.season_create(league=league, name="2026")


def totals(season):
    return {row.name: as_points(row.total) for row in season_standings(season).rows}


def test_dpsb_standings_over_two_tournaments(season, people, play, make_tournament):
    t1 = play(people[:10])
    t2 = play(list(reversed(people[:10])), name="Friday 2")
    svc.season_tournament_add(season=season, tournament=t1)
    svc.season_tournament_add(season=season, tournament=t2)
    running = make_tournament(name="Running", status="running")
    svc.season_tournament_add(season=season, tournament=running)  # counts once finished
    s = season_standings(season)
    assert [r.tournament.pk for r in s.tournaments] == [t1.pk, t2.pk, running.pk]
    assert [r.counted for r in s.tournaments] == [True, True, False]
    first, last = people[0].display_name, people[9].display_name
    # 10 entries: a pool of 1000 points, 50 / 30 / 20 %.
    assert totals(season)[first] == 500 and totals(season)[last] == 500
    assert totals(season)[people[1].display_name] == 300
    assert totals(season)[people[5].display_name] == 0
    rows = season_standings(season).rows
    assert rows[0].rank == rows[1].rank == 1 and rows[2].rank == 3
    assert rows[0].cells[0] is not None and rows[0].cells[2] is None


def test_a_corrected_result_changes_the_standings_at_once(season, people, play, actor):
    t = play(people[:10])
    svc.season_tournament_add(season=season, tournament=t)
    assert totals(season)[people[0].display_name] == 500
    winner = Entry.objects.get(tournament=t, place=1)
    entry_change_player(entry=winner, actor=actor, player=people[11])
    after = totals(season)
    assert people[0].display_name not in after
    assert after[people[11].display_name] == 500
    # A place changed by any path (here plain SQL, no event) shows at once too.
    second = Entry.objects.get(tournament=t, place=2)
    Entry.objects.filter(pk=second.pk).update(place=1)
    Entry.objects.filter(pk=winner.pk).update(place=2)
    after = totals(season)
    assert after[people[11].display_name] == 300 and after[people[1].display_name] == 500


def test_best_n_participation_and_formula(season, people, play):
    for i in range(3):
        play(people[:10] if i != 1 else list(reversed(people[:10])), name=f"F{i}", days_ago=3 - i)
    for t in Tournament.objects.all():
        svc.season_tournament_add(season=season, tournament=t)
    svc.season_update(
        season=season,
        name="2026",
        scoring=Scoring.FORMULA,
        formula="n - p + 1",
        best_n=2,
        participation="1.5",
    )
    season.refresh_from_db()
    assert season.participation == Decimal("1.50")
    row = next(r for r in season_standings(season).rows if r.name == people[0].display_name)
    # 10, 1, 10: the best two count, plus 1.5 for each of the three played.
    assert as_points(row.total) == Decimal("24.5")
    assert row.struck == {row.cells[1].tournament}
    assert row.rank == 1


def test_a_formula_with_statements_and_a_conditional(client, director, season, people, play):
    t = play(people[:10])
    svc.season_tournament_add(season=season, tournament=t)
    formula = "t33 = round(n / 3)\nbase = 10 * sqrt(n) / sqrt(p)\nIF(p <= t33, round(base), 1)"
    svc.season_update(season=season, name="2026", scoring=Scoring.FORMULA, formula=formula)
    season.refresh_from_db()
    assert season.formula == formula
    got = totals(season)
    assert got[people[0].display_name] == 32  # round(10 * sqrt(10))
    assert got[people[2].display_name] == 18  # 3rd: within the top third
    assert got[people[3].display_name] == 1
    client.force_login(director)
    html = client.get(reverse("season", args=[season.pk])).content.decode()
    assert "t33 = round(n / 3); base = 10 * sqrt(n) / sqrt(p); IF(p &lt;= t33" in html


@pytest.mark.parametrize(
    ("formula", "english", "german"),
    [
        ("n = 3\nn", "n cannot be assigned", "n kann nicht zugewiesen werden"),
        ("IF(p < 3, 10)", "Wrong number of arguments to IF.", "Falsche Anzahl"),
        ("x + 1", "Use n, p, b, k, h, the night's figures", "zuvor zugewiesen"),
    ],
)
def test_formula_refusals_in_both_languages(season, formula, english, german):
    for language, words in (("en", english), ("de", german)):
        with translation.override(language), pytest.raises(FloorError) as exc:
            svc.season_update(season=season, name="2026", scoring=Scoring.FORMULA, formula=formula)
        assert words in str(exc.value)
    season.refresh_from_db()
    assert season.formula == ""


def test_shared_places_share_points(season, people, play):
    t = play(people[:10])
    svc.season_tournament_add(season=season, tournament=t)
    season = svc.season_update(
        season=season, name="2026", scoring=Scoring.TABLE, table_text="100 70 50 30"
    )
    # Two players share 3rd (as the busts of one hand would): 3rd and 4th averaged.
    Entry.objects.filter(tournament=t, place=4).update(place=3)
    got = totals(season)
    assert got[people[2].display_name] == got[people[3].display_name] == 40
    by_number = finish_points(t)
    assert sorted(by_number.values(), reverse=True)[:4] == [100, 70, 40, 40]


def test_finish_points_is_none_outside_a_season(people, play):
    assert finish_points(play(people[:10])) is None


def test_refusals_change_nothing(season, people, play):
    t = play(people[:10])
    svc.season_tournament_add(season=season, tournament=t)
    before = Season.objects.values().get(pk=season.pk)
    for bad in (
        {"scoring": Scoring.FORMULA, "formula": "100 / (n - p)"},
        {"scoring": Scoring.FORMULA, "formula": "sqrt(n - 3 * p)"},
        {"scoring": Scoring.FORMULA, "formula": "__import__('os')"},
        {"scoring": Scoring.TABLE, "table_text": "10 x 5"},
        {"scoring": Scoring.DPSB, "best_n": 0},
        {"scoring": Scoring.DPSB, "participation": "-1"},
        {"scoring": "elo"},
    ):
        with pytest.raises(FloorError):
            svc.season_update(season=season, name="changed", **bad)
    assert Season.objects.values().get(pk=season.pk) == before
    other = svc.season_create(league=season.league, name="2027")
    with pytest.raises(FloorError) as exc:
        svc.season_tournament_add(season=other, tournament=t)
    assert "already counts" in str(exc.value)
    assert SeasonTournament.objects.get(tournament=t).season_id == season.pk


# --- pages ---------------------------------------------------------------------------------


def test_roles(client, floor_user, director, season):
    url = reverse("season", args=[season.pk])
    assert client.get(url).status_code == 302  # login first
    client.force_login(floor_user)
    assert client.get(reverse("leagues")).status_code == 200
    assert client.get(url).status_code == 200
    assert client.post(reverse("leagues"), {"name": "X"}).status_code == 403
    assert (
        client.post(url, {"action": "settings", "name": "x", "scoring": "dpsb"}).status_code == 403
    )
    html = client.get(url).content.decode()
    assert "Save scoring" not in html  # the settings form is for directors


def test_director_sets_up_a_league(client, director, people, play):
    t = play(people[:10])
    client.force_login(director)
    r = client.post(reverse("leagues"), {"name": "Clubliga", "public": "on"})
    league_url = r["Location"]
    r = client.post(league_url, {"action": "season", "name": "Herbst"})
    season = Season.objects.get(name="Herbst")
    assert r["Location"] == reverse("season", args=[season.pk])
    url = reverse("season", args=[season.pk])
    assert client.post(url, {"action": "add", "tournament": t.pk}).status_code == 302
    r = client.post(url, {"action": "add", "tournament": t.pk})
    assert r.status_code == 400 and "already counts" in r.content.decode()
    html = client.get(url).content.decode()
    assert people[0].display_name in html and "500" in html
    # A bad formula: the form says why, nothing is saved.
    r = client.post(
        url,
        {"action": "settings", "name": "Herbst", "scoring": "formula", "formula": "10 / (p - 1)"},
    )
    assert r.status_code == 400 and "divides by zero" in r.content.decode()
    season.refresh_from_db()
    assert season.scoring == Scoring.DPSB and season.formula == ""
    r = client.post(
        url,
        {
            "action": "settings",
            "name": "Herbst",
            "scoring": "formula",
            "formula": "x",
            "best_n": "0",
        },
    )
    assert r.status_code == 400
    # The preview shows a formula's points without saving it.
    r = client.post(
        url,
        {
            "action": "preview",
            "name": "Herbst",
            "scoring": "formula",
            "formula": "9 * sqrt(n) / sqrt(p)",
        },
    )
    assert r.status_code == 200 and 'id="preview"' in r.content.decode()
    season.refresh_from_db()
    assert season.formula == ""
    r = client.post(
        url,
        {
            "action": "settings",
            "name": "Herbst",
            "scoring": "formula",
            "formula": "9 * sqrt(n) / sqrt(p)",
            "best_n": "10",
            "participation": "2",
        },
    )
    assert r.status_code == 302
    season.refresh_from_db()
    assert season.scoring == "formula" and season.best_n == 10
    assert client.post(url, {"action": "remove", "tournament": t.pk}).status_code == 302
    assert not SeasonTournament.objects.exists()


def test_public_page_only_for_a_public_league(client, season, people, play):
    t = play(people[:10])
    svc.season_tournament_add(season=season, tournament=t)
    url = reverse("season-public", args=[season.pk])
    html = client.get(url).content.decode()
    assert people[0].display_name in html and people[0].name not in html
    svc.league_update(league=season.league, name=season.league.name, public=False)
    assert client.get(url).status_code == 404
    assert client.get(reverse("season-public-csv", args=[season.pk])).status_code == 404
    assert client.get("/seasons/999999/").status_code == 404


def test_public_names_become_initials(client, season, people, play, settings):
    t = play(people[:10], days_ago=settings.FLOOR_PUBLIC_RESULTS_DAYS + 2)
    svc.season_tournament_add(season=season, tournament=t)
    html = client.get(reverse("season-public", args=[season.pk])).content.decode()
    assert "S. N." in html and people[0].display_name not in html


def test_csv(client, floor_user, season, actor, play, people):
    evil = player_create(name="=HYPERLINK(x)", display_name="=HYPERLINK(x)", actor=actor)
    t = play([evil, *people[:9]])
    svc.season_tournament_add(season=season, tournament=t)
    season = svc.season_update(
        season=season, name="2026", scoring=Scoring.DPSB, best_n=1, participation="0.5"
    )
    client.force_login(floor_user)
    body = client.get(reverse("season-csv", args=[season.pk])).content.decode()
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][:5] == ["rank", "name", "total", "played", "participation"]
    assert rows[0][5].endswith("Friday")
    assert rows[1][:5] == ["1", "'=HYPERLINK(x)", "500.5", "1", "0.5"]
    assert rows[1][5] == "500"
    public = client.get(reverse("season-public-csv", args=[season.pk])).content.decode()
    assert public.splitlines()[0] == body.splitlines()[0]


@pytest.mark.parametrize(
    "table_text", ["2-10: 10 5\n8-20: 20 10", "zehn fünf", "2-10: 10 x", "10-2: 5 3"]
)
def test_a_points_table_that_does_not_parse_is_refused_on_its_field(
    client, director, season, table_text
):
    """Overlapping bands or words in the points table were a 500: the refusal named a field
    the form does not have ("table" for "table_text")."""
    client.force_login(director)
    before = Season.objects.values().get(pk=season.pk)
    r = client.post(
        reverse("season", args=[season.pk]),
        {"action": "settings", "name": "2026", "scoring": "table", "table_text": table_text},
    )
    assert r.status_code == 400
    assert r.context["form"].errors.get("table_text"), r.context["form"].errors
    assert r.context["form"].errors["table_text"][0] in r.content.decode()
    assert Season.objects.values().get(pk=season.pk) == before


def test_a_league_or_season_without_a_name_is_a_400_and_makes_nothing(client, director, season):
    from leagues.models import League

    client.force_login(director)
    leagues, seasons = League.objects.count(), Season.objects.count()
    r = client.post(reverse("leagues"), {"name": ""})
    assert r.status_code == 400 and r.context["form"].errors["name"]
    assert r.context["form"].errors["name"][0] in r.content.decode()
    r = client.post(reverse("league", args=[season.league_id]), {"action": "season", "name": " "})
    assert r.status_code == 400 and r.context["season_form"].errors["name"]
    assert r.context["season_form"].errors["name"][0] in r.content.decode()
    r = client.post(reverse("league", args=[season.league_id]), {"name": ""})
    assert r.status_code == 400 and r.context["form"].errors["name"]
    assert (League.objects.count(), Season.objects.count()) == (leagues, seasons)


def test_best_n_beyond_the_column_is_refused_on_its_field(client, director, season):
    """A 20-digit "best N" reached the database: a 500 (found by the crawling form fuzzer)."""
    client.force_login(director)
    before = Season.objects.values().get(pk=season.pk)
    r = client.post(
        reverse("season", args=[season.pk]),
        {"action": "settings", "name": "2026", "scoring": "dpsb", "best_n": "9" * 20},
    )
    assert r.status_code == 400 and r.context["form"].errors["best_n"]
    assert Season.objects.values().get(pk=season.pk) == before
