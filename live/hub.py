"""One listener per process and tournament for the public feed.

Every screen of a tournament (big screens, public pages, players' phones) gets the same
messages. Instead of each websocket consumer holding its own channel in the tournament's group
(one queue, one decode and one dispatch per screen per message), each process joins the group
once, decodes each message once, and hands the pre-encoded text to its local screens. The
group, the channel layer and what the screens receive stay the same.

Delivery is concurrent: the listener never waits for a socket. Each screen has a small outbox
(at most `QUEUE_SIZE` undelivered messages) and a sender task of its own that writes them to the
socket one after another, so a slow phone or a dead connection delays nobody but itself:

- a screen receives the group's messages in the order they were sent. Only messages that carry
  whole state may be left out (`LATEST_WINS` in live/catalogue.py: the clock, and the
  board with a bust, registrations, payouts, a deal, the settings): a newer one replaces an
  older one of the same name that is still waiting (the older is dropped, the newer keeps its
  own place at the end; of two boards the one with the higher version is kept, as a screen
  would keep it). A screen that falls behind in a storm of busts thus gets the latest board
  instead of every one, and catches up instead of being closed. Every other message (level
  announcements, the structure, a draw) is delivered, in order, or the screen is closed;
- a screen whose outbox overflows, or whose socket takes longer than `SEND_TIMEOUT` to take one
  message (checked by the hub's watchdog every `SEND_TIMEOUT / 4`, at most every second), is too
  slow: it is closed with `CLOSE_TOO_SLOW`. The page reconnects, fetches one snapshot and goes
  on from there (static/clocks/clock.js);
- a screen whose send fails is dropped the same way (closed with `CLOSE_FAILED`);
- a dropped screen gets nothing more; its sender task ends once the close is done (bounded by
  `CLOSE_TIMEOUT`) and takes its outbox with it. When a tournament's last screen of the process
  leaves or is dropped, the listener leaves the group; the listener, its watchdog and every
  sender still delivering are cancelled.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Protocol

from live import backlog
from live.catalogue import LATEST_WINS
from live.realtime import build_message, console_group

logger = logging.getLogger(__name__)

QUEUE_SIZE = 32  # undelivered messages per screen before it counts as too slow
SEND_TIMEOUT = 5.0  # seconds one message may take to be written to a socket
# Seconds a close may take before the sender gives up on it. Longer than the server's own
# closing handshake (uvicorn aborts the connection after 10 s), so the server frees the socket.
CLOSE_TIMEOUT = 30.0
CLOSE_TOO_SLOW = 4408  # the page reconnects and fetches a snapshot, like after any close
CLOSE_FAILED = 1011
REPLACEABLE = LATEST_WINS  # events whose newer message replaces an undelivered older


class Screen(Protocol):
    """A socket the hub delivers to. It may also have `wants(message) -> bool`: the hub then
    leaves out the messages it does not want (the my-seat page, tournament/consumers.py)."""

    async def deliver(self, message: dict[str, Any], text: str) -> None: ...

    async def hang_up(self, code: int) -> None: ...


class _Outbox:
    """One screen's undelivered messages and the task that writes them to its socket."""

    def __init__(self, hub: _Hub, screen: Screen) -> None:
        self.hub = hub
        self.screen = screen
        self.pending: deque[tuple[dict[str, Any], str]] = deque()
        self.wake = asyncio.Event()
        self.open = True  # False once the screen is dropped or gone: nothing more is queued
        self.close_code: int | None = None
        self.writing_since: float | None = None  # loop time a write began, while it is under way
        self.interrupted = False  # the write under way was cancelled by `drop`
        self.wants: Callable[[dict[str, Any]], bool] | None = getattr(screen, "wants", None)
        self.task = asyncio.ensure_future(self.run())

    def put(self, message: dict[str, Any], text: str) -> None:
        if not self.open or (self.wants is not None and not self.wants(message)):
            return
        # Full only counts when nothing waiting is replaced (checked only then: every message
        # passes here for every screen).
        if len(self.pending) >= QUEUE_SIZE and not _replaces(self.pending, message):
            self.drop(CLOSE_TOO_SLOW)
            return
        _take(self.pending, message, text)
        self.wake.set()

    def drop(self, code: int) -> None:
        """Deliver nothing more to this screen; the sender task closes its socket and ends."""
        if self.open:
            self.open = False
            self.close_code = code
            self.pending.clear()
            self.hub.members.pop(self.screen, None)
            if self.writing_since is not None:  # a write stuck on a full socket: end it now
                self.interrupted = True
                self.task.cancel()
        self.wake.set()

    async def run(self) -> None:
        try:
            while self.open:
                if not self.pending:
                    self.wake.clear()
                    await self.wake.wait()
                    continue
                await self._send(*self.pending.popleft())
            if self.close_code is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.screen.hang_up(self.close_code), CLOSE_TIMEOUT)
        finally:
            self.hub.finished(self)

    async def _send(self, message: dict[str, Any], text: str) -> None:
        # No timer per write: the hub's watchdog drops a screen whose write has been under way
        # too long, so a socket that takes the message at once costs nothing extra.
        failure = None
        self.writing_since = asyncio.get_running_loop().time()
        sent = message.get("sent")
        if isinstance(sent, float):  # how long since the commit it reaches this socket
            wait = time.time() - sent
            if wait > self.hub.max_wait:
                self.hub.max_wait = wait
        try:
            await self.screen.deliver(message, text)
        except asyncio.CancelledError:
            if not self.interrupted:
                raise  # the screen has gone, or the hub stops
            self.interrupted = False
            current = asyncio.current_task()
            if current is not None:
                current.uncancel()
        except Exception:
            logger.debug("delivery to a screen failed", exc_info=True)
            failure = CLOSE_FAILED
        finally:
            self.writing_since = None
        if failure is not None:
            self.drop(failure)


