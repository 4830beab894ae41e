"""Seat draw, late seats, balancing, breaking tables and the final table (pure, no storage).

A `Layout` is the tournament's open tables with who sits where and where each button is. The
functions here never change a layout in place: they return the moves to make, so the caller
can show them, store them and apply them in one transaction.

Rules (cited by number, summarized in docs/seating.md):
- tda-de 6: seats are drawn at random; 7: late entries and alternates get a random seat and sit
  out between the small blind and the button; 8: special needs are accommodated; 9: players of
  a broken table are redrawn at random and may land anywhere except between the small blind
  and the button; 10: balancing moves the player due the big blind next to the worst position
  (the seat due the big blind next, never the small blind) of a table chosen by a fixed
  procedure, and play holds at a table three or more players short; 11: the final table.
- bdpv section 6 rule 12: a moved player keeps the same position relative to the button;
  bdpv seating rule 4: players who must not sit together (keep-apart pairs).
"""

from __future__ import annotations

import hashlib
import math
import os
import secrets
from array import array
from bisect import insort
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from random import Random
from typing import NamedTuple, TypeVar

from tables.domain.button import (
    Blinds,
    ButtonError,
    clockwise,
    due_big_blind_next,
    position_from_button,
    waiting_seats,
    worst_empty_seat,
)

T = TypeVar("T")


class SeatingError(ValueError):
    """A seating request that cannot be met."""


def secure_random() -> Random:
    """The draw's randomness comes from the operating system's secure source."""
    return secrets.SystemRandom()


def shuffle(items: list[T], rng: Random) -> None:
    """Shuffle in place (Fisher-Yates). With the secure source the random numbers are read in
    one go, eight bytes per element, instead of one system call per element as
    `SystemRandom.shuffle` makes (60 ms for a field of 30,000 on a small machine). Reducing a
    64-bit number modulo at most 30,000 biases a choice by less than 2e-15."""
    if not isinstance(rng, secrets.SystemRandom):
        rng.shuffle(items)
        return
    values = array("Q", os.urandom(8 * len(items)))
    for i in range(len(items) - 1, 0, -1):
        j = values[i] % (i + 1)
        items[i], items[j] = items[j], items[i]


@dataclass(frozen=True)
class TableState:
    number: int
    size: int
    # seat -> entry id
    seated: dict[int, int] = field(default_factory=dict)
    blinds: Blinds | None = None
    # Seats whose players sit out until the button passes (tda-de 7).
    waiting: frozenset[int] = frozenset()
    opening_order: int = 0

    @property
    def count(self) -> int:
        return len(self.seated)

    @property
    def playing(self) -> frozenset[int]:
        return frozenset(s for s in self.seated if s not in self.waiting)

    def empty_seats(self) -> list[int]:
        return [s for s in range(1, self.size + 1) if s not in self.seated]

    def seat_of(self, entry: int) -> int | None:
        for seat, e in self.seated.items():
            if e == entry:
                return seat
        return None


class Seat(NamedTuple):
    """A drawn seat (a tuple: a 30,000-player draw makes 30,000 of them)."""

    table: int
    seat: int
    must_wait: bool = False


@dataclass(frozen=True)
class Move:
    entry: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    must_wait: bool = False
    reason: str = "balance"  # balance | break | final


@dataclass(frozen=True)
class Rules:
    """The balancing parameters of the ruleset (rules_engine provides them per ruleset)."""

    tolerance: int = 1  # tables may differ by this many players (tda-de 10)
    hold_short_by: int = 3  # a table this many short of the fullest holds play (tda-de 10)
    keep_position: bool = False  # bdpv 6.12: same position relative to the button


@dataclass(frozen=True)
class BalancePlan:
    moves: tuple[Move, ...]
    holds: tuple[int, ...]  # tables that must hold play until the moves are made
    signature: str  # identifies the layout the plan was made for


# --- Draw -------------------------------------------------------------------------------


def tables_needed(players: int, seats_per_table: int) -> int:
    return max(1, math.ceil(players / seats_per_table)) if players else 0


