"""Websockets of the dealer tablet (table token) and of the floor console (logged-in floor)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils.translation import get_supported_language_variant

from core.roles import is_floor
from live.realtime import (
    console_group,
    dealer_group,
    public_table_group,
    refuse,
    table_group,
    user_group,
)
from tables.models import Table
from tournament.consumers import TournamentConsumer, _tournament_exists

# Close codes the dealer tablet tells apart (static/tables/dealer.js): a link that is no good
# (unknown or revoked) and a table that was broken or closed (the tablet says "ask the floor").
CLOSE_TOKEN_REVOKED = 4403
CLOSE_TOKEN_UNKNOWN = 4404
CLOSE_TABLE_CLOSED = 4410


class DealerConsumer(TournamentConsumer):
    """A table's feed: its seats and button, time calls, and the tournament clock. Opened with
    the table's dealer token; a revoked token or a broken table closes open sockets at once."""

    async def connect(self) -> None:
        self.groups_joined = []
        token = str(self.scope["url_route"]["kwargs"]["token"])
        ids = await _table_ids(token)
        if ids is None:
            await refuse(self, CLOSE_TOKEN_UNKNOWN)
            return
        table_id, tournament_id, is_open = ids
        if not is_open:
            await refuse(self, CLOSE_TABLE_CLOSED)
            return
        # The table's view comes rendered in the page's language (`?lang=`, static/tables/
        # dealer.js): a table is rendered only in the languages its tablets use.
        language = _language(self.scope.get("query_string", b""))
        for group in (table_group(table_id), table_group(table_id, language), dealer_group(token)):
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)
        # Read again now that the groups are joined: a break or a new link that came between
        # the first read and the join sent its message to nobody, and the tablet would have
        # gone on showing a table that is no more.
        now = await _table_ids(token)
        if now is None:
            await refuse(self, CLOSE_TOKEN_REVOKED)
            return
        if not now[2]:
            await refuse(self, CLOSE_TABLE_CLOSED)
            return
        # The tournament's feed (boards, the clock) through the process's hub, as every screen
        # (live/hub.py): on the tablet's own channel each board waited behind the tablet's
        # socket, seconds late in a bust storm (bench/event_storm.py).
        await self._join_tournament(tournament_id)
        await self.accept()

    async def floor_event(self, message: dict[str, Any]) -> None:
        event = message.get("event")
        if event == "revoked":
            await self.close(code=CLOSE_TOKEN_REVOKED)
            return
        if event == "table_closed":
            await self.close(code=CLOSE_TABLE_CLOSED)
            return
        await super().floor_event(message)


def _language(query: bytes) -> str:
    """The `lang` the page asks for, if the product speaks it; else the default language."""
    asked = parse_qs(query.decode("latin-1")).get("lang", [""])[0]
    try:
        return get_supported_language_variant(asked)
    except LookupError:
        return get_supported_language_variant(settings.LANGUAGE_CODE)


@database_sync_to_async
def _table_ids(token: str) -> tuple[int, int, bool] | None:
    """(table id, tournament id, whether the table is open) of a dealer token, or None."""
    row = (
        Table.objects.filter(dealer_token=token)
        .values_list("pk", "tournament_id", "is_open")
        .first()
    )
    return (row[0], row[1], row[2]) if row else None


class PublicTableConsumer(TournamentConsumer):
    """The public page of one table (the QR on the table card): the table's seats as they
    change (`seats`, tables/live.py), and a draw from the tournament's feed (the page then takes
    a snapshot). Nothing else of the tournament's feed: the page shows no clock and no figures.
    The socket joins its table's group before the page's snapshot is read (static/tables/
    table_public.js takes it on every connection), so no change falls between the two."""

    async def connect(self) -> None:
        self.groups_joined = []
        kwargs = self.scope["url_route"]["kwargs"]
        table_id = await _public_table_id(int(kwargs["pk"]), int(kwargs["number"]))
        if table_id is None:
            await refuse(self, CLOSE_TOKEN_UNKNOWN)
            return
        group = public_table_group(table_id)
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined.append(group)
        await self._join_tournament(int(kwargs["pk"]))
        await self.accept()

    def wants(self, message: dict[str, Any]) -> bool:
        return message.get("event") == "seating"


@database_sync_to_async
def _public_table_id(tournament_id: int, number: int) -> int | None:
    """The id of table `number` of a tournament whose public pages are out (not planned)."""
    return (
        Table.objects.filter(tournament_id=tournament_id, number=number)
        .exclude(tournament__status="planned")
        .values_list("pk", flat=True)
        .first()
    )


