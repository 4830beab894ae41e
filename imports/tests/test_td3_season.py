"""A season from TD3 files: the files' league and season are found by their TD3 ids or made,
each tournament counts for its season, the standings equal the points computed here from the
places; a new season takes the file's formula, a formula Floor cannot express is named and the
season's scoring stays; a director's formula is never overwritten; a merged person keeps the
TD3 id."""

from __future__ import annotations

import random
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.utils import translation
from rest_framework.test import APIClient

from actions.imports import Fate, lines_of, td3_files_import, td3_season_plan
from imports.domain.td3_sample import MINUTE_MS, START_MS, SampleLeague, SampleNight, sample_night
from imports.models import ExternalId, ImportedTournament, Source
from imports.services import td3_read
from leagues.models import League, Scoring, Season, SeasonTournament
from leagues.selectors import season_standings
from leagues.services import league_create, season_update
from tournament.models import Player
from tournament.services import people

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("counters_agree")]

LEAGUE = SampleLeague(
    league="Donnerstagsliga",
    season="2025",
    league_uuid="0d8bd040-7ed4-11e3-0aa0-0000000000aa",
    season_uuid="0e40b8bd-00da-44f4-b242-0000000000bb",
    formula="n-r+1",
)
DAY_MS = 24 * 60 * MINUTE_MS


def regulars(count: int = 14) -> tuple[str, ...]:
    return tuple(f"c0000000-0000-4000-8000-{n:012d}" for n in range(count))


def nights(seeds, league=LEAGUE):
    """One night per seed, a week apart, each with 10 of the season's regulars."""
    pool = regulars()
    out = []
    for week, seed in enumerate(seeds):
        rng = random.Random(seed)
        people_ = tuple(rng.sample(pool, 10))
        out.append(
            sample_night(
                seed,
                players=10,
                reentries=3,
                people=people_,
                league=league,
                start_ms=START_MS + week * 7 * DAY_MS,
            )
        )
    return out


def as_files(seeds, league=LEAGUE):
    return [
        (f"night-{seed}.tdt", td3_read(n.text.encode(), f"night-{seed}.tdt"))
        for seed, n in zip(seeds, nights(seeds, league), strict=True)
    ]


def expected_points(played: list[SampleNight]) -> dict[str, int]:
    """TD3's n-r+1 per player, from the places alone: n the entries, r the player's best place
    (a re-entry's better finish counts); in hundredths, summed over the nights."""
    total: dict[str, int] = {}
    for night in played:
        n = len(night.out_order)
        best: dict[str, int] = {}
        for i, (player, _index) in enumerate(night.out_order):
            place = n - i
            best[player] = min(best.get(player, place), place)
        for player, r in best.items():
            total[player] = total.get(player, 0) + (n - r + 1) * 100
    return total


def person(uuid: str) -> int:
    return ExternalId.objects.get(source=Source.TD3, value=uuid).player_id


def test_a_season_of_files_gives_its_league_season_and_standings(actor):
    seeds = [11, 12, 13, 14]
    files = as_files(seeds)
    done = td3_files_import(files[:2], actor=actor)
    done += td3_files_import(files[2:3], actor=actor)
    done += td3_files_import(files[3:], actor=actor)
    league = League.objects.get()
    season = Season.objects.get()
    assert (league.name, season.name, season.league_id) == ("Donnerstagsliga", "2025", league.pk)
    assert SeasonTournament.objects.filter(season=season).count() == 4
    assert [d.link.league_created for d in done] == [True, False, False, False]
    assert [d.link.formula.fate for d in done] == [Fate.SET, Fate.SAME, Fate.SAME, Fate.SAME]
    season.refresh_from_db()
    assert season.scoring == Scoring.FORMULA and season.formula == "((n - p) + 1)"
    standings = season_standings(season)
    assert not standings.error
    got = {row.player_id: row.total for row in standings.rows}
    want = {person(uuid): points for uuid, points in expected_points(nights(seeds)).items()}
    assert got == want
    # The next nights of the same league and season (and a new season of it): no second league.
    more = td3_files_import(as_files([15, 16]), actor=actor)
    season_2026 = SampleLeague(**{**LEAGUE.__dict__, "season": "2026", "season_uuid": "s-2026"})
    td3_files_import(as_files([17], season_2026), actor=actor)
    assert League.objects.count() == 1
    assert [d.link.season.pk for d in more] == [season.pk, season.pk]
    assert SeasonTournament.objects.filter(season=season).count() == 6
    assert sorted(Season.objects.values_list("name", flat=True)) == ["2025", "2026"]
    got = {row.player_id: row.total for row in season_standings(season).rows}
    want = {
        person(uuid): points
        for uuid, points in expected_points(nights([11, 12, 13, 14, 15, 16])).items()
    }
    assert got == want