def even_sizes(players: int, capacities: Sequence[int]) -> list[int]:
    """How many players each table (in opening order) gets so that sizes differ by at most one
    (tables smaller than the others are simply full)."""
    if players > sum(capacities):
        raise SeatingError(f"{players} players do not fit in {sum(capacities)} seats")
    if players <= 0 or not capacities:
        return [0] * len(capacities)
    lo, hi = 0, max(capacities)
    while lo < hi:  # the lowest level that holds everyone
        mid = (lo + hi) // 2
        if sum(min(c, mid) for c in capacities) >= players:
            hi = mid
        else:
            lo = mid + 1
    sizes = [min(c, lo - 1) for c in capacities]
    remaining = players - sum(sizes)
    for i, c in enumerate(capacities):
        if remaining and c >= lo:
            sizes[i] += 1
            remaining -= 1
    return sizes


def draw(
    entries: Sequence[int],
    tables: Sequence[tuple[int, int]],
    *,
    rng: Random | None = None,
    reserved: dict[int, tuple[int, int]] | None = None,
    keep_apart: Iterable[tuple[int, int]] = (),
) -> dict[int, Seat]:
    """Draw seats for the whole field (tda-de 6).

    `tables` are (number, seats) in opening order; only as many are used as needed, filled
    evenly. `reserved` pins entries to a (table, seat) for special needs (tda-de 8). Pairs in
    `keep_apart` never share a table when the field allows it (bdpv seating rule 4).
    """
    rng = rng or secure_random()
    reserved = dict(reserved or {})
    if len(set(entries)) != len(entries):
        raise SeatingError("an entry is listed twice")
    unknown = set(reserved) - set(entries)
    if unknown:
        raise SeatingError(f"reserved seats for entries not in the draw: {sorted(unknown)}")
    pinned = list(reserved.values())
    if len(set(pinned)) != len(pinned):
        raise SeatingError("two players reserved for the same seat")
    count = tables_needed(len(entries), max((s for _, s in tables), default=0) or 1)
    capacity = 0
    used: list[tuple[int, int]] = []
    for number, seats in tables:
        if capacity >= len(entries) and len(used) >= count:
            break
        used.append((number, seats))
        capacity += seats
    for t, _s in pinned:
        if t not in {n for n, _ in used}:
            extra = next(((n, c) for n, c in tables if n == t), None)
            if extra is None:
                raise SeatingError(f"reserved table {t} does not exist")
            used.append(extra)
    sizes_by_table = dict(
        zip((n for n, _ in used), even_sizes(len(entries), [s for _, s in used]), strict=True)
    )
    seats_by_table = dict(used)
    for t, s in pinned:
        if not 1 <= s <= seats_by_table[t]:
            raise SeatingError(f"table {t} has no seat {s}")
    free = [e for e in entries if e not in reserved]
    shuffle(free, rng)
    # Slots: each table's share of players, the reserved seats counted first.
    slots: list[tuple[int, int]] = []
    for number, _size in used:
        pinned_here = [s for t, s in pinned if t == number]
        open_seats = [s for s in range(1, seats_by_table[number] + 1) if s not in pinned_here]
        want = max(0, sizes_by_table[number] - len(pinned_here))
        if want < len(open_seats):  # which seats stay empty is drawn too
            rng.shuffle(open_seats)
        slots.extend((number, s) for s in open_seats[:want])
    if len(slots) < len(free):
        raise SeatingError("not enough seats")
    # `free` is in random order, so handing out the slots in order is a uniformly random
    # assignment of players to seats; a second shuffle would add nothing.
    result = {e: Seat(t, s) for e, (t, s) in zip(free, slots, strict=False)}
    for e, (t, s) in reserved.items():
        result[e] = Seat(t, s)
    return _keep_apart(result, list(keep_apart), reserved, rng)


def _keep_apart(
    result: dict[int, Seat],
    pairs: list[tuple[int, int]],
    reserved: dict[int, tuple[int, int]],
    rng: Random,
) -> dict[int, Seat]:
    """Swap players until no keep-apart pair shares a table (bounded tries)."""
    if not pairs:
        return result
    movable = [e for e in result if e not in reserved]
    for _ in range(50 * len(pairs) + 100):
        clash = next(
            (
                (a, b)
                for a, b in pairs
                if a in result and b in result and result[a].table == result[b].table
            ),
            None,
        )
        if clash is None:
            return result
        a, b = clash
        mover = b if b not in reserved else a
        if mover in reserved:
            raise SeatingError("two reserved players who must sit apart share a table")
        other = rng.choice(movable)
        if result[other].table == result[mover].table:
            continue
        partners = {x for p in pairs for x in p if mover in p} - {mover}
        if any(result.get(p) and result[p].table == result[other].table for p in partners):
            continue
        result[mover], result[other] = result[other], result[mover]
    raise SeatingError("the keep-apart pairs cannot all be seated apart")


