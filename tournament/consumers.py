"""The tournament's sockets: its public feed (the big screen, the public page, the lobby) and a
player's own feed (my-seat). What every socket shares is live/consumers.py."""

from __future__ import annotations

import json
from typing import Any

from channels.db import database_sync_to_async
from django import db
from django.core.cache import cache

from live.catalogue import BOARD_OR_CLOCK
from live.consumers import LiveConsumer
from live.realtime import entry_group, refuse, tournament_group
from tournament.live import board_version
from tournament.models import Entry, EntryStatus, Tournament
from tournament.public_selectors import entry_by_token


class TournamentConsumer(LiveConsumer):
    """Public, read-only feed of a tournament's clock and numbers."""

    async def connect(self) -> None:
        self.groups_joined = []
        tournament_id = int(self.scope["url_route"]["kwargs"]["pk"])
        if not await _tournament_exists(tournament_id):
            await refuse(self, 4404)
            return
        await self._join_tournament(tournament_id)
        await self.accept()
        # Asked for (`?hello=1`) by the pages that carry the version they were rendered at; the
        # screens that take a snapshot on every connection (the big screen, the lobby) do
        # without, and a room of them reconnecting at once reads nothing more.
        if b"hello=1" in self.scope.get("query_string", b"").split(b"&"):
            await self._hello(tournament_id)

    async def _hello(self, tournament_id: int) -> None:
        """The socket's first message when asked: `{"type": "hello", "version": …}`, the tournament's
        latest event-log row, read now that the socket's groups are joined. A page is rendered
        before its socket opens; a change made in between comes on no message, and a page that
        carries the version it was rendered at fetches itself once when this one is newer
        (static/tables/console.js, static/counts/live.js, static/displays/views.js,
        static/signups/status.js). Unread by the database (it is down): no hello; the socket
        stays, and the page shows what it has until the next change."""
        try:
            version = await database_sync_to_async(board_version)(tournament_id)
        except db.Error:  # DatabaseError and InterfaceError both
            return
        await self.send(text_data=json.dumps({"type": "hello", "version": version}))

    async def _join_tournament(self, tournament_id: int) -> None:
        await self.join_hub(tournament_group(tournament_id))


@database_sync_to_async
def _tournament_exists(pk: int) -> bool:
    """Whether tournament `pk` exists; a yes is kept a minute, so a room of screens connecting
    at once (after a restart, a network drop) does not take a database connection each."""
    key = f"tournament.exists.{pk}"
    if cache.get(key):
        return True
    exists = Tournament.objects.filter(pk=pk).exists()
    if exists:
        cache.set(key, True, 60)
    return exists


class SeatConsumer(TournamentConsumer):
    """A player's own feed: their seat, moves and bust, and what the my-seat page takes from
    the tournament's feed.

    Opened with the entry's unguessable token; an unknown or revoked token is refused.

    The my-seat page (static/floor/seat.js) shows no clock and no figures: from the tournament's
    feed it takes a draw (it then asks for its seat) and, once the player is out, the board (a
    late entry moves the place down). While the player is in, the board and clock messages are
    left out: at ten busts a second that is ten messages a second to every phone in the room
    that nobody reads (bench/event_storm.py, docs/benchmarks.md). The consumer knows whether the
    player is out from the entry's row when the socket opens (read after it joined the entry's
    group, so a bust in between comes as a message too) and from the player's own messages.
    """

    out = False

    async def connect(self) -> None:
        self.groups_joined = []
        ids = await _entry_ids(str(self.scope["url_route"]["kwargs"]["token"]))
        if ids is None:
            await refuse(self, 4404)
            return
        entry_id, tournament_id = ids
        group = entry_group(entry_id)
        await self.channel_layer.group_add(group, self.channel_name)
        self.groups_joined.append(group)
        self.out = await _entry_out(entry_id)
        await self._join_tournament(tournament_id)
        await self.accept()

    def wants(self, message: dict[str, Any]) -> bool:
        return self.out or message.get("event") not in BOARD_OR_CLOCK

    async def floor_event(self, message: dict[str, Any]) -> None:
        # The player's own seat view (a bust, its undo, a move) says whether they are out.
        data = message.get("data")
        seat = data.get("seat") if isinstance(data, dict) else None
        if isinstance(seat, dict) and "status" in seat:
            self.out = seat["status"] == EntryStatus.BUSTED
        await super().floor_event(message)


@database_sync_to_async
def _entry_out(entry_id: int) -> bool:
    return Entry.objects.filter(pk=entry_id, status=EntryStatus.BUSTED).exists()


@database_sync_to_async
def _entry_ids(token: str) -> tuple[int, int] | None:
    entry = entry_by_token(token)
    return (entry.pk, entry.tournament_id) if entry else None