def _replaces(queue: deque[tuple[dict[str, Any], str]], message: dict[str, Any]) -> bool:
    """Whether `message` would take the place of one waiting in `queue` (or be left out)."""
    event = message.get("event")
    return event in REPLACEABLE and any(queued[0].get("event") == event for queued in queue)


def _take(queue: deque[tuple[dict[str, Any], str]], message: dict[str, Any], text: str) -> None:
    """Queue `message`; whole state (`REPLACEABLE`) replaces a waiting one of the same name: the
    older is dropped and the newer keeps its own place at the end; of two boards the one with the
    higher version is kept, as a screen would keep it (one from another process may come late)."""
    event = message.get("event")
    if event in REPLACEABLE:
        for queued in queue:
            if queued[0].get("event") == event:  # at most one is waiting
                if _version(queued[0]) > _version(message):
                    return  # the waiting one is newer
                queue.remove(queued)
                break
    queue.append((message, text))


def _version(message: dict[str, Any]) -> int:
    """The board's version in a message (0: none, as for the clock)."""
    data = message.get("data")
    board = data.get("board") if isinstance(data, dict) else None
    version = board.get("version") if isinstance(board, dict) else None
    return version if isinstance(version, int) else 0


class _Hub:
    def __init__(self, layer: Any, group: str, key: tuple[int, str]) -> None:
        self.layer = layer
        self.group = group
        self.key = key
        self.members: dict[Screen, _Outbox] = {}  # the screens that get messages
        self.outboxes: dict[Screen, _Outbox] = {}  # every screen whose sender task still runs
        self.channel = ""
        self.task: asyncio.Task[None] | None = None
        self.reader: asyncio.Task[None] | None = None
        # What the reader took from the channel layer and the hub has not yet handed to the
        # outboxes: whole state coalesced as in an outbox (`_take`).
        self.inbox: deque[tuple[dict[str, Any], str]] = deque()
        self.arrived = asyncio.Event()
        self.watchdog: asyncio.Task[None] | None = None
        self.started: asyncio.Future[None] | None = None
        self.stopped = False
        self.max_wait = 0.0  # the longest a message waited from its commit to a write, this tick

    async def start(self) -> None:
        self.channel = await self.layer.new_channel("hub.")
        await self.layer.group_add(self.group, self.channel)
        self.reader = asyncio.ensure_future(self.read())
        self.task = asyncio.ensure_future(self.run())
        self.watchdog = asyncio.ensure_future(self.watch())

    def add(self, screen: Screen) -> None:
        if screen not in self.outboxes:
            self.members[screen] = self.outboxes[screen] = _Outbox(self, screen)

    def remove(self, screen: Screen) -> asyncio.Task[None] | None:
        """The screen has gone: cancel its sender, whatever it was doing (None if unknown)."""
        self.members.pop(screen, None)
        outbox = self.outboxes.pop(screen, None)
        if outbox is None:
            return None
        outbox.open = False
        outbox.task.cancel()
        return outbox.task

    def finished(self, outbox: _Outbox) -> None:
        """A sender task ends (the screen was dropped, or has gone)."""
        if self.outboxes.get(outbox.screen) is outbox:
            del self.outboxes[outbox.screen]
        if self.members.get(outbox.screen) is outbox:
            del self.members[outbox.screen]
        if not self.members and not self.stopped:
            # The last screen was dropped: nobody is left to listen for.
            self._detach()
            task = asyncio.ensure_future(self.stop())
            _stopping.add(task)
            task.add_done_callback(_stopping.discard)

    def _detach(self) -> None:
        self.stopped = True
        if _hubs.get(self.key) is self:
            del _hubs[self.key]

    async def read(self) -> None:
        """Take every message the channel layer holds for the hub as soon as it arrives, into
        the hub's inbox. Apart from `run`: when the screens cannot be written as fast as the
        room changes, the messages wait here, where a newer whole state replaces an older one,
        and not first in first out in the channel layer's queue, where every board of a storm
        would wait its turn and the screens fall further behind with each (docs/architecture.md,
        "Live updates")."""
        while True:
            message = await self.layer.receive(self.channel)
            if message.get("type") != "floor.event":
                continue
            text = message.get("text")
            if not isinstance(text, str):
                text = json.dumps(
                    {"type": "event", "event": message.get("event"), "data": message.get("data")}
                )
            _take(self.inbox, message, text)
            self.arrived.set()

    async def run(self) -> None:
        while True:
            if not self.inbox:
                self.arrived.clear()
                await self.arrived.wait()
                continue
            message, text = self.inbox.popleft()
            for outbox in list(self.members.values()):
                outbox.put(message, text)  # never waits for a socket
            # Let the senders take it before the next message: a burst from the channel layer
            # would otherwise pile up in every outbox at once.
            await asyncio.sleep(0)

    async def watch(self) -> None:
        """Drop every screen whose write has been under way longer than `SEND_TIMEOUT`, and tell
        the consoles when the feed reaches the screens late (live/backlog.py)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(min(1.0, SEND_TIMEOUT / 4))
            late = loop.time() - SEND_TIMEOUT
            now = time.time()
            wait, self.max_wait = self.max_wait, 0.0
            waiting = len(self.inbox)
            if self.inbox:
                sent = self.inbox[0][0].get("sent")
                if isinstance(sent, float):
                    wait = max(wait, now - sent)
            for outbox in list(self.members.values()):
                since = outbox.writing_since
                if since is not None and since < late:
                    logger.info("closing a screen that did not take a message in %ss", SEND_TIMEOUT)
                    outbox.drop(CLOSE_TOO_SLOW)
                    continue
                if outbox.pending:
                    waiting += len(outbox.pending)
                    sent = outbox.pending[0][0].get("sent")
                    if isinstance(sent, float):
                        wait = max(wait, now - sent)
            await self.tell(wait, waiting)

    async def tell(self, wait: float, waiting: int) -> None:
        tournament_id = backlog.tournament_of(self.group)
        if tournament_id is None:
            return
        payload = backlog.note(tournament_id, "sockets", wait, waiting)
        if payload is None:
            return
        group = console_group(tournament_id)
        try:
            message = build_message(group, "behind", payload)
            await asyncio.wait_for(self.layer.group_send(group, message), 5)
        except Exception:  # telling is a courtesy; the feed itself goes on
            logger.debug("telling the consoles failed", exc_info=True)

    async def stop(self) -> None:
        """Leave the group and end the listener and the senders. A sender still closing a
        dropped screen finishes that on its own (within `CLOSE_TIMEOUT`)."""
        ending = [t for t in (self.reader, self.task, self.watchdog) if t is not None]
        for task in ending:
            task.cancel()
        for outbox in list(self.outboxes.values()):
            if outbox.open:
                outbox.open = False
                outbox.task.cancel()
                ending.append(outbox.task)
            elif outbox.task is not asyncio.current_task():
                _closing.add(outbox.task)
                outbox.task.add_done_callback(_closing.discard)
        if ending:
            await asyncio.wait(ending)
        with contextlib.suppress(Exception):
            await self.layer.group_discard(self.group, self.channel)


_hubs: dict[tuple[int, str], _Hub] = {}
# Kept here until they end: hubs whose last screen was dropped, winding down, and senders still
# closing a dropped screen after their hub has gone.
_stopping: set[asyncio.Task[None]] = set()
_closing: set[asyncio.Future[None]] = set()


def _key(group: str) -> tuple[int, str]:
    return id(asyncio.get_running_loop()), group


async def hub_join(layer: Any, group: str, screen: Screen) -> None:
    key = _key(group)
    while True:
        hub = _hubs.get(key)
        if hub is None:
            hub = _hubs[key] = _Hub(layer, group, key)
            hub.started = asyncio.ensure_future(hub.start())
        assert hub.started is not None
        await hub.started
        if not hub.stopped:
            hub.add(screen)
            return


async def hub_leave(group: str, screen: Screen) -> None:
    key = _key(group)
    hub = _hubs.get(key)
    sender = hub.remove(screen) if hub is not None else None
    if hub is None or sender is None:
        return
    if not hub.members:
        hub._detach()
        await hub.stop()
    await asyncio.wait((sender,))
