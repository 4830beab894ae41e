"""The outbox and its sending against a real receiver on 127.0.0.1: signed as Standard
Webhooks says (checked with its own verifier), each bust once, retried on the schedule after a
500, a timeout and a redirect, delivered when the receiver comes back, and never in the
request that made the bust."""

from __future__ import annotations

import json
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from standardwebhooks.webhooks import Webhook

from actions.bust import BustReport, entries_bust
from clocks.services import clock_command
from counts.services import counts_record
from webhooks import services
from webhooks.domain.rules import RETRY_DELAYS, Kind
from webhooks.models import Delivery
from webhooks.tests.receiver import Answer

pytestmark = pytest.mark.django_db


def _bust(t, entry, actor, capture):
    with capture(execute=True):
        entries_bust(tournament=t, busts=[BustReport(entry=entry)], actor=actor)


def _due_now(delivery: Delivery) -> None:
    Delivery.objects.filter(pk=delivery.pk).update(
        next_attempt_at=timezone.now() - timedelta(seconds=1)
    )


@pytest.fixture
def night(make_tournament, register):
    t = make_tournament(status="running", places_paid=3)
    entries = [register(t, name=f"Anna Player{i}") for i in range(6)]
    return t, entries


def test_a_bust_is_signed_and_verifies_with_the_standard_verifier(
    night, actor, receiver, dispatched, django_capture_on_commit_callbacks
):
    t, entries = night
    _endpoint, secret = services.endpoint_create(
        url=receiver.url, kinds=[Kind.PLAYER_OUT], tournament=t
    )
    _bust(t, entries[0], actor, django_capture_on_commit_callbacks)
    assert services.deliveries_send() == 1
    (got,) = receiver.received
    data = Webhook(secret).verify(got.body, got.headers)
    assert data["type"] == "player.out"
    (player,) = data["data"]["players"]
    assert player["place"] == 6 and player["name"] == entries[0].player.display_name
    assert data["data"]["tournament"]["id"] == t.pk
    # A wrong secret does not verify.
    with pytest.raises(Exception, match="signature"):
        Webhook("whsec_" + "A" * 43 + "=").verify(got.body, got.headers)
    delivery = Delivery.objects.get()
    assert delivery.state == Delivery.DELIVERED and delivery.last_status == 200
    assert got.headers["webhook-id"] == delivery.message_id
    assert dispatched == [[delivery.pk]]


def test_public_data_only(night, actor, receiver, dispatched, django_capture_on_commit_callbacks):
    t, entries = night
    player = entries[0].player
    player.email = "anna@example.org"
    player.save()
    services.endpoint_create(url=receiver.url, kinds=[Kind.PLAYER_OUT], tournament=t)
    _bust(t, entries[0], actor, django_capture_on_commit_callbacks)
    services.deliveries_send()
    body = receiver.received[0].body.decode()
    assert "anna@example.org" not in body
    assert player.name not in body or player.name == player.display_name
    assert set(json.loads(body)["data"]["players"][0]) == {"number", "name", "place", "prize"}


def test_each_bust_once_with_its_own_message_id(
    night, actor, receiver, dispatched, django_capture_on_commit_callbacks
):
    t, entries = night
    services.endpoint_create(url=receiver.url, kinds=[Kind.PLAYER_OUT], tournament=t)
    _bust(t, entries[0], actor, django_capture_on_commit_callbacks)
    _bust(t, entries[1], actor, django_capture_on_commit_callbacks)
    # The same row asked for again (a second worker, a retry of the hook) adds nothing.
    for event_id in Delivery.objects.values_list("event_id", flat=True):
        assert services.deliveries_enqueue(event_id) == []
    assert services.deliveries_send() == 2
    assert services.deliveries_send() == 0
    ids = [r.headers["webhook-id"] for r in receiver.received]
    assert len(ids) == 2 and len(set(ids)) == 2


