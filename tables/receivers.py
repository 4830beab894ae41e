"""What the tables app does when the tournament app changes seats (tournament/status_signals.py)."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from tables.live import notify_tables
from tournament.status_signals import seats_changed


@receiver(seats_changed)
def tell_the_tables(*, tournament_id: int, table_ids: list[int], **_: Any) -> None:
    notify_tables(tournament_id, table_ids)
