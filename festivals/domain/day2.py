"""Day 2 of a multi-flight event: who advances from the Day-1 flights and where they sit.

The rulebooks (tda-de, bdpv) have no flight rule; what follows is the event's documented policy.

- Merge: a player may bag chips in several flights. With "best stack" the biggest bag advances
  (equal bags: the earlier flight, then the lower entry id) and the others are forfeited; with
  "all stacks advance" two bags of one player are an error the floor must settle.
- Draw: only the leading tables (in the order given) that are needed are used, filled so that
  sizes differ by at most one (a table with fewer seats than the others may simply be full).
  Players are dealt in rounds, one per table with a free seat: round k goes to the tables with
  more than k seats. Random draw: the players in random order, each round dealt to the tables
  in order. Seeded draw: the players ranked by chips (equal chips in random order), round k
  dealt in snake order (even rounds to the tables in order, odd rounds in reverse), so each
  table gets exactly one stack of each round. Inside a table the seats are a random permutation
  of its seat numbers.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from random import Random

from tables.domain.seating import shuffle, tables_needed


class FestivalError(ValueError):
    """A request the event's policy refuses; `code` names the reason for callers to translate."""

    def __init__(
        self,
        message: str,
        *,
        code: str,
        player_id: int | None = None,
        tables: tuple[int, ...] = (),
    ) -> None:
        super().__init__(message)
        self.code = code
        self.player_id = player_id
        self.tables = tables


@dataclass(frozen=True)
class Survivor:
    """A bag from a Day-1 flight."""

    player_id: int
    entry_id: int  # the entry in its flight
    flight: int  # flight index (0 = Day 1A, 1 = 1B, ...), orders ties
    chips: int  # the bag count
    bag: str  # the bag number


@dataclass(frozen=True)
class Merge:
    advancing: list[Survivor]  # one per player, sorted by chips desc, then flight, then entry_id
    forfeited: list[Survivor]  # the smaller bags of players who bagged in several flights


@dataclass(frozen=True)
class Seat:
    table: int
    seat: int


def _stack_order(s: Survivor) -> tuple[int, int, int]:
    return (-s.chips, s.flight, s.entry_id)


def merge_survivors(bags: Sequence[Survivor], *, best_stack: bool) -> Merge:
    """The bags that advance to Day 2, one per player.

    best_stack=True: a player who bagged in several flights keeps the biggest bag (equal bags:
    the earlier flight, then the lower entry id); the others are forfeited.
    best_stack=False ("all stacks advance"): a player with two bags is an error,
    FestivalError(code="two_bags", player_id=...) for the lowest such player id.
    Both lists are sorted by chips (biggest first), then flight, then entry id."""
    by_player: dict[int, list[Survivor]] = defaultdict(list)
    for bag in bags:
        by_player[bag.player_id].append(bag)
    if not best_stack:
        doubled = sorted(p for p, own in by_player.items() if len(own) > 1)
        if doubled:
            raise FestivalError(
                f"player {doubled[0]} bagged chips in more than one flight",
                code="two_bags",
                player_id=doubled[0],
            )
    advancing: list[Survivor] = []
    forfeited: list[Survivor] = []
    for own in by_player.values():
        own.sort(key=_stack_order)
        advancing.append(own[0])
        forfeited.extend(own[1:])
    advancing.sort(key=_stack_order)
    forfeited.sort(key=_stack_order)
    return Merge(advancing=advancing, forfeited=forfeited)


def day2_tables(players: int, seats_per_table: int) -> int:
    """Tables needed for `players` at `seats_per_table` seats each: the players divided by the
    seats, rounded up; 0 for no players."""
    if players <= 0:
        return 0
    if seats_per_table < 1:
        raise FestivalError("a table needs at least one seat", code="no_room")
    return tables_needed(players, seats_per_table)


