"""Stacks from chip counts: the latest count per player, the field's average, leaders and
stacks in big blinds. Pure: no framework; the selectors load rows and call these.

A counted stack is what someone counted in front of the player; an estimated one is the
chips in play the counts do not account for, shared evenly among the players not counted.
Chips are conserved, so counted + estimated stacks add up to the chips in play (unless the
counts already hold more: then the players not counted are estimated at 0).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum


class CountRefused(Enum):
    NEGATIVE = "negative"
    ABOVE_CHIPS_IN_PLAY = "above_chips_in_play"
    NOT_PLAYING = "not_playing"
    TABLE_ABOVE_CHIPS_IN_PLAY = "table_above_chips_in_play"


@dataclass(frozen=True)
class Counted:
    """One count as stored: `id` orders the counts (append-only: a higher id is later)."""

    id: int
    entry_id: int
    count: int
    at: datetime


@dataclass(frozen=True)
class Player:
    """A player still in the tournament, where they sit now (None before the draw)."""

    entry_id: int
    number: int
    name: str
    table: int | None
    seat: int | None


@dataclass(frozen=True)
class Stack:
    player: Player
    chips: int
    counted: bool  # False: an estimate from the chips in play
    at: datetime | None  # when it was counted
    big_blinds: float | None


@dataclass(frozen=True)
class Average:
    chips: int
    counted: int  # players with a count
    players: int  # players left
    source: str  # "counts" (everyone counted), "mixed", "chips" (no count at all)
    oldest: datetime | None  # the oldest count used
    newest: datetime | None


@dataclass(frozen=True)
class Field:
    stacks: list[Stack]  # in seat order (table, seat, number)
    average: Average
    estimate: int  # each uncounted player's estimated stack
    chips_in_play: int
    big_blind: int | None


def latest_counts(counts: Iterable[Counted]) -> dict[int, Counted]:
    """The latest count of each player: the one with the highest id."""
    latest: dict[int, Counted] = {}
    for c in counts:
        held = latest.get(c.entry_id)
        if held is None or c.id > held.id:
            latest[c.entry_id] = c
    return latest


def refusal(count: int, *, chips_in_play: int) -> CountRefused | None:
    """Why a count cannot be right: below zero, or more chips than the whole tournament has."""
    if count < 0:
        return CountRefused.NEGATIVE
    if count > chips_in_play:
        return CountRefused.ABOVE_CHIPS_IN_PLAY
    return None


def in_big_blinds(chips: int, big_blind: int | None) -> float | None:
    if not big_blind:
        return None
    return round(chips / big_blind, 1)


def field_stacks(
    players: Sequence[Player],
    latest: Mapping[int, Counted],
    *,
    chips_in_play: int,
    big_blind: int | None,
) -> Field:
    """Every player's stack: counted where a count is known, estimated where not; the average
    over the players left. Counts of players not in `players` (out, or unregistered) are
    ignored: a busted player's last count never reaches the average."""
    known = {p.entry_id: latest[p.entry_id] for p in players if p.entry_id in latest}
    counted_sum = sum(c.count for c in known.values())
    uncounted = len(players) - len(known)
    estimate = max(0, chips_in_play - counted_sum) // uncounted if uncounted else 0
    stacks = []
    for p in sorted(players, key=_seat_order):
        c = known.get(p.entry_id)
        chips = c.count if c else estimate
        stacks.append(
            Stack(
                player=p,
                chips=chips,
                counted=c is not None,
                at=c.at if c else None,
                big_blinds=in_big_blinds(chips, big_blind),
            )
        )
    # Chips are conserved: with a player not counted the field holds the chips in play (or what
    # the counts already hold, when they say more); with everyone counted, what was counted.
    total = max(chips_in_play, counted_sum) if uncounted else counted_sum
    times = [c.at for c in known.values()]
    if not players or not known:
        source = "chips"
    elif uncounted:
        source = "mixed"
    else:
        source = "counts"
    average = Average(
        chips=total // len(players) if players else 0,
        counted=len(known),
        players=len(players),
        source=source,
        oldest=min(times) if times else None,
        newest=max(times) if times else None,
    )
    return Field(
        stacks=stacks,
        average=average,
        estimate=estimate,
        chips_in_play=chips_in_play,
        big_blind=big_blind,
    )


def leaders(field: Field, limit: int = 10) -> list[Stack]:
    """The biggest counted stacks, largest first (ties: lower player number first). Estimates
    never lead: nobody counted them."""
    counted = [s for s in field.stacks if s.counted]
    counted.sort(key=lambda s: (-s.chips, s.player.number))
    return counted[:limit]


def ranked(field: Field) -> list[Stack]:
    """Every stack, counted ones first by size, then the estimated ones by seat."""
    counted = sorted(
        (s for s in field.stacks if s.counted), key=lambda s: (-s.chips, s.player.number)
    )
    return counted + [s for s in field.stacks if not s.counted]


def _seat_order(p: Player) -> tuple[int, int, int]:
    big = 1 << 30
    return (p.table if p.table is not None else big, p.seat or 0, p.number)