# --- Late entries -------------------------------------------------------------------------


def late_seat(tables: Sequence[TableState], *, rng: Random | None = None) -> Seat:
    """A random open seat for a late entry or alternate (tda-de 7), at one of the tables with
    the fewest players so the room stays balanced. Sits out if the seat is between the small
    blind and the button."""
    rng = rng or secure_random()
    candidates = [t for t in tables if t.empty_seats()]
    if not candidates:
        raise SeatingError("no open seat")
    fewest = min(t.count for t in candidates)
    table = rng.choice([t for t in candidates if t.count == fewest])
    seat = rng.choice(table.empty_seats())
    return Seat(table.number, seat, must_wait=_must_wait(table, seat))


def _must_wait(table: TableState, seat: int) -> bool:
    if table.blinds is None:
        return False
    return seat in waiting_seats(table.size, table.blinds)


# --- Balancing ----------------------------------------------------------------------------


def signature(tables: Iterable[TableState]) -> str:
    """A short fingerprint of a layout: a plan made for one layout is stale for another."""
    parts = []
    for t in sorted(tables, key=lambda x: x.number):
        seats = ",".join(f"{s}:{e}" for s, e in sorted(t.seated.items()))
        b = t.blinds
        parts.append(f"{t.number}[{seats}]{b.big_blind if b else '-'}")
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


def holds(counts: Mapping[int, int], rules: Rules) -> tuple[int, ...]:
    """Tables that must hold play: this many or more short of the fullest (tda-de 10)."""
    if len(counts) < 2:
        return ()
    most = max(counts.values())
    return tuple(sorted(n for n, c in counts.items() if most - c >= rules.hold_short_by))


# --- Head counts ----------------------------------------------------------------------------


@dataclass(frozen=True)
class TableCount:
    number: int
    players: int
    seats: int


def fullest_first(t: TableCount) -> tuple[int, int]:
    """The order of givers: most players first, the lowest number on a tie."""
    return (-t.players, t.number)


def emptiest_first(t: TableCount) -> tuple[int, int]:
    """The order of receivers: fewest players first, the lowest number on a tie."""
    return (t.players, t.number)


class NeedMoreCounts(Exception):
    """The plan reached past the head counts it was given: read more rows from `end`
    ('fullest' or 'emptiest') and plan again; `players_at_most`, when given, asks for every
    table with at most that many players."""

    def __init__(self, end: str, players_at_most: int | None = None) -> None:
        super().__init__(f"read more of the {end} tables")
        self.end = end
        self.players_at_most = players_at_most


@dataclass(frozen=True)
class HeadCounts:
    """The head counts of the open tables a plan may look at: the `fullest` tables in
    `fullest_first` order and the `emptiest` in `emptiest_first` order, each list cut after its
    limit of rows. A list shorter than its limit holds every open table. Every table outside a
    cut list comes after its last row in that order, which is how a plan knows when it needs
    more.

    At 30,000 entries a room has over 3,000 tables; balancing after a bust needs a handful of
    them, so the caller reads a few rows from each end (an index does it) instead of all."""

    fullest: tuple[TableCount, ...]
    emptiest: tuple[TableCount, ...]
    fullest_limit: int
    emptiest_limit: int

    @classmethod
    def whole(cls, counts: Mapping[int, int], sizes: Mapping[int, int]) -> HeadCounts:
        rows = [TableCount(n, counts[n], sizes[n]) for n in counts]
        return cls(
            tuple(sorted(rows, key=fullest_first)),
            tuple(sorted(rows, key=emptiest_first)),
            fullest_limit=len(rows) + 1,
            emptiest_limit=len(rows) + 1,
        )

    @property
    def fullest_edge(self) -> tuple[int, int] | None:
        """`fullest_first` key of the last row read, when tables beyond it were not read."""
        if len(self.fullest) < self.fullest_limit:
            return None
        return fullest_first(self.fullest[-1])

    @property
    def emptiest_edge(self) -> tuple[int, int] | None:
        """`emptiest_first` key of the last row read, when tables beyond it were not read."""
        if len(self.emptiest) < self.emptiest_limit:
            return None
        return emptiest_first(self.emptiest[-1])

    def known(self) -> tuple[dict[int, int], dict[int, int]]:
        """Head count and size of every table read."""
        counts: dict[int, int] = {}
        sizes: dict[int, int] = {}
        for t in (*self.fullest, *self.emptiest):
            counts[t.number] = t.players
            sizes[t.number] = t.seats
        return counts, sizes

    def fingerprint(self) -> str:
        return ";".join(
            f"{t.number}:{t.players}:{t.seats}" for t in (*self.fullest, *self.emptiest)
        )


