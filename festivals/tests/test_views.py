"""The festival pages as a client uses them: making an event, the festival view, bag and tag at
a table (console and dealer tablet), the second person's confirmation, closing the day, the
Day-2 draw, the report, slips, places and the public page; who may do what."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from actions.registration import entry_register
from counts.models import ChipCount
from festivals.models import Bagging, Carried, FlightEvent
from tables import services as seating
from tables.models import SeatAssignment, Table
from tournament.models import EntryStatus, Status, Tournament
from tournament.selectors import tournament_numbers
from tournament.services.registration import player_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss(director):
    c = Client()
    c.force_login(director)
    return c


@pytest.fixture
def floor(floor_user):
    c = Client()
    c.force_login(floor_user)
    return c


@pytest.fixture
def base(make_tournament):
    return make_tournament(status="registering", seats_per_table=6)


def make_event(boss, base, **extra):
    data = {
        "name": "Sommer Main",
        "template": base.pk,
        "flights": "2",
        "days_between": "1",
        "advance": "all",
        "reentry": "on",
        "tolerance_bp": "50",
        **extra,
    }
    response = boss.post(reverse("festivals"), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return FlightEvent.objects.get()


def run_flight(t, actor, n, start):
    Tournament.objects.filter(pk=t.pk).update(status=Status.REGISTERING)
    t.refresh_from_db()
    for i in range(n):
        p = player_create(name=f"Spieler Nummer{start + i}", actor=actor)
        entry_register(tournament=t, player=p, actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    return t


def test_only_a_director_makes_an_event_and_bad_input_changes_nothing(boss, floor, base, client):
    assert client.get(reverse("festivals")).status_code == 302  # to the login
    assert floor.get(reverse("festivals")).status_code == 200
    assert floor.post(reverse("festivals"), {"name": "X", "template": base.pk}).status_code == 404
    response = boss.post(reverse("festivals"), {"name": "X", "template": base.pk, "flights": "1"})
    assert response.status_code == 400 and "2 to 26" in response.content.decode()
    assert not FlightEvent.objects.exists()
    event = make_event(boss, base)
    page = boss.get(reverse("festival", args=[event.pk])).content.decode()
    assert "Day 1A" in page and "Day 1B" in page and "Day 2" in page
    assert (
        "Flight 1A of Sommer Main"
        in boss.get(reverse("tournament-overview", args=[base.pk])).content.decode()
    )


def test_bag_and_tag_from_console_and_tablet_to_the_day2_draw(boss, floor, base, actor):
    event = make_event(boss, base)
    flights = [f.tournament for f in event.flights.order_by("position")]
    for i, t in enumerate(flights):
        run_flight(t, actor, 7, i * 100)
    for t in flights:
        response = boss.post(
            reverse("festival", args=[event.pk]), {"action": "bagging_open", "tournament": t.pk}
        )
        assert response.status_code == 302
        bagging = Bagging.objects.get(tournament=t)
        total = tournament_numbers(t).chips_in_play
        tables = sorted(set(t.entries.values_list("seat__table__number", flat=True)))
        alive = list(t.entries.filter(status=EntryStatus.ACTIVE).order_by("number"))
        stacks = [total // len(alive) // 25 * 25] * len(alive)
        stacks[0] += total - sum(stacks)
        stack_of = dict(zip([e.pk for e in alive], stacks, strict=True))
        for number in tables:
            here = [e for e in alive if e.seat.table.number == number]
            form = {f"count_{e.pk}": f"{stack_of[e.pk]:,}" for e in here} | {
                f"bag_{e.pk}": f"{t.pk}x{e.number}" for e in here
            }
            if number == tables[0]:
                # From the dealer tablet; the floor confirms on the chip-counter page.
                table = Table.objects.get(tournament=t, number=number)
                tablet = Client().get(reverse("dealer", args=[table.dealer_token]))
                assert "Bag and tag" in tablet.content.decode()
                url = reverse("dealer-bags", args=[table.dealer_token])
                assert Client().post(url, form | {"action": "record"}).status_code == 302
                confirm = floor.post(
                    reverse("bag-table", args=[event.pk, bagging.pk, number]),
                    {"action": "confirm"},
                )
            else:
                url = reverse("bag-table", args=[event.pk, bagging.pk, number])
                assert boss.post(url, form | {"action": "record"}).status_code == 302
                # The same person cannot confirm their own counts.
                mine = boss.post(url, {"action": "confirm"}, follow=True).content.decode()
                assert "another person" in mine
                confirm = floor.post(url, form | {"action": "record"})  # counted again
            assert confirm.status_code == 302
        page = boss.get(reverse("bagging", args=[event.pk, bagging.pk])).content.decode()
        assert "done" in page
        report = boss.get(reverse("bag-report", args=[event.pk, bagging.pk])).content.decode()
        assert "the bags hold every chip" in report
        slips = boss.get(reverse("bag-slips", args=[event.pk, bagging.pk])).content.decode()
        assert f"{t.pk}X{alive[0].number}" in slips
        listing = boss.get(reverse("bag-slips", args=[event.pk, bagging.pk]) + "?kind=list")
        assert "Table total" in listing.content.decode()
        # Floor staff cannot close a day; the director can.
        assert (
            floor.post(
                reverse("bagging", args=[event.pk, bagging.pk]), {"action": "close"}
            ).status_code
            == 404
        )
        boss.post(reverse("bagging", args=[event.pk, bagging.pk]), {"action": "close"})
        assert Bagging.objects.get(pk=bagging.pk).closed_at is not None
    # Each player's latest bag is confirmed (a count entered again stays beside the first).
    bags = ChipCount.objects.exclude(bag_number="").filter(verified_at__isnull=False)
    assert bags.exclude(tournament_id=event.day2_id).count() == 14
    # Closing each day carried its bags into the Day 2 (unseated): the draw only seats them.
    assert bags.filter(tournament_id=event.day2_id).count() == 14
    assert not SeatAssignment.objects.filter(entry__tournament_id=event.day2_id).exists()
    # The draw needs the box ticked.
    boss.post(reverse("festival", args=[event.pk]), {"action": "draw", "how": "seeded"})
    assert FlightEvent.objects.get().drawn_at is None
    boss.post(
        reverse("festival", args=[event.pk]), {"action": "draw", "how": "seeded", "confirm": "on"}
    )
    event.refresh_from_db()
    assert event.drawn_at and event.seeded
    day2 = Tournament.objects.get(pk=event.day2_id)
    assert day2.players_left == 14
    public = Client().get(reverse("festival-public", args=[event.pk])).content.decode()
    assert "Find your Day-2 seat" in public and "Spieler Nummer" not in public
    places = boss.get(reverse("festival-standings", args=[event.pk])).content.decode()
    assert "Day 2" in places
    counts = Client().get(reverse("counts-public", args=[day2.pk]))
    assert counts.status_code == 200
    # A carried entry's correction page fixes a name only and points to the bag's flight entry;
    # a posted person change is refused and changes nothing.
    carried = Carried.objects.select_related("entry", "bag_entry").first()
    url = reverse("entry-correct", args=[day2.pk, carried.entry_id])
    page = boss.get(url).content.decode()
    assert 'id="correct-name"' in page and 'id="correct-carried"' in page
    assert 'id="correct-person"' not in page and 'id="correct-void"' not in page
    flight_url = reverse(
        "entry-correct", args=[carried.bag_entry.tournament_id, carried.bag_entry_id]
    )
    assert flight_url in page
    refused = boss.post(url, {"action": "person", "name": "Someone Else"}).content.decode()
    assert "a bag carried from a flight" in refused
    carried.entry.refresh_from_db()
    assert carried.entry.player_id == carried.bag_entry.player_id


def test_the_tablet_without_bag_and_tag_says_so(boss, base, actor):
    event = make_event(boss, base)
    t = run_flight(event.flights.first().tournament, actor, 4, 0)
    table = Table.objects.filter(tournament=t).first()
    response = Client().get(reverse("dealer-bags", args=[table.dealer_token]))
    assert response.status_code == 404 and "No bag and tag" in response.content.decode()


def test_a_day2_desk_and_seating_offer_no_registration_and_no_draw_of_their_own(boss, base):
    event = make_event(boss, base)
    overview = boss.get(reverse("tournament-overview", args=[event.day2_id])).content.decode()
    assert 'id="waits-for-draw"' in overview and 'name="status"' not in overview
    # Its registration never opens: it does not say "not open yet".
    assert "registration is not open yet" not in overview
    assert "Nobody registers into a Day 2" in overview
    desk = boss.get(reverse("desk", args=[event.day2_id])).content.decode()
    assert 'id="register-form"' not in desk and "No registration in a Day 2." in desk
    seating_page = boss.get(reverse("seating", args=[event.day2_id])).content.decode()
    assert 'id="draw-seats"' not in seating_page
    assert 'id="day2-drawn-by-event"' in seating_page
    # A tournament not open yet says so, instead of "Registration is open".
    Tournament.objects.filter(pk=base.pk).update(status=Status.PLANNED)
    assert (
        "Registration is not open yet."
        in boss.get(reverse("desk", args=[base.pk])).content.decode()
    )


def test_a_bag_form_with_a_player_who_busted_since_it_was_drawn_is_refused_whole(
    boss, floor, base, actor
):
    """A table's bag form (console and dealer tablet) with a count for a player who busted
    after the form was drawn is refused with who and why; the other player's count is not
    recorded either (docs/festivals.md: refused, nothing written)."""
    from actions.bust import BustReport, entries_bust

    event = make_event(boss, base)
    t = run_flight(event.flights.first().tournament, actor, 7, 0)
    bagging = boss.post(
        reverse("festival", args=[event.pk]), {"action": "bagging_open", "tournament": t.pk}
    )
    bagging = Bagging.objects.get(tournament=t)
    table = Table.objects.get(tournament=t, number=1)
    here = list(t.entries.filter(seat__table=table).order_by("seat__seat"))
    gone, other = here[0], here[1]
    url = reverse("bag-table", args=[event.pk, bagging.pk, 1])
    tablet = reverse("dealer-bags", args=[table.dealer_token])
    assert f'name="count_{gone.pk}"' in floor.get(url).content.decode()  # the form is drawn
    assert f'name="count_{gone.pk}"' in Client().get(tablet).content.decode()
    entries_bust(tournament=t, busts=[BustReport(entry=gone)], actor=actor)
    form = {
        "action": "record",
        f"count_{gone.pk}": "5,000",
        f"bag_{gone.pk}": "A1",
        f"count_{other.pk}": "7,000",
        f"bag_{other.pk}": "A2",
    }
    before = ChipCount.objects.count()
    for client, where in ((floor, url), (Client(), tablet)):
        response = client.post(where, form)
        page = response.content.decode()
        assert response.status_code == 409, page[:2000]
        assert f"#{gone.number} {gone.player.display_name} busted after this form was drawn" in page
        assert "1 bag recorded" not in page
        # The other player's count is shown again as typed, to be recorded once more.
        assert 'value="7,000"' in page
        assert ChipCount.objects.count() == before
    # Without the busted player's field the same form is recorded.
    del form[f"count_{gone.pk}"], form[f"bag_{gone.pk}"]
    assert floor.post(url, form).status_code == 302
    assert ChipCount.objects.count() == before + 1


def test_refusals_on_the_festival_pages_answer_4xx_with_the_reason_and_change_nothing(
    boss, base, actor, floor_user
):
    """Closing a day with a bag missing, the Day-2 draw without its confirmation or with a
    flight's day reopened: a 4xx, the page with the reason, nothing changed (docs/input.md)."""
    from festivals import services as fest
    from festivals.tests.test_festival import bag_all
    from tournament.events import Actor

    second = Actor(user=floor_user, label="flo", source="127.0.0.1")
    event = make_event(boss, base)
    a, b = [f.tournament for f in event.flights.order_by("position")]
    run_flight(a, actor, 7, 0)
    run_flight(b, actor, 7, 100)
    page = reverse("festival", args=[event.pk])
    # Bag and tag for a tournament that is not a number: not found, not a server error.
    for odd in ("abc", "²", "9" * 30, ""):
        response = boss.post(page, {"action": "bagging_open", "tournament": odd})
        assert response.status_code == 404
    assert not Bagging.objects.exists()
    # A day with players still to bag is not closed.
    opened = fest.bagging_open(tournament=a, actor=actor)
    url = reverse("bagging", args=[event.pk, opened.pk])
    response = boss.post(url, {"action": "close"})
    text = response.content.decode()
    assert response.status_code == 409, text[:2000]
    assert "7 players have no bag yet (tables 1, 2)" in text and 'id="close-day"' in text
    assert Bagging.objects.get(pk=opened.pk).closed_at is None
    assert Tournament.objects.get(pk=a.pk).status == Status.RUNNING
    # A reopening without a reason: 400, the page again.
    Bagging.objects.filter(pk=opened.pk).delete()
    for t in (a, b):
        fest.bagging_close(bagging=bag_all(t, actor, second), actor=actor)
    carried = Carried.objects.count()
    assert carried == 14
    # The draw without the box ticked.
    response = boss.post(page, {"action": "draw", "how": "seeded"})
    text = response.content.decode()
    assert response.status_code == 400 and "Tick the box to confirm the Day-2 draw." in text
    assert 'id="draw-day2"' in text
    assert FlightEvent.objects.get().drawn_at is None
    # A flight's day reopened: the draw names it, seats nobody.
    closed_b = Bagging.objects.get(tournament=b)
    reopen = reverse("bagging", args=[event.pk, closed_b.pk])
    response = boss.post(reopen, {"action": "reopen", "reason": "nul\x00"})
    assert response.status_code == 400
    response = boss.post(reopen, {"action": "reopen", "reason": " "})
    assert (
        response.status_code == 400 and "Say why the day is reopened." in response.content.decode()
    )
    assert Bagging.objects.get(pk=closed_b.pk).closed_at is not None
    assert boss.post(reopen, {"action": "reopen", "reason": "recount"}).status_code == 302
    response = boss.post(page, {"action": "draw", "how": "seeded", "confirm": "on"})
    text = response.content.decode()
    assert response.status_code == 409, text[:2000]
    assert "These flights have not closed their day yet: 1B." in text
    assert FlightEvent.objects.get().drawn_at is None
    assert not SeatAssignment.objects.filter(entry__tournament_id=event.day2_id).exists()
    assert Tournament.objects.get(pk=event.day2_id).status == Status.PLANNED


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("flight_cap", "-5"),
        ("flight_cap", "zehn"),
        ("flight_cap", "1"),
        ("flight_cap", "²"),
        ("flights", ""),
        ("flights", "drei"),
        ("days_between", ""),
        ("days_between", "-1"),
        ("tolerance_bp", "viel"),
        ("tolerance_bp", ""),
    ],
)
def test_a_bad_number_in_the_new_event_form_is_a_field_error_and_makes_nothing(
    boss, base, field, value
):
    """A cap of "-5" or "zehn" is not "no cap": the form is refused at that field, nothing is
    made, and what was typed stays in the form. Blank means "no cap" for the cap alone."""
    data = {
        "name": "Sommer Main",
        "template": base.pk,
        "flights": "2",
        "days_between": "1",
        "advance": "all",
        "tolerance_bp": "50",
        field: value,
    }
    tournaments = Tournament.objects.count()
    response = boss.post(reverse("festivals"), data)
    page = response.content.decode()
    assert response.status_code == 400, page[:2000]
    ids = {"flight_cap": "fe-cap", "flights": "fe-flights", "days_between": "fe-days"}
    ids["tolerance_bp"] = "fe-tol"
    assert f'id="{ids[field]}-error"' in page
    assert f'name="{field}" inputmode="numeric"' in page and f'value="{value}"' in page
    assert 'aria-invalid="true"' in page
    assert not FlightEvent.objects.exists() and Tournament.objects.count() == tournaments
    base.refresh_from_db()
    assert base.pool_to_id is None and base.capacity is None


