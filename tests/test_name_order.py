"""Every list of people by name comes out in German alphabetical order (DIN 5007: Ä with A, Ö
with O; tournament/domain/collation.py), not by code point (Ärne and Ömer after Zoe): the
screens' seating list, the printed seat list, the players, find my seat, the desk's searches,
the API's search, results and payouts where a place is shared (page and CSV), league standings with
equal totals (page and CSV), an event's standings and the people a sign-up is linked to."""

from __future__ import annotations

import csv
import io
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from tournament.models import Entry, Player

pytestmark = pytest.mark.django_db

GERMAN = ["Anna", "Ärne", "Bernd", "Max", "Olaf", "Ömer", "Ulla", "Zoe"]
# Registered in an order of their own, so that neither the numbers nor the ids give the answer.
SHUFFLED = ["Ömer", "Zoe", "Bernd", "Ärne", "Ulla", "Anna", "Olaf", "Max"]


def in_text(text: str, names: list[str]) -> list[str]:
    """`names` in the order they first appear in `text` (each must appear)."""
    where = {}
    for n in names:
        found = re.search(rf"(?<!\w){re.escape(n)}(?!\w)", text)
        assert found, f"{n} not in the page"
        where[n] = found.start()
    return sorted(names, key=where.__getitem__)


def csv_rows(response) -> list[dict[str, str]]:
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    return [dict(zip(rows[0], r, strict=True)) for r in rows[1:]]


@pytest.fixture
def field(make_tournament, register):
    """A tournament of eight, entered in SHUFFLED order; full names "<given> Quast"."""
    t = make_tournament(name="Namenscup", status="registering")
    entries = [register(t, name=f"{n} Quast") for n in SHUFFLED]
    return t, entries


@pytest.fixture
def seated(field, actor):
    from tables import services as seating

    t, entries = field
    seating.tables_create(tournament=t, count=2, actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    return t, entries


def given(name: str) -> str:
    return name.split()[0]


def test_the_screens_seating_list(seated):
    from displays.selectors import seating_pages

    t, _entries = seated
    (page,) = seating_pages(t)
    assert [given(r["name"]) for r in page] == GERMAN


def test_the_printed_seat_list(seated, client, floor_user):
    t, _entries = seated
    client.force_login(floor_user)
    page = client.get(f"/console/t/{t.pk}/print/seat-list/").content.decode()
    assert in_text(page, [f"{n} Q." for n in SHUFFLED]) == [f"{n} Q." for n in GERMAN]


def test_the_players_list(field, client, floor_user):
    client.force_login(floor_user)
    full = [f"{n} Quast" for n in GERMAN]
    page = client.get("/console/players/").content.decode()
    assert in_text(page, full) == full
    page = client.get("/console/players/?q=quast").content.decode()
    assert in_text(page, full) == full


def test_find_my_seat_by_name(seated, client):
    t, _entries = seated
    page = client.get(f"/t/{t.pk}/find/?q=quast").content.decode()
    assert in_text(page, [f"{n} Q." for n in SHUFFLED]) == [f"{n} Q." for n in GERMAN]


def test_the_desks_searches(field, client, floor_user):
    t, _entries = field
    client.force_login(floor_user)
    full = [f"{n} Quast" for n in GERMAN]
    # The people known by that name, to register one again ...
    page = client.get(f"/console/t/{t.pk}/desk/players/?name=quast").content.decode()
    assert in_text(page, full) == full
    # ... and the entries the desk's search finds.
    page = client.get(f"/console/t/{t.pk}/desk/?q=quast").content.decode()
    assert in_text(page, full) == full


def test_the_apis_search(field, client, floor_user):
    t, _entries = field
    client.force_login(floor_user)
    response = client.get(f"/api/tournaments/{t.pk}/entries/?q=quast")
    assert response.status_code == 200
    assert [given(row["player"]["name"]) for row in response.json()] == GERMAN


def test_results_with_a_shared_place(field, client, floor_user):
    """Eight who share place 3 (busted in one hand, equal stacks): by name, page and CSV."""
    t, entries = field
    Entry.objects.filter(pk__in=[e.pk for e in entries]).update(place=3, prize=1000)
    from tournament.results import tournament_finishes

    assert [given(f.name) for f in tournament_finishes(t)] == GERMAN
    rows = csv_rows(client.get(f"/t/{t.pk}/results.csv"))
    assert [given(r["name"]) for r in rows] == GERMAN
    page = client.get(f"/t/{t.pk}/results/").content.decode()
    assert in_text(page, [f"{n} Q." for n in SHUFFLED]) == [f"{n} Q." for n in GERMAN]
    # The payout desk and its CSV (full names) likewise.
    client.force_login(floor_user)
    rows = csv_rows(client.get(f"/console/t/{t.pk}/payouts/desk/?format=csv"))
    assert [given(r["name"]) for r in rows] == GERMAN


def test_league_standings_with_equal_totals(make_tournament, actor, client, director):
    """Each of the eight wins a heads-up tournament of the season: equal totals, by name."""
    from actions.bust import BustReport, entries_bust
    from actions.registration import entry_register
    from leagues import services as leagues
    from leagues.selectors import season_standings
    from tournament.services.registration import player_create, registration_close

    league = leagues.league_create(name="Freitagsliga", public=True)
    season = leagues.season_create(league=league, name="2026")
    for i, name in enumerate(SHUFFLED):
        t = make_tournament(
            name=f"Runde {i}", status="running", starts_at=timezone.now() - timedelta(days=1)
        )
        winner = entry_register(
            tournament=t, player=player_create(name=name, actor=actor), actor=actor
        )
        loser = entry_register(
            tournament=t, player=player_create(name=f"Gast{i}", actor=actor), actor=actor
        )
        registration_close(tournament=t, actor=actor)
        entries_bust(tournament=t, busts=[BustReport(entry=loser)], actor=actor)
        assert Entry.objects.get(pk=winner.pk).place == 1
        leagues.season_tournament_add(season=season, tournament=t)
    rows = [r for r in season_standings(season).rows if r.name in GERMAN]
    assert len({r.total for r in rows}) == 1  # equal totals
    assert [r.name for r in rows] == GERMAN
    client.force_login(director)
    csv_names = [
        r["name"] for r in csv_rows(client.get(f"/console/seasons/{season.pk}/standings.csv"))
    ]
    assert [n for n in csv_names if n in GERMAN] == GERMAN
    csv_names = [r["name"] for r in csv_rows(client.get(f"/seasons/{season.pk}/standings.csv"))]
    assert [n for n in csv_names if n in GERMAN] == GERMAN


def test_an_events_standings_share_the_top_places_by_name(make_tournament, actor):
    """Before the Day-2 draw everyone still in a flight shares the top places: by name."""
    from actions.registration import entry_register
    from festivals import services as fest
    from festivals.selectors import event_standings
    from tables import services as seating
    from tournament.services.registration import player_create

    base = make_tournament(status="registering", seats_per_table=6)
    event = fest.event_create(template=base, name="Main Event", flights=2, actor=actor)
    flight = event.flights.order_by("position").first().tournament
    for name in SHUFFLED:
        entry_register(tournament=flight, player=player_create(name=name, actor=actor), actor=actor)
    seating.seats_draw(tournament=flight, actor=actor)
    rows = event_standings(event)
    assert [r.name for r in rows] == GERMAN
    assert {r.place for r in rows} == {1}


def test_the_people_a_sign_up_is_linked_to(field):
    from signups.views import _people

    assert [given(p.name) for p in _people("quast")] == GERMAN
    assert Player.objects.count() == 8
