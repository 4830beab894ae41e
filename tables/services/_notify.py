"""What the seat-changing services tell the screens (on commit)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tournament.models import Tournament
from tournament.realtime import broadcast_on_commit, console_group, table_group


def notify_tables(tournament: Tournament, table_ids: Iterable[int], data: dict[str, Any]) -> None:
    """Tell the tables' views (by table id) and the console that seats changed."""
    for table_id in set(table_ids):
        broadcast_on_commit(table_group(table_id), "table", data)
    broadcast_on_commit(console_group(tournament.pk), "seating", data)


def tablets_close(table_ids: Iterable[int]) -> None:
    """Tell the dealer tablets of tables being closed (a break, the final table, a redraw) that
    their table is gone: their sockets close and the tablet says to ask the floor (on commit)."""
    for pk in table_ids:
        broadcast_on_commit(table_group(pk), "table_closed", {})