def test_a_league_of_the_same_name_is_not_joined_silently(actor):
    here = league_create(name="Donnerstagsliga")
    (done,) = td3_files_import(as_files([21]), actor=actor)
    assert done.link.league.pk != here.pk and done.link.namesake
    assert any("is not the file's" in line for line in lines_of([done]))
    assert League.objects.count() == 2 and not here.seasons.exists()


def test_a_formula_floor_cannot_express_is_named_and_the_season_keeps_its_scoring(actor):
    odd = SampleLeague(**{**LEAGUE.__dict__, "formula": "trunc(sqrt(n/r))"})
    files = as_files([31, 32], odd)
    plan = td3_season_plan(files[0][1])
    assert plan.formula.fate == Fate.REFUSED
    assert "Floor cannot express the TD3 function trunc()" in plan.formula.reason
    with translation.override("de"):
        done = td3_files_import(files, actor=actor)
        (german,) = [x for x in lines_of(done) if "trunc" in x]
    assert "kann die TD3-Funktion trunc() nicht" in german and "Wertung" in german
    season = Season.objects.get()
    assert (season.scoring, season.formula) == (Scoring.DPSB, "")
    assert [d.link.formula.fate for d in done] == [Fate.REFUSED, Fate.REFUSED]
    imported = ImportedTournament.objects.get(tournament=done[0].tournament)
    assert imported.points_formula == "trunc(sqrt(n/r))"
    # The standings still count both nights, by the default scoring.
    assert SeasonTournament.objects.filter(season=season).count() == 2
    assert season_standings(season).rows


def test_a_formula_standings_cannot_score_is_refused_with_the_reason(actor):
    """A translation that reads a figure the standings do not give is not set (whichever
    figures those are today): the reason comes from the leagues' own check."""
    hits = SampleLeague(**{**LEAGUE.__dict__, "formula": "n-r+1+nh*10000000"})
    (done,) = td3_files_import(as_files([33], hits), actor=actor)
    season = Season.objects.get()
    if done.link.formula.fate == Fate.REFUSED:
        assert (season.scoring, season.formula) == (Scoring.DPSB, "")
        assert "h" in done.link.formula.reason and done.link.formula.floor
    else:
        assert done.link.formula.fate == Fate.SET and season.scoring == Scoring.FORMULA


def test_a_formula_the_director_set_is_not_overwritten(actor):
    td3_files_import(as_files([41]), actor=actor)
    season = Season.objects.get()
    season_update(season=season, name=season.name, scoring=Scoring.FORMULA, formula="100 / p")
    other = SampleLeague(**{**LEAGUE.__dict__, "formula": "2*(n-r+1)"})
    (done,) = td3_files_import(as_files([42], other), actor=actor)
    season.refresh_from_db()
    assert season.formula == "100 / p" and done.link.formula.fate == Fate.KEPT


