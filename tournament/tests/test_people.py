"""One record per person (issue 22 part 1, docs/players.md): editing a record, likely
duplicates, merging by a director, the club's settings and the API; who may do what, and bad
input changes nothing."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from actions.registration import entry_register
from core.errors import FloorError
from tournament.models import Club, Entry, Event, Player
from tournament.services import people
from tournament.services.registration import player_create

pytestmark = pytest.mark.django_db

EMAIL = "jutta.secret@example.org"
PHONE = "+49 170 5550199"


@pytest.fixture
def jutta(actor):
    return player_create(name="Jutta Schäfer", actor=actor, email=EMAIL, phone=PHONE)


def _snapshot():
    return (
        list(Player.objects.order_by("pk").values()),
        list(Entry.objects.order_by("pk").values_list("pk", "player_id")),
        Event.objects.count(),
    )


# --- Editing a record ---------------------------------------------------------------------


def test_an_edit_saves_the_fields_and_logs_their_names_only(jutta, actor):
    changed = people.player_update(
        player=jutta,
        changes={
            "name": "Jutta  Schäfer-Lang",
            "display_name": "",
            "membership_number": " M 17 ",
            "birth_year": 1971,
            "needs_accessible_seat": True,
            "notes": "Table 1 please",
        },
        actor=actor,
    )
    jutta.refresh_from_db()
    assert jutta.name == "Jutta Schäfer-Lang" and jutta.display_name == "Jutta S."
    assert jutta.membership_number == "M 17" and jutta.birth_year == 1971
    assert jutta.needs_accessible_seat and jutta.notes == "Table 1 please"
    assert "schafer-lang" in jutta.search_key
    assert set(changed) == {
        "name",
        "membership_number",
        "birth_year",
        "needs_accessible_seat",
        "notes",
    }
    event = Event.objects.get(action="player.update")
    assert event.payload == {"player": jutta.pk, "changed": changed}
    text = str(event.payload)
    for private in ("Jutta", "M 17", "1971", "Table 1", EMAIL):
        assert private not in text
    assert people.player_update(player=jutta, changes={"name": jutta.name}, actor=actor) == []
    assert Event.objects.filter(action="player.update").count() == 1


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"name": " x "}, "name"),
        ({"name": "A" * 121}, "name"),
        ({"display_name": "D" * 61}, "display_name"),
        ({"birth_year": 1800}, "birth_year"),
        ({"birth_year": timezone.localdate().year}, "birth_year"),
        ({"birth_year": "1980"}, "birth_year"),
        ({"membership_number": "1\x002"}, "membership_number"),
        ({"membership_number": "9" * 41}, "membership_number"),
        ({"email": "not an address"}, "email"),
        ({"phone": "0" * 41}, "phone"),
        ({"notes": "n" * 2001}, "notes"),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(jutta, actor, changes, field):
    before = _snapshot()
    with pytest.raises(FloorError) as refused:
        people.player_update(player=jutta, changes={"name": "Jutta Neu", **changes}, actor=actor)
    assert refused.value.field == field
    assert _snapshot() == before


def test_a_membership_number_belongs_to_one_person_and_the_error_names_them(jutta, actor):
    other = player_create(name="Karl Berg", actor=actor)
    people.player_update(player=other, changes={"membership_number": "M17"}, actor=actor)
    before = _snapshot()
    with pytest.raises(FloorError) as refused:
        people.player_update(player=jutta, changes={"membership_number": "M17"}, actor=actor)
    assert "Karl Berg" in str(refused.value) and f"#{other.pk}" in str(refused.value)
    assert _snapshot() == before
    # Empty numbers are not numbers: any number of records may have none.
    people.player_update(player=jutta, changes={"membership_number": ""}, actor=actor)


def test_the_edit_page_for_floor_has_no_contact_fields_and_cannot_write_them(
    client, floor_user, jutta
):
    client.force_login(floor_user)
    page = client.get(reverse("player-edit", args=[jutta.pk])).content.decode()
    assert 'name="membership_number"' in page
    for hidden in ('name="email"', 'name="birth_year"', 'name="notes"', EMAIL, PHONE):
        assert hidden not in page
    response = client.post(
        reverse("player-edit", args=[jutta.pk]),
        {
            "name": "Jutta Schäfer",
            "display_name": "Jutta S.",
            "membership_number": "A-1",
            "email": "evil@example.org",
            "birth_year": "1950",
        },
    )
    assert response.status_code == 302
    jutta.refresh_from_db()
    assert jutta.membership_number == "A-1"
    assert jutta.email == EMAIL and jutta.birth_year is None


def test_the_edit_page_for_a_director_saves_and_shows_errors_in_the_form(
    client, director, jutta, actor
):
    client.force_login(director)
    url = reverse("player-edit", args=[jutta.pk])
    page = client.get(url).content.decode()
    assert EMAIL in page and 'name="birth_year"' in page
    holder = player_create(name="Karl Berg", actor=actor)
    people.player_update(player=holder, changes={"membership_number": "M17"}, actor=actor)
    before = _snapshot()
    form = {
        "name": "Jutta Schäfer",
        "display_name": "Jutta S.",
        "membership_number": "M17",
        "birth_year": "1980",
        "email": EMAIL,
        "phone": PHONE,
        "notes": "",
    }
    refused = client.post(url, form)
    assert refused.status_code == 400
    assert "Karl Berg" in refused.content.decode()
    assert _snapshot() == before
    refused = client.post(url, {**form, "membership_number": "", "birth_year": "1700"})
    assert refused.status_code == 400 and _snapshot() == before
    saved = client.post(url, {**form, "membership_number": "M18"})
    assert saved.status_code == 302
    jutta.refresh_from_db()
    assert jutta.membership_number == "M18" and jutta.birth_year == 1980
    detail = client.get(reverse("player-detail", args=[jutta.pk])).content.decode()
    assert "M18" in detail and "1980" in detail


def test_the_players_list_finds_a_membership_number(client, floor_user, jutta, actor):
    people.player_update(player=jutta, changes={"membership_number": "X-42"}, actor=actor)
    client.force_login(floor_user)
    page = client.get(reverse("players"), {"q": "X-42"}).content.decode()
    assert "Jutta Schäfer" in page


# --- Duplicates ---------------------------------------------------------------------------


def test_the_duplicates_page_groups_likely_duplicates(client, floor_user, director, actor):
    a = player_create(name="Jürgen Müller", actor=actor)
    b = player_create(name="Juergen Mueller", actor=actor)
    c = player_create(name="Eva Lind", actor=actor, email="eva@example.org")
    d = player_create(name="Eva Lindner", actor=actor, email="EVA@example.org")
    player_create(name="Someone Else", actor=actor)
    client.force_login(floor_user)
    page = client.get(reverse("player-duplicates")).content.decode()
    assert page.count('class="card table-wrap duplicate-group"') == 2
    for p in (a, b, c, d):
        assert reverse("player-detail", args=[p.pk]) in page
    assert "Someone Else" not in page
    assert "eva@example.org" not in page  # the reason, never the address
    assert reverse("player-merge", args=[a.pk]) not in page  # floor cannot merge
    client.force_login(director)
    page = client.get(reverse("player-duplicates")).content.decode()
    assert f"{reverse('player-merge', args=[a.pk])}?other={b.pk}" in page


# --- Merging ------------------------------------------------------------------------------


@pytest.fixture
def twins(make_tournament, actor):
    """Two records of one person, each with an entry in a tournament of its own."""
    kept = player_create(name="Max Roth", actor=actor, email="max@example.org")
    other = player_create(name="Max Roth", actor=actor, phone="0170 1234567")
    people.player_update(
        player=other,
        changes={"membership_number": "M9", "birth_year": 1970, "notes": "Old card"},
        actor=actor,
    )
    t1 = make_tournament(name="Friday 1", status="registering")
    t2 = make_tournament(name="Friday 2", status="registering")
    entry_register(tournament=t1, player=kept, actor=actor)
    entry_register(tournament=t2, player=other, actor=actor)
    return kept, other, t1, t2


def test_a_merge_moves_entries_fills_empty_fields_and_deletes_the_other(twins, actor):
    kept, other, t1, t2 = twins
    result = people.player_merge(kept=kept, other=other, actor=actor)
    kept.refresh_from_db()
    assert not Player.objects.filter(pk=other.pk).exists()
    assert set(kept.entries.values_list("tournament_id", flat=True)) == {t1.pk, t2.pk}
    assert kept.email == "max@example.org" and kept.phone == "0170 1234567"
    assert kept.membership_number == "M9" and kept.birth_year == 1970
    assert kept.notes == "Old card"
    assert result.entries_moved == 1
    event = Event.objects.get(action="player.merge")
    assert event.tournament is None
    assert event.payload == {
        "kept": kept.pk,
        "merged": other.pk,
        "entries_moved": 1,
        "entries_kept": 1,
        "filled": ["membership_number", "birth_year", "phone", "notes"],
    }
    for private in ("Max", "Roth", "M9", "1970", "0170", "max@"):
        assert private not in str(event.payload)


def test_a_merge_of_two_people_in_one_tournament_or_of_one_record_is_refused(
    twins, actor, make_tournament
):
    kept, other, t1, _t2 = twins
    before = _snapshot()
    with pytest.raises(FloorError, match="itself"):
        people.player_merge(kept=kept, other=kept, actor=actor)
    entry_register(tournament=t1, player=other, actor=actor)
    before = _snapshot()
    with pytest.raises(FloorError) as refused:
        people.player_merge(kept=kept, other=other, actor=actor)
    assert "Friday 1" in str(refused.value)
    assert _snapshot() == before


def test_only_a_director_merges(client, floor_user, director, twins):
    kept, other, _t1, _t2 = twins
    url = reverse("player-merge", args=[kept.pk])
    before = _snapshot()
    client.force_login(floor_user)
    assert client.get(url, {"other": other.pk}).status_code == 403
    assert client.post(url, {"other": other.pk, "keep": kept.pk}).status_code == 403
    assert _snapshot() == before
    client.force_login(director)
    page = client.get(url, {"other": other.pk}).content.decode()
    assert "max@example.org" in page and "0170 1234567" in page
    assert client.post(url, {"other": other.pk, "keep": "nonsense"}).status_code == 400
    assert _snapshot() == before
    assert client.get(url, {"other": "abc"}).status_code == 404
    assert client.get(url, {"other": "²"}).status_code == 404
    assert client.get(url, {"other": "999999"}).status_code == 404
    done = client.post(url, {"other": other.pk, "keep": other.pk})
    assert done.status_code == 302 and done["Location"] == reverse("player-detail", args=[other.pk])
    assert not Player.objects.filter(pk=kept.pk).exists()
    assert Player.objects.get(pk=other.pk).entries.count() == 2


def test_a_refused_merge_is_a_400_with_the_reason_and_changes_nothing(
    client, director, twins, actor
):
    """A merge the service refuses (two people in one tournament) redirected with a 302."""
    kept, other, t1, _t2 = twins
    entry_register(tournament=t1, player=other, actor=actor)
    client.force_login(director)
    before = _snapshot()
    r = client.post(reverse("player-merge", args=[kept.pk]), {"other": other.pk, "keep": kept.pk})
    assert r.status_code == 400
    body = r.content.decode()
    assert 'class="error"' in body and "Friday 1" in body
    assert _snapshot() == before


def test_the_merge_page_shows_the_refusal_and_offers_no_button(client, director, twins, actor):
    kept, other, t1, _t2 = twins
    entry_register(tournament=t1, player=other, actor=actor)
    client.force_login(director)
    page = client.get(reverse("player-merge", args=[kept.pk]), {"other": other.pk})
    body = page.content.decode()
    assert 'id="merge-refused"' in body and "Friday 1" in body
    assert 'id="merge-submit" disabled' in body


# --- The club -----------------------------------------------------------------------------


def test_the_club_page_is_for_directors_and_logs_the_switch(client, floor_user, director):
    url = reverse("club-settings")
    client.force_login(floor_user)
    assert client.get(url).status_code == 403
    assert client.post(url, {"name": "X", "public_profiles": "on"}).status_code == 403
    assert not Club.current().public_profiles
    client.force_login(director)
    assert client.get(url).status_code == 200
    assert client.post(url, {"name": "PC Kiel", "public_profiles": "on"}).status_code == 302
    club = Club.current()
    assert club.name == "PC Kiel" and club.public_profiles
    event = Event.objects.get(action="club.update")
    assert event.payload == {"changed": ["name", "public_profiles"], "public_profiles": True}
    refused = client.post(url, {"name": "N" * 121})
    assert refused.status_code == 200 and Club.current().name == "PC Kiel"
    nav = client.get(reverse("console-home")).content.decode()
    assert url in nav


# --- The API ------------------------------------------------------------------------------


def test_the_api_reads_and_writes_membership_number_and_birth_year(
    client, floor_user, director, jutta, actor
):
    client.force_login(floor_user)
    created = client.post(
        "/api/players/",
        {
            "name": "Lena Voss",
            "display_name": "Lena V.",
            "membership_number": "L1",
            "birth_year": 1990,
        },
        content_type="application/json",
    )
    assert created.status_code == 201, created.content
    body = created.json()
    assert body["membership_number"] == "L1" and "birth_year" not in body
    lena = Player.objects.get(pk=body["id"])
    assert lena.birth_year == 1990
    before = _snapshot()
    for bad in (
        {"name": "Other", "display_name": "O.", "membership_number": "L1"},
        {"name": "Other", "display_name": "O.", "birth_year": 1492},
        {"name": "Other", "display_name": "O.", "membership_number": "x\u0007y"},
    ):
        assert client.post("/api/players/", bad, content_type="application/json").status_code == 400
    assert _snapshot() == before
    url = f"/api/players/{jutta.pk}/"
    assert client.get(url).json()["membership_number"] == ""
    assert "email" not in client.get(url).json()
    patch = client.patch(url, {"membership_number": "J5"}, content_type="application/json")
    assert patch.status_code == 200 and patch.json()["membership_number"] == "J5"
    taken = client.patch(url, {"membership_number": "L1"}, content_type="application/json")
    assert taken.status_code == 400 and "Lena Voss" in taken.content.decode()
    denied = client.patch(url, {"birth_year": 1970}, content_type="application/json")
    assert denied.status_code == 403
    jutta.refresh_from_db()
    assert jutta.membership_number == "J5" and jutta.birth_year is None
    client.force_login(director)
    ok = client.patch(url, {"birth_year": 1970}, content_type="application/json")
    assert ok.status_code == 200 and ok.json()["birth_year"] == 1970
    assert client.get(url).json()["email"] == EMAIL


def test_export_holds_and_erasure_deletes_the_membership_number_and_birth_year(jutta, actor):
    from tournament.services.privacy import player_erase, player_export

    people.player_update(
        player=jutta, changes={"membership_number": "M1", "birth_year": 1970}, actor=actor
    )
    jutta.refresh_from_db()
    data = player_export(player=jutta, actor=actor)["player"]
    assert data["membership_number"] == "M1" and data["birth_year"] == 1970
    player_erase(player=jutta, actor=actor)
    jutta.refresh_from_db()
    assert jutta.membership_number == "" and jutta.birth_year is None
