"""A person across tournaments with league points (actions/views.py, docs/players.md): the
staff history page, a merge that keeps the standings right, the public profile behind the
club's switch, and the public standings' links to it."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from actions.bust import BustReport, entries_bust
from actions.registration import entry_register
from core.errors import FloorError
from leagues import services as league_svc
from leagues.selectors import as_points, season_standings
from signups.services import signup_create
from tournament.models import Club, Tournament
from tournament.services import people
from tournament.services.registration import player_create, registration_close

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(actor):
    names = [f"Spieler{i:02d} Nachname{i:02d}" for i in range(10)]
    return [player_create(name=n, actor=actor) for n in names]


@pytest.fixture
def play(make_tournament, actor):
    """A finished tournament of `order` (players, winner first)."""

    def run(order, name, days_ago=1):
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
    league = league_svc.league_create(name="Freitagsliga", public=True)
    return league_svc.season_create(league=league, name="2026")


@pytest.fixture
def split_person(field, play, season, actor):
    """One person with two records: the first won Friday 1 (record a), the second came
    second in Friday 2 (record b). Both tournaments count for the season (DPSB, 10 entries:
    500 and 300 points)."""
    a = field[0]
    b = player_create(name="Spieler00 Nachname00", actor=actor)
    t1 = play([a, *field[1:]], "Friday 1", days_ago=8)
    t2 = play([field[1], b, *field[2:]], "Friday 2", days_ago=1)
    for t in (t1, t2):
        league_svc.season_tournament_add(season=season, tournament=t)
    return a, b, t1, t2


def test_after_a_merge_the_season_shows_one_row_with_the_summed_points(split_person, season, actor):
    a, b, _t1, _t2 = split_person
    rows = [r for r in season_standings(season).rows if r.full_name == a.name]
    assert sorted(as_points(r.total) for r in rows) == [Decimal(300), Decimal(500)]
    people.player_merge(kept=a, other=b, actor=actor)
    rows = [r for r in season_standings(season).rows if r.full_name == a.name]
    assert len(rows) == 1
    assert rows[0].player_id == a.pk and as_points(rows[0].total) == Decimal(800)
    assert rows[0].played == 2 and rows[0].rank == 1


def test_the_history_page_lists_entries_points_seasons_and_totals(
    client, floor_user, split_person, season, actor
):
    a, b, t1, _t2 = split_person
    people.player_merge(kept=a, other=b, actor=actor)
    client.force_login(floor_user)
    page = client.get(reverse("player-history", args=[a.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert html.index("Friday 2") < html.index("Friday 1")  # newest first
    assert 'id="history-seasons"' in html and "Freitagsliga: 2026" in html
    totals = page.context["totals"]
    assert totals.entries == 2
    rows = page.context["rows"]
    assert [r.points for r in rows] == [300.0, 500.0]
    assert all(r.season == season for r in rows)
    won = sum(r.entry.prize for r in rows)
    assert totals.prizes == {t1.currency: won} and totals.cashes == sum(
        1 for r in rows if r.entry.prize
    )
    (season_row,) = page.context["seasons"]
    assert as_points(season_row[1].total) == Decimal(800)


def test_the_public_profile_is_off_until_the_club_switches_it_on(client, split_person, actor):
    a, _b, _t1, _t2 = split_person
    url = reverse("player-public", args=[a.pk])
    assert client.get(url).status_code == 404
    people.club_update(name="PC", public_profiles=True, actor=actor)
    page = client.get(url)
    assert page.status_code == 200
    html = page.content.decode()
    assert a.display_name in html and "Friday 1" in html
    assert a.name not in html  # never the full name
    assert client.get(reverse("player-public", args=[999999])).status_code == 404


def test_the_profile_never_shows_private_data_nor_old_results(
    client, split_person, actor, settings
):
    a, _b, t1, _t2 = split_person
    people.player_update(
        player=a,
        changes={
            "membership_number": "MEM-123",
            "birth_year": 1966,
            "email": "geheim@example.org",
            "phone": "0170 999888",
        },
        actor=actor,
    )
    people.club_update(name="PC", public_profiles=True, actor=actor)
    settings.FLOOR_PUBLIC_RESULTS_DAYS = 5  # Friday 1 was 8 days ago: its names are withheld
    html = client.get(reverse("player-public", args=[a.pk])).content.decode()
    for private in ("MEM-123", "1966", "geheim@example.org", "0170 999888", a.name):
        assert private not in html
    assert "Friday 1" not in html
    Tournament.objects.filter(pk=t1.pk).update(starts_at=timezone.now() - timedelta(days=2))
    assert "Friday 1" in client.get(reverse("player-public", args=[a.pk])).content.decode()


def test_the_public_standings_link_names_to_profiles_when_switched_on(
    client, split_person, season, actor
):
    a, _b, _t1, _t2 = split_person
    url = reverse("season-public", args=[season.pk])
    profile = reverse("player-public", args=[a.pk])
    assert profile not in client.get(url).content.decode()
    people.club_update(name="", public_profiles=True, actor=actor)
    assert Club.current().public_profiles
    assert profile in client.get(url).content.decode()


def test_a_merge_moves_the_other_records_sign_ups_to_the_kept_one(field, actor, make_tournament):
    """Deleting the other record used to unlink its sign-ups (their person left empty)."""
    kept, other = field[0], field[1]
    sunday = make_tournament(name="Sunday", status="registering")
    signup = signup_create(
        tournament=sunday, display_name="Max R.", actor=actor, player=other, by_staff=True
    )
    people.player_merge(kept=kept, other=other, actor=actor)
    signup.refresh_from_db()
    assert signup.player == kept


def test_a_merge_of_two_people_signed_up_for_one_tournament_is_refused(
    field, actor, make_tournament
):
    """One person holds one place: with both records on one sheet, the merge waits until one
    of the sign-ups is cancelled, and changes nothing meanwhile."""
    from signups.services import signup_cancel

    kept, other = field[0], field[1]
    sunday = make_tournament(name="Sunday", status="registering")
    mine, theirs = (
        signup_create(tournament=sunday, display_name=n, actor=actor, player=p, by_staff=True)
        for n, p in (("Max R.", kept), ("Max Roth", other))
    )
    with pytest.raises(FloorError, match="signed up for the same tournament"):
        people.player_merge(kept=kept, other=other, actor=actor)
    theirs.refresh_from_db()
    assert theirs.player == other
    signup_cancel(signup=theirs, actor=actor, by_staff=True)
    people.player_merge(kept=kept, other=other, actor=actor)
    mine.refresh_from_db()
    assert mine.player == kept
