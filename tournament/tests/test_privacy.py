"""Players' personal data (issue 17 part 6): contact data for directors only, bulk reads
recorded, initials on old public results, a person's export and erasure."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from tables import services as seating
from tournament.models import Entry, EntryStatus, Event, Player, Status, Tournament
from tournament.services.privacy import CONTACT_READ, PLAYER_ERASE, PLAYER_EXPORT

pytestmark = pytest.mark.django_db

EMAIL, PHONE = "anna.berg@example.org", "+49 170 5550101"


@pytest.fixture
def anna(make_tournament, actor):
    from actions.registration import player_register

    t = make_tournament(status="registering")
    entry = player_register(tournament=t, name="Anna Berg", email=EMAIL, phone=PHONE, actor=actor)
    return entry


def _finished(entry, *, days_ago):
    """The tournament finished, Anna in 2nd place with a prize, started `days_ago` days ago."""
    Entry.objects.filter(pk=entry.pk).update(
        status=EntryStatus.BUSTED, place=2, prize=12345, busted_at=timezone.now()
    )
    Tournament.objects.filter(pk=entry.tournament_id).update(
        status=Status.FINISHED, starts_at=timezone.now() - timedelta(days=days_ago)
    )
    entry.refresh_from_db()
    return entry


def _pages_and_api(client, entry):
    t = entry.tournament_id
    player = entry.player_id
    urls = [
        "/api/players/?q=Anna",
        f"/api/tournaments/{t}/entries/",
        f"/console/t/{t}/desk/players/?name=Anna",
        f"/console/t/{t}/players/",
        f"/console/t/{t}/desk/?q=Anna",
        "/console/players/",
        f"/console/players/{player}/",
    ]
    return {url: client.get(url) for url in urls}


def test_a_floor_account_sees_no_contact_data_anywhere(client, floor_user, anna):
    client.force_login(floor_user)
    for url, response in _pages_and_api(client, anna).items():
        assert response.status_code == 200, url
        body = response.content.decode()
        assert EMAIL not in body and PHONE not in body, url
    created = client.post(
        "/api/players/",
        {
            "name": "Bert Brandt",
            "display_name": "Bert B.",
            "email": "bert@example.org",
            "phone": "0171",
        },
        content_type="application/json",
    )
    assert created.status_code == 201
    assert "email" not in created.json() and "phone" not in created.json()
    assert Player.objects.get(name="Bert Brandt").email == "bert@example.org"  # written, kept
    assert not Event.objects.filter(action=CONTACT_READ).exists()


def test_a_director_sees_contact_data_and_bulk_reads_are_recorded(client, director, anna):
    client.force_login(director)
    players = client.get("/api/players/?q=Anna")
    assert players.json()[0]["email"] == EMAIL and players.json()[0]["phone"] == PHONE
    assert EMAIL in client.get(f"/console/players/{anna.player_id}/").content.decode()
    client.get(f"/console/t/{anna.tournament_id}/export.json")
    reads = Event.objects.filter(action=CONTACT_READ).order_by("id")
    assert [r.payload["what"] for r in reads] == [
        "api.players",
        f"tournament.export:{anna.tournament_id}",
    ]
    assert reads[0].payload["count"] == 1 and reads[0].actor == director
    audit = client.get("/console/players/").content.decode()
    assert "contact-reads" in audit and "players API" in audit


def test_old_finished_results_show_initials_publicly(client, anna, settings, actor):
    settings.FLOOR_PUBLIC_RESULTS_DAYS = 90
    t = anna.tournament
    seating.tables_create(tournament=t, count=1, actor=actor, area="Hall")
    seating.seats_draw(tournament=t, actor=actor)
    entry = _finished(anna, days_ago=91)
    urls = [
        f"/t/{t.pk}/find/?q={entry.number}",
        f"/s/{entry.public_token}/",
        f"/s/{entry.public_token}.json",
        f"/t/{t.pk}/table/1/",
    ]
    for url in urls:
        body = client.get(url).content.decode()
        assert "Anna B." not in body, url
        assert "A. B." in body, url
    assert "A. B." not in client.get(f"/t/{t.pk}/find/?q=Anna").content.decode()
    # The console keeps the name for the staff.
    settings.FLOOR_PUBLIC_RESULTS_DAYS = 0  # 0 keeps the names
    assert "Anna B." in client.get(f"/s/{entry.public_token}.json").content.decode()


def test_recent_results_keep_display_names(client, anna, settings):
    settings.FLOOR_PUBLIC_RESULTS_DAYS = 90
    entry = _finished(anna, days_ago=89)
    assert "Anna B." in client.get(f"/t/{entry.tournament_id}/find/?q=Anna").content.decode()
    body = client.get(f"/t/{entry.tournament_id}/find/?q={entry.number}").content.decode()
    assert "Anna B." in body


def test_the_console_keeps_names_of_old_results(client, floor_user, anna, settings):
    settings.FLOOR_PUBLIC_RESULTS_DAYS = 90
    entry = _finished(anna, days_ago=400)
    client.force_login(floor_user)
    assert "Anna Berg" in client.get(f"/console/t/{entry.tournament_id}/players/").content.decode()


def test_a_director_exports_one_players_data(client, director, anna):
    client.force_login(director)
    entry = _finished(anna, days_ago=1)
    for url in (
        f"/api/players/{entry.player_id}/export/",
        f"/console/players/{entry.player_id}/export.json",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        data = json.loads(response.content)
        assert data["player"]["email"] == EMAIL and data["player"]["phone"] == PHONE
        assert data["entries"][0]["place"] == 2 and data["entries"][0]["prize_cents"] == 12345
        assert data["entries"][0]["payments"][0]["kind"] == "buyin"
    assert Event.objects.filter(action=PLAYER_EXPORT, payload__player=entry.player_id).count() == 2


def test_erasure_removes_the_person_and_keeps_the_results(client, director, anna):
    entry = _finished(anna, days_ago=1)
    client.force_login(director)
    response = client.post(f"/api/players/{entry.player_id}/erase/")
    assert response.status_code == 200
    player = Player.objects.get(pk=entry.player_id)
    erased = f"Erased player #{player.pk}"
    assert (player.name, player.display_name, player.email, player.phone, player.notes) == (
        erased,
        erased,
        "",
        "",
        "",
    )
    entry.refresh_from_db()
    assert (entry.place, entry.prize, entry.status) == (2, 12345, EntryStatus.BUSTED)
    assert entry.purchases.count() == 1
    players = client.get(f"/console/t/{entry.tournament_id}/players/").content.decode()
    assert erased in players and "Anna" not in players
    public = client.get(f"/t/{entry.tournament_id}/find/?q={entry.number}").content.decode()
    assert erased in public
    assert Event.objects.filter(action=PLAYER_ERASE, payload__player=player.pk).exists()


def test_erasure_from_the_console_needs_the_confirmation(client, director, anna):
    entry = _finished(anna, days_ago=1)
    client.force_login(director)
    page = client.get(f"/console/players/{entry.player_id}/").content.decode()
    assert 'id="player-erase"' in page and 'id="player-export"' in page
    client.post(f"/console/players/{entry.player_id}/erase/")
    assert Player.objects.get(pk=entry.player_id).email == EMAIL
    client.post(f"/console/players/{entry.player_id}/erase/", {"confirm": "erase"})
    assert Player.objects.get(pk=entry.player_id).email == ""


def test_erasure_waits_while_the_player_is_in_a_tournament(client, director, anna):
    client.force_login(director)
    response = client.post(f"/api/players/{anna.player_id}/erase/")
    assert response.status_code == 409
    assert Player.objects.get(pk=anna.player_id).email == EMAIL


def test_export_and_erasure_are_refused_to_the_floor(client, floor_user, anna):
    entry = _finished(anna, days_ago=1)
    client.force_login(floor_user)
    assert client.get(f"/api/players/{entry.player_id}/export/").status_code == 403
    assert client.post(f"/api/players/{entry.player_id}/erase/").status_code == 403
    assert client.get(f"/console/players/{entry.player_id}/export.json").status_code == 403
    erase = client.post(f"/console/players/{entry.player_id}/erase/", {"confirm": "erase"})
    assert erase.status_code == 403
    page = client.get(f"/console/players/{entry.player_id}/").content.decode()
    assert 'id="player-erase"' not in page and 'id="player-export"' not in page
    assert Player.objects.get(pk=entry.player_id).email == EMAIL
    assert not Event.objects.filter(action__in=[PLAYER_EXPORT, PLAYER_ERASE]).exists()