def test_the_api_and_the_command_say_what_became_of_league_and_formula(director, tmp_path):
    client = APIClient()
    client.force_authenticate(director)
    odd = SampleLeague(**{**LEAGUE.__dict__, "formula": "trunc(r)"})
    night = nights([51], odd)[0]
    upload = SimpleUploadedFile("n51.tdt", night.text.encode(), "application/octet-stream")
    r = client.post("/api/imports/td/", {"files": [upload], "preview": "1"})
    plan = r.json()["files"][0]["counts_for"]
    assert plan["league"] == {
        "id": None,
        "name": "Donnerstagsliga",
        "created": False,
        "namesake_here": False,
    }
    assert plan["formula"]["fate"] == "refused" and "trunc" in plan["formula"]["reason"]
    assert not League.objects.exists()
    upload.seek(0)
    r = client.post("/api/imports/td/", {"files": [upload]})
    assert r.status_code == 201, r.content
    counts_for = r.json()["tournaments"][0]["counts_for"]
    assert counts_for["season"]["id"] == Season.objects.get().pk
    assert counts_for["league"]["created"] is True
    assert any("trunc" in w for w in counts_for["words"])
    path = tmp_path / "n52.tdt"
    path.write_text(nights([52], odd)[0].text)
    out = StringIO()
    call_command("floor_import_td", str(path), stdout=out)
    assert "League Donnerstagsliga, season 2025." in out.getvalue()
    assert "trunc" in out.getvalue()
    assert League.objects.count() == 1 and SeasonTournament.objects.count() == 2


def test_the_preview_page_names_the_season_and_the_construct(client, director):
    client.force_login(director)
    odd = SampleLeague(**{**LEAGUE.__dict__, "formula": "trunc(r)"})
    night = nights([61], odd)[0]
    upload = SimpleUploadedFile("n61.tdt", night.text.encode(), "application/octet-stream")
    r = client.post("/console/imports/td/", {"files": [upload]})
    page = r.content.decode()
    assert r.status_code == 200 and "Donnerstagsliga: 2025" in page and "trunc" in page
    assert "a new league and season" in page and "kept as text" in page
    upload.seek(0)
    r = client.post("/console/imports/td/", {"files": [upload]}, HTTP_ACCEPT_LANGUAGE="de")
    page = r.content.decode()
    assert "eine neue Liga und Saison" in page
    assert "Floor kann die TD3-Funktion trunc() nicht ausdrücken." in page
    assert "als Text aufbewahrt" in page
    # Confirmed: the messages say what became of the league, the season and the formula.
    batch = r.context["batch"]
    r = client.post("/console/imports/td/", {"batch": batch}, follow=True)
    shown = [str(m) for m in r.context["messages"]]
    assert "League Donnerstagsliga, season 2025." in shown
    assert any("trunc" in m for m in shown)


def test_a_merged_person_keeps_the_td3_id(actor):
    first_night, second_night = nights([71, 72])
    both = {u for u, _i in first_night.out_order} & {u for u, _i in second_night.out_order}
    uuid = min(both)
    td3_files_import(as_files([71]), actor=actor)
    imported = Player.objects.get(external_ids__value=uuid)
    kept = Player.objects.create(name="Kept Record", display_name="Kept")
    people.player_merge(kept=kept, other=imported, actor=actor)
    assert ExternalId.objects.get(value=uuid).player_id == kept.pk
    (second,) = td3_files_import(as_files([72]), actor=actor)
    # The next file finds the kept person: no new record for that TD3 player.
    assert ExternalId.objects.filter(value=uuid).count() == 1
    assert second.tournament.entries.filter(player=kept).exists()
    assert not Player.objects.filter(pk=imported.pk).exists()


@pytest.mark.postgres  # SQLite runs one writing transaction at a time: no race to lose
@pytest.mark.django_db(transaction=True)
def test_two_imports_of_one_season_at_once_make_one_league(actor):
    """Two directors upload two nights of one season at the same moment: one league, one
    season, both nights in it (the second import waits for the first: imports_serialized)."""
    import threading

    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("SQLite runs one writing transaction at a time: there is no race to lose")
    first, second = as_files([501]), as_files([502])
    start = threading.Barrier(2)
    failures: list[BaseException] = []

    def run(files):
        try:
            start.wait()
            td3_files_import(files, actor=actor)
        except BaseException as exc:  # reported below
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(f,)) for f in (first, second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []
    assert League.objects.count() == 1 and Season.objects.count() == 1
    assert SeasonTournament.objects.count() == 2
