"""The sign-up pages: the public sign-up, its private status page and cancel, the poster, and the
console's list (settings, check-in, the director's actions), with the guards of each."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from actions.registration import entry_register
from signups import services as su
from signups import views
from signups.models import SignUp, SignUpStatus
from tournament.events import Actor
from tournament.models import Player
from tournament.services.registration import player_create

pytestmark = pytest.mark.django_db

NOBODY = Actor.system("phone")


@pytest.fixture
def night(make_tournament, actor):
    t = make_tournament(status="registering", capacity=3)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=2, reserved=0, check_in_deadline=None
    )
    return t


def sign(t, name, **kw):
    return su.signup_create(tournament=t, display_name=name, actor=NOBODY, **kw)


def post_signup(client, t, name="Anna", **extra):
    data = {"display_name": name, "nonce": extra.pop("nonce", ""), **extra}
    return client.post(reverse("signup", args=[t.pk]), data)


# --- Public sign-up --------------------------------------------------------------------------


def test_the_page_shows_places_and_the_waiting_list(client, night):
    page = client.get(reverse("signup", args=[night.pk])).content.decode()
    assert (
        night.name in page and "2" in page and 'name="nonce"' in page and 'name="website"' in page
    )
    sign(night, "AA")
    sign(night, "BB")
    full = client.get(reverse("signup", args=[night.pk])).content.decode()
    assert "waiting list, position 1" in full


def test_the_page_applies_a_passed_deadline_before_its_figures(client, night):
    """The page reads the sheet once; a check-in deadline that has passed is applied first and
    the figures are those it leaves: the no-shows' places went to the waiting list."""
    from datetime import timedelta

    from django.utils import timezone

    from signups.models import SignUpSheet

    for name in ("AA", "BB", "CC"):
        sign(night, name)
    SignUpSheet.objects.filter(tournament=night).update(
        check_in_deadline=timezone.now() - timedelta(minutes=1)
    )
    page = client.get(reverse("signup", args=[night.pk])).content.decode()
    assert SignUp.objects.get(display_name="CC").status == SignUpStatus.CONFIRMED
    assert SignUp.objects.get(display_name="AA").status == SignUpStatus.NO_SHOW
    places = page.split('id="signup-places"', 1)[1].split("</div>\n</div>", 1)[0]
    assert '<div class="su-big">1</div>' in places and "place left" in places  # 2 places, CC


def test_sign_up_then_status_then_cancel(client, night):
    sign(night, "First")
    sign(night, "Second")  # the places are taken: Anna waits
    response = post_signup(client, night, "Anna", email="anna@example.org", consent="on")
    anna = SignUp.objects.get(display_name="Anna")
    assert response.status_code == 302
    assert response["Location"] == reverse("signup-status", args=[anna.token])
    status = client.get(response["Location"]).content.decode()
    assert "Waiting list: position 1 of 1" in status and '"sequence": 3' in status
    assert "anna@example.org" not in status  # the page names no contact data
    cancelled = client.post(response["Location"], {"action": "cancel", "erase_contact": "1"})
    assert cancelled.status_code == 302
    anna.refresh_from_db()
    assert anna.status == SignUpStatus.CANCELLED and anna.email == ""
    again = client.post(response["Location"], {"action": "cancel"})
    assert again.status_code == 400 and "cancelled already" in again.content.decode()


def test_the_answer_names_the_private_page_under_a_script_prefix(client, night):
    """The 302's address is built from a kept form of the route: under a script prefix (Floor
    served below a path: the WSGI handler sets it per request) it is reverse's, as for any
    other page."""
    from django.urls import get_script_prefix, set_script_prefix

    before = get_script_prefix()
    page = reverse("signup", args=[night.pk])  # the path the handler sees, below the prefix
    try:
        for prefix in ("/floor/", "/", "/floor/"):
            set_script_prefix(prefix)
            name = f"Prefix {len(prefix)} {SignUp.objects.count()}"
            response = client.post(page, {"display_name": name})
            made = SignUp.objects.get(display_name=name)
            assert response.status_code == 302
            assert response["Location"] == reverse("signup-status", args=[made.token])
            assert response["Location"] == f"{prefix}signup/{made.token}/"
    finally:
        set_script_prefix(before)