def test_fails_times_out_and_comes_back_on_the_schedule(
    night, actor, receiver, dispatched, django_capture_on_commit_callbacks
):
    t, entries = night
    services.endpoint_create(url=receiver.url, kinds=[Kind.PLAYER_OUT], tournament=t)
    receiver.answers = [Answer(status=500, body="boom"), Answer(pause=1.5), Answer(status=204)]
    _bust(t, entries[0], actor, django_capture_on_commit_callbacks)
    delivery = Delivery.objects.get()

    assert services.deliveries_send() == 0
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("pending", 1, 500)
    assert delivery.last_answer == "boom"
    gap = (delivery.next_attempt_at - delivery.last_attempt_at).total_seconds()
    assert RETRY_DELAYS[0] <= gap < RETRY_DELAYS[0] + 2
    assert services.deliveries_send() == 0  # not due yet

    _due_now(delivery)
    assert services.deliveries_send() == 0
    delivery.refresh_from_db()
    assert (delivery.attempts, delivery.last_status, delivery.last_error) == (2, None, "timeout")
    gap = (delivery.next_attempt_at - delivery.last_attempt_at).total_seconds()
    assert RETRY_DELAYS[1] <= gap < RETRY_DELAYS[1] + 3

    _due_now(delivery)
    assert services.deliveries_send() == 1
    delivery.refresh_from_db()
    assert (delivery.state, delivery.attempts, delivery.last_status) == ("delivered", 3, 204)
    assert len({r.headers["webhook-id"] for r in receiver.received}) == 1
    assert len(receiver.received) == 3


def test_after_the_last_attempt_it_has_failed_for_good(
    night, actor, receiver, dispatched, django_capture_on_commit_callbacks
):
    t, entries = night
    services.endpoint_create(url=receiver.url, kinds=[Kind.PLAYER_OUT], tournament=t)
    receiver.answers = [Answer(status=503)] * (len(RETRY_DELAYS) + 1)
    _bust(t, entries[0], actor, django_capture_on_commit_callbacks)
    delivery = Delivery.objects.get()
    for _ in range(len(RETRY_DELAYS) + 1):
        _due_now(delivery)
        services.deliveries_send()
        delivery.refresh_from_db()
    assert delivery.state == Delivery.FAILED and delivery.next_attempt_at is None
    assert delivery.attempts == len(RETRY_DELAYS) + 1
    _due_now(delivery)
    assert Delivery.objects.get().state == Delivery.FAILED
    assert services.deliveries_send() == 0


def test_a_redirect_is_a_failure_and_not_followed(
    night, actor, receiver, dispatched, django_capture_on_commit_callbacks
):
    t, entries = night
    services.endpoint_create(url=receiver.url, kinds=[Kind.PLAYER_OUT], tournament=t)
    receiver.answers = [Answer(status=302, location=receiver.url + "/elsewhere")]
    _bust(t, entries[0], actor, django_capture_on_commit_callbacks)
    assert services.deliveries_send() == 0
    delivery = Delivery.objects.get()
    assert (delivery.state, delivery.last_status) == ("pending", 302)
    assert "redirect" in delivery.last_error
    assert [r.path for r in receiver.received] == ["/hook"]


def test_the_bust_does_not_wait_for_the_receiver(
    night, actor, receiver, dispatched, django_capture_on_commit_callbacks
):
    t, entries = night
    services.endpoint_create(url=receiver.url, kinds=[Kind.PLAYER_OUT], tournament=t)
    receiver.answers = [Answer(pause=3.0)]
    started = time.monotonic()
    _bust(t, entries[0], actor, django_capture_on_commit_callbacks)
    took = time.monotonic() - started
    # No request reached the receiver from the bust: the outbox row waits for the sender.
    assert receiver.received == []
    assert Delivery.objects.get().attempts == 0
    assert took < 3.0


def test_an_error_while_queueing_does_not_break_the_bust(
    night, actor, receiver, monkeypatch, django_capture_on_commit_callbacks
):
    t, entries = night
    services.endpoint_create(url=receiver.url, kinds=[Kind.PLAYER_OUT], tournament=t)

    def broken(event_id, **row):
        raise RuntimeError("the outbox is broken")

    monkeypatch.setattr("webhooks.services.deliveries_enqueue", broken)
    _bust(t, entries[0], actor, django_capture_on_commit_callbacks)
    entries[0].refresh_from_db()
    assert entries[0].place == 6
    assert not Delivery.objects.exists()