@pytest.mark.parametrize("name", ["", "Main\x00Event", "x" * 101])
def test_a_bad_event_name_is_a_field_error_and_makes_nothing(boss, base, name):
    data = {"name": name, "template": base.pk, "flights": "2", "advance": "all"}
    response = boss.post(reverse("festivals"), data)
    assert response.status_code == 400 and 'id="fe-name-error"' in response.content.decode()
    assert not FlightEvent.objects.exists()


def test_a_blank_flight_cap_is_no_cap(boss, base):
    event = make_event(boss, base, flight_cap="")
    assert event.flight_cap is None


def test_a_drawn_day2_says_registration_closed_on_every_page_that_shows_its_state(
    boss, base, actor, floor_user
):
    """After the Day-2 draw nobody can register: no page says "Registering" ("Anmeldung
    offen") for the Day 2, in the console, the festival view, the public pages and the
    screens' board (the lobby names the status from it)."""
    from festivals import services as fest
    from festivals.tests.test_festival import bag_all
    from tournament.events import Actor

    second = Actor(user=floor_user, label="flo", source="127.0.0.1")
    event = make_event(boss, base)
    for i, f in enumerate(event.flights.order_by("position")):
        t = run_flight(f.tournament, actor, 7, i * 100)
        fest.bagging_close(bagging=bag_all(t, actor, second), actor=actor)
    fest.day2_draw_run(event=event, seeded=True, actor=actor)
    day2 = Tournament.objects.get(pk=event.day2_id)
    assert day2.status == Status.REGISTERING and day2.registration_closed_at is not None
    assert day2.status_text == "Registration closed"
    pages = [
        (boss, reverse("festival", args=[event.pk])),
        (boss, reverse("tournament-overview", args=[day2.pk])),
        (boss, reverse("console-home")),
        (boss, reverse("console-phone", args=[day2.pk])),
        (Client(), reverse("tournament-public", args=[day2.pk])),
        (Client(), reverse("home")),
    ]
    for language, closed, open_ in (
        ("en", "Registration closed", "Registering"),
        ("de", "Anmeldung geschlossen", "Anmeldung offen"),
    ):
        for client, url in pages:
            page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
            assert closed in page, (url, language)
            assert f">{open_}<" not in page, (url, language)
    clock = Client().get(reverse("clock-json", args=[day2.pk])).json()
    assert clock["status"] == "registering" and clock["registration_closed"] is True