def test_a_place_moves_up_on_a_cancellation(client, night):
    first = sign(night, "First")
    sign(night, "Second")
    third = sign(night, "Third")
    client.post(reverse("signup-status", args=[first.token]), {"action": "cancel"})
    page = client.get(reverse("signup-status", args=[third.token])).content.decode()
    assert "You have a place!" in page


def test_bad_input_changes_nothing(client, night):
    response = post_signup(client, night, "")
    assert response.status_code == 400 and not SignUp.objects.exists()
    response = post_signup(client, night, "Anna", email="anna@example.org")
    assert response.status_code == 400 and "consent" in response.content.decode()
    assert not SignUp.objects.exists()


def test_the_honeypot_makes_nothing(client, night):
    response = post_signup(client, night, "Bot", website="http://spam.example")
    assert response.status_code == 400 and not SignUp.objects.exists()


def test_a_form_sent_twice_makes_one_signup(client, night):
    one = post_signup(client, night, "Anna", nonce="abc123")
    two = post_signup(client, night, "Anna", nonce="abc123")
    assert one["Location"] == two["Location"] and SignUp.objects.count() == 1


def test_a_flood_is_throttled(client, night, monkeypatch):
    monkeypatch.setattr(views, "allow", lambda request, scope, limit, window=60: False)
    response = post_signup(client, night, "Anna")
    assert response.status_code == 429 and "Too many sign-ups" in response.content.decode()
    assert not SignUp.objects.exists()


def test_the_real_limit_counts_per_address(client, night, one_rate_window):
    for i in range(views.SIGNUPS_PER_WINDOW):
        post_signup(client, night, f"Player {i}")
    assert post_signup(client, night, "One more").status_code == 429


def test_closed_sheets_say_so(client, night, actor):
    su.sheet_update(
        tournament=night, actor=actor, is_open=False, places=2, reserved=0, check_in_deadline=None
    )
    page = client.get(reverse("signup", args=[night.pk])).content.decode()
    assert "Sign-ups are closed" in page and 'id="signup-form"' not in page
    with CaptureQueriesContext(connection) as queries:
        response = post_signup(client, night, "Anna")
    assert response.status_code == 400 and not SignUp.objects.exists()
    # The one statement (PostgreSQL) found the sheet closed once; the locked path said why.
    tries = [q for q in queries.captured_queries if "taken AS (" in q["sql"]]
    assert len(tries) == (1 if connection.vendor == "postgresql" else 0)


def test_a_my_seat_link_links_the_person(client, night, make_tournament, actor):
    earlier = make_tournament(name="Last Friday", status="registering")
    regular = player_create(name="Hannes Müller", display_name="Hannes M.", actor=actor)
    entry = entry_register(tournament=earlier, player=regular, actor=actor)
    url = reverse("signup", args=[night.pk]) + f"?from={entry.public_token}"
    page = client.get(url).content.decode()
    assert "Welcome back, Hannes M." in page and "Hannes Müller" not in page
    post_signup(client, night, "Hannes M.", **{"from": entry.public_token})
    assert SignUp.objects.get().player == regular
    # An unknown token greets nobody and links nothing.
    page = client.get(reverse("signup", args=[night.pk]) + "?from=nope").content.decode()
    assert "Welcome back" not in page


def test_a_sign_up_for_a_tournament_that_does_not_exist_is_a_404(client, night):
    response = client.post(reverse("signup", args=[night.pk + 1000]), {"display_name": "Anna"})
    assert response.status_code == 404 and not SignUp.objects.exists()


def test_an_unknown_link_is_a_clear_404(client, db):
    response = client.get(reverse("signup-status", args=["not-a-token"]))
    assert response.status_code == 404 and "No such sign-up" in response.content.decode()


def test_the_poster_has_the_qr_code_and_the_link(client, night):
    page = client.get(reverse("signup-poster", args=[night.pk])).content.decode()
    assert "<svg" in page and f"testserver/t/{night.pk}/signup/" in page and "data-print" in page


def test_the_public_page_links_to_the_sign_up(client, night, actor):
    page = client.get(reverse("tournament-public", args=[night.pk])).content.decode()
    assert reverse("signup", args=[night.pk]) in page
    su.sheet_update(
        tournament=night, actor=actor, is_open=False, places=2, reserved=0, check_in_deadline=None
    )
    page = client.get(reverse("tournament-public", args=[night.pk])).content.decode()
    assert reverse("signup", args=[night.pk]) not in page


