"""Whether the field may still grow: the tournament's entry rules as the domain reads them, and
whether its finishing places are final (a read: pages, the tables' report card and the services
ask it alike; the rule itself is `tournament.domain.lifecycle.field_may_grow`)."""

from __future__ import annotations

from datetime import datetime

from clocks.selectors import current_level_number
from tournament.domain.lifecycle import EntryRules, field_may_grow
from tournament.models import Status, Tournament


def entry_rules(tournament: Tournament) -> EntryRules:
    return EntryRules(
        max_entries_per_player=tournament.max_entries_per_player,
        reentry_until_level=tournament.reentry_until_level,
        rebuys_max=tournament.rebuys_max,
        rebuy_until_level=tournament.rebuy_until_level,
        addons_max=tournament.addons_max,
        addon_until_level=tournament.addon_until_level,
        late_registration_until_level=tournament.late_registration_until_level,
        registration_closed=tournament.registration_closed_at is not None,
    )


def field_final_by_row(*, alternates_waiting: int, closed: bool, status: str) -> bool | None:
    """What the tournament's row alone says of `field_is_final`: False while an alternate waits,
    True once registration was closed by hand or the final table is reached; None when the
    clock must say (late registration may still be open)."""
    if alternates_waiting:
        return False
    if closed or status in (Status.FINAL_TABLE, Status.FINISHED):
        return True
    return None


def field_is_final(tournament: Tournament, now: datetime | None = None) -> bool:
    """True once no entry can join any more (registration closed by the floor or by the clock,
    and no alternate waiting for a seat): from then the finishing places are final and prizes
    can be given. `tournament` must be a fresh copy (the locked row in a bust)."""
    by_row = field_final_by_row(
        alternates_waiting=tournament.alternates_waiting,
        closed=tournament.registration_closed_at is not None,
        status=tournament.status,
    )
    if by_row is not None:
        return by_row
    return not field_may_grow(
        rules=entry_rules(tournament),
        status=tournament.status,
        current_level=current_level_number(tournament, now),
    )
