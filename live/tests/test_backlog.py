"""The live updates' backlog: how long payloads wait to be built and sent, what is left out when
a newer one of the same whole state waits, and what the consoles are told."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from live import backlog, realtime


@pytest.fixture(autouse=True)
def fresh() -> Any:
    backlog.reset()
    yield
    backlog.reset()


def test_the_group_names_the_tournament():
    assert backlog.tournament_of("tournament.12") == 12
    assert backlog.tournament_of("console.7") == 7
    assert backlog.tournament_of("table.3.de") is None
    assert backlog.tournament_of("entry.9") is None
    assert backlog.tournament_of("tournament.x") is None


def test_a_long_wait_is_told_every_two_seconds_and_the_end_of_it_once(monkeypatch):
    now = [100.0]
    monkeypatch.setattr(backlog.time, "monotonic", lambda: now[0])
    assert backlog.note(1, "builder", 0.3, 0) is None  # in time: nothing to tell
    told = backlog.note(1, "builder", 2.5, 40)
    assert told is not None
    assert told["seconds"] == 2.5 and told["waiting"] == 40 and told["where"] == "builder"
    now[0] += 1.0
    assert backlog.note(1, "builder", 3.0, 50) is None  # told a second ago
    assert backlog.note(2, "builder", 3.0, 50) is not None  # another tournament: its own
    now[0] += 1.5
    again = backlog.note(1, "builder", 3.5, 60)
    assert again is not None and again["seconds"] == 3.5
    assert backlog.note(1, "builder", 1.0, 5) is None  # between the two marks: no change
    done = backlog.note(1, "builder", 0.1, 0)
    assert done is not None and done["seconds"] == 0
    assert backlog.note(1, "builder", 0.1, 0) is None  # said once
    assert backlog.totals["reports"] == 3


def test_an_idle_builder_ends_every_report_of_its_place():
    backlog.note(1, "builder", 5.0, 9)
    backlog.note(2, "sockets", 5.0, 9)
    assert [(t, p["seconds"]) for t, p in backlog.caught_up("builder")] == [(1, 0.0)]
    assert backlog.caught_up("builder") == []


def test_superseded_leaves_out_older_whole_state_to_the_same_group():
    def item(group: str, event: str) -> tuple[str, dict[str, Any]]:
        return group, {"event": event, "data": {}}

    batch: list[tuple[str, dict[str, Any]] | None] = [
        item("tournament.1", "bust"),  # stale: a newer board follows
        item("table.5.en", "table"),  # stale: the table's newer view follows
        item("tournament.1", "announce"),  # never left out
        item("entry.3", "seat"),  # the only seat of its player
        item("tournament.1", "level"),  # never left out
        item("tournament.2", "bust"),  # another tournament's
        item("table.5.de", "table"),  # another language's
        item("table.5.en", "table"),
        item("console.1", "seating"),  # names tables: never left out
        item("console.1", "seating"),
        item("tournament.1", "bust"),
    ]
    assert realtime.superseded(batch) == {0, 1}


def test_the_builder_builds_only_the_newest_of_a_whole_state_waiting(settings, monkeypatch):
    """While the builder thread is busy, three boards of one tournament and two views of one
    table queue up behind it: it builds the newest of each, in the order queued, and every
    other message (an announcement, the console's table numbers) as queued."""
    settings.FLOOR_LIVE_INLINE = False
    gate = threading.Event()
    delivered: list[tuple[str, str, str]] = []

    def deliver(item: Any) -> None:
        if item.what == "first":
            gate.wait(5)
        delivered.append((item.group, item.event, item.what))

    monkeypatch.setattr(realtime, "_deliver", deliver)

    class Builder(str):
        def __call__(self) -> None:  # a builder: callable, so it queues for the thread
            return None

    def queued(group: str, event: str, label: str) -> Any:
        return realtime._Item(group, event, Builder(label))

    realtime._hand_over(queued("tournament.9", "entries", "first"))
    for group, event, label in [
        ("tournament.9", "bust", "board 1"),
        ("table.4.en", "table", "view 1"),
        ("tournament.9", "announce", "speech"),
        ("tournament.9", "bust", "board 2"),
        ("console.9", "seating", "tables 1"),
        ("table.4.en", "table", "view 2"),
        ("console.9", "seating", "tables 2"),
        ("tournament.9", "bust", "board 3"),
    ]:
        realtime._hand_over(queued(group, event, label))
    time.sleep(0.05)
    gate.set()
    assert realtime.live_flush(5)
    assert [label for _g, _e, label in delivered] == [
        "first",
        "speech",
        "tables 1",
        "view 2",
        "tables 2",
        "board 3",
    ]
    assert backlog.totals["skipped"] == 3 and backlog.totals["built"] == 6
    assert backlog.totals["max_waiting"] >= 8
