"""The demo (`manage.py floor_demo`, run on the newcomer's first start) draws every chart: a
league's season of eight imported nights with its race, the Thursday Turbo with a history over
the levels (counts, busts, re-entries, the clock), the Main Event's flights played and bagged.
Run twice, it adds nothing."""

from __future__ import annotations

import io
from collections import Counter

import pytest
from django.core.management import call_command

from clocks.selectors import clock_state_for, current_level_number
from counts.domain.graphs import levels_at
from counts.models import ChipCount
from counts.selectors import graph_playback_levels, leaders_graph, tournament_level_periods
from leagues.models import Season, SeasonTournament
from leagues.selectors import season_race, season_standings
from tournament.models import Entry, EntryStatus, Status, Tournament
from tournament.story_selectors import story_counts

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("counters_agree")]


def _bust_levels(tournament: Tournament) -> Counter[int]:
    periods = tournament_level_periods(tournament)
    busts = tournament.entries.filter(status=EntryStatus.BUSTED, busted_at__isnull=False)
    out = sorted(at for at in busts.values_list("busted_at", flat=True) if at is not None)
    return Counter(levels_at(periods, out))


def test_the_demo_draws_a_season_a_night_and_a_festival():
    out = io.StringIO()
    call_command("floor_demo", players=20, stdout=out)
    assert "created" in out.getvalue()

    # The league: a public season of eight nights imported from TD3 files, its regulars
    # coming back night after night, the race drawn from the standings.
    season = Season.objects.get(league__name="Donnerstagsliga")
    assert season.league.public
    assert SeasonTournament.objects.filter(season=season).count() == 8
    standings = season_standings(season)
    assert not standings.error and len(standings.rows) >= 10
    assert standings.rows[0].total > 0
    assert sum(row.played >= 5 for row in standings.rows) >= 8  # regulars
    race = season_race(season, standings)
    assert not race.empty and len(race.nights) == 8 and len(race.lines) == 10

    # The Thursday Turbo: played over the last three hours, its clock running in level 8, the
    # final table of six, busts and counts spread over the levels.
    turbo = Tournament.objects.get(name="Thursday Turbo")
    assert turbo.chip_set.name == "Club set"  # not the chip set the league's files brought
    assert turbo.status == Status.FINAL_TABLE and turbo.registration_closed_at is not None
    assert current_level_number(turbo) == 8 and clock_state_for(turbo).running
    assert turbo.entries.filter(status=EntryStatus.ACTIVE).count() == 6
    assert turbo.entries.filter(is_reentry=True).count() == 5
    busts = _bust_levels(turbo)
    assert len(busts) >= 3 and sum(busts.values()) == 26
    assert len(graph_playback_levels(turbo)) >= 3
    leaders = leaders_graph(turbo)
    assert leaders is not None
    # A player out before the final table was counted before the bust.
    out_early = Entry.objects.filter(tournament=turbo, status=EntryStatus.BUSTED).order_by(
        "busted_at"
    )[5]
    assert ChipCount.objects.filter(entry=out_early, recorded_at__lt=out_early.busted_at).exists()
    story = story_counts(turbo)
    assert sum(t.busts > 0 for t in story.tallies.values()) >= 3
    assert sum(t.reentries for t in story.tallies.values()) == 5

    # The Main Event's flights: Day 1A played and bagged yesterday, Day 1B in bag and tag.
    day1a = Tournament.objects.get(name__endswith="Day 1A")
    assert day1a.status == Status.FINISHED
    assert len(_bust_levels(day1a)) >= 3
    assert ChipCount.objects.filter(tournament=day1a).exclude(bag_number="").count() == 10
    assert len(graph_playback_levels(day1a)) >= 3
    day1b = Tournament.objects.get(name__endswith="Day 1B")
    assert not clock_state_for(day1b).running  # paused for the bags

    # Twice: nothing more.
    counts = ChipCount.objects.count()
    again = io.StringIO()
    call_command("floor_demo", players=20, stdout=again)
    assert "already present" in again.getvalue()
    assert ChipCount.objects.count() == counts and Season.objects.count() == 1
