"""One listener per process and tournament for the public feed.

Every screen of a tournament (big screens, public pages, players' phones) gets the same
messages. Instead of each websocket consumer holding its own channel in the tournament's group
(one queue, one decode and one dispatch per screen per message), each process joins the group
once, decodes each message once, and writes the pre-encoded text to its local screens. The
group, the channel layer and what the screens receive stay the same.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any, Protocol

logger = logging.getLogger(__name__)


class Screen(Protocol):
    async def deliver(self, message: dict[str, Any], text: str) -> None: ...


class _Hub:
    def __init__(self, layer: Any, group: str) -> None:
        self.layer = layer
        self.group = group
        self.members: set[Screen] = set()
        self.channel = ""
        self.task: asyncio.Task[None] | None = None
        self.started: asyncio.Future[None] | None = None

    async def start(self) -> None:
        self.channel = await self.layer.new_channel("hub.")
        await self.layer.group_add(self.group, self.channel)
        self.task = asyncio.ensure_future(self.run())

    async def run(self) -> None:
        while True:
            message = await self.layer.receive(self.channel)
            if message.get("type") != "floor.event":
                continue
            text = message.get("text")
            if not isinstance(text, str):
                text = json.dumps(
                    {"type": "event", "event": message.get("event"), "data": message.get("data")}
                )
            for screen in list(self.members):
                try:
                    await screen.deliver(message, text)
                except Exception:  # one broken socket must not stop the others
                    logger.debug("delivery to a screen failed", exc_info=True)

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
        with contextlib.suppress(Exception):
            await self.layer.group_discard(self.group, self.channel)


_hubs: dict[tuple[int, str], _Hub] = {}


def _key(group: str) -> tuple[int, str]:
    return id(asyncio.get_running_loop()), group


async def hub_join(layer: Any, group: str, screen: Screen) -> None:
    key = _key(group)
    hub = _hubs.get(key)
    if hub is None:
        hub = _hubs[key] = _Hub(layer, group)
        hub.started = asyncio.ensure_future(hub.start())
    assert hub.started is not None
    await hub.started
    hub.members.add(screen)


async def hub_leave(group: str, screen: Screen) -> None:
    key = _key(group)
    hub = _hubs.get(key)
    if hub is None:
        return
    hub.members.discard(screen)
    if not hub.members:
        del _hubs[key]
        await hub.stop()
