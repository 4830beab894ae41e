"""Dealer tablet actions with one-time keys (issue #57 part 4): the same key twice is one effect
and the same answer; the same key with another action is refused; an action the tablet kept
offline that no longer fits (the player busted from the desk, the table broken) is refused
with its reason and reported to the floor, once."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from actions.bust import BustReport, entries_bust, report_resolve
from actions.tables import hand_done
from tables import services as svc
from tables.models import ReportKind, SeatAssignment, Table, TableReport, TabletKey, TimeCall
from tournament.models import EntryStatus, Event, Status, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(make_tournament, register, actor):
    """Six players at one table, the button set, the tournament running."""
    t = make_tournament(status="registering")
    for _ in range(6):
        register(t)
    svc.tables_create(tournament=t, count=1, actor=actor)
    svc.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(
        status=Status.RUNNING, registration_closed_at=timezone.now()
    )
    table = Table.objects.get(tournament=t)
    first = min(SeatAssignment.objects.filter(table=table).values_list("seat", flat=True))
    svc.button_set(table=table, seat=first, actor=actor)
    table.refresh_from_db()
    return table


def _post(client, table, action, data, key, queued=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key, "HTTP_ACCEPT": "application/json"}
    if queued is not None:
        headers["HTTP_X_FLOOR_QUEUED"] = str(queued)
    response = client.post(
        reverse("dealer-action", args=[table.dealer_token, action]), data, **headers
    )
    return response, json.loads(response.content)


def _busts(table):
    return list(
        TableReport.objects.filter(table=table, kind=ReportKind.BUST).values_list("seat", flat=True)
    )


def test_the_same_key_twice_is_one_bust_and_the_same_answer(client, table):
    row = SeatAssignment.objects.filter(table=table).order_by("seat")[2]
    data = {"seat": str(row.seat), "entry": str(row.entry_id), "stack": "1500"}
    first, body = _post(client, table, "bust", data, "k-1")
    assert first.status_code == 200 and body["ok"] and not body["replayed"]
    assert body["message"] == "Bust reported; the floor is on the way."
    assert 'class="seat' in body["html"] and first["Idempotent-Replayed"] == "false"
    again, body2 = _post(client, table, "bust", data, "k-1", queued=1)
    assert again.status_code == 200 and body2["ok"] and body2["replayed"]
    assert body2["message"] == body["message"] and again["Idempotent-Replayed"] == "true"
    assert _busts(table) == [row.seat]
    assert Event.objects.filter(action="table.report_bust").count() == 1
    assert TabletKey.objects.filter(table=table).count() == 1
    # Without a key, a second report of the same bust is refused as before.
    assert not TableReport.objects.filter(kind=ReportKind.CONFLICT).exists()


def test_the_same_key_with_another_action_is_refused(client, table):
    rows = list(SeatAssignment.objects.filter(table=table).order_by("seat"))
    _post(client, table, "bust", {"seat": str(rows[1].seat)}, "k-2")
    response, body = _post(client, table, "bust", {"seat": str(rows[2].seat)}, "k-2")
    assert response.status_code == 400 and body["code"] == "key_reused" and not body["ok"]
    assert _busts(table) == [rows[1].seat]
    response, body = _post(client, table, "time", {"seat": "1"}, "x" * 101)
    assert response.status_code == 400 and body["code"] == "bad_key"
    response, body = _post(client, table, "time", {"seat": "1"}, " ")
    assert response.status_code == 400 and body["code"] == "bad_key"
    assert not TimeCall.objects.filter(table=table).exists()


def test_hand_done_and_time_call_count_once(client, table):
    hand = table.hand_number
    for _ in range(3):
        response, body = _post(client, table, "hand", {"hand": str(hand)}, "hand-1")
        assert response.status_code == 200 and body["ok"]
    table.refresh_from_db()
    assert table.hand_number == hand + 1
    assert Event.objects.filter(action="table.hand").count() == 1
    tapped = int((timezone.now() - timedelta(seconds=20)).timestamp() * 1000)
    for _ in range(2):
        _post(client, table, "time", {"seat": "3"}, "call-1", queued=tapped)
    calls = list(TimeCall.objects.filter(table=table))
    assert len(calls) == 1
    # A call the tablet kept offline runs from the tap, not from its arrival.
    assert abs((calls[0].started_at - (timezone.now() - timedelta(seconds=20))).total_seconds()) < 3


def test_a_refused_tap_answers_the_same_refusal_again(client, table):
    data = {"seat": "1", "stack": "abc"}
    first, body = _post(client, table, "bust", data, "bad-1")
    assert first.status_code == 400 and not body["ok"] and not body["reported"]
    assert "messages" in body["html"]  # the table with the reason, as the tablet swaps it in
    again, body2 = _post(client, table, "bust", data, "bad-1")
    assert again.status_code == 400 and body2["replayed"] and body2["message"] == body["message"]
    # Sent at once, a refusal is the dealer's to read; the floor gets no report of it.
    assert not TableReport.objects.filter(kind=ReportKind.CONFLICT).exists()


def test_a_queued_bust_of_a_player_the_desk_busted_is_a_conflict_for_the_floor(
    client, table, actor
):
    row = SeatAssignment.objects.filter(table=table).select_related("entry__player")[1]
    entry = row.entry
    entries_bust(tournament=table.tournament, busts=[BustReport(entry=entry)], actor=actor)
    entry.refresh_from_db()
    assert entry.status == EntryStatus.BUSTED
    data = {"seat": str(row.seat), "entry": str(entry.pk), "stack": ""}
    tapped = int(timezone.now().timestamp() * 1000) - 60_000
    response, body = _post(client, table, "bust", data, "late-1", queued=tapped)
    assert response.status_code == 409 and not body["ok"] and body["reported"]
    assert body["message"] == (
        f"{entry.player.display_name} (#{entry.number}) is out already: "
        "the floor recorded the bust."
    )
    conflict = TableReport.objects.get(kind=ReportKind.CONFLICT)
    assert conflict.seat == row.seat and conflict.entry_id == entry.pk
    assert conflict.note == f"Bust in seat {row.seat}: {body['message']}"
    assert _busts(table) == []
    # Sent again (the answer was lost): the same refusal, no second report.
    again, body2 = _post(client, table, "bust", data, "late-1", queued=tapped)
    assert again.status_code == 409 and body2["replayed"] and body2["reported"]
    assert TableReport.objects.filter(kind=ReportKind.CONFLICT).count() == 1
    assert Event.objects.filter(action="table.tablet_conflict").count() == 1
    # The floor reads it among the dealer reports and marks it done.
    from eventlog.words import event_sentence

    line = event_sentence(Event.objects.get(action="table.tablet_conflict"))
    assert "not applied from the tablet" in line and "out already" in line
    report_resolve(report=conflict, confirm=True, actor=actor)
    conflict.refresh_from_db()
    assert conflict.resolution == "done"


def test_a_queued_bust_of_another_player_now_in_the_seat_is_a_conflict(client, table, actor):
    rows = list(SeatAssignment.objects.filter(table=table).order_by("seat"))
    data = {"seat": str(rows[0].seat), "entry": str(rows[1].entry_id)}
    response, body = _post(client, table, "bust", data, "moved-1", queued=0)
    assert response.status_code == 409 and "no longer sits in seat" in body["message"]
    assert _busts(table) == []


def test_queued_actions_for_a_broken_table_are_conflicts(client, table, actor, register):
    svc.tables_create(tournament=table.tournament, count=1, actor=actor)
    svc.table_break(tournament=table.tournament, number=table.number, actor=actor)
    response, body = _post(client, table, "hand", {"hand": "0"}, "broken-1", queued=0)
    assert response.status_code == 410 and body["code"] == "closed" and body["reported"]
    assert body["message"] == "This table was broken. Ask the floor where to go next."
    assert body["html"] == ""
    report = TableReport.objects.get(kind=ReportKind.CONFLICT)
    assert report.note.startswith("Hand 1 done: This table was broken")
    response, body = _post(client, table, "hand", {"hand": "0"}, "broken-1", queued=0)
    assert response.status_code == 410 and body["replayed"]
    assert TableReport.objects.filter(kind=ReportKind.CONFLICT).count() == 1


def test_a_queued_hand_done_for_a_hand_finished_meanwhile_is_a_conflict(client, table, actor):
    hand_done(table=table, actor=actor, hand_number=table.hand_number)
    response, body = _post(client, table, "hand", {"hand": "0"}, "h-late", queued=0)
    assert response.status_code == 409 and body["reported"]
    assert body["message"] == "Hand 1 was finished meanwhile: the table is at hand 2."


def test_an_unknown_link_answers_revoked(client, table):
    response = client.post(
        reverse("dealer-action", args=["nope", "hand"]),
        {"hand": "0"},
        HTTP_IDEMPOTENCY_KEY="k",
        HTTP_ACCEPT="application/json",
    )
    assert response.status_code == 404 and json.loads(response.content)["code"] == "revoked"


def test_old_keys_go_after_two_days(client, table):
    _post(client, table, "floor", {}, "old-1")
    TabletKey.objects.update(created_at=timezone.now() - timedelta(days=3))
    _post(client, table, "floor", {}, "new-1")
    assert list(TabletKey.objects.values_list("key", flat=True)) == ["new-1"]


def test_counts_with_a_key_are_recorded_once(client, table):
    from counts.models import ChipCount

    rows = list(SeatAssignment.objects.filter(table=table).order_by("seat"))
    data = {f"count_{rows[0].entry_id}": "12,500", f"count_{rows[1].entry_id}": "9000"}
    url = reverse("dealer-counts", args=[table.dealer_token])
    headers = {"HTTP_IDEMPOTENCY_KEY": "c-1", "HTTP_ACCEPT": "application/json"}
    first = client.post(url, data, **headers)
    again = client.post(url, data, HTTP_X_FLOOR_QUEUED="0", **headers)
    assert first.status_code == 200 and again.status_code == 200
    assert json.loads(again.content)["replayed"]
    assert json.loads(first.content)["message"] == f"Table {table.number}: 2 counts recorded."
    assert ChipCount.objects.filter(entry_id__in=[rows[0].entry_id, rows[1].entry_id]).count() == 2
