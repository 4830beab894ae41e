"""Two floor people and many tablets at once, on PostgreSQL: nobody is lost or seated twice."""

from __future__ import annotations

import random
import threading
from collections import Counter

import pytest
from django.conf import settings
from django.db import OperationalError, close_old_connections, connection

from actions.bust import BustReport, entries_bust
from actions.registration import entry_register
from actions.tables import hand_done
from core.errors import FloorError
from tables import services as svc
from tables.models import SeatAssignment, Table
from tournament.events import Actor
from tournament.models import EntryStatus, Event
from tournament.services.registration import player_create

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgres_only():
    if not settings.TEST_ON_POSTGRES:
        pytest.skip("concurrency is tested on PostgreSQL (row locks); this run uses SQLite")


def test_parallel_busts_moves_breaks_and_hands(make_tournament, register, actor):
    t = make_tournament(status="running", late_registration_until_level=6)
    for _ in range(90):
        register(t)
    svc.seats_draw(tournament=t, actor=actor)
    for table in Table.objects.filter(tournament=t):
        seats = sorted(table.assignments.values_list("seat", flat=True))
        svc.button_set(table=table, seat=seats[0], actor=actor)

    errors: list[BaseException] = []
    done = Counter()
    lock = threading.Lock()

    def worker(seed: int) -> None:
        rng = random.Random(seed)
        me = Actor(user=None, label=f"worker {seed}", source="test")
        try:
            for _ in range(25):
                action = rng.choice(["bust", "bust", "hand", "hand", "balance", "break", "late"])
                try:
                    if action == "bust":
                        row = (
                            SeatAssignment.objects.filter(table__tournament=t)
                            .select_related("entry")
                            .order_by("?")
                            .first()
                        )
                        if row is None:
                            continue
                        entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=me)
                    elif action == "hand":
                        table = (
                            Table.objects.filter(tournament=t, is_open=True).order_by("?").first()
                        )
                        if table is None:
                            continue
                        hand_done(table=table, actor=me)
                    elif action == "balance":
                        plan = svc.balance_plan(t)
                        if plan.moves:
                            svc.balance_apply(tournament=t, signature=plan.signature, actor=me)
                    elif action == "break":
                        number = svc.break_suggestion(t)
                        if number is not None:
                            svc.table_break(tournament=t, number=number, actor=me)
                    else:
                        player = player_create(
                            name=f"Late Player{seed}x{rng.random():.6f}", actor=me
                        )
                        entry_register(tournament=t, player=player, actor=me)
                    with lock:
                        done[action] += 1
                except FloorError:
                    with lock:
                        done["refused"] += 1
                except OperationalError as exc:  # a deadlock would show here
                    errors.append(exc)
        except BaseException as exc:
            errors.append(exc)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    assert not errors, errors

    rows = list(
        SeatAssignment.objects.filter(table__tournament=t).values_list(
            "entry_id", "table_id", "seat", "table__is_open"
        )
    )
    assert len({(tb, s) for _, tb, s, _ in rows}) == len(rows), "a seat holds two players"
    seated = Counter(e for e, *_ in rows)
    assert all(c == 1 for c in seated.values()), "a player has two seats"
    assert all(is_open for *_, is_open in rows), "a player sits at a closed table"
    alive = set(t.entries.filter(status=EntryStatus.ACTIVE).values_list("pk", flat=True))
    assert alive == set(seated), "a player in the tournament has no seat, or a busted one has"
    # The head counts the database keeps match the rows (tournament/counters.py).
    t.refresh_from_db()
    per_table = Counter(tb for _, tb, _, _ in rows)
    for pk, players in Table.objects.filter(tournament=t).values_list("pk", "players"):
        assert players == per_table.get(pk, 0), "a table's kept head count is wrong"
    assert t.players_left == len(alive)
    busted = t.entries.filter(status=EntryStatus.BUSTED).count()
    assert busted == Event.objects.filter(tournament=t, action="entry.bust").count()
    assert done["bust"] + done["hand"] + done["balance"] > 50


def test_the_same_tablet_key_at_the_same_moment_counts_once(make_tournament, register, actor):
    """A tablet sends its queue while the first send of the same action is still on its way:
    both requests reach the server together. One time call, one key, both answered alike."""
    from tables.models import TabletKey, TimeCall
    from tables.services.tablet_keys import fingerprint, keyed_action

    t = make_tournament(status="running", late_registration_until_level=6)
    for _ in range(6):
        register(t)
    svc.seats_draw(tournament=t, actor=actor)
    table = Table.objects.get(tournament=t, number=1)
    start = threading.Barrier(4)
    answers: list[object] = []
    errors: list[BaseException] = []

    def call() -> str:
        svc.time_call_start(table=table, seat=2, actor=actor)
        return ""

    def send() -> None:
        try:
            start.wait()
            answer = keyed_action(
                table=table,
                key="same-moment",
                action="time",
                digest=fingerprint("time", [("seat", "2")]),
                run=call,
            )
            answers.append(answer.status)
        except BaseException as exc:
            errors.append(exc)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert not errors, errors
    assert answers == [200, 200, 200, 200]
    assert TimeCall.objects.filter(table=table).count() == 1
    assert TabletKey.objects.filter(table=table, key="same-moment").count() == 1
    assert Event.objects.filter(action="table.time_call").count() == 1
