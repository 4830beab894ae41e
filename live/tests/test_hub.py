"""The clock hub delivers to each screen on its own: a slow, hanging or broken screen delays
nobody else, is closed and forgotten, and leaves no task behind."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from live import hub

# No database is used: the mark only orders these tests with the database ones, before the
# browser tests, whose Playwright keeps an event loop running in the thread until the end.
pytestmark = [pytest.mark.django_db, pytest.mark.asyncio]

GROUP = "tournament.1"


class FakeLayer:
    """Just enough of a channel layer for one hub: one channel fed by `push`."""

    def __init__(self) -> None:
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.groups: dict[str, set[str]] = {}

    async def new_channel(self, prefix: str = "") -> str:
        return prefix + "1"

    async def group_add(self, group: str, channel: str) -> None:
        self.groups.setdefault(group, set()).add(channel)

    async def group_discard(self, group: str, channel: str) -> None:
        self.groups.get(group, set()).discard(channel)

    async def receive(self, channel: str) -> dict[str, Any]:
        return await self.inbox.get()

    def push(self, event: str, n: int, version: int | None = None) -> None:
        data: dict[str, Any] = {"n": n}
        if version is not None:
            data["board"] = {"version": version}
        self.inbox.put_nowait(
            {"type": "floor.event", "event": event, "data": data, "text": f"{event} {n}"}
        )


class FakeScreen:
    def __init__(self, delay: float = 0.0) -> None:
        self.delay = delay
        self.texts: list[str] = []
        self.arrivals: list[float] = []
        self.closed: list[int] = []
        self.gate: asyncio.Event | None = None  # when set: each delivery waits for it
        self.fail = False

    async def deliver(self, message: dict[str, Any], text: str) -> None:
        if self.fail:
            raise ConnectionResetError("gone")
        if self.gate is not None:
            await self.gate.wait()
        if self.delay:
            await asyncio.sleep(self.delay)
        self.texts.append(text)
        self.arrivals.append(time.monotonic())

    async def hang_up(self, code: int) -> None:
        self.closed.append(code)


@pytest.fixture
def layer() -> FakeLayer:
    return FakeLayer()


def the_hub() -> hub._Hub:
    return hub._hubs[hub._key(GROUP)]


async def settle(until: Any, within: float = 2.0) -> None:
    deadline = time.monotonic() + within
    while not until():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.005)


def other_tasks() -> set[asyncio.Task[Any]]:
    return {t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()}


async def test_a_slow_screen_does_not_delay_a_fast_one(layer):
    slow, fast = FakeScreen(delay=1.0), FakeScreen()
    await hub.hub_join(layer, GROUP, slow)
    await hub.hub_join(layer, GROUP, fast)
    start = time.monotonic()
    for n in range(20):
        layer.push("announce", n)
    await settle(lambda: len(fast.texts) == 20)
    assert fast.arrivals[-1] - start < 0.3  # well under one of the slow screen's deliveries
    assert fast.texts == [f"announce {n}" for n in range(20)]
    assert len(slow.texts) <= 1 and not slow.closed
    await hub.hub_leave(GROUP, slow)
    await hub.hub_leave(GROUP, fast)


async def test_a_screen_whose_queue_overflows_is_closed_and_removed(layer, monkeypatch):
    monkeypatch.setattr(hub, "QUEUE_SIZE", 4)
    stuck, fast = FakeScreen(), FakeScreen()
    stuck.gate = asyncio.Event()  # never opens: the socket takes nothing
    await hub.hub_join(layer, GROUP, stuck)
    await hub.hub_join(layer, GROUP, fast)
    for n in range(7):  # one being written, four waiting, the sixth overflows (none replaces)
        layer.push("announce", n)
    await settle(lambda: stuck.closed)
    assert stuck.closed == [hub.CLOSE_TOO_SLOW]  # at once, not after the send timeout
    assert stuck not in the_hub().members
    await settle(lambda: stuck not in the_hub().outboxes)  # its task ends after the close
    await settle(lambda: len(fast.texts) == 7)
    layer.push("announce", 7)
    await settle(lambda: len(fast.texts) == 8)
    assert stuck.texts == []
    # The reader, the listener, its watchdog, the fast screen's sender.
    assert len(other_tasks()) == 4
    await hub.hub_leave(GROUP, stuck)  # its consumer leaves later: nothing to do
    await hub.hub_leave(GROUP, fast)
    assert not other_tasks()


async def test_a_screen_whose_send_fails_is_removed_and_the_others_go_on(layer):
    broken, a, b = FakeScreen(), FakeScreen(), FakeScreen()
    broken.fail = True
    for screen in (a, broken, b):
        await hub.hub_join(layer, GROUP, screen)
    for n in range(3):
        layer.push("announce", n)
    await settle(lambda: len(a.texts) == 3 and len(b.texts) == 3)
    await settle(lambda: broken not in the_hub().outboxes)
    assert broken.closed == [hub.CLOSE_FAILED] and broken not in the_hub().members
    for screen in (a, b, broken):
        await hub.hub_leave(GROUP, screen)
    assert not other_tasks()


async def test_a_send_that_hangs_past_the_timeout_closes_that_screen(layer, monkeypatch):
    monkeypatch.setattr(hub, "SEND_TIMEOUT", 0.2)
    hanging, fast = FakeScreen(), FakeScreen()
    hanging.gate = asyncio.Event()
    await hub.hub_join(layer, GROUP, hanging)
    await hub.hub_join(layer, GROUP, fast)
    start = time.monotonic()
    layer.push("entries", 0)
    await settle(lambda: fast.texts)
    assert fast.arrivals[0] - start < 0.1
    await settle(lambda: hanging.closed)
    assert 0.15 < time.monotonic() - start < 1.0
    assert hanging.closed == [hub.CLOSE_TOO_SLOW]
    assert hanging not in the_hub().members
    # The sender task ends just after its socket is closed: a loaded loop may run that a turn later.
    await settle(lambda: hanging not in the_hub().outboxes)
    layer.push("entries", 1)
    await settle(lambda: len(fast.texts) == 2)
    assert hanging.texts == []
    await hub.hub_leave(GROUP, fast)
    assert not other_tasks()


async def delivered_after_a_busy_write(
    layer: FakeLayer, first: tuple[Any, ...], rest: list[tuple[Any, ...]], count: int
) -> list[str]:
    """Push `first` to a screen whose socket holds on to it, then `rest` while it waits; open
    the socket and return the `count` texts the screen got, in order."""
    screen = FakeScreen()
    screen.gate = asyncio.Event()
    await hub.hub_join(layer, GROUP, screen)
    layer.push(*first)
    await settle(lambda: the_hub().members[screen].writing_since is not None)
    for message in rest:
        layer.push(*message)
    await settle(lambda: layer.inbox.empty())
    await asyncio.sleep(0.01)
    screen.gate.set()
    await settle(lambda: len(screen.texts) == count)
    await asyncio.sleep(0.05)
    await hub.hub_leave(GROUP, screen)
    return screen.texts


async def test_a_newer_clock_state_replaces_an_undelivered_older_one(layer):
    rest = [("clock", 1), ("level", 2), ("clock", 3), ("entries", 4), ("clock", 5)]
    texts = await delivered_after_a_busy_write(layer, ("clock", 0), rest, 4)
    # In order; only the clock states overtaken by a newer one are left out.
    assert texts == ["clock 0", "level 2", "entries 4", "clock 5"]


async def test_a_newer_board_replaces_an_undelivered_older_one_of_the_same_kind(layer):
    rest = [
        ("bust", 1, 11),
        ("entries", 2, 12),
        ("announce", 3),
        ("bust", 4, 14),
        ("bust", 5, 13),  # from another process, late: the waiting one is newer
        ("entries", 6, 15),
    ]
    texts = await delivered_after_a_busy_write(layer, ("bust", 0, 10), rest, 4)
    # The announcement in its place; of each kind of board only the newest waiting one.
    assert texts == ["bust 0", "announce 3", "bust 4", "entries 6"]


async def test_a_burst_the_hub_has_not_handed_on_yet_keeps_only_the_newest_boards(layer):
    """Messages that arrive faster than the hub hands them to the screens wait in its inbox,
    where a newer whole state replaces an older (the newest board per kind, the higher
    version kept); every other message is handed on, in order."""
    screen = FakeScreen()
    await hub.hub_join(layer, GROUP, screen)
    for message in [
        ("bust", 0, 10),
        ("announce", 1),
        ("bust", 2, 12),
        ("entries", 3, 13),
        ("bust", 4, 11),  # late, from another process: the waiting one is newer
        ("level", 5),
        ("bust", 6, 14),
    ]:
        layer.push(*message)  # all at once: the reader takes them in one turn
    await settle(lambda: len(screen.texts) == 4)
    await asyncio.sleep(0.05)
    assert screen.texts == ["announce 1", "entries 3", "level 5", "bust 6"]
    await hub.hub_leave(GROUP, screen)


async def test_only_whole_state_replaces():
    assert {"clock", "bust", "entries"} <= hub.REPLACEABLE
    # A level change (its sound), a draw, an announcement, the structure: each is delivered.
    assert not {"level", "seating", "announce", "structure", "h4h", "speech"} & hub.REPLACEABLE


async def test_the_last_screen_leaving_ends_every_task(layer):
    screens = [FakeScreen(), FakeScreen(delay=10), FakeScreen()]
    for screen in screens:
        await hub.hub_join(layer, GROUP, screen)
    layer.push("entries", 0)
    await settle(lambda: len(screens[0].texts) == 1 and len(screens[2].texts) == 1)
    assert len(other_tasks()) >= 4  # the listener, three senders (one mid-send)
    for screen in screens:
        await hub.hub_leave(GROUP, screen)
    assert not other_tasks()
    assert hub._key(GROUP) not in hub._hubs
    assert layer.groups[GROUP] == set()  # the listener left the group


async def test_the_last_screen_dropped_takes_the_hub_down(layer, monkeypatch):
    monkeypatch.setattr(hub, "SEND_TIMEOUT", 0.1)
    screen = FakeScreen()
    screen.gate = asyncio.Event()
    await hub.hub_join(layer, GROUP, screen)
    layer.push("entries", 0)
    await settle(lambda: screen.closed)
    await settle(lambda: not other_tasks())
    assert hub._key(GROUP) not in hub._hubs and layer.groups[GROUP] == set()
    await hub.hub_leave(GROUP, screen)  # the consumer's own leave comes after: harmless
    # A screen that comes now gets a fresh listener.
    again = FakeScreen()
    await hub.hub_join(layer, GROUP, again)
    layer.push("entries", 1)
    await settle(lambda: again.texts == ["entries 1"])
    await hub.hub_leave(GROUP, again)
    assert not other_tasks()


class TellingLayer(FakeLayer):
    """A layer that also records what the hub sends to other groups (the consoles)."""

    def __init__(self) -> None:
        super().__init__()
        self.told: list[tuple[str, dict[str, Any]]] = []

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        self.told.append((group, message))


async def test_a_feed_that_reaches_the_screens_late_is_told_to_the_consoles(monkeypatch):
    """A message written to a socket long after its commit (`sent`) makes the hub tell the
    tournament's consoles how far behind the feed is; once messages come in time again, it says
    so once (live/backlog.py)."""
    from live import backlog

    backlog.reset()
    monkeypatch.setattr(hub, "SEND_TIMEOUT", 0.4)  # the watchdog looks every 0.1 s
    layer = TellingLayer()
    screen = FakeScreen()
    await hub.hub_join(layer, GROUP, screen)
    message = {"type": "floor.event", "event": "entries", "data": {}, "text": "late"}
    message["sent"] = time.time() - 3.0  # committed three seconds ago
    layer.inbox.put_nowait(message)
    await settle(lambda: len(layer.told) >= 2)
    (group, behind), (_, caught_up) = layer.told[:2]
    assert group == "console.1"
    assert behind["event"] == "behind" and behind["data"]["where"] == "sockets"
    assert 2.9 <= behind["data"]["seconds"] <= 4.0
    assert caught_up["data"]["seconds"] == 0
    await asyncio.sleep(0.3)
    assert len(layer.told) == 2  # nothing more while the feed keeps up
    await hub.hub_leave(GROUP, screen)
