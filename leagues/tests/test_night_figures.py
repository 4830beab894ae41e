"""A season's formula that reads the night's figures (h, players, the money, the prizes):
standings give each finish the figures docs/leagues.md defines, read in a few queries for the
whole season, and equal a computation in this test from what the night did."""

from __future__ import annotations

import math
from datetime import timedelta
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from actions.bust import BustReport, bust_undo_last, entries_bust
from actions.registration import entry_register
from actions.tournaments import tournament_reopen
from leagues import services as svc
from leagues.forms import SeasonForm
from leagues.models import Scoring
from leagues.selectors import as_points, finish_points, season_standings, standings_cache_clear
from tournament.models import Entry
from tournament.services.registration import entry_purchase, player_create, registration_close

pytestmark = pytest.mark.django_db

# ORF's formula (docs/leagues.md) with the other figures added: every figure counts.
FORMULA = """monies = buyins_in + rebuys_in + addons_in
avgbc = monies / players
t33 = floor(n / 3 + 0.5)
base = 10 * sqrt(n) / sqrt(p) * (1 + ln(avgbc + 0.25))
base + h * 10 + prize / 10 + itm * 5 + paid_places + rebuys + 2 * addons + paid / 100 + pool / 1000 + (p <= t33)"""


def expected(n, p, f):
    """FORMULA in plain Python over the figures `f` the test worked out itself."""
    monies = f["buyins_in"] + f["rebuys_in"] + f["addons_in"]
    avgbc = monies / f["players"]
    t33 = math.floor(n / 3 + 0.5)
    base = 10 * math.sqrt(n) / math.sqrt(p) * (1 + math.log(avgbc + 0.25))
    return (
        base
        + f["h"] * 10
        + f["prize"] / 10
        + f["itm"] * 5
        + f["paid_places"]
        + f["rebuys"]
        + 2 * f["addons"]
        + f["paid"] / 100
        + f["pool"] / 1000
        + (1 if p <= t33 else 0)
    )