LoadMany = Callable[[Iterable[int]], Mapping[int, TableState]]


def _loader(load: LoadMany) -> Callable[[Iterable[int]], dict[int, TableState]]:
    def load_many(numbers: Iterable[int]) -> dict[int, TableState]:
        wanted = set(numbers)
        found = dict(load(wanted))
        missing = wanted - set(found)
        if missing:
            raise SeatingError(f"table {min(missing)} is not open")
        return found

    return load_many


def _whole_loader(tables: Sequence[TableState]) -> LoadMany:
    by_number = {t.number: t for t in tables}
    return lambda numbers: {n: by_number[n] for n in numbers if n in by_number}


def plan_balance(tables: Sequence[TableState], rules: Rules | None = None) -> BalancePlan:
    """Balance a whole layout; see `plan_balance_lazy`."""
    return plan_balance_lazy(
        HeadCounts.whole({t.number: t.count for t in tables}, {t.number: t.size for t in tables}),
        _whole_loader(tables),
        rules,
    )


def plan_balance_lazy(head: HeadCounts, load: LoadMany, rules: Rules | None = None) -> BalancePlan:
    """Moves that bring every table within the tolerance (tda-de 10).

    Works from the head counts at both ends of the room (`head`) and loads only the tables
    that give or receive players (`load(numbers)`, one call per move). Raises `NeedMoreCounts`
    when the answer depends on tables beyond the rows read.

    Predetermined procedure (docs/seating.md): the giving table is the one with the most players
    (the lowest number on a tie); the receiving table is the one with the fewest players and an
    empty seat (the lowest number on a tie). The mover is the player due the big blind next at
    the giving table. The mover lands in the worst position of the receiving table (the empty
    seat due the big blind next, never the small blind) or, with `keep_position`, in the empty
    seat whose position relative to the button is closest to the old one (bdpv 6.12).
    """
    rules = rules or Rules()
    load_many = _loader(load)
    counts, sizes = head.known()
    full_edge, empty_edge = head.fullest_edge, head.emptiest_edge
    hold = holds(counts, rules)
    if counts and empty_edge is not None:
        # Tables beyond the edge have at least its head count: read on while they may hold.
        at_most = max(counts.values()) - rules.hold_short_by
        if empty_edge[0] <= at_most:
            raise NeedMoreCounts("emptiest", at_most)
    loaded: dict[int, TableState] = {}
    moves: list[Move] = []

    def key_full(n: int) -> tuple[int, int]:
        return (-counts[n], n)

    def key_empty(n: int) -> tuple[int, int]:
        return (counts[n], n)

    for _ in range(sum(counts.values()) + 1):
        if len(counts) < 2:
            if full_edge is not None:
                raise NeedMoreCounts("fullest")
            if empty_edge is not None:
                raise NeedMoreCounts("emptiest")
            break
        long_n = min(counts, key=key_full)
        if full_edge is not None and key_full(long_n) > full_edge:
            raise NeedMoreCounts("fullest")
        open_tables = [n for n in counts if counts[n] < sizes[n]]
        short_n = min(open_tables, key=key_empty) if open_tables else None
        if empty_edge is not None and (short_n is None or key_empty(short_n) > empty_edge):
            raise NeedMoreCounts("emptiest")
        if short_n is None or counts[long_n] - counts[short_n] <= rules.tolerance:
            break
        need = [n for n in (long_n, short_n) if n not in loaded]
        if need:
            loaded.update(load_many(need))
        long, short = loaded[long_n], loaded[short_n]
        if (long.count, short.count) != (counts[long_n], counts[short_n]):
            # The head counts were read a moment before the tables: trust the tables.
            counts[long_n], counts[short_n] = long.count, short.count
            continue
        move = _balance_move(long, short, rules)
        moves.append(move)
        loaded[long_n] = _without(long, move.from_seat)
        loaded[short_n] = _with(short, move.to_seat, move.entry, move.must_wait)
        counts[long_n] -= 1
        counts[short_n] += 1
    sig = signature(loaded.values()) + ":" + head.fingerprint()
    return BalancePlan(
        moves=tuple(moves), holds=hold, signature=hashlib.sha256(sig.encode()).hexdigest()[:16]
    )