def test_the_last_bust_tells_the_results(
    make_tournament, register, actor, receiver, dispatched, django_capture_on_commit_callbacks
):
    t = make_tournament(status="running", places_paid=2)
    first, second, third = register(t), register(t), register(t)
    type(t).objects.filter(pk=t.pk).update(registration_closed_at=timezone.now())
    t.refresh_from_db()
    services.endpoint_create(
        url=receiver.url, kinds=[Kind.PLAYER_OUT, Kind.TOURNAMENT_FINISHED], tournament=None
    )
    _bust(t, first, actor, django_capture_on_commit_callbacks)
    _bust(t, second, actor, django_capture_on_commit_callbacks)
    assert services.deliveries_send() == 3
    finished = [json.loads(r.body) for r in receiver.received]
    finished = [m for m in finished if m["type"] == "tournament.finished"]
    (message,) = finished
    results = message["data"]["results"]
    assert [r["place"] for r in results] == [1, 2, 3]
    assert results[0]["number"] == third.number
    assert results[0]["prize"] > 0


def test_level_started_and_chip_counts(
    night, actor, receiver, dispatched, django_capture_on_commit_callbacks
):
    t, entries = night
    services.endpoint_create(
        url=receiver.url, kinds=[Kind.LEVEL_STARTED, Kind.CHIPS_PUBLISHED], tournament=t
    )
    with django_capture_on_commit_callbacks(execute=True):
        clock_command(tournament=t, kind="start", actor=actor)
    with django_capture_on_commit_callbacks(execute=True):
        counts_record(tournament=t, counts={entries[0].pk: 31_000}, actor=actor)
    assert services.deliveries_send() == 2
    level, chips = (json.loads(r.body) for r in receiver.received)
    assert level["type"] == "level.started"
    assert level["data"]["level"]["big_blind"] == 200 and level["data"]["level"]["index"] == 0
    assert chips["type"] == "chips.published"
    assert chips["data"]["counts"] == [
        {"number": entries[0].number, "name": entries[0].player.display_name, "chips": 31_000}
    ]


def test_paused_other_tournament_and_unchosen_kinds_get_nothing(
    night, make_tournament, actor, receiver, dispatched, django_capture_on_commit_callbacks
):
    t, entries = night
    other = make_tournament(name="Other Cup")
    paused, _ = services.endpoint_create(url=receiver.url, kinds=[Kind.PLAYER_OUT], tournament=t)
    services.endpoint_set_active(pk=paused.pk, active=False)
    services.endpoint_create(url=receiver.url, kinds=[Kind.PLAYER_OUT], tournament=other)
    services.endpoint_create(url=receiver.url, kinds=[Kind.LEVEL_STARTED], tournament=t)
    _bust(t, entries[0], actor, django_capture_on_commit_callbacks)
    assert not Delivery.objects.exists()
    assert dispatched == []


def test_a_test_message_reaches_a_paused_endpoint(receiver, db):
    endpoint, secret = services.endpoint_create(url=receiver.url, kinds=[Kind.PLAYER_OUT])
    services.endpoint_set_active(pk=endpoint.pk, active=False)
    services.ping(pk=endpoint.pk)
    assert services.deliveries_send() == 1
    data = Webhook(secret).verify(receiver.received[0].body, receiver.received[0].headers)
    assert data["type"] == "webhook.test"


def test_a_row_nobody_wants_costs_one_query_after_the_commit(
    night, actor, django_assert_max_num_queries
):
    from webhooks.receivers import enqueue_committed

    t, _entries = night
    with django_assert_max_num_queries(1):
        enqueue_committed(1, "entry.bust", {"busts": [{"entry": 1}]}, t.pk)
    with django_assert_max_num_queries(0):
        enqueue_committed(1, "entry.register", {}, t.pk)


