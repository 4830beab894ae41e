"""Websockets of the dealer tablet (table token) and of the floor console (logged-in floor)."""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async

from clocks.consumers import TournamentConsumer
from tournament.realtime import (
    console_group,
    dealer_group,
    table_group,
    tournament_group,
    user_group,
)


class DealerConsumer(TournamentConsumer):
    """A table's feed: its seats and button, time calls, and the tournament clock. Opened with
    the table's dealer token; a revoked token closes open sockets at once."""

    async def connect(self) -> None:
        self.groups_joined = []
        token = str(self.scope["url_route"]["kwargs"]["token"])
        ids = await _table_ids(token)
        if ids is None:
            await self.close(code=4404)
            return
        table_id, tournament_id = ids
        for group in (table_group(table_id), tournament_group(tournament_id), dealer_group(token)):
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)
        await self.accept()

    async def floor_event(self, message: dict[str, Any]) -> None:
        if message.get("event") == "revoked":
            await self.close(code=4403)
            return
        await super().floor_event(message)


@database_sync_to_async
def _table_ids(token: str) -> tuple[int, int] | None:
    from tables.models import Table

    row = (
        Table.objects.filter(dealer_token=token, is_open=True)
        .values_list("pk", "tournament_id")
        .first()
    )
    return (row[0], row[1]) if row else None


class ConsoleConsumer(TournamentConsumer):
    """The floor console's feed (seating changes, dealer reports). Floor role required."""

    async def connect(self) -> None:
        self.groups_joined = []
        user = self.scope.get("user")
        tournament_id = int(self.scope["url_route"]["kwargs"]["pk"])
        if not await _may_run_floor(user) or not await _tournament_exists(tournament_id):
            await self.close(code=4403)
            return
        groups = (
            console_group(tournament_id),
            tournament_group(tournament_id),
            user_group(user.pk),
        )
        for group in groups:
            await self.channel_layer.group_add(group, self.channel_name)
            self.groups_joined.append(group)
        await self.accept()

    async def floor_event(self, message: dict[str, Any]) -> None:
        if message.get("event") == "revoked":  # the account was disabled or lost its role
            await self.close(code=4403)
            return
        await super().floor_event(message)


@database_sync_to_async
def _may_run_floor(user: Any) -> bool:
    from tournament.roles import is_floor

    return is_floor(user)


@database_sync_to_async
def _tournament_exists(pk: int) -> bool:
    from tournament.models import Tournament

    return Tournament.objects.filter(pk=pk).exists()