def _balance_move(long: TableState, short: TableState, rules: Rules) -> Move:
    players = long.playing or frozenset(long.seated)
    if long.blinds is not None and len(players) >= 2:
        try:
            from_seat = due_big_blind_next(long.size, players, long.blinds)
        except ButtonError:
            from_seat = min(long.seated)
    else:
        from_seat = min(long.seated)
    entry = long.seated[from_seat]
    to_seat = _landing_seat(long, from_seat, short, rules)
    return Move(
        entry=entry,
        from_table=long.number,
        from_seat=from_seat,
        to_table=short.number,
        to_seat=to_seat,
        must_wait=_must_wait(short, to_seat),
    )


def _landing_seat(long: TableState, from_seat: int, short: TableState, rules: Rules) -> int:
    occupied = frozenset(short.seated)
    if rules.keep_position and long.blinds is not None and short.blinds is not None:
        wanted = position_from_button(
            long.size, frozenset(long.seated), long.blinds.button, from_seat
        )
        best: tuple[int, int] | None = None
        for seat in clockwise(short.size, short.blinds.button):
            if seat in occupied:
                continue
            pos = position_from_button(short.size, occupied | {seat}, short.blinds.button, seat)
            score = abs(pos - wanted)
            if best is None or score < best[0]:
                best = (score, seat)
        if best is not None:
            return best[1]
    return worst_empty_seat(short.size, occupied, short.blinds)


def _without(table: TableState, seat: int) -> TableState:
    seated = dict(table.seated)
    del seated[seat]
    return replace(table, seated=seated, waiting=table.waiting - {seat})


def _with(table: TableState, seat: int, entry: int, wait: bool) -> TableState:
    if seat in table.seated:
        raise SeatingError(f"table {table.number} seat {seat} is taken")
    seated = dict(table.seated)
    seated[seat] = entry
    return replace(table, seated=seated, waiting=table.waiting | ({seat} if wait else set()))


# --- Breaking tables and the final table --------------------------------------------------


def suggest_break(
    counts: Mapping[int, int], seats_per_table: int, *, order: str = "highest"
) -> int | None:
    """The table to break once the players fit in one table fewer (tda-de 9): the highest
    number by default ('highest'), or the lowest ('lowest')."""
    if not counts:
        return None
    return break_due(
        players=sum(counts.values()),
        tables=len(counts),
        lowest=min(counts),
        highest=max(counts),
        seats_per_table=seats_per_table,
        order=order,
    )


def break_due(
    *, players: int, tables: int, lowest: int, highest: int, seats_per_table: int, order: str
) -> int | None:
    """`suggest_break` from the room's totals: players seated, open tables and the lowest and
    highest open table numbers."""
    if tables < 2 or players > (tables - 1) * seats_per_table:
        return None
    return highest if order == "highest" else lowest


def plan_break(
    tables: Sequence[TableState], breaking: int, *, rng: Random | None = None
) -> tuple[Move, ...]:
    """Break a whole layout; see `plan_break_lazy`."""
    return plan_break_lazy(
        HeadCounts.whole({t.number: t.count for t in tables}, {t.number: t.size for t in tables}),
        _whole_loader(tables),
        breaking,
        rng=rng,
    )


def plan_break_lazy(
    head: HeadCounts,
    load: LoadMany,
    breaking: int,
    *,
    rng: Random | None = None,
) -> tuple[Move, ...]:
    """Redraw the players of table `breaking` into the other tables (tda-de 9): each player in
    random order goes to a random table among those with the fewest players, then a random open
    seat there. Seats between the small blind and the button sit out until the button passes.

    Reads the breaking table, then the receiving tables in one `load` call. Raises
    `NeedMoreCounts` unless `head.emptiest` holds every table at the head counts it draws from
    (the draw is among all of them)."""
    rng = rng or secure_random()
    load_many = _loader(load)
    leaving = load_many([breaking])[breaking]
    counts, sizes = head.known()
    counts.pop(breaking, None)
    sizes.pop(breaking, None)
    edge = head.emptiest_edge
    players = sorted(leaving.seated.items())
    rng.shuffle(players)
    for _attempt in range(len(players) + 2):
        targets = _draw_tables(counts, sizes, len(players), edge, rng)
        if not players and not counts:
            raise SeatingError("the last table cannot be broken")
        loaded = load_many(set(targets))
        stale = {n: t.count for n, t in loaded.items() if t.count != counts[n]}
        if not stale:
            break
        counts.update(stale)  # the tables were read a moment after the counts: trust them
    else:
        raise SeatingError("the tables keep changing; try again")
    moves: list[Move] = []
    for (from_seat, entry), number in zip(players, targets, strict=True):
        table = loaded[number]
        seat = rng.choice(table.empty_seats())
        wait = _must_wait(table, seat)
        moves.append(Move(entry, breaking, from_seat, number, seat, wait, "break"))
        loaded[number] = _with(table, seat, entry, wait)
    return tuple(moves)


