"""Bagging at the end of a flight: every player still in bags and counts his chips, the bag gets
a number, and the counts are checked before the flight closes.

The rulebooks (tda-de, bdpv) have no flight or bagging rule; the checks below are the event's
documented policy:
- a count that is not a multiple of the smallest chip in play (after colour-ups) is a typo or a
  miscount;
- a count more than twice the leader before bagging (or, with no leader known, more than twelve
  times the average stack) is probably a digit too many;
- a count re-entered for the same player that disagrees with the one before is disputed;
- a table's bags against the same players' earlier counts of this level, and all bags against
  the chips in play, may differ only by a tolerance in basis points of the expected sum.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from enum import Enum

BAG_PATTERN = re.compile(r"[A-Z0-9-]{1,20}")
LEADERS = 10
# A count above this many times the leader before bagging is flagged (FAR_ABOVE_LEADER).
LEADER_FACTOR = 2
# With no leader known: a count above this many times the average stack is flagged.
AVERAGE_FACTOR = 12
BASIS_POINTS = 10_000


class Flag(Enum):
    NOT_MULTIPLE = "not_multiple"  # count not a multiple of the smallest chip in play
    FAR_ABOVE_LEADER = (
        "far_above_leader"  # count > 2 x leader_before (if known), else > 12 x average
    )
    DISPUTED = "disputed"  # a re-entered count for the same player disagrees
    TABLE_SUM_OFF = "table_sum_off"  # table sum vs the players' previous counts, beyond tolerance
    ROOM_SUM_OFF = "room_sum_off"  # all bags vs chips in play, beyond tolerance


@dataclass(frozen=True)
class BagCount:
    entry_id: int
    count: int
    bag: str
    verified: bool
    disputed: bool = False  # caller sets it when the last two entries for this player disagree


@dataclass(frozen=True)
class Seated:
    entry_id: int
    table: int
    seat: int


@dataclass(frozen=True)
class Finding:
    """Something for the floor to look at. `figures` by flag:
    NOT_MULTIPLE (count, smallest_chip); FAR_ABOVE_LEADER (count, reference), the reference being
    the leader before bagging or, when none is known, the average stack (rounded down);
    DISPUTED (count,); TABLE_SUM_OFF (table_sum, previous_sum);
    ROOM_SUM_OFF (total, chips_in_play, tolerance). Player findings name the table and the
    entry; TABLE_SUM_OFF names only the table; ROOM_SUM_OFF names neither."""

    flag: Flag
    table: int | None
    entry_id: int | None
    figures: tuple[int, ...]


@dataclass(frozen=True)
class TableProgress:
    table: int
    players: int
    counted: int
    verified: int
    missing: tuple[int, ...]  # entry ids without a bag
    unverified: tuple[int, ...]
    total: int  # sum of bags at this table
    flagged: bool


@dataclass(frozen=True)
class BagReport:
    tables: list[TableProgress]  # by table number
    findings: list[Finding]
    total: int  # all bags
    chips_in_play: int
    off_by: int  # total - chips_in_play
    tolerance: int  # in chips
    missing: int  # players without a bag
    unverified: int
    complete: bool  # nobody missing, all verified
    leaders: list[tuple[int, int]]  # (entry_id, count), biggest first, top 10 (ties: entry id)


def tolerance_chips(chips_in_play: int, tolerance_bp: int) -> int:
    """The tolerance in chips: `tolerance_bp` basis points (1/100 of a percent) of the chips,
    rounded down; never below 0."""
    return max(0, chips_in_play * tolerance_bp // BASIS_POINTS)


def smallest_chip_in_play(denominations: Sequence[int], coloured_up: Collection[int]) -> int | None:
    """The smallest denomination not yet coloured up (None when none is left): every count must
    be a multiple of it."""
    left = [d for d in denominations if d > 0 and d not in coloured_up]
    return min(left, default=None)


def normalise_bag(bag: str) -> str:
    """A bag number as stored and compared: surrounding spaces removed, upper case."""
    return bag.strip().upper()


def bag_refusal(bag: str, *, entry_id: int, taken: Mapping[str, int]) -> str | None:
    """Why a bag number is refused, or None when it is fine: "bag_empty" (nothing but spaces),
    "bag_format" (allowed: 1 to 20 characters, ASCII letters, digits and '-', no spaces inside)
    or "bag_taken" (another entry holds it; `taken` maps normalised bag numbers to entry ids, and
    an entry may re-use its own bag). Compared without regard to case or surrounding spaces."""
    number = normalise_bag(bag)
    if not number:
        return "bag_empty"
    if not BAG_PATTERN.fullmatch(number):
        return "bag_format"
    holder = taken.get(number)
    if holder is not None and holder != entry_id:
        return "bag_taken"
    return None


def _player_findings(
    player: Seated,
    bag: BagCount,
    *,
    smallest_chip: int | None,
    leader_before: int | None,
    chips_in_play: int,
    field: int,
) -> list[Finding]:
    found: list[Finding] = []

    def add(flag: Flag, *figures: int) -> None:
        found.append(Finding(flag, player.table, player.entry_id, figures))

    if smallest_chip and bag.count % smallest_chip:
        add(Flag.NOT_MULTIPLE, bag.count, smallest_chip)
    if leader_before is not None and leader_before > 0:
        if bag.count > LEADER_FACTOR * leader_before:
            add(Flag.FAR_ABOVE_LEADER, bag.count, leader_before)
    elif field and bag.count * field > AVERAGE_FACTOR * chips_in_play:
        add(Flag.FAR_ABOVE_LEADER, bag.count, chips_in_play // field)
    if bag.disputed:
        add(Flag.DISPUTED, bag.count)
    return found


def bag_report(
    players: Sequence[Seated],
    bags: Mapping[int, BagCount],
    *,
    chips_in_play: int,
    smallest_chip: int | None,
    leader_before: int | None,
    previous: Mapping[int, int],
    tolerance_bp: int,
) -> BagReport:
    """The state of bagging, table by table, with what the floor must look at.

    `players`: everyone still in (each must be bagged). `bags`: the latest bag per entry id; a
    bag for an entry not in `players` is ignored. Each bag is checked for NOT_MULTIPLE (when
    `smallest_chip` is known), FAR_ABOVE_LEADER (against `leader_before` when known and above 0,
    else against the average stack, chips in play / players) and DISPUTED.
    `previous`: entry id -> an earlier count of this level. A table's sum is checked against
    the sum of its players' earlier counts only when every player at the table has both a bag
    and an earlier count; it is off when it differs by more than tolerance_chips(earlier sum,
    tolerance_bp). The sum of all bags is checked against the chips in play (tolerance:
    tolerance_chips(chips_in_play, tolerance_bp)) only when nobody is missing. Complete means
    nobody missing and every bag verified. Findings come table by table (players by seat, then
    the table's sum), the room's sum last."""
    at_table: dict[int, list[Seated]] = defaultdict(list)
    seen: set[int] = set()
    for p in players:
        if p.entry_id not in seen:
            seen.add(p.entry_id)
            at_table[p.table].append(p)
    field = len(seen)
    findings: list[Finding] = []
    progress: list[TableProgress] = []
    for number in sorted(at_table):
        here = sorted(at_table[number], key=lambda p: (p.seat, p.entry_id))
        counted = [bags[p.entry_id] for p in here if p.entry_id in bags]
        table_findings: list[Finding] = []
        for p in here:
            if p.entry_id in bags:
                table_findings += _player_findings(
                    p,
                    bags[p.entry_id],
                    smallest_chip=smallest_chip,
                    leader_before=leader_before,
                    chips_in_play=chips_in_play,
                    field=field,
                )
        total = sum(b.count for b in counted)
        if len(counted) == len(here) and all(p.entry_id in previous for p in here):
            before = sum(previous[p.entry_id] for p in here)
            if abs(total - before) > tolerance_chips(before, tolerance_bp):
                table_findings.append(Finding(Flag.TABLE_SUM_OFF, number, None, (total, before)))
        findings += table_findings
        progress.append(
            TableProgress(
                table=number,
                players=len(here),
                counted=len(counted),
                verified=sum(1 for b in counted if b.verified),
                missing=tuple(sorted(p.entry_id for p in here if p.entry_id not in bags)),
                unverified=tuple(
                    sorted(
                        p.entry_id
                        for p in here
                        if p.entry_id in bags and not bags[p.entry_id].verified
                    )
                ),
                total=total,
                flagged=bool(table_findings),
            )
        )
    in_play = {e: bags[e] for e in seen if e in bags}
    total = sum(b.count for b in in_play.values())
    tolerance = tolerance_chips(chips_in_play, tolerance_bp)
    missing = field - len(in_play)
    unverified = sum(1 for b in in_play.values() if not b.verified)
    if not missing and abs(total - chips_in_play) > tolerance:
        findings.append(Finding(Flag.ROOM_SUM_OFF, None, None, (total, chips_in_play, tolerance)))
    leaders = sorted(((e, b.count) for e, b in in_play.items()), key=lambda x: (-x[1], x[0]))
    return BagReport(
        tables=progress,
        findings=findings,
        total=total,
        chips_in_play=chips_in_play,
        off_by=total - chips_in_play,
        tolerance=tolerance,
        missing=missing,
        unverified=unverified,
        complete=not missing and not unverified,
        leaders=leaders[:LEADERS],
    )