def test_a_bust_rolled_back_makes_no_webhook(night, actor, receiver, dispatched):
    from django.db import transaction

    from tournament.models import Entry

    t, entries = night
    services.endpoint_create(url=receiver.url, kinds=[Kind.PLAYER_OUT], tournament=t)
    with pytest.raises(RuntimeError), transaction.atomic():
        entries_bust(tournament=t, busts=[BustReport(entry=entries[0])], actor=actor)
        raise RuntimeError("the transaction fails after the bust")
    assert Entry.objects.get(pk=entries[0].pk).place is None
    assert not Delivery.objects.exists() and dispatched == []


def test_the_in_process_sender_sends_and_sleeps_until_the_next_due_row(
    night, actor, receiver, dispatched, monkeypatch, django_capture_on_commit_callbacks
):
    from webhooks import worker

    # The thread closes its connections between passes; the test's own holds its transaction.
    monkeypatch.setattr(worker, "close_old_connections", lambda: None)

    t, entries = night
    services.endpoint_create(url=receiver.url, kinds=[Kind.PLAYER_OUT], tournament=t)
    receiver.answers = [Answer(status=500)]
    _bust(t, entries[0], actor, django_capture_on_commit_callbacks)
    pause = worker.send_once()
    assert len(receiver.received) == 1
    assert RETRY_DELAYS[0] - 1 <= pause <= RETRY_DELAYS[0]
    Delivery.objects.update(next_attempt_at=timezone.now() - timedelta(seconds=1))
    assert worker.send_once() == worker.IDLE_SECONDS
    assert Delivery.objects.get().state == Delivery.DELIVERED


def test_old_finished_rows_are_pruned_and_waiting_ones_kept(receiver, db):
    endpoint, _secret = services.endpoint_create(url=receiver.url, kinds=[Kind.PLAYER_OUT])
    for state in (Delivery.DELIVERED, Delivery.FAILED, Delivery.PENDING):
        services.ping(pk=endpoint.pk)
        Delivery.objects.filter(pk=Delivery.objects.order_by("-pk").first().pk).update(state=state)
    later = timezone.now() + timedelta(days=services.KEEP_DAYS + 1)
    assert services.deliveries_prune(now=timezone.now()) == 0
    assert services.deliveries_prune(now=later) == 2
    assert list(Delivery.objects.values_list("state", flat=True)) == [Delivery.PENDING]


def test_an_undone_bust_goes_where_busts_go(
    night, actor, receiver, dispatched, django_capture_on_commit_callbacks
):
    from actions.bust import bust_undo_last

    t, entries = night
    services.endpoint_create(url=receiver.url, kinds=[Kind.PLAYER_OUT], tournament=t)
    _bust(t, entries[0], actor, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        bust_undo_last(tournament=t, actor=actor)
    assert services.deliveries_send() == 2
    out, undone = (json.loads(r.body) for r in receiver.received)
    assert (out["type"], undone["type"]) == ("player.out", "player.out.undone")
    assert undone["data"]["players"] == [
        {"number": entries[0].number, "name": entries[0].player.display_name}
    ]
    assert undone["data"]["players_left"] == 6


def test_an_endpoint_that_is_down_costs_one_timeout_per_retry_not_per_message(
    night, actor, receiver, dispatched, django_capture_on_commit_callbacks
):
    t, entries = night
    services.endpoint_create(url=receiver.url, kinds=[Kind.PLAYER_OUT], tournament=t)
    receiver.answers = [Answer(pause=1.5)]
    for entry in entries[:3]:
        _bust(t, entry, actor, django_capture_on_commit_callbacks)
    assert services.deliveries_send() == 0
    assert len(receiver.received) == 1  # the first timed out; the others wait with it
    rows = list(Delivery.objects.order_by("pk"))
    assert [d.attempts for d in rows] == [1, 0, 0]
    assert len({d.next_attempt_at for d in rows}) == 1
    Delivery.objects.update(next_attempt_at=timezone.now() - timedelta(seconds=1))
    assert services.deliveries_send() == 3  # back: every message goes
    assert len({r.headers["webhook-id"] for r in receiver.received}) == 3
