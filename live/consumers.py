"""The base of every feed socket: what all of Floor's websockets share.

- With the channel layer's Redis down nothing would reach a socket: it is refused
  (`live/feedwatch.py`), so the page polls over HTTP until Redis is back.
- A socket joins a group through the process's hub (`live/hub.py`), which hands it the group's
  messages and drops it when it is too slow.
- Clients may send only small JSON messages: `{"type": "ping", "t0": <client ms>}`, answered
  with the server time for the NTP-style offset estimate. Everything else is refused.

The apps' consumers (tournament/consumers.py, tables/consumers.py) say who may connect and which
groups a socket joins.
"""

from __future__ import annotations

import json
import time
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer

from live import feedwatch
from live.hub import hub_join, hub_leave

MAX_MESSAGE_BYTES = 1024


class EventConsumer(AsyncWebsocketConsumer):
    """A socket that hands on Floor's live messages (`floor.event`) as they come."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels runs close_old_connections on its one database thread before every handler.
        # A live message touches no database: handing it on directly keeps a room of sockets
        # from queueing behind that thread (seconds at 1,000 phones, bench/event_storm.py).
        if message.get("type") == "floor.event":
            await self.floor_event(message)
            return
        await super().dispatch(message)

    async def floor_event(self, message: dict[str, Any]) -> None:
        text = message.get("text")
        if not isinstance(text, str):
            text = json.dumps({"type": "event", "event": message["event"], "data": message["data"]})
        await self.send(text_data=text)


class LiveConsumer(EventConsumer):
    """A read-only feed: the hub's group, the socket's own groups, and the clock's ping."""

    groups_joined: list[str]
    hub_group: str = ""

    async def websocket_connect(self, message: dict[str, Any]) -> None:
        feedwatch.ensure_running()
        if not feedwatch.healthy():
            await self.close(code=feedwatch.CLOSE_FEED_DOWN)
            return
        await super().websocket_connect(message)

    async def accept(self, subprotocol: str | None = None, headers: Any = None) -> None:
        await super().accept(subprotocol, headers)
        feedwatch.add(self)

    async def websocket_disconnect(self, message: dict[str, Any]) -> None:
        feedwatch.discard(self)
        await super().websocket_disconnect(message)

    async def join_hub(self, group: str) -> None:
        """Take `group`'s messages through the process's hub (one listener per process)."""
        self.hub_group = group
        await hub_join(self.channel_layer, group, self)

    async def deliver(self, message: dict[str, Any], text: str) -> None:
        await self.send(text_data=text)

    async def hang_up(self, code: int) -> None:
        # Dropped by the hub as too slow (or broken): the page reconnects and takes a snapshot.
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        if self.hub_group:
            await hub_leave(self.hub_group, self)
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if bytes_data is not None or text_data is None or len(text_data) > MAX_MESSAGE_BYTES:
            await self.close(code=4400)
            return
        try:
            message = json.loads(text_data)
        except ValueError:
            await self.close(code=4400)
            return
        if not isinstance(message, dict) or message.get("type") != "ping":
            await self.close(code=4400)
            return
        t0 = message.get("t0")
        if not isinstance(t0, int | float):
            await self.close(code=4400)
            return
        await self.send(
            text_data=json.dumps({"type": "pong", "t0": t0, "server_ms": time.time() * 1000})
        )