def gather(pending: deque[dict[str, Any]], message: dict[str, Any]) -> None:
    """Queue a console message for its socket, folded into one already waiting where that
    loses nothing the page uses (static/tables/console.js):

    - `seating`: the tables named are added to those of the `seating` message waiting (`all`
      if either says so); the page fetches the cards of the tables named, once;
    - `shot_clock`: a newer clock of the same table replaces the waiting one;
    - `behind`: a newer notice from the same process and place replaces the waiting one.

    Anything else waits its turn. In a storm of busts the console thus gets one message naming
    every changed table, not a queue of hundreds it would read one by one."""
    event = message.get("event")
    data = message.get("data") or {}
    for index, waiting in enumerate(pending):
        if waiting.get("event") != event:
            continue
        old = waiting.get("data") or {}
        if event == "seating":
            merged = {
                "tables": sorted({*old.get("tables", ()), *data.get("tables", ())}),
                "all": bool(old.get("all") or data.get("all")),
            }
            pending[index] = _event(waiting, merged)
            return
        if event == "shot_clock" and old.get("table") == data.get("table"):
            del pending[index]
            break
        if event == "behind" and (old.get("process"), old.get("where")) == (
            data.get("process"),
            data.get("where"),
        ):
            del pending[index]
            break
    pending.append(message)


def _event(like: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """A `floor.event` message like `like` carrying `data` (its text encoded anew)."""
    event = like.get("event")
    text = json.dumps({"type": "event", "event": event, "data": data})
    return {**like, "data": data, "text": text}


class ConsoleConsumer(TournamentConsumer):
    """The floor console's feed (seating changes, dealer reports). Floor role required.

    The console's group comes on a channel of its own, read by a task that takes everything
    waiting at once and folds it (`gather`), and a second task writes it to the socket. On the
    consumer's own channel each message cost the server's event loop a few turns: when the room
    outran a loaded server (ten busts a second on one core, bench/event_storm.py --cpus 1) the
    console's `seating` messages queued there, hundreds deep, and its chart showed a change 20
    to 50 seconds late, while every screen and phone was within seconds. Folded, whatever waits
    goes in one message and the lag stays that of one turn of the loop."""

    feed_channel = ""
    feed_tasks: tuple[asyncio.Task[None], ...] = ()

    async def connect(self) -> None:
        self.groups_joined = []
        self.feed_groups: list[str] = []
        self.feed: deque[dict[str, Any]] = deque()
        self.feed_ready = asyncio.Event()
        user = self.scope.get("user")
        tournament_id = int(self.scope["url_route"]["kwargs"]["pk"])
        if not await _may_run_floor(user) or not await _tournament_exists(tournament_id):
            await self.close(code=4403)
            return
        self.feed_channel = await self.channel_layer.new_channel("console.")
        await self.channel_layer.group_add(console_group(tournament_id), self.feed_channel)
        self.feed_groups.append(console_group(tournament_id))
        # The account's group (told to close) on the consumer's own channel, as before.
        await self.channel_layer.group_add(user_group(user.pk), self.channel_name)
        self.groups_joined.append(user_group(user.pk))
        # The role again, now that the account's group is joined: an account disabled or
        # stripped of its role between the first check and the join was told so on a group this
        # socket was not yet in, and would have kept its feed.
        if not await _may_run_floor(user):
            await self.close(code=4403)
            return
        await self._join_tournament(tournament_id)  # the tournament's feed, as the tablets
        await self.accept()
        # What the chart has to have seen (the console fetches the chart once when it is newer
        # than the version the page was rendered at, static/tables/console.js).
        await self._hello(tournament_id)
        # What came on the console's group meanwhile waits on its channel for these.
        self.feed_tasks = (
            asyncio.ensure_future(self._read_feed()),
            asyncio.ensure_future(self._write_feed()),
        )

    async def _read_feed(self) -> None:
        # A channel layer's receive returns at once while messages wait (no turn of the loop
        # each): a backlog is taken in one go and folded.
        while True:
            message = await self.channel_layer.receive(self.feed_channel)
            if message.get("type") != "floor.event":
                continue
            gather(self.feed, message)
            self.feed_ready.set()

    async def _write_feed(self) -> None:
        while True:
            if not self.feed:
                self.feed_ready.clear()
                await self.feed_ready.wait()
                continue
            await self.floor_event(self.feed.popleft())

    async def disconnect(self, code: int) -> None:
        for task in self.feed_tasks:
            task.cancel()
        for task in self.feed_tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.feed_tasks = ()
        for group in getattr(self, "feed_groups", ()):
            await self.channel_layer.group_discard(group, self.feed_channel)
        await super().disconnect(code)

    async def floor_event(self, message: dict[str, Any]) -> None:
        if message.get("event") == "revoked":  # the account was disabled or lost its role
            await self.close(code=4403)
            return
        await super().floor_event(message)


@database_sync_to_async
def _may_run_floor(user: Any) -> bool:
    """Whether `user` holds a floor role now: the account is read afresh (the connection's
    user object was loaded when the socket opened)."""
    if not getattr(user, "is_authenticated", False):
        return False
    fresh = get_user_model().objects.filter(pk=user.pk, is_active=True).first()
    return fresh is not None and is_floor(fresh)
