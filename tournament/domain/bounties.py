"""Bounties: who gets what when a player is knocked out.

A bounty is part of every buy-in (and re-entry) that sits on the player's head instead of going
into the prize pool.

- **Fixed** (`fixed`): whoever knocks the player out is paid the whole bounty.
- **Progressive knockout** (`progressive`, PKO): half is paid to the eliminator, the other half
  is added to the eliminator's own bounty, so bounties grow as players collect them.

Several players who knock one player out in the same hand (the busted player lost to each of
them in a side pot or the main pot) share the bounty equally; what cannot be shared evenly in the
rounding unit goes to the first one listed. The winner of the tournament collects their own
bounty. Everything is in minor units and sums exactly to the bounty that was on the head.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

BountyKind = Literal["none", "fixed", "progressive"]


class BountyError(ValueError):
    """A knock-out that cannot be paid as asked."""


@dataclass(frozen=True)
class Award:
    cash: dict[int, int]  # eliminator -> paid out
    added: dict[int, int]  # eliminator -> added to their own bounty (progressive only)

    @property
    def total(self) -> int:
        return sum(self.cash.values()) + sum(self.added.values())


def share(amount: int, people: Sequence[int], unit: int = 1) -> dict[int, int]:
    """`amount` shared equally in multiples of `unit`; the rest goes to the first listed."""
    if not people:
        raise BountyError("a bounty needs at least one eliminator")
    if len(set(people)) != len(people):
        raise BountyError("an eliminator is listed twice")
    if amount < 0 or unit < 1:
        raise BountyError("amounts cannot be negative and the unit is at least 1")
    each = (amount // len(people)) // unit * unit
    out = {p: each for p in people}
    out[people[0]] += amount - each * len(people)
    return out


def award(kind: BountyKind, bounty: int, eliminators: Sequence[int], unit: int = 1) -> Award:
    """What each eliminator gets for knocking out a player with `bounty` on their head."""
    if kind == "none":
        return Award({}, {})
    if bounty < 0:
        raise BountyError("a bounty cannot be negative")
    if kind == "fixed":
        return Award(share(bounty, eliminators, unit), {e: 0 for e in eliminators})
    if kind == "progressive":
        to_head = (bounty // 2) // unit * unit
        cash = bounty - to_head
        return Award(share(cash, eliminators, unit), share(to_head, eliminators, unit))
    raise BountyError(f"unknown bounty kind {kind!r}")
