"""Finishing places when players are eliminated, one or several in the same hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


class EliminationError(ValueError):
    """Eliminations that cannot be ranked."""


@dataclass(frozen=True)
class Bust:
    entry_id: int
    stack_at_hand_start: int = 0
    # Seats clockwise from the button (the button itself is 0); used by bdpv 6.28 on equal stacks.
    seats_from_button: int = 0


def rank_simultaneous_busts(
    busts: Sequence[Bust],
    *,
    ruleset: str,
    hand_for_hand: bool,
    players_remaining_before: int,
) -> dict[int, int]:
    """Finishing place per entry id for players out in the same hand.

    The group takes the places just below those still playing. The larger stack at the start of
    the hand finishes higher. On equal stacks bdpv (section 6, rule 28) ranks the player closer to
    the button clockwise higher; otherwise the players share the place. In tda-de hand-for-hand
    play, players out in the same hand share the place (their prizes are split).
    """
    if not busts:
        return {}
    ids = [b.entry_id for b in busts]
    if len(set(ids)) != len(ids):
        raise EliminationError("an entry is listed twice")
    if len(busts) >= players_remaining_before:
        raise EliminationError("at least one player must remain")
    if any(b.stack_at_hand_start < 0 or b.seats_from_button < 0 for b in busts):
        raise EliminationError("stacks and seat distances cannot be negative")
    top = players_remaining_before - len(busts) + 1
    if ruleset == "tda-de" and hand_for_hand:
        return {b.entry_id: top for b in busts}

    def key(b: Bust) -> tuple[int, ...]:
        if ruleset == "bdpv":
            return (-b.stack_at_hand_start, b.seats_from_button)
        return (-b.stack_at_hand_start,)

    ordered = sorted(busts, key=key)
    places: dict[int, int] = {}
    place = top
    for i, b in enumerate(ordered):
        if i > 0 and key(b) != key(ordered[i - 1]):
            place = top + i
        places[b.entry_id] = place
    return places


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