def _draw_tables(
    counts: Mapping[int, int],
    sizes: Mapping[int, int],
    players: int,
    edge: tuple[int, int] | None,
    rng: Random,
) -> list[int]:
    """A table for each of `players`, one after another: a random one among the open tables with
    the fewest players, counting the players already sent. `edge` is where the head counts
    were cut (see `HeadCounts`)."""
    levels: dict[int, list[int]] = {}
    for n, c in counts.items():
        if c < sizes[n]:
            levels.setdefault(c, []).append(n)
    for numbers in levels.values():
        numbers.sort()
    targets: list[int] = []
    for _ in range(players):
        fewest = min(levels, default=None)
        if edge is not None and (fewest is None or fewest >= edge[0]):
            # The draw is among every table at the fewest: read all of them.
            raise NeedMoreCounts("emptiest", fewest)
        if fewest is None:
            if not counts:
                raise SeatingError("the last table cannot be broken")
            room = sum(sizes[n] - c for n, c in counts.items())
            raise SeatingError(f"{players} players but only {room} open seats elsewhere")
        candidates = levels[fewest]
        number = candidates.pop(rng.randrange(len(candidates)))
        if not candidates:
            del levels[fewest]
        targets.append(number)
        if fewest + 1 < sizes[number]:
            insort(levels.setdefault(fewest + 1, []), number)
    return targets


def fewest_open_tables(head: HeadCounts) -> list[int]:
    """The open tables with a free seat and the fewest players, where a late entry may sit
    (tda-de 7: a random one of them). Raises `NeedMoreCounts` unless all of them were read."""
    counts, sizes = head.known()
    open_numbers = [n for n in counts if counts[n] < sizes[n]]
    fewest = min((counts[n] for n in open_numbers), default=None)
    edge = head.emptiest_edge
    if edge is not None and (fewest is None or fewest >= edge[0]):
        raise NeedMoreCounts("emptiest", fewest)
    return sorted(n for n in open_numbers if counts[n] == fewest)


def plan_final_table(
    tables: Sequence[TableState], final_table: int, final_size: int, *, rng: Random | None = None
) -> tuple[Move, ...]:
    """Random redraw of everyone left for the final table (tda-de 11)."""
    rng = rng or secure_random()
    players = [(t.number, s, e) for t in tables for s, e in sorted(t.seated.items())]
    if len(players) > final_size:
        raise SeatingError(f"{len(players)} players do not fit a final table of {final_size}")
    if not 2 <= final_size <= 10:
        raise SeatingError("a final table has 2 to 10 seats")
    seats = list(range(1, final_size + 1))
    rng.shuffle(seats)
    return tuple(
        Move(e, t, s, final_table, seat, False, "final")
        for (t, s, e), seat in zip(players, seats, strict=False)
    )


def apply_moves(tables: Sequence[TableState], moves: Iterable[Move]) -> list[TableState]:
    """The layout after `moves` (used to check plans; storage applies them for real)."""
    work = {t.number: t for t in tables}
    for m in moves:
        src = work[m.from_table]
        if src.seated.get(m.from_seat) != m.entry:
            raise SeatingError(f"table {m.from_table} seat {m.from_seat} is not entry {m.entry}")
        work[m.from_table] = _without(src, m.from_seat)
        if m.to_table not in work:
            work[m.to_table] = TableState(number=m.to_table, size=10)
        work[m.to_table] = _with(work[m.to_table], m.to_seat, m.entry, m.must_wait)
    return sorted(work.values(), key=lambda t: t.number)