def cents(x):
    return Decimal(repr(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


@pytest.fixture
def night(make_tournament, actor):
    """Six players, seven entries (F re-enters), a rebuy, two add-ons, fixed bounties: A knocks
    out F, E, D and B; B knocks out F's re-entry and C."""
    people = [player_create(name=f"Spieler {c} Abend", actor=actor) for c in "ABCDEF"]
    t = make_tournament(
        name="Bounty night",
        status="running",
        starts_at=timezone.now() - timedelta(days=1),
        buy_in=10000,
        fee=1000,
        bounty_kind="fixed",
        bounty=2000,
        max_entries_per_player=2,
        rebuys_max=2,
        rebuy_price=5000,
        rebuy_fee=500,
        rebuy_chips=20000,
        addons_max=1,
        addon_price=4000,
        addon_fee=0,
        addon_chips=20000,
    )
    a, b, c, d, e, f = (entry_register(tournament=t, player=p, actor=actor) for p in people)
    entry_purchase(entry=a, kind="rebuy", actor=actor)
    entry_purchase(entry=b, kind="addon", actor=actor)
    entry_purchase(entry=c, kind="addon", actor=actor)
    entries_bust(tournament=t, busts=[BustReport(entry=f, eliminated_by=(a.number,))], actor=actor)
    f2 = entry_register(tournament=t, player=people[5], actor=actor)
    registration_close(tournament=t, actor=actor)
    for out, by in ((f2, b), (e, a), (d, a), (c, b), (b, a)):
        entries_bust(
            tournament=t, busts=[BustReport(entry=out, eliminated_by=(by.number,))], actor=actor
        )
    t.refresh_from_db()
    assert t.status == "finished"
    return t, people


def figures_by_hand(t, people):
    """Each finish's figures from what the night did (the money as the fixture paid it)."""
    rows = list(Entry.objects.filter(tournament=t).order_by("place"))
    hits = {"A": 4, "B": 2}
    pool = sum(r.prize for r in rows) / 100  # the prizes pay out the pool exactly
    assert pool == (7 * 10000 + 5000 + 2 * 4000 - 7 * 2000) / 100
    night = {
        "players": 6,
        "buyins_in": 7 * 110.0,
        "rebuys_in": 55.0,
        "addons_in": 80.0,
        "pool": pool,
        "paid_places": sum(1 for r in rows if r.prize > 0),
    }
    mine = {"A": (1, 0, 165.0), "B": (0, 1, 150.0), "C": (0, 1, 150.0), "F": (0, 0, 220.0)}
    out = []
    for r in rows:
        letter = r.player.name.split()[1]
        rebuys, addons, paid = mine.get(letter, (0, 0, 110.0))
        out.append(
            (
                r,
                {
                    **night,
                    "h": hits.get(letter, 0),
                    "rebuys": rebuys,
                    "addons": addons,
                    "paid": paid,
                    "prize": r.prize / 100,
                    "itm": 1 if r.prize > 0 else 0,
                },
            )
        )
    return out


def test_standings_with_hits_and_money_equal_the_formula_by_hand(night):
    t, people = night
    league = svc.league_create(name="Bounty-Liga")
    season = svc.season_create(league=league, name="2026")
    svc.season_tournament_add(season=season, tournament=t)
    season = svc.season_update(season=season, name="2026", scoring=Scoring.FORMULA, formula=FORMULA)
    n = t.entries_counted
    assert n == 7
    best: dict[int, Decimal] = {}
    by_number = {}
    for r, f in figures_by_hand(t, people):
        points = cents(expected(n, r.place, f))
        by_number[r.number] = points
        best[r.player_id] = max(best.get(r.player_id, points), points)
    standings_cache_clear()
    got = {row.player_id: as_points(row.total) for row in season_standings(season).rows}
    assert got == best
    assert finish_points(t) == by_number
    # The winner's figures: four hits, in the money.
    winner = Entry.objects.get(tournament=t, place=1)
    assert winner.hits == 4 and winner.prize > 0


def test_the_night_is_read_in_a_few_queries_for_the_whole_season(night, make_tournament, actor):
    t, people = night
    league = svc.league_create(name="Bounty-Liga")
    season = svc.season_create(league=league, name="2026")
    svc.season_tournament_add(season=season, tournament=t)
    season = svc.season_update(season=season, name="2026", scoring=Scoring.FORMULA, formula=FORMULA)
    standings_cache_clear()
    with CaptureQueriesContext(connection) as one:
        season_standings(season)
    # A second night: the same number of statements for two tournaments.
    t2 = make_tournament(
        name="Second", status="running", starts_at=timezone.now() - timedelta(hours=30)
    )
    entries = [entry_register(tournament=t2, player=p, actor=actor) for p in people[:4]]
    registration_close(tournament=t2, actor=actor)
    for out in reversed(entries[1:]):
        entries_bust(tournament=t2, busts=[BustReport(entry=out)], actor=actor)
    svc.season_tournament_add(season=season, tournament=t2)
    standings_cache_clear()
    with CaptureQueriesContext(connection) as two:
        season_standings(season)
    assert len(two) == len(one) <= 5
    # Unchanged: nothing is scored again, no night is read.
    with CaptureQueriesContext(connection) as again:
        season_standings(season)
    assert not any("purchase" in q["sql"] for q in again.captured_queries)


def test_an_undone_bust_takes_its_hit_back(night, actor):
    t, _people = night
    winner = Entry.objects.get(tournament=t, place=1)
    assert winner.hits == 4
    t = tournament_reopen(tournament=t, actor=actor, reason="B was not out")
    bust_undo_last(tournament=t, actor=actor)
    winner.refresh_from_db()
    assert winner.hits == 3  # B is back in play


def test_a_corrected_hit_changes_the_standings(night):
    t, _people = night
    league = svc.league_create(name="Bounty-Liga")
    season = svc.season_create(league=league, name="2026")
    svc.season_tournament_add(season=season, tournament=t)
    season = svc.season_update(
        season=season, name="2026", scoring=Scoring.FORMULA, formula="n - p + 1 + h"
    )
    before = {row.player_id: row.total for row in season_standings(season).rows}
    third = Entry.objects.get(tournament=t, place=3)
    Entry.objects.filter(pk=third.pk).update(hits=5)  # a correction by hand
    after = {row.player_id: row.total for row in season_standings(season).rows}
    assert after[third.player_id] == before[third.player_id] + 500


def test_the_season_form_accepts_a_formula_over_the_night(client, director):
    data = {"name": "2026", "scoring": "formula", "formula": FORMULA, "participation": "0"}
    assert SeasonForm(data=data).is_valid()
    league = svc.league_create(name="Bounty-Liga")
    season = svc.season_create(league=league, name="2026")
    client.force_login(director)
    response = client.post(reverse("season", args=[season.pk]), {**data, "action": "settings"})
    assert response.status_code == 302
    season.refresh_from_db()
    assert season.formula == FORMULA
    page = client.post(reverse("season", args=[season.pk]), {**data, "action": "preview"})
    assert page.status_code == 200 and page.context["preview"]
