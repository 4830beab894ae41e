"""Finishing places when players are eliminated, one or several in the same hand."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass


class EliminationError(ValueError):
    """Eliminations that cannot be ranked."""


@dataclass(frozen=True)
class Bust:
    """One player out in a hand, as the ranking needs it.

    `seats_from_button` counts seats clockwise from the button of the hand in which the player
    went out (the button itself is 0, the small blind's seat usually 1); None when Floor does not
    know where the button was. `table` tells players at different tables apart (0 = unknown).
    `lot` is drawn once, at random, when the bust is recorded: it settles, for good, a tie that
    the ruleset does not let stand (bdpv never shares a place)."""

    entry_id: int
    stack_at_hand_start: int = 0
    seats_from_button: int | None = None
    table: int = 0
    lot: int = 0


def group_offsets(busts: Sequence[Bust], *, ruleset: str, hand_for_hand: bool) -> dict[int, int]:
    """How many players of the same hand finish above each player (0 = the best of the group).

    Players with the same offset share a place (standard competition ranking: two sharing the
    group's best place leave the next place empty, the one after it is taken again).

    - bdpv 6.28: the larger stack at the start of the hand finishes higher; on equal stacks the
      player who sat nearer the button, counting clockwise from it, finishes higher; a place is
      never shared, so a tie that stack and seat cannot break (equal distances at two tables, or
      a button Floor does not know) is settled by the lot drawn when the bust was recorded.
    - tda-de (the book is silent; TDA practice): at one table the larger stack at the start of
      the hand finishes higher and equal stacks share; during hand-for-hand, players at
      different tables tie: each player's rank is counted among the players of their own table,
      and equal ranks share.
    """
    if not busts:
        return {}
    ids = [b.entry_id for b in busts]
    if len(set(ids)) != len(ids):
        raise EliminationError("an entry is listed twice")
    if any(b.stack_at_hand_start < 0 or (b.seats_from_button or 0) < 0 for b in busts):
        raise EliminationError("stacks and seat distances cannot be negative")
    if ruleset == "bdpv":
        return _bdpv_offsets(busts)
    if hand_for_hand:
        # Rank at the player's own table; players at different tables with the same rank tie.
        def key(b: Bust) -> int:
            return sum(
                1
                for o in busts
                if o.table == b.table and o.stack_at_hand_start > b.stack_at_hand_start
            )
    else:

        def key(b: Bust) -> int:
            return -b.stack_at_hand_start

    return {b.entry_id: sum(1 for o in busts if key(o) < key(b)) for b in busts}


def _bdpv_offsets(busts: Sequence[Bust]) -> dict[int, int]:
    by_stack: dict[int, list[Bust]] = {}
    for b in busts:
        by_stack.setdefault(b.stack_at_hand_start, []).append(b)
    ordered: list[Bust] = []
    for stack in sorted(by_stack, reverse=True):
        same = by_stack[stack]
        if all(b.seats_from_button is not None for b in same):
            same.sort(key=lambda b: (b.seats_from_button, b.lot, b.entry_id))
        else:  # where the button was is unknown: the lot decides among equal stacks
            same.sort(key=lambda b: (b.lot, b.entry_id))
        ordered.extend(same)
    return {b.entry_id: i for i, b in enumerate(ordered)}


def rank_simultaneous_busts(
    busts: Sequence[Bust],
    *,
    ruleset: str,
    hand_for_hand: bool,
    players_remaining_before: int,
) -> dict[int, int]:
    """Finishing place per entry id for players out in the same hand: the group takes the
    places just below those still playing, ranked by `group_offsets`."""
    if not busts:
        return {}
    if len(busts) >= players_remaining_before:
        raise EliminationError("at least one player must remain")
    offsets = group_offsets(busts, ruleset=ruleset, hand_for_hand=hand_for_hand)
    top = players_remaining_before - len(busts) + 1
    return {entry_id: top + offset for entry_id, offset in offsets.items()}


@dataclass(frozen=True)
class BustGroup:
    """The players out in one hand (one table's hand, or one hand-for-hand round)."""

    busts: tuple[Bust, ...]
    hand_for_hand: bool = False


def elimination_ranks(groups: Sequence[BustGroup], *, ruleset: str) -> dict[int, int]:
    """Each busted entry's rank counted from the bottom (1 = the first player out), from the
    groups in the order their hands were played. A shared place has the group's best rank for
    every player sharing it. The finishing place follows from the field size N:
    place = N + 1 - rank (`place_of`), so places stay right whenever the field grows."""
    ranks: dict[int, int] = {}
    below = 0
    for group in groups:
        offsets = group_offsets(group.busts, ruleset=ruleset, hand_for_hand=group.hand_for_hand)
        size = len(group.busts)
        for entry_id, offset in offsets.items():
            if entry_id in ranks:
                raise EliminationError("an entry is listed twice")
            ranks[entry_id] = below + size - offset
        below += size
    return ranks


def place_of(rank: int, field: int) -> int:
    """The finishing place of the entry with elimination rank `rank` in a field of `field`
    entries (re-entries count as entries)."""
    if not 1 <= rank <= field:
        raise EliminationError("an elimination rank lies outside the field")
    return field + 1 - rank


def places_are_complete(places: Sequence[int], field: int) -> bool:
    """True when the places given to a finished field of `field` entries fill 1..field exactly
    once, shared places counted as the range they take (two sharing 5th take 5th and 6th)."""
    if len(places) != field:
        return False
    sharing = Counter(places)
    return all(
        place <= position < place + sharing[place]
        for position, place in enumerate(sorted(places), start=1)
    )


def split_shared_prize(places: Sequence[int], payouts: Sequence[int], unit: int) -> list[int]:
    """Split the prizes of the places a group shares (one shared place, `len(places)` players
    occupying it and the places below it) into equal shares in multiples of `unit`; the odd
    remainder goes to the first shares so the total is exact."""
    if not places:
        return []
    if len(set(places)) != 1:
        raise EliminationError("the players must share one place")
    if unit < 1:
        raise EliminationError("unit must be at least 1")
    first = places[0]
    count = len(places)
    total = sum(payouts[p - 1] for p in range(first, first + count) if 0 < p <= len(payouts))
    units, rest = divmod(total, unit)
    base, extra = divmod(units, count)
    shares = [(base + (1 if i < extra else 0)) * unit for i in range(count)]
    shares[0] += rest
    return shares
