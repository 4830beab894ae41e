"""Chip counts from the dealer tablet (actions/dealer_counts.py): the tablet's own players
only, recorded with source "dealer"; the live message to the counts pages; the colour-up
taking the latest counts."""

from __future__ import annotations

import pytest
from django.urls import reverse

from core.errors import FloorError
from counts.models import ChipCount
from counts.services import count_record, table_counts_record
from live import catalogue, realtime
from rules_engine.models import ColourUp
from tables import services as seating
from tables.models import Table
from tournament.models import Entry, Event, Status, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(make_tournament, register, actor):
    """18 players at two tables, running: 360,000 chips in play."""
    t = make_tournament(status="registering")
    for _ in range(18):
        register(t)
    seating.tables_create(tournament=t, count=2, actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    return t


def at_table(t, number):
    return list(
        Entry.objects.filter(tournament=t, seat__table__number=number).order_by("seat__seat")
    )


def tablet(t, number):
    return Table.objects.get(tournament=t, number=number)


def test_the_tablet_records_its_tables_counts_as_the_dealer(client, night):
    table = tablet(night, 1)
    players = at_table(night, 1)
    url = reverse("dealer-counts", args=[table.dealer_token])
    assert url == f"/d/{table.dealer_token}/counts/"
    # The tablet links to the form; the form lists the table's players with big numeric fields.
    assert url in client.get(reverse("dealer", args=[table.dealer_token])).content.decode()
    page = client.get(url).content.decode()
    for e in players:
        assert f'name="count_{e.pk}"' in page
    assert page.count('inputmode="numeric"') == len(players)
    assert "no count yet" in page
    post = {f"count_{e.pk}": "" for e in players}
    post[f"count_{players[0].pk}"] = "24.500"
    post[f"count_{players[1].pk}"] = "18000"
    response = client.post(url, post)
    assert response.status_code == 302
    assert response["Location"] == url  # the confirmation and the new counts, then back
    rows = ChipCount.objects.filter(tournament=night).order_by("entry__seat__seat")
    assert [(r.count, r.source, r.table_number) for r in rows] == [
        (24_500, "dealer", 1),
        (18_000, "dealer", 1),
    ]
    event = Event.objects.get(tournament=night, action="chips.count")
    assert event.payload["source"] == "dealer" and event.actor_label == "dealer, table 1"
    back = client.get(response["Location"]).content.decode()
    assert "Table 1: 2 counts recorded." in back and "last count 24,500" in back
    assert reverse("dealer", args=[table.dealer_token]) in back  # "Back to the table"


def test_a_tablet_counts_only_its_own_players(client, night):
    table = tablet(night, 1)
    other = at_table(night, 2)[0]
    url = reverse("dealer-counts", args=[table.dealer_token])
    response = client.post(url, {f"count_{other.pk}": "20000"})
    assert response.status_code == 400
    assert "Only the players at this table" in response.content.decode()
    response = client.post(url, {"count_x": "20000"})
    assert response.status_code == 400
    assert not ChipCount.objects.exists()
    # Nothing typed: nothing recorded, the form says so.
    response = client.post(url, {f"count_{at_table(night, 1)[0].pk}": ""})
    assert response.status_code == 400 and "at least one count" in response.content.decode()
    # Another table's token counts only that table; an unknown token nothing.
    assert client.get(reverse("dealer-counts", args=["not-a-token"])).status_code == 404
    assert client.post(reverse("dealer-counts", args=["not-a-token"]), {}).status_code == 404


def test_a_player_moved_since_the_form_was_drawn_is_refused(client, night, actor):
    table = tablet(night, 1)
    mover = at_table(night, 1)[0]
    url = reverse("dealer-counts", args=[table.dealer_token])
    client.get(url)
    # The player sits at table 2 now: the old form's count is refused, the form is redrawn.
    from tables.models import SeatAssignment

    free = {a.seat for a in SeatAssignment.objects.filter(table__number=2, table__tournament=night)}
    seat = next(n for n in range(1, 11) if n not in free)
    SeatAssignment.objects.filter(entry=mover).update(table=tablet(night, 2), seat=seat)
    response = client.post(url, {f"count_{mover.pk}": "30000"})
    assert response.status_code == 400
    assert not ChipCount.objects.exists()
    assert f'name="count_{mover.pk}"' not in response.content.decode()


def test_a_closed_tables_tablet_cannot_count(client, night):
    table = tablet(night, 2)
    Table.objects.filter(pk=table.pk).update(is_open=False)
    url = reverse("dealer-counts", args=[table.dealer_token])
    assert client.get(url).status_code == 410
    assert client.post(url, {}).status_code == 410


def test_recorded_counts_tell_the_counts_pages(
    night, actor, sent, django_capture_on_commit_callbacks
):
    players = at_table(night, 1)
    with django_capture_on_commit_callbacks(execute=True):
        table_counts_record(
            tournament=night,
            table_number=1,
            counts={players[0].pk: 21_000, players[1].pk: None},
            actor=actor,
            source="dealer",
        )
    event = Event.objects.get(tournament=night, action="chips.count")
    messages = [(g, d) for g, e, d in sent if e == "counts"]
    assert messages == [
        (realtime.tournament_group(night.pk), {"version": event.pk, "table": 1, "counts": 1})
    ]
    assert (catalogue.Audience.TOURNAMENT, "counts") in catalogue.MESSAGES
    # A refused count sends nothing.
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(FloorError):
        count_record(tournament=night, entry=players[0], count=-1, actor=actor)
    assert not [e for _g, e, _d in sent if e == "counts"]


def test_the_pages_listen_for_counts(client, night):
    public = client.get(reverse("counts-public", args=[night.pk])).content.decode()
    assert f'data-ws="/ws/t/{night.pk}/"' in public and "counts/public.js" in public
    screen = client.get(reverse("counts-screen", args=[night.pk])).content.decode()
    assert f"/ws/t/{night.pk}/" in screen


def test_the_colour_up_takes_the_latest_counts(
    client, floor_user, make_tournament, register, actor
):
    t = make_tournament(status="running", ruleset="bdpv", late_registration_until_level=6)
    for _ in range(6):
        register(t)
    seating.seats_draw(tournament=t, actor=actor)
    table = seating.open_tables(t)[0]
    rows = list(table.assignments.select_related("entry").order_by("seat"))
    seating.button_set(table=table, seat=rows[0].seat, actor=actor)
    # Seat A: counted at 75 = three chips of 25 and nothing else. Seat B: counted, more.
    a, b = rows[0], rows[1]
    count_record(tournament=t, entry=a.entry, count=75, actor=actor)
    count_record(tournament=t, entry=b.entry, count=40_000, actor=actor)
    client.force_login(floor_user)
    url = reverse("colour-up", args=[t.pk])
    page = client.get(url, {"table": table.number, "removed": 25, "new_value": 100})
    text = page.content.decode()
    assert "Stacks: 2 from the latest chip counts, 4 estimated from the chips in play" in text
    assert "40,000" in text and "est." in text
    data = {"table": table.number, "removed": 25, "new_value": 100}
    data.update({f"chips_{r.seat}": 0 for r in rows})
    data[f"chips_{a.seat}"] = 3  # all of seat A's chips are odd chips
    data[f"chips_{b.seat}"] = 1
    assert client.post(url, data).status_code == 302
    record = ColourUp.objects.get()
    seats = {s["seat"]: s for s in record.result["seats"]}
    assert (seats[a.seat]["stack"], seats[a.seat]["stack_counted"]) == (75, True)
    assert seats[rows[2].seat]["stack_counted"] is False
    # bdpv 6.8: the count says seat A has nothing else, so A is never raced out.
    assert seats[a.seat]["new_chips"] >= 1
    if record.result["winner"] != a.seat:
        assert seats[a.seat]["not_raced_out"] is True
