"""Penalties: the ruleset's ladder, escalation on repeat, and hands to sit out.

`tda-de` 69: a warning, one or more missed hands, one or more missed rounds — a round is one hand
for every player at the table when the penalty is given, the player included — and
disqualification; repeated offences may be punished harder. `bdpv` 6: a warning, a suspension
for a time (Floor counts it in rounds), exclusion. The floor always chooses; the ladder gives the
suggestion: the next rung above the player's harshest penalty so far.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules_engine.domain.rulesets import PenaltyStep

KINDS = ("warning", "hands", "rounds", "disqualification")


class PenaltyError(ValueError):
    """A penalty that cannot be given."""


@dataclass(frozen=True)
class Given:
    kind: str
    count: int = 0


def severity(step: PenaltyStep | Given, players_at_table: int = 9) -> int:
    """Comparable weight: warning 0 < hands < rounds < disqualification."""
    if step.kind == "warning":
        return 0
    if step.kind == "hands":
        return step.count
    if step.kind == "rounds":
        return step.count * max(players_at_table, 2)
    return 10_000


def suggest(ladder: Sequence[PenaltyStep], previous: Sequence[Given]) -> PenaltyStep:
    """The first rung harsher than anything the player has had; the first rung for a first
    offence, the last rung when the ladder is used up."""
    if not ladder:
        raise PenaltyError("the ruleset has no penalty ladder")
    if not previous:
        return ladder[0]
    worst = max(severity(g) for g in previous)
    for step in ladder:
        if severity(step) > worst:
            return step
    return ladder[-1]


def hands_to_sit_out(kind: str, count: int, players_at_table: int) -> int:
    """tda-de 69: hands are counted directly; a round is one hand per player at the table
    (the penalised player included) times the rounds."""
    if kind not in KINDS:
        raise PenaltyError(f"unknown penalty {kind!r}")
    if kind in ("warning", "disqualification"):
        if count:
            raise PenaltyError(f"a {kind} has no count")
        return 0
    if count < 1:
        raise PenaltyError("sit out at least one hand or round")
    if kind == "hands":
        return count
    if players_at_table < 1:
        raise PenaltyError("the player must be seated at a table to sit out rounds")
    return players_at_table * count
