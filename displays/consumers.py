"""The screen's socket: `/ws/display/`, opened by `/display/` with its token cookie.

The origin is checked by config/asgi.py (AllowedHostsOriginValidator); an unknown token is
refused (4404). On connect the screen is sent what it shows now (a screen that was offline
catches up with one message), read after the socket joined its group, then every `assignment`
as it is made. Screens send nothing.
"""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async

from displays.selectors import display_by_token
from displays.services import assignment_payload, display_seen
from live.consumers import EventConsumer
from live.realtime import display_group, refuse

COOKIE = "floor_display"


class DisplayConsumer(EventConsumer):
    group = ""

    async def connect(self) -> None:
        token = (self.scope.get("cookies") or {}).get(COOKIE, "")
        display_id = await _display_id(token)
        if display_id is None:
            await refuse(self, 4404)
            return
        # The group first, then the state: an assignment made while the screen connects comes
        # as a message too (the screen keeps the higher version). Read before the join, it fell
        # between the two: the screen showed the older state until the next change.
        self.group = display_group(display_id)
        await self.channel_layer.group_add(self.group, self.channel_name)
        state = await _state_for(token)
        if state is None:  # removed meanwhile
            await refuse(self, 4404)
            return
        await self.accept()
        await self.send(
            text_data=json.dumps({"type": "event", "event": "assignment", "data": state})
        )

    async def disconnect(self, code: int) -> None:
        if self.group:
            await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        await self.close(code=4400)

    async def floor_event(self, message: dict[str, Any]) -> None:
        await super().floor_event(message)
        if message.get("event") == "removed":
            await self.close(code=4410)


@database_sync_to_async
def _display_id(token: str) -> int | None:
    display = display_by_token(token)
    return None if display is None else display.pk


@database_sync_to_async
def _state_for(token: str) -> dict[str, Any] | None:
    display = display_by_token(token)
    if display is None:
        return None
    display_seen(display.pk)
    return dict(assignment_payload(display))