# --- Console ---------------------------------------------------------------------------------


def console(t):
    return reverse("signups", args=[t.pk])


def test_anonymous_is_sent_to_the_login(client, night):
    response = client.get(console(night))
    assert response.status_code == 302 and response["Location"].startswith("/login/")
    assert client.post(console(night), {"action": "add", "display_name": "X"}).status_code == 302
    assert not SignUp.objects.exists()


def test_the_director_sees_contact_data_the_floor_does_not(client, night, director, floor_user):
    sign(night, "Anna", email="anna@example.org", phone="+49 170 1", consent=True)
    client.force_login(director)
    assert "anna@example.org" in client.get(console(night)).content.decode()
    client.force_login(floor_user)
    page = client.get(console(night)).content.decode()
    assert "Anna" in page and "anna@example.org" not in page and "+49 170 1" not in page


def test_the_floor_checks_in_but_changes_nothing_else(client, night, floor_user):
    anna = sign(night, "Anna")
    sign(night, "Bert")
    carl = sign(night, "Carl")
    client.force_login(floor_user)
    for data in (
        {"action": "cancel", "signup": anna.pk},
        {"action": "top", "signup": carl.pk},
        {"action": "add", "display_name": "Dora"},
        {"action": "link", "signup": anna.pk, "player": 1},
        {"action": "sheet", "is_open": "", "reserved": "0"},
    ):
        assert client.post(console(night), data).status_code == 403, data
    response = client.post(
        console(night), {"action": "check_in", "signup": anna.pk, "method": "cash"}
    )
    assert response.status_code == 302
    anna.refresh_from_db()
    assert anna.status == SignUpStatus.CHECKED_IN and anna.entry is not None
    carl.refresh_from_db()
    assert SignUp.objects.count() == 3 and carl.rank is None


def test_check_in_refuses_a_bad_method_and_a_waiting_signup(client, night, director):
    anna = sign(night, "Anna")
    sign(night, "Bert")
    carl = sign(night, "Carl")
    client.force_login(director)
    bad = client.post(console(night), {"action": "check_in", "signup": anna.pk, "method": "gold"})
    assert bad.status_code == 400
    waiting = client.post(
        console(night), {"action": "check_in", "signup": carl.pk, "method": "cash"}
    )
    assert waiting.status_code == 400 and "no place yet" in waiting.content.decode()
    assert not SignUp.objects.filter(status=SignUpStatus.CHECKED_IN).exists()


def test_the_director_runs_the_sheet(client, night, director):
    anna = sign(night, "Anna")
    sign(night, "Bert")
    carl = sign(night, "Carl")
    dora = sign(night, "Dora")
    client.force_login(director)
    assert client.post(console(night), {"action": "top", "signup": dora.pk}).status_code == 302
    assert client.post(console(night), {"action": "cancel", "signup": anna.pk}).status_code == 302
    dora.refresh_from_db()
    carl.refresh_from_db()
    assert dora.status == SignUpStatus.CONFIRMED and carl.status == SignUpStatus.WAITING
    added = client.post(console(night), {"action": "add", "display_name": "Emil"})
    assert added.status_code == 302 and SignUp.objects.get(display_name="Emil").by_staff
    night.capacity = 5  # room for four places and one held back
    night.save(update_fields=["capacity"])
    settings = {
        "action": "sheet",
        "is_open": "on",
        "places": "4",
        "reserved": "1",
        "check_in_deadline": "2030-01-01T19:30",
    }
    assert client.post(console(night), settings).status_code == 302
    carl.refresh_from_db()
    assert carl.status == SignUpStatus.CONFIRMED
    night.signup_sheet.refresh_from_db()
    assert night.signup_sheet.places == 4 and night.signup_sheet.check_in_deadline.year == 2030


def test_bad_settings_change_nothing(client, night, director):
    client.force_login(director)
    response = client.post(console(night), {"action": "sheet", "places": "-3", "reserved": "x"})
    assert response.status_code == 400
    night.signup_sheet.refresh_from_db()
    assert night.signup_sheet.places == 2 and night.signup_sheet.is_open


