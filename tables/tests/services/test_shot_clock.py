"""The shot clock and time-bank cards through the services, the tablet's page and its links
(tables/services/shotclock.py, templates/tables/_shot_clock.html)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from actions.tables import hand_done
from core.errors import Conflict, FloorError
from live import realtime
from tables import services as svc
from tables.models import ShotClock, Table, TimeBank
from tournament.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_tournament, register, actor):
    t = make_tournament(
        status="running",
        late_registration_until_level=6,
        seats_per_table=6,
        shot_clock=True,
        shot_clock_seconds=30,
        time_bank_cards=2,
        time_bank_seconds=45,
    )
    for n in range(5):
        register(t, f"Ada Lovelace{n}")
    svc.seats_draw(tournament=t, actor=actor)
    return Table.objects.select_related("tournament").get(tournament=t, number=1)


def _seat_of(table: Table) -> int:
    first = table.assignments.order_by("seat").first()
    assert first is not None
    return first.seat


def test_start_counts_from_now_and_a_card_adds_its_seconds(table, actor):
    now = timezone.now()
    clock = svc.shot_clock_start(table=table, now=now)
    assert clock.seconds == 30
    seat = _seat_of(table)
    used = svc.time_bank_use(table=table, seat=seat, actor=actor, now=now + timedelta(seconds=20))
    assert used.seconds == 75 and used.seat == seat
    row = ShotClock.objects.get(table=table)
    assert row.seconds == 75 and row.cards_used == 1 and row.started_at is not None
    entry = table.assignments.get(seat=seat).entry
    assert TimeBank.objects.get(entry=entry).used == 1
    event = Event.objects.filter(action="table.time_bank").get()
    assert event.payload == {
        "table": 1,
        "seat": seat,
        "entry": entry.number,
        "seconds": 45,
        "left": 1,
    }


def test_cards_run_out_and_are_refused(table, actor):
    seat = _seat_of(table)
    for _ in range(2):
        svc.shot_clock_start(table=table)
        svc.time_bank_use(table=table, seat=seat, actor=actor)
    svc.shot_clock_start(table=table)
    with pytest.raises(Conflict, match="no time-bank card left"):
        svc.time_bank_use(table=table, seat=seat, actor=actor)
    # Another player still has both.
    other = table.assignments.exclude(seat=seat).first().seat
    svc.time_bank_use(table=table, seat=other, actor=actor)


def test_a_card_needs_a_running_clock_with_time_left_and_a_player(table, actor):
    seat = _seat_of(table)
    with pytest.raises(FloorError, match="Start the shot clock first"):
        svc.time_bank_use(table=table, seat=seat, actor=actor)
    start = timezone.now() - timedelta(seconds=31)
    svc.shot_clock_start(table=table, now=start)
    with pytest.raises(FloorError, match="The time is up"):
        svc.time_bank_use(table=table, seat=seat, actor=actor)
    svc.shot_clock_start(table=table)
    empty = next(n for n in range(1, table.seats + 1) if not table.assignments.filter(seat=n))
    with pytest.raises(FloorError, match="Nobody sits"):
        svc.time_bank_use(table=table, seat=empty, actor=actor)
    assert not TimeBank.objects.filter(used__gt=0).exists()


def test_a_double_tap_starts_once_and_uses_one_card(table, actor):
    svc.shot_clock_start(table=table, version=0)
    first = ShotClock.objects.get(table=table)
    svc.shot_clock_start(table=table, version=0)  # the same view tapped again: nothing
    assert ShotClock.objects.get(table=table).started_at == first.started_at
    seat = _seat_of(table)
    svc.time_bank_use(table=table, seat=seat, actor=actor, version=first.version)
    with pytest.raises(Conflict, match="changed meanwhile"):
        svc.time_bank_use(table=table, seat=seat, actor=actor, version=first.version)
    assert TimeBank.objects.get(entry__seat__table=table, entry__seat__seat=seat).used == 1


def test_stop_and_hand_done_make_the_clock_idle(table, actor):
    svc.shot_clock_start(table=table)
    svc.shot_clock_stop(table=table)
    assert ShotClock.objects.get(table=table).started_at is None
    svc.shot_clock_start(table=table)
    svc.button_set(table=table, seat=_seat_of(table), actor=actor)
    hand_done(table=Table.objects.get(pk=table.pk), actor=actor)
    assert ShotClock.objects.get(table=table).started_at is None


def test_without_the_option_the_clock_is_refused(make_tournament, register, actor):
    t = make_tournament(status="running", late_registration_until_level=6)
    for _ in range(3):
        register(t)
    svc.seats_draw(tournament=t, actor=actor)
    table = Table.objects.get(tournament=t, number=1)
    with pytest.raises(FloorError, match="without a shot clock"):
        svc.shot_clock_start(table=table)


def test_a_new_day_and_the_final_table_bring_the_cards_back(table, actor):
    seat = _seat_of(table)
    svc.shot_clock_start(table=table)
    svc.time_bank_use(table=table, seat=seat, actor=actor)
    assert svc.time_banks_reset(tournament=table.tournament, occasion="day", actor=actor) == 1
    assert not TimeBank.objects.filter(used__gt=0).exists()
    svc.shot_clock_start(table=table)
    svc.time_bank_use(table=table, seat=seat, actor=actor)
    svc.final_table_draw(tournament=table.tournament, actor=actor)
    assert not TimeBank.objects.filter(used__gt=0).exists()
    occasions = [e.payload["occasion"] for e in Event.objects.filter(action="time_bank.reset")]
    assert occasions == ["day", "final_table"]


def test_cards_that_come_back_only_at_the_final_table_refuse_a_new_day(table, actor):
    t = table.tournament
    t.time_bank_reset = "final_table"
    t.save(update_fields=["time_bank_reset"])
    with pytest.raises(FloorError, match="do not come back each day"):
        svc.time_banks_reset(tournament=t, occasion="day", actor=actor)


def test_the_tablet_and_the_chart_are_told(table, actor, sent, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        svc.shot_clock_start(table=table)
    views = [d for g, e, d in sent if g == realtime.table_group(table.pk, "de") and e == "table"]
    assert views and 'id="shotclock"' in views[-1]["html"]["de"]
    (clock,) = [
        d
        for g, e, d in sent
        if g == realtime.console_group(table.tournament_id) and e == "shot_clock"
    ]
    assert clock["table"] == 1 and clock["seconds"] == 30 and clock["ends_ms"] > 0
    assert clock["version"] == ShotClock.objects.get(table=table).version


# --- The tablet's page and links ---------------------------------------------------------


def _post(client, table: Table, action: str, **data: Any):
    return client.post(
        reverse("dealer-action", args=[table.dealer_token, action]), data, HTTP_HX_REQUEST="true"
    )


def test_the_tablet_starts_the_clock_and_uses_a_card_with_one_tap_each(client, table):
    page = client.get(reverse("dealer", args=[table.dealer_token])).content.decode()
    assert 'id="shotclock"' in page and "Tap Start when the action is on a player." in page
    html = _post(client, table, "shot_start", version=0).content.decode()
    assert "Next decision" in html and 'data-ends="' in html
    row = ShotClock.objects.get(table=table)
    seat = _seat_of(table)
    html = _post(client, table, "time_bank", seat=seat, version=row.version).content.decode()
    assert "1 card" in html and "2 cards" in html
    assert Event.objects.filter(action="table.time_bank").count() == 1


def test_another_tables_link_cannot_use_this_tables_cards(client, table, actor):
    svc.tables_create(tournament=table.tournament, count=1, actor=actor)
    other = Table.objects.get(tournament=table.tournament, number=2)
    svc.shot_clock_start(table=table)
    seat = _seat_of(table)
    # Through table 2's link the seat is table 2's (empty): nothing is used at table 1.
    _post(client, other, "time_bank", seat=seat)
    assert not TimeBank.objects.filter(used__gt=0).exists()
    # A renewed (revoked) link acts no more.
    token = table.dealer_token
    svc.dealer_token_renew(table=table, actor=actor)
    response = client.post(reverse("dealer-action", args=[token, "shot_start"]))
    assert response.status_code == 404
    assert client.post(reverse("dealer-action", args=["nope", "time_bank"])).status_code == 404


def test_only_a_director_starts_a_new_day(client, table, floor_user, director, actor):
    seat = _seat_of(table)
    svc.shot_clock_start(table=table)
    svc.time_bank_use(table=table, seat=seat, actor=actor)
    url = reverse("seating-action", args=[table.tournament_id, "time_banks_day"])
    client.force_login(floor_user)
    assert client.post(url).status_code == 403
    assert TimeBank.objects.filter(used__gt=0).exists()
    client.force_login(director)
    assert client.post(url).status_code == 302
    assert not TimeBank.objects.filter(used__gt=0).exists()


def test_the_chart_shows_each_tables_clock_and_cards_left(client, table, floor_user, actor):
    svc.shot_clock_start(table=table)
    svc.time_bank_use(table=table, seat=_seat_of(table), actor=actor)
    client.force_login(floor_user)
    html = client.get(reverse("seating", args=[table.tournament_id])).content.decode()
    assert 'class="sc-mini phase-running"' in html and 'data-table="1"' in html
    assert html.count("Time-bank cards left") >= 5


def test_settings_refuse_a_shot_clock_out_of_range(client, director, table):
    from tournament.validation import merged_values, settings_errors

    errors = settings_errors(merged_values(table.tournament, {"shot_clock_seconds": 5}))
    assert errors["shot_clock_seconds"] == ["Enter a whole number from 10 to 120."]
    client.force_login(director)
    url = reverse("tournament-settings", args=[table.tournament_id])
    page = client.get(url).content.decode()
    assert "Shot clock and time banks" in page and 'name="time_bank_reset"' in page
    response = client.patch(
        f"/api/tournaments/{table.tournament_id}/",
        {"shot_clock_seconds": 5},
        content_type="application/json",
    )
    assert response.status_code == 400 and "shot_clock_seconds" in response.json()
    response = client.patch(
        f"/api/tournaments/{table.tournament_id}/",
        {"shot_clock_seconds": 25, "time_bank_reset": "day"},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    assert response.json()["shot_clock_seconds"] == 25
