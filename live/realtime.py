"""Group names and broadcasting: the one home of both.

Every group name is built here and nowhere else. Messages are sent after the transaction that
made the change commits, so no screen ever sees a change that was rolled back.
"""

from __future__ import annotations

import asyncio
import atexit
import hashlib
import json
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any, cast

from asgiref.sync import async_to_sync
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.layers import get_channel_layer
from django import db
from django.conf import settings
from django.core.serializers.json import DjangoJSONEncoder
from django.db import transaction

from live import backlog
from live.catalogue import check_message, whole_state

log = logging.getLogger(__name__)


def tournament_group(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def table_group(table_id: int, language: str | None = None) -> str:
    """A table's tablets; with `language`, those showing the table in that language (its rendered
    view goes only there, so a room of German tablets costs one rendering per change)."""
    return f"table.{table_id}" if language is None else f"table.{table_id}.{language}"


def public_table_group(table_id: int) -> str:
    """The public pages of one table (`/t/<id>/table/<n>/`, the QR on the table card)."""
    return f"public_table.{table_id}"


def entry_group(entry_id: int) -> str:
    return f"entry.{entry_id}"


def console_group(tournament_id: int) -> str:
    return f"console.{tournament_id}"


def user_group(user_id: int) -> str:
    """Every console socket of one staff account; told to close when the account is disabled or
    loses its role."""
    return f"user.{user_id}"


def display_group(display_id: int) -> str:
    """One screen of the display manager (displays/): told what to show."""
    return f"display.{display_id}"


async def refuse(consumer: Any, code: int) -> None:
    """Close a websocket for good from its consumer's `connect`, with a close code its page
    reads (4404: unknown, 4410: closed or removed, 4403: revoked). Refused before the handshake,
    the browser sees only a failed connection (code 1006) and tries again for ever: a dealer
    tablet whose socket was down while its table was broken went on showing the table. Accepted
    and closed at once, the page gets the code and stops, or reloads, as its script says
    (static/tables/dealer.js, static/displays/display.js, static/counts/live.js,
    static/signups/status.js). Nothing is sent in between; Channels' own `accept` is used, so
    the socket is never watched as a live one (live/feedwatch.py)."""
    await AsyncWebsocketConsumer.accept(consumer)
    await consumer.close(code=code)


def dealer_group(token: str) -> str:
    """Every tablet holding this dealer token; told to close when the token is revoked."""
    digest = hashlib.sha256(token.encode()).hexdigest()[:24]
    return f"dealer.{digest}"


_loop: asyncio.AbstractEventLoop | None = None
_outbox: asyncio.Queue[tuple[str, dict[str, Any]] | None] | None = None
_pending = 0
_loop_pid = 0
_tasks: set[asyncio.Task[None]] = set()
_loop_lock = threading.Lock()
_idle = threading.Condition(_loop_lock)


def _broadcast_loop() -> asyncio.AbstractEventLoop:
    """One long-lived event loop per process that sends every message to a networked channel
    layer (Redis), one after another from an outbox: the action that made the change does not
    wait for the network, and messages leave in the order they were made."""
    global _loop, _outbox, _loop_pid, _pending
    with _loop_lock:
        if _loop is not None and _loop_pid != os.getpid():
            # A forked child inherits the loop but not its thread: start its own.
            _loop, _outbox, _pending = None, None, 0
        if _loop is None:
            loop = asyncio.new_event_loop()
            _outbox = asyncio.Queue()
            _tasks.add(loop.create_task(_drain(_outbox)))
            threading.Thread(target=loop.run_forever, name="floor-broadcast", daemon=True).start()
            _loop = loop
            _loop_pid = os.getpid()
            atexit.register(_flush, 5.0)
        return _loop


def superseded(batch: list[tuple[str, dict[str, Any]] | None]) -> set[int]:
    """The messages of `batch` (in sending order) that a later one makes stale:

    - a message that carries whole state (`whole_state` in live/catalogue.py: the board,
      a table's view, a player's seat) when a later one of the same name to the same group
      follows: in a storm the screens get the newest state, not every step on the way;
    - a `signups` message that carries only counts (signups/services.py: a new sign-up joined the
      end of the list, nobody moved) when a later `signups` message to the same group follows,
      which carries the counts again. In a burst of sign-ups the screens get the last counts."""
    stale: set[int] = set()
    later: set[tuple[str, str]] = set()
    for index in range(len(batch) - 1, -1, -1):
        item = batch[index]
        if item is None:
            continue
        group, message = item
        event = str(message.get("event"))
        key = (group, event)
        if key in later:
            if whole_state(group, event):
                stale.add(index)
            elif event == "signups":
                data = message.get("data") or {}
                if not data.get("moved") and "waiting" not in data:
                    stale.add(index)
        later.add(key)
    return stale


async def _drain(outbox: asyncio.Queue[tuple[str, dict[str, Any]] | None]) -> None:
    global _pending
    while True:
        batch = [await outbox.get()]
        while not outbox.empty():  # what queued up while the last send was under way
            batch.append(outbox.get_nowait())
        stale = superseded(batch) if len(batch) > 1 else set()
        for index, item in enumerate(batch):
            if item is not None and index not in stale:
                group, message = item
                layer = get_channel_layer()
                try:
                    if layer is not None:
                        await asyncio.wait_for(layer.group_send(group, message), 5)
                except Exception:  # a dead channel layer must not break the floor's action
                    log.exception("broadcast to %s failed", group)
            with _idle:
                _pending -= 1
                _idle.notify_all()


_server_loop: asyncio.AbstractEventLoop | None = None


def note_server_loop() -> None:
    """Remember the event loop of the ASGI server of this process (called by config/asgi.py on
    each connection): with the in-memory layer, messages are handed to it."""
    global _server_loop
    loop = asyncio.get_running_loop()
    if _server_loop is not loop:
        _server_loop = loop


def _flush(timeout: float = 5.0) -> bool:
    """Wait until the outbox is empty (at exit, and in tests); False on timeout."""
    with _idle:
        return _idle.wait_for(lambda: _pending == 0, timeout)


# --- Who listens ---------------------------------------------------------------------------
#
# A payload built for a group nobody is subscribed to is thrown away by the channel layer. The
# costly ones (a table rendered in both languages for its tablet: 15-60 ms) are built only when
# a screen listens; a screen that subscribes later loads the current state when it connects
# (static/tables/dealer.js, static/floor/seat.js), so it misses nothing.

_numsub: Any = None
_numsub_pid = 0


def _layer_config() -> dict[str, Any]:
    layers = cast(dict[str, dict[str, Any]], settings.CHANNEL_LAYERS)
    return dict(layers["default"].get("CONFIG") or {})


def _redis_numsub(*channels: str) -> list[int]:
    """PUBLISH's audience of each of `channels`: the server connections subscribed to it (one
    per ASGI process with a screen in the group), in one round trip."""
    global _numsub, _numsub_pid
    if _numsub is None or _numsub_pid != os.getpid():
        import redis  # inside: the full stack's layer only; embedded never loads redis

        _numsub = redis.Redis.from_url(
            _layer_config()["hosts"][0], socket_timeout=0.5, socket_connect_timeout=0.5
        )
        _numsub_pid = os.getpid()
    return [int(count) for _channel, count in _numsub.pubsub_numsub(*channels)]


def group_channel(group: str) -> str:
    """The Redis channel the pub/sub channel layer (channels_redis.pubsub) publishes a group's
    messages on (its `_get_group_channel_name`; tables/tests/test_listened.py keeps the two the
    same)."""
    return f"{_layer_config().get('prefix', 'asgi')}__group__{group}"


def listened(group: str) -> bool:
    """Whether a screen is subscribed to `group` now. True when it cannot tell (another layer,
    Redis not answering): then the message is built and sent as always."""
    return group in listened_of([group])


def listened_of(groups: Sequence[str]) -> set[str]:
    """Those of `groups` a screen is subscribed to now, asked together (`listened`)."""
    layer = get_channel_layer()
    if layer is None or not groups:
        return set()
    if type(layer).__module__ == "channels_redis.pubsub":
        try:
            counts = _redis_numsub(*(group_channel(g) for g in groups))
        except Exception:  # a slow or absent Redis: build as if someone listened
            log.warning("cannot tell who listens to %s", ", ".join(groups), exc_info=True)
            return set(groups)
        return {g for g, count in zip(groups, counts, strict=True) if count > 0}
    subscribed = getattr(layer, "groups", None)  # the in-memory layer: group -> {channel: expiry}
    if isinstance(subscribed, dict):
        return {g for g in groups if subscribed.get(g)}
    return set(groups)


def _send(group: str, message: dict[str, Any]) -> None:
    global _pending
    layer = get_channel_layer()
    if layer is None:
        return
    if "redis" in type(layer).__module__:
        loop = _broadcast_loop()
        assert _outbox is not None
        with _idle:
            _pending += 1
        loop.call_soon_threadsafe(_outbox.put_nowait, (group, message))
        return
    # The in-memory layer (one process): its queues belong to the server's loop. Hand the send
    # to that loop, thread-safe, which wakes it at once (a send from another loop would reach
    # the queue without waking the loop: up to 100 ms late per message).
    server = _server_loop
    if server is not None and server.is_running() and not server.is_closed():
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is server:
            task = server.create_task(layer.group_send(group, message))
            _tasks.add(task)
            task.add_done_callback(_tasks.discard)
        else:
            asyncio.run_coroutine_threadsafe(layer.group_send(group, message), server)
        return
    try:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            async_to_sync(layer.group_send)(group, message)
        else:
            # Called from a thread that runs an event loop: send from a helper thread.
            worker = threading.Thread(
                target=async_to_sync(layer.group_send), args=(group, message), daemon=True
            )
            worker.start()
            worker.join(timeout=5)
    except Exception:  # a dead channel layer must not break the floor's action
        log.exception("broadcast to %s failed", group)


def build_message(group: str, event: str, data: dict[str, Any]) -> dict[str, Any]:
    """The channel-layer message for `event` to `group`, checked against the event catalogue
    (live/catalogue.py) and encoded once here, not once per connected screen."""
    check_message(group, event, data)
    payload = json.loads(json.dumps(data, cls=DjangoJSONEncoder))
    text = json.dumps({"type": "event", "event": event, "data": payload})
    return {"type": "floor.event", "event": event, "data": payload, "text": text}


def broadcast_on_commit(group: str, event: str, data: dict[str, Any]) -> None:
    """Queue a `floor.event` message for `group`, sent when the current transaction commits.

    `data` must match the event's declared payload and be JSON-serializable; both are checked
    now, so a bad payload fails the action instead of a consumer.
    """
    message = build_message(group, event, data)
    transaction.on_commit(lambda: _hand_over(_Item(group, event, message)))


def send_on_commit(group: str, event: str, build: Callable[[], dict[str, Any] | None]) -> None:
    """Like broadcast_on_commit, with the payload built after the transaction commits, from
    what is committed. `build` returning None sends nothing. Messages leave in the order they
    were queued, whichever of the two queued them."""
    transaction.on_commit(lambda: _hand_over(_Item(group, event, build)))


# --- Building after the commit ------------------------------------------------------------
#
# A payload that reads the database (a board, a seat view, a table rendered in two languages:
# 5-20 ms) is built on one thread per process, not in the request that made the change: the
# floor's click does not wait for the screens' payloads. One thread, first in first out, so
# messages still leave in the order they were queued. FLOOR_LIVE_INLINE (the tests) builds in
# the committing thread instead: a test's data is not committed, another thread cannot see it.
#
# When changes come faster than the thread builds (a storm of busts on a slow machine), a
# payload that carries whole state (`whole_state`: the board, a table's view, a player's seat)
# is built only once for the newest change waiting: an older one of the same name to the same
# group, still waiting, is skipped, since the newer is built from what is committed by then and
# shows everything the older would have. The queue thus holds at most one such payload per
# group and name, however far the room runs ahead, and every screen still ends on the newest
# state. How long items wait is measured (live/backlog.py) and told to the consoles.


class _Item:
    """One message to hand on: built already (`what` a dict) or to build (`what` callable)."""

    __slots__ = ("event", "group", "key", "sent", "turn", "what")

    def __init__(self, group: str, event: str, what: Any) -> None:
        self.group = group
        self.event = event
        self.what = what
        self.sent = time.time()  # when it was handed over (the commit); the servers read it too
        self.key: tuple[str, str] | None = (group, event) if whole_state(group, event) else None
        self.turn = 0  # its number among the waiting items of its key


_builds: queue.SimpleQueue[_Item] | None = None
_builds_pid = 0
_builds_waiting = 0
_newest: dict[tuple[str, str], int] = {}  # key -> turn of its newest waiting item
_turns = 0


def _hand_over(item: _Item) -> None:
    global _builds, _builds_pid, _builds_waiting, _turns
    if getattr(settings, "FLOOR_LIVE_INLINE", False):
        _deliver(item)
        return
    with _idle:
        nothing_waits = _builds_waiting == 0 or _builds_pid != os.getpid()
        direct = not callable(item.what) and nothing_waits
    if direct:
        # Built already, and nothing of this process waits to be built before it: straight to
        # the sender, without a turn through the building thread (in a burst of sign-ups that
        # turn cost a tenth of a sign-up's time). A message queued by this thread earlier keeps
        # the count above zero until it is handed on, so this thread's messages keep their order.
        _deliver(item)
        return
    with _idle:
        if _builds is None or _builds_pid != os.getpid():
            _builds = queue.SimpleQueue()
            _builds_pid = os.getpid()
            _builds_waiting = 0
            _newest.clear()
            threading.Thread(
                target=_build_forever, args=(_builds,), name="floor-live", daemon=True
            ).start()
        _builds_waiting += 1
        if item.key is not None:
            _turns += 1
            item.turn = _newest[item.key] = _turns
    _builds.put(item)


def _build_forever(items: queue.SimpleQueue[_Item]) -> None:
    global _builds_waiting
    while True:
        item = items.get()
        try:
            with _idle:
                skip = False
                if item.key is not None:
                    if _newest.get(item.key) == item.turn:
                        del _newest[item.key]
                    else:
                        skip = True  # a newer one of the same group and name waits behind it
            behind = backlog.built(item.group, time.time() - item.sent, _builds_waiting, skip)
            if behind is not None:
                _tell_behind(backlog.tournament_of(item.group), behind)
            if not skip:
                _deliver(item)
        finally:
            with _idle:
                _builds_waiting -= 1
                _idle.notify_all()
            if items.empty():
                for tournament_id, payload in backlog.caught_up("builder"):
                    _tell_behind(tournament_id, payload)
                # Idle: give the database connection back (the pool, or SQLite's file).
                db.connections.close_all()


def _tell_behind(tournament_id: int | None, payload: dict[str, Any]) -> None:
    """Tell the tournament's consoles how far behind the live updates are (live/backlog.py),
    past the queue it measures."""
    if tournament_id is None:
        return
    try:
        group = console_group(tournament_id)
        _send(group, build_message(group, "behind", payload))
    except Exception:  # telling is a courtesy; the updates themselves go on
        log.exception("telling the consoles of %s failed", tournament_id)


def _deliver(item: _Item) -> None:
    what = item.what
    if not callable(what):
        what["sent"] = item.sent
        _send(item.group, what)
        return
    try:
        data = _build(what)
        if data is not None:
            message = build_message(item.group, item.event, data)
            message["sent"] = item.sent
            _send(item.group, message)
    except Exception:  # the change is committed; a screen that misses it catches up
        log.exception("building %s for %s failed", item.event, item.group)
        if getattr(settings, "FLOOR_RAISE_ON_EVENT_ERRORS", False):
            raise


def _build(what: Callable[[], dict[str, Any] | None]) -> dict[str, Any] | None:
    """Run a builder; on SQLite a read can meet a writer's lock (the embedded default): try
    again a few times before giving up."""
    for attempt in range(4):
        try:
            return what()
        except db.OperationalError:
            if attempt == 3 or db.connection.vendor != "sqlite":
                raise
            time.sleep(0.05 * (attempt + 1))
    return None


def live_flush(timeout: float = 5.0) -> bool:
    """Wait until every queued message is built and handed to the channel layer (tests,
    benchmarks, exit); False on timeout."""
    with _idle:
        built = _idle.wait_for(lambda: _builds_waiting == 0, timeout)
    return built and _flush(timeout)