def test_search_folds_german_names(client, night, director):
    sign(night, "Jürgen Müller")
    sign(night, "Anna Schmidt")
    client.force_login(director)
    page = client.get(console(night) + "?q=muller").content.decode()
    assert "Jürgen Müller" in page and "Anna Schmidt" not in page


def test_linking_a_person_shows_eligibility(client, night, director, actor):
    anna = sign(night, "Anna")
    barred = Player.objects.create(
        name="Anna Barred", display_name="Anna B.", barred=True, barred_reason="debts"
    )
    client.force_login(director)
    found = client.get(console(night) + f"?person_for={anna.pk}&who=barred").content.decode()
    assert "Anna Barred" in found and "BARRED: debts" in found
    assert (
        client.post(
            console(night), {"action": "link", "signup": anna.pk, "player": barred.pk}
        ).status_code
        == 302
    )
    anna.refresh_from_db()
    assert anna.player == barred
    missing = client.post(console(night), {"action": "link", "signup": anna.pk, "player": 999999})
    assert missing.status_code == 400


def test_the_desk_shows_the_signups_to_check_in(client, night, director, make_tournament):
    sign(night, "Anna")
    client.force_login(director)
    desk = client.get(reverse("desk", args=[night.pk])).content.decode()
    assert "1 sign-up to check in" in desk and console(night) in desk
    plain = make_tournament(name="No sheet")
    assert 'id="desk-signups"' not in client.get(reverse("desk", args=[plain.pk])).content.decode()


# --- Walk-ins count, one sign-up per person (issue 55: findings 2 and 4) ----------------------


def test_the_page_counts_walk_ins_at_the_desk(client, night, actor):
    """Capacity 3, 2 places for sign-ups: one sign-up and two walk-ins fill the room. The page
    says it is full and a new sign-up is told it waits."""
    sign(night, "AA")
    for name in ("Walk One", "Walk Two"):
        entry_register(tournament=night, player=player_create(name=name, actor=actor), actor=actor)
    page = client.get(reverse("signup", args=[night.pk])).content.decode()
    assert "waiting list, position 1" in page and "Join the waiting list" in page
    response = post_signup(client, night, "Bert")
    status = client.get(response["Location"]).content.decode()
    assert "Waiting list: position 1 of 1" in status


def test_a_walk_in_is_refused_at_the_desk_and_the_api_when_the_seats_are_promised(
    client, night, floor_user
):
    """Capacity 3, 2 places: two sign-ups and one walk-in take every seat; the desk shows its
    form again with the reason, the API answers 400 with its code; nothing is written."""
    from tournament.models import Entry

    sign(night, "AA")
    sign(night, "BB")
    client.force_login(floor_user)
    first = client.post(f"/console/t/{night.pk}/desk/", {"name": "Walk One", "method": "cash"})
    assert first.status_code == 302
    players, entries = Player.objects.count(), Entry.objects.count()
    desk = client.post(f"/console/t/{night.pk}/desk/", {"name": "Walk Two", "method": "cash"})
    assert "All 3 places are taken or held for sign-ups" in desk.content.decode()
    api = client.post(
        f"/api/tournaments/{night.pk}/entries/",
        {"name": "Walk Three", "payment_method": "cash"},
        content_type="application/json",
    )
    assert api.status_code == 400 and api.json()["code"] == "held_for_signups"
    assert (Player.objects.count(), Entry.objects.count()) == (players, entries)


def test_the_same_person_from_the_same_phone_sees_their_sign_up(client, night):
    one = post_signup(client, night, "Anna", email="anna@example.org", consent="on", nonce="a1")
    two = post_signup(client, night, "Anna", email="Anna@example.org", consent="on", nonce="a2")
    assert two.status_code == 302 and two["Location"] == one["Location"]
    assert "You are signed up already" in client.get(two["Location"]).content.decode()
    assert SignUp.objects.count() == 1


def test_the_same_contact_from_elsewhere_is_refused_without_the_link(client, night):
    from django.test import Client

    post_signup(client, night, "Anna", phone="0171 1234567", consent="on", nonce="a1")
    anna = SignUp.objects.get()
    other = post_signup(Client(), night, "Anna", phone="+491711234567", consent="on", nonce="b1")
    page = other.content.decode()
    assert other.status_code == 409 and "signed up for this tournament already" in page
    assert anna.token not in page and SignUp.objects.count() == 1
