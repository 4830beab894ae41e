"""Writing chip counts: a whole table at once, or one player. Check, then write, then log.

Counts come from staff only: the floor in the console, a dealer on the table's tablet
(`source="dealer"`, actions/dealer_counts.py). Every write tells the counts pages (the live
message `counts`, live/catalogue.py). A count is
refused, with nothing written, for a player who is not playing, below zero, above the chips in
play, or when a table's counts together hold more chips than the tournament has."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import figures
from core.errors import Conflict, FloorError, NotFound
from counts.domain.stacks import CountRefused, refusal
from counts.models import ChipCount, CountSource
from counts.selectors import latest_counts_of
from live.realtime import broadcast_on_commit, tournament_group
from tournament.events import Actor, event_record
from tournament.locks import lock_tournament
from tournament.models import Entry, EntryStatus, Tournament


@dataclass(frozen=True)
class Recorded:
    counts: list[ChipCount]
    table_number: int | None


@transaction.atomic
def counts_record(
    *,
    tournament: Tournament,
    counts: Mapping[int, int],
    actor: Actor,
    source: str = CountSource.FLOOR,
    table_number: int | None = None,
    bags: Mapping[int, str] | None = None,
    verified: Collection[int] = (),
) -> Recorded:
    """Record `counts` ({entry id: chips}) in one transaction and one event.

    With `table_number` every player must sit at that table now (a player moved since the form
    was drawn: Conflict, reload). Raises FloorError naming the player; nothing is written then.

    `bags` ({entry id: bag number}) makes these bag counts of a bag and tag (festivals/, which
    checks the bag numbers); the players in `verified` are counted the second time, by another
    person, with the same result: their rows are recorded as confirmed.
    """
    if source not in CountSource.values:
        raise FloorError(_("Unknown source of a count."))
    if not counts:
        raise FloorError(_("Enter at least one count."))
    locked = lock_tournament(tournament.pk, only=("id", "chips_in", "status"))
    chips_in_play = locked.chips_in
    entries = {
        e.pk: e
        for e in Entry.objects.filter(tournament_id=tournament.pk, pk__in=list(counts))
        .select_related("seat__table")
        .only("id", "number", "status", "seat__seat", "seat__table__number")
    }
    rows: list[ChipCount] = []
    now = timezone.now()
    for entry_id, chips in counts.items():
        entry = entries.get(entry_id)
        if entry is None:
            raise NotFound(_("No such player in this tournament."))
        here = _count_checked(entry, chips, chips_in_play=chips_in_play, table=table_number)
        seat = getattr(entry, "seat", None)
        rows.append(
            ChipCount(
                tournament_id=tournament.pk,
                entry_id=entry_id,
                count=chips,
                recorded_at=now,
                recorded_by=actor.user,
                recorded_by_label=actor.label[:120],
                source=source,
                table_number=here,
                seat=seat.seat if seat is not None else None,
                bag_number=(bags or {}).get(entry_id, ""),
                **_verified(actor, now, entry_id in verified),
            )
        )
    total = sum(counts.values())
    if total > chips_in_play:
        raise FloorError(
            _(
                "These counts add up to %(sum)s chips, more than the tournament has in play (%(chips)s)."
            )
            % {"sum": figures.chips(total), "chips": figures.chips(chips_in_play)},
            code=CountRefused.TABLE_ABOVE_CHIPS_IN_PLAY.value,
        )
    before = {c.entry_id: c.count for c in latest_counts_of(tournament.pk, list(counts))}
    ChipCount.objects.bulk_create(rows)
    _counts_told(
        tournament, actor, rows, entries, before, bag=bool(bags), table=table_number, source=source
    )
    return Recorded(counts=rows, table_number=table_number)


def _count_checked(
    entry: Entry, chips: int, *, chips_in_play: int, table: int | None
) -> int | None:
    """The table the player sits at; refuses a count of a player not in the field, below zero,
    above the chips in play, or (`table` given) of a player who no longer sits at that table."""
    if entry.status != EntryStatus.ACTIVE:
        raise FloorError(
            _("#%(n)s is not playing (out or not in the field): no count.") % {"n": entry.number},
            code=CountRefused.NOT_PLAYING.value,
        )
    why = refusal(chips, chips_in_play=chips_in_play)
    if why is CountRefused.NEGATIVE:
        raise FloorError(
            _("#%(n)s: a count cannot be below zero.") % {"n": entry.number}, code=why.value
        )
    if why is CountRefused.ABOVE_CHIPS_IN_PLAY:
        raise FloorError(
            _("#%(n)s: %(count)s chips is more than the tournament has in play (%(chips)s).")
            % {
                "n": entry.number,
                "count": figures.chips(chips),
                "chips": figures.chips(chips_in_play),
            },
            code=why.value,
        )
    seat = getattr(entry, "seat", None)
    here = seat.table.number if seat is not None else None
    if table is not None and here != table:
        raise Conflict(
            _("#%(n)s no longer sits at table %(t)s: reload the table and count again.")
            % {"n": entry.number, "t": table}
        )
    return here


def _verified(actor: Actor, now: Any, verified: bool) -> dict[str, Any]:
    """Who confirmed a count by counting it a second time, and when (a bag and tag)."""
    return {
        "verified_by": actor.user if verified else None,
        "verified_at": now if verified else None,
    }


def _counts_told(
    tournament: Tournament,
    actor: Actor,
    rows: list[ChipCount],
    entries: Mapping[int, Entry],
    before: Mapping[int, int],
    *,
    bag: bool,
    table: int | None,
    source: str,
) -> None:
    """The counts in the event log, and a message to the counts pages."""
    event = event_record(
        tournament=tournament,
        action="chips.bag" if bag else "chips.count",
        actor=actor,
        payload={
            "table": table,
            "source": source,
            "counts": [_count_logged(r, entries[r.entry_id].number, before) for r in rows],
        },
    )
    # The counts pages (public page, big screen) fetch the public counts once, spread over a
    # few seconds: a whole field is not sent to every socket of the room.
    broadcast_on_commit(
        tournament_group(tournament.pk),
        "counts",
        {"version": event.pk, "table": table, "counts": len(rows)},
    )


def _count_logged(row: ChipCount, number: int, before: Mapping[int, int]) -> dict[str, Any]:
    """One count as the event log keeps it: the player's number, the count, the count before."""
    return {
        "entry": number,
        "count": row.count,
        **({"before": before[row.entry_id]} if row.entry_id in before else {}),
        **({"bag": row.bag_number} if row.bag_number else {}),
        **({"confirmed": True} if row.verified_at else {}),
    }


def table_counts_record(
    *,
    tournament: Tournament,
    table_number: int,
    counts: Mapping[int, int | None],
    actor: Actor,
    source: str = CountSource.FLOOR,
) -> Recorded:
    """One table's form: every seated player's count; None (a blank field) leaves it as it is."""
    typed = {entry_id: chips for entry_id, chips in counts.items() if chips is not None}
    if not typed:
        raise FloorError(_("Enter at least one count."))
    return counts_record(
        tournament=tournament, counts=typed, actor=actor, source=source, table_number=table_number
    )


def count_record(
    *,
    tournament: Tournament,
    entry: Entry,
    count: int,
    actor: Actor,
    source: str = CountSource.FLOOR,
) -> ChipCount:
    """One player's count (a correction too: the latest count wins, the old one stays)."""
    return counts_record(
        tournament=tournament, counts={entry.pk: count}, actor=actor, source=source
    ).counts[0]
