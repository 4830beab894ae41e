"""Recording chip counts (a table at once, one player), what is refused, and the pages and
reads built on them: console, public page, big screen, API, the deal calculator's stacks."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from actions.bust import BustReport, entries_bust
from core.errors import Conflict, FloorError
from counts.models import ChipCount
from counts.selectors import latest_counts, public_counts, tournament_field
from counts.services import count_record, counts_record, table_counts_record
from tables import services as seating
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


def test_a_table_at_once_blank_unchanged_one_event(night, actor):
    players = at_table(night, 1)
    counts = {e.pk: 20_000 + i * 1_000 for i, e in enumerate(players)}
    counts[players[0].pk] = None  # a blank field: unchanged
    recorded = table_counts_record(tournament=night, table_number=1, counts=counts, actor=actor)
    assert len(recorded.counts) == len(players) - 1
    assert ChipCount.objects.filter(tournament=night).count() == len(players) - 1
    row = ChipCount.objects.filter(entry=players[1]).get()
    assert (row.table_number, row.seat, row.count) == (1, players[1].seat.seat, 21_000)
    event = Event.objects.filter(tournament=night, action="chips.count").get()
    assert event.payload["table"] == 1 and len(event.payload["counts"]) == len(players) - 1


def test_a_correction_is_a_new_count_and_the_latest_wins(night, actor):
    entry = at_table(night, 2)[0]
    count_record(tournament=night, entry=entry, count=18_000, actor=actor)
    count_record(tournament=night, entry=entry, count=19_500, actor=actor)
    assert ChipCount.objects.filter(entry=entry).count() == 2
    (latest,) = [c for c in latest_counts(night.pk) if c.entry_id == entry.pk]
    assert latest.count == 19_500
    last = Event.objects.filter(action="chips.count").order_by("-id").first()
    assert last.payload["counts"] == [{"entry": entry.number, "count": 19_500, "before": 18_000}]


@pytest.mark.parametrize("chips", [-1, 360_001])
def test_a_negative_or_absurd_count_is_refused_and_nothing_written(night, actor, chips):
    entry = at_table(night, 1)[0]
    before = Event.objects.count()
    with pytest.raises(FloorError) as caught:
        count_record(tournament=night, entry=entry, count=chips, actor=actor)
    assert f"#{entry.number}" in str(caught.value)
    assert not ChipCount.objects.exists() and Event.objects.count() == before


def test_a_table_whose_counts_exceed_the_chips_in_play_is_refused(night, actor):
    players = at_table(night, 1)
    with pytest.raises(FloorError):
        counts_record(
            tournament=night, counts={e.pk: 100_000 for e in players}, actor=actor, table_number=1
        )
    assert not ChipCount.objects.exists()


def test_no_count_for_a_busted_player_and_the_average_forgets_them(night, actor):
    out, other = at_table(night, 1)[:2]
    count_record(tournament=night, entry=out, count=50_000, actor=actor)
    entries_bust(tournament=night, busts=[BustReport(entry=out)], actor=actor)
    with pytest.raises(FloorError) as caught:
        count_record(tournament=night, entry=out, count=1_000, actor=actor)
    assert "not playing" in str(caught.value)
    field = tournament_field(night)
    assert out.pk not in {s.player.entry_id for s in field.stacks}
    assert field.average.counted == 0 and field.average.players == 17
    count_record(tournament=night, entry=other, count=40_000, actor=actor)
    field = tournament_field(night)
    assert field.average.source == "mixed" and field.average.counted == 1


def test_a_player_who_moved_is_refused_on_the_old_tables_form(night, actor):
    entry = at_table(night, 2)[0]
    with pytest.raises(Conflict):
        table_counts_record(
            tournament=night, table_number=1, counts={entry.pk: 10_000}, actor=actor
        )


def test_big_blinds_and_leaders(night, actor):
    players = at_table(night, 1)
    count_record(tournament=night, entry=players[0], count=40_000, actor=actor)
    count_record(tournament=night, entry=players[1], count=30_000, actor=actor)
    data = public_counts(night)
    assert data["big_blind"] == 200  # the first level before the clock starts
    assert [r["number"] for r in data["leaders"]] == [players[0].number, players[1].number]
    assert data["leaders"][0]["big_blinds"] == 200.0
    assert data["average"]["counted"] == 2 and data["players_left"] == 18
    json.dumps(data)  # what the API and the screen send is JSON
    # The console's one-query leaders agree with the field's, and forget a player who is out.
    count_record(tournament=night, entry=players[1], count=35_000, actor=actor)
    count_record(tournament=night, entry=players[2], count=45_000, actor=actor)
    entries_bust(tournament=night, busts=[BustReport(entry=players[2])], actor=actor)
    from counts.domain.stacks import leaders
    from counts.selectors import chip_leaders

    ones = chip_leaders(night)
    assert [(s.player.number, s.chips) for s in ones] == [
        (s.player.number, s.chips) for s in leaders(tournament_field(night))
    ]
    assert [s.chips for s in ones] == [40_000, 35_000]
    assert ones[0].player.table == 1 and ones[0].big_blinds == 200.0


def test_console_page_table_form_and_one_player(client, floor_user, night):
    client.force_login(floor_user)
    url = reverse("counts-console", args=[night.pk])
    page = client.get(url + "?table=2")
    assert page.status_code == 200 and "Table 2" in page.content.decode()
    players = at_table(night, 2)
    post = {"form": "table", "table": "2", f"count_{players[0].pk}": "22.500"}
    response = client.post(url, post)
    assert response.status_code == 302 and response["Location"].endswith("?table=2")
    assert ChipCount.objects.get(entry=players[0]).count == 22_500
    response = client.post(url, {"form": "player", "number": players[1].number, "count": "-5"})
    assert response.status_code == 400 and "below zero" in response.content.decode()
    response = client.post(url, {"form": "player", "number": players[1].number, "count": "31000"})
    assert response.status_code == 302
    assert ChipCount.objects.filter(entry=players[1]).get().source == "floor"


def test_public_page_api_and_screen_show_public_names_only(client, night, actor):
    entry = at_table(night, 1)[0]
    entry.player.display_name = "Hanni"
    entry.player.save()
    count_record(tournament=night, entry=entry, count=33_000, actor=actor)
    for name in ("counts-public", "counts-screen", "counts-json", "api-counts"):
        response = client.get(reverse(name, args=[night.pk]))
        assert response.status_code == 200, name
        body = response.content.decode()
        assert "Hanni" in body and entry.player.name not in body, name
    api = client.get(reverse("api-counts", args=[night.pk])).json()
    assert api["leaders"][0]["chips"] == 33_000
    # Counts come from staff only.
    assert client.post(reverse("api-counts", args=[night.pk]), {}).status_code in (401, 403, 405)
    got = client.get(reverse("counts-json", args=[night.pk]))
    again = client.get(reverse("counts-json", args=[night.pk]), HTTP_IF_NONE_MATCH=got["ETag"])
    assert again.status_code == 304


def test_deal_calculator_is_filled_from_the_latest_counts(client, floor_user, night, actor):
    keep = at_table(night, 1)[:3]
    others = [e for e in Entry.objects.filter(tournament=night) if e not in keep]
    from tournament.services.registration import registration_close

    registration_close(tournament=night, actor=actor)
    for e in others:
        entries_bust(tournament=night, busts=[BustReport(entry=e)], actor=actor)
    count_record(tournament=night, entry=keep[0], count=123_000, actor=actor)
    client.force_login(floor_user)
    body = client.get(reverse("deal", args=[night.pk])).content.decode()
    assert 'value="123000"' in body
    assert "filled in from the latest chip count" in body


@pytest.mark.parametrize(
    "typed", ["²", "1e5", "12.5k", "9" * 30, "-", "١٢٣", "<script>", "20000 chips"]
)
def test_odd_typing_is_refused_with_a_message(client, floor_user, night, typed):
    client.force_login(floor_user)
    players = at_table(night, 1)
    url = reverse("counts-console", args=[night.pk])
    response = client.post(url, {"form": "table", "table": "1", f"count_{players[0].pk}": typed})
    assert response.status_code == 400
    assert "whole number" in response.content.decode()
    assert not ChipCount.objects.exists()