def _tables_in_play(players: int, tables: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The leading tables (tables without seats skipped) whose seats together hold everyone."""
    numbers = [n for n, _ in tables]
    twice = sorted(n for n, c in Counter(numbers).items() if c > 1)
    if twice:
        raise FestivalError(
            f"table {twice[0]} is listed twice", code="table_twice", tables=tuple(twice)
        )
    used: list[tuple[int, int]] = []
    room = 0
    for number, seats in tables:
        if room >= players:
            break
        if seats >= 1:
            used.append((number, seats))
            room += seats
    if room < players:
        raise FestivalError(
            f"{players} players do not fit in {room} seats",
            code="no_room",
            tables=tuple(n for n, _ in used),
        )
    return used


def _round_widths(players: int, capacities: Sequence[int]) -> list[int]:
    """How many players each dealing round holds: round k goes to the tables with more than
    k seats, and the last round holds whoever is left."""
    widths: list[int] = []
    left = players
    k = 0
    while left > 0:
        width = min(left, sum(1 for c in capacities if c > k))
        widths.append(width)
        left -= width
        k += 1
    return widths


def _deal_order(round_: int, used: Sequence[tuple[int, int]], snake: bool) -> list[int]:
    """The tables (indices into `used`) that round `round_` goes to, in dealing order."""
    order = [i for i, (_, seats) in enumerate(used) if seats > round_]
    if snake and round_ % 2 == 1:
        order.reverse()
    return order


def day2_draw(
    survivors: Sequence[Survivor],
    *,
    tables: Sequence[tuple[int, int]],
    seeded: bool,
    rng: Random,
) -> dict[int, Seat]:
    """Seats for Day 2: entry id -> Seat.

    `tables` are (number, seats) in the order to fill; only the leading tables whose seats
    together hold everyone are used (T tables), and table sizes differ by at most one (a table
    with fewer seats may simply be full). The players are dealt in rounds of one per table with
    a free seat (T per round while every table has room).
    Random: the players in random order, each round dealt to the tables in order.
    Seeded: the players ranked by chips, biggest first (equal chips in random order); rank r is
    in round k = r // T, and round k is dealt in snake order: ranks kT..kT+T-1 go to tables
    1..T when k is even, T..1 when k is odd, so each table gets exactly one stack of each round.
    In both, each table's players take a random permutation of its seat numbers 1..seats.
    Raises FestivalError with code "empty" (no survivors), "no_room" (the seats cannot hold
    everyone), "table_twice" (a table number listed twice) or "entry_twice" (an entry twice)."""
    if not survivors:
        raise FestivalError("there is nobody to seat", code="empty")
    entries = Counter(s.entry_id for s in survivors)
    twice = sorted(e for e, c in entries.items() if c > 1)
    if twice:
        raise FestivalError(f"entry {twice[0]} is listed twice", code="entry_twice")
    used = _tables_in_play(len(survivors), tables)
    players = list(survivors)
    shuffle(players, rng)
    if seeded:
        players.sort(key=lambda s: -s.chips)  # stable: equal chips keep the random order
    at_table: list[list[int]] = [[] for _ in used]
    rank = 0
    for k, width in enumerate(_round_widths(len(players), [s for _, s in used])):
        for index in _deal_order(k, used, seeded)[:width]:
            at_table[index].append(players[rank].entry_id)
            rank += 1
    result: dict[int, Seat] = {}
    for (number, seats), entries_here in zip(used, at_table, strict=True):
        numbers = list(range(1, seats + 1))
        shuffle(numbers, rng)
        for entry, seat in zip(entries_here, numbers, strict=False):
            result[entry] = Seat(number, seat)
    return result


def draw_violations(
    draw: Mapping[int, Seat],
    survivors: Sequence[Survivor],
    *,
    tables: Sequence[tuple[int, int]],
    seeded: bool,
) -> list[str]:
    """What is wrong with a Day-2 draw, in plain English (an empty list: nothing).

    Checked: a seat held twice; a table that is not among the tables in play or a seat number
    outside 1..seats; a survivor without a seat, or a seat for someone who is not a survivor;
    table sizes differing by more than one (a full table may be smaller); and when seeded, the
    stacks not spread one per table in each round: with all chips ranked biggest first, a
    table's k-th biggest stack must lie within the chips of round k (equal chips may swap)."""
    problems: list[str] = []
    known = {s.entry_id: s for s in survivors}
    try:
        used = _tables_in_play(len(known), tables)
    except FestivalError as error:
        return [str(error)]
    seats_of = dict(used)
    holders: dict[tuple[int, int], list[int]] = defaultdict(list)
    for entry, placed in sorted(draw.items(), key=lambda item: item[0]):
        holders[(placed.table, placed.seat)].append(entry)
    strangers: set[int] = set()
    for (table, number), entries in sorted(holders.items()):
        if len(entries) > 1:
            who = ", ".join(str(e) for e in entries)
            problems.append(f"table {table} seat {number} is held by entries {who}")
        if table not in seats_of:
            if table not in strangers:
                strangers.add(table)
                problems.append(f"table {table} is not one of the tables in play")
        elif not 1 <= number <= seats_of[table]:
            problems.append(f"table {table} has no seat {number} (seats 1 to {seats_of[table]})")
    for entry in sorted(set(known) - set(draw)):
        problems.append(f"entry {entry} has no seat")
    for entry in sorted(set(draw) - set(known)):
        problems.append(f"entry {entry} has a seat but is not a survivor")
    chips_at: dict[int, list[int]] = {n: [] for n, _ in used}
    for entry, seat in draw.items():
        if entry in known and seat.table in chips_at:
            chips_at[seat.table].append(known[entry].chips)
    problems.extend(_uneven(chips_at, seats_of))
    if seeded:
        problems.extend(_unspread(chips_at, [s.chips for s in survivors], used))
    return problems


def _uneven(chips_at: Mapping[int, list[int]], seats_of: Mapping[int, int]) -> list[str]:
    """Tables more than one player apart, unless the smaller one is full."""
    if not chips_at:
        return []
    most = max(chips_at, key=lambda n: (len(chips_at[n]), -n))
    return [
        f"table {most} has {len(chips_at[most])} players and table {n} has {len(chips)}"
        for n, chips in sorted(chips_at.items())
        if len(chips_at[most]) - len(chips) > 1 and len(chips) < seats_of[n]
    ]


def _unspread(
    chips_at: Mapping[int, list[int]], all_chips: Sequence[int], used: Sequence[tuple[int, int]]
) -> list[str]:
    """Tables whose k-th biggest stack does not lie within the chips of round k."""
    ranked = sorted(all_chips, reverse=True)
    bounds: list[tuple[int, int]] = []  # (biggest, smallest) chips of each round
    start = 0
    for width in _round_widths(len(ranked), [s for _, s in used]):
        bounds.append((ranked[start], ranked[start + width - 1]))
        start += width
    problems: list[str] = []
    for number, chips in sorted(chips_at.items()):
        for k, value in enumerate(sorted(chips, reverse=True)):
            if k >= len(bounds):
                problems.append(f"table {number} has more stacks than there are rounds")
                break
            high, low = bounds[k]
            if not low <= value <= high:
                problems.append(
                    f"table {number}: its stack number {k + 1} ({value} chips) is not from "
                    f"round {k + 1} (between {low} and {high} chips)"
                )
                break
    return problems
