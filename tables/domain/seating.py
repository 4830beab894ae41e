"""Seat draw, late seats, balancing, breaking tables and the final table (pure, no storage).

A `Layout` is the tournament's open tables with who sits where and where each button is. The
functions here never change a layout in place: they return the moves to make, so the caller
can show them, store them and apply them in one transaction.

A `TableState` is a table during the hand being played. What the next hand looks like (who
posts, who is dealt in, where a newcomer waits) comes from one function, `next_hand_blinds`
(with `tables.domain.button.deal_next_hand` underneath): the mover, the landing seat, the
waiting zone of late seats and broken tables all read it.

Rules (cited by number, summarized in docs/seating.md):
- tda-de 6: seats are drawn at random; 7: late entries and alternates get a random seat and sit
  out between the small blind and the button; 8: special needs are accommodated; 9: players of
  a broken table are redrawn at random and may land anywhere except between the small blind
  and the button; 10: balancing moves the player due the big blind next to the worst position
  (the seat due the big blind next, never the small blind) of a table chosen by a fixed
  procedure, and play holds at a table three or more players short; 11: the final table;
  32-34: the dead-button rules the next hand follows.
- bdpv section 3 rule 2: the big blind always moves on, small blind and button may be dead;
  rule 7 and section 6 rule 12: a moved player keeps the same position relative to the button,
  and a player who must post a blind is not moved; bdpv seating rule 4: players who must not
  sit together (keep-apart pairs).
"""

from __future__ import annotations

import hashlib
import math
import os
import secrets
from array import array
from bisect import insort
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from itertools import islice
from random import Random
from typing import NamedTuple, TypeVar

from tables.domain.button import (
    Blinds,
    ButtonError,
    Newcomer,
    clockwise,
    deal_next_hand,
    hands_before,
    newcomer_at,
    worst_empty_seat,
)

T = TypeVar("T")


class SeatingError(ValueError):
    """A seating request that cannot be met. `str()` says why in English; `code` and `values`
    let the pages say it in the reader's language (tables/words.py)."""

    def __init__(self, message: str = "", *, code: str = "", **values: int) -> None:
        super().__init__(message)
        self.code = code
        self.values = values


class TableClosed(SeatingError):
    """A table the plan read the head count of was closed before its seats were read: the
    room changed under a plan made without the tournament lock; plan again."""


class BustPending(SeatingError):
    """A table is not broken while a bust reported there waits for the floor: the player may
    be out (confirmed) or not (dismissed), and only then is it known who moves."""


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
    """A table during the hand being played: `blinds` are that hand's positions."""

    number: int
    size: int
    # seat -> entry id
    seated: dict[int, int] = field(default_factory=dict)
    blinds: Blinds | None = None
    # Seats whose players sit out until the button passes (tda-de 7).
    waiting: frozenset[int] = frozenset()
    opening_order: int = 0
    # Seats whose players are out in the hand being played (a dealer reported them busted; the
    # seat is not freed yet): they are dealt no further hand, never move, and nobody sits there.
    leaving: frozenset[int] = frozenset()

    @property
    def count(self) -> int:
        return len(self.seated)

    @property
    def playing(self) -> frozenset[int]:
        """Seated players who are neither waiting for the button nor leaving."""
        return frozenset(s for s in self.seated if s not in self.waiting and s not in self.leaving)

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
    # A table this many short of the fullest holds play (tda-de 10); see `hold_threshold`.
    hold_short_by: int = 3
    keep_position: bool = False  # bdpv 3.7, 6.12: same position relative to the button
    never_move_blind_posters: bool = False  # bdpv 3.7: who posts a blind next is not moved


# tda-de 10 names the hold threshold for full tables only; at this many seats or fewer a table is
# short-handed and the threshold is the floor's (the ruleset's) choice.
SHORT_HANDED_SEATS = 6


def hold_threshold(
    seats_per_table: int, *, full_ring: int, short_handed: int, tolerance: int
) -> int:
    """How many players short of the fullest table a table holds play (tda-de 10): the
    ruleset's `full_ring` threshold, or its `short_handed` one at six seats or fewer; never
    within the balancing tolerance, where a table is not out of balance at all."""
    threshold = short_handed if seats_per_table <= SHORT_HANDED_SEATS else full_ring
    return max(threshold, tolerance + 1)


@dataclass(frozen=True)
class BalancePlan:
    moves: tuple[Move, ...]
    holds: tuple[int, ...]  # tables that must hold play until the moves are made
    signature: str  # identifies the layout the plan was made for
    # Keep-apart pairs (bdpv seating rule 4) a move seats together because no table at the
    # fewest players was free of the partner: the floor is told.
    together: tuple[tuple[int, int], ...] = ()


# --- Draw -------------------------------------------------------------------------------


def tables_needed(players: int, seats_per_table: int) -> int:
    return max(1, math.ceil(players / seats_per_table)) if players else 0


def even_sizes(players: int, capacities: Sequence[int]) -> list[int]:
    """How many players each table (in opening order) gets so that sizes differ by at most one
    (tables smaller than the others are simply full)."""
    if players > sum(capacities):
        raise SeatingError(
            f"{players} players do not fit in {sum(capacities)} seats",
            code="no_fit",
            players=players,
            seats=sum(capacities),
        )
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
        raise SeatingError("an entry is listed twice", code="twice")
    unknown = set(reserved) - set(entries)
    if unknown:
        raise SeatingError(
            f"reserved seats for entries not in the draw: {sorted(unknown)}",
            code="reserved_unknown",
        )
    pinned = list(reserved.values())
    if len(set(pinned)) != len(pinned):
        raise SeatingError("two players reserved for the same seat", code="reserved_same_seat")
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
                raise SeatingError(
                    f"reserved table {t} does not exist", code="reserved_table", table=t
                )
            used.append(extra)
    sizes_by_table = dict(
        zip((n for n, _ in used), even_sizes(len(entries), [s for _, s in used]), strict=True)
    )
    seats_by_table = dict(used)
    for t, s in pinned:
        if not 1 <= s <= seats_by_table[t]:
            raise SeatingError(f"table {t} has no seat {s}", code="no_such_seat", table=t, seat=s)
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
        raise SeatingError("not enough seats", code="not_enough_seats")
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
            raise SeatingError(
                "two reserved players who must sit apart share a table", code="apart_reserved"
            )
        other = rng.choice(movable)
        if result[other].table == result[mover].table:
            continue
        partners = {x for p in pairs for x in p if mover in p} - {mover}
        if any(result.get(p) and result[p].table == result[other].table for p in partners):
            continue
        result[mover], result[other] = result[other], result[mover]
    raise SeatingError("the keep-apart pairs cannot all be seated apart", code="apart")


# --- The next hand ---------------------------------------------------------------------------


def next_hand_blinds(table: TableState) -> Blinds | None:
    """The positions of the table's next hand by the dead-button rules (tda-de 32-34, bdpv 3.2):
    the big blind moves on to the next player dealt in, never to an empty seat or a leaving
    player; the small blind and the button may be dead. Dealt in are the seated players minus
    the leaving ones, and the players waiting for the button once it has passed them (tda-de 7,
    9). None while the table has no button or fewer than two players will be dealt in.

    This is the one answer to "who posts next": the mover, the worst seat and the waiting zone
    all read it (through `tables.domain.button.deal_next_hand`)."""
    dealt = _deal_next(table)
    return dealt[0] if dealt else None


def _deal_next(table: TableState) -> tuple[Blinds, frozenset[int]] | None:
    if table.blinds is None:
        return None
    try:
        return deal_next_hand(
            table.size, table.blinds, table.playing, table.waiting - table.leaving
        )
    except ButtonError:
        return None


def newcomer(table: TableState, seat: int) -> Newcomer:
    """A player seated now at the empty `seat`: whether he waits for the button and how soon
    he posts the big blind (a table without a button: at once, and nobody waits)."""
    if table.blinds is None:
        return Newcomer(seat, False, 0)
    return newcomer_at(table.size, table.blinds, table.playing, table.waiting - table.leaving, seat)


def waiting_zone(table: TableState) -> frozenset[int]:
    """The empty seats where a player seated now sits out until the button has passed him
    (tda-de 7, 9): between the next hand's button and small blind."""
    return frozenset(s for s in table.empty_seats() if newcomer(table, s).must_wait)


def worst_position(table: TableState) -> int:
    """The empty seat where a player seated now posts the big blind soonest, never the small
    blind (tda-de 10); a table without a button takes its lowest empty seat."""
    return worst_empty_seat(
        table.size,
        frozenset(table.seated),
        table.blinds,
        waiting=table.waiting,
        leaving=table.leaving,
    )


def _must_wait(table: TableState, seat: int) -> bool:
    return newcomer(table, seat).must_wait


# --- Late entries -------------------------------------------------------------------------


def late_seat(
    tables: Sequence[TableState], *, rng: Random | None = None, avoid: Collection[int] = ()
) -> Seat:
    """A random open seat for a late entry or alternate (tda-de 7), at one of the tables with
    the fewest players so the room stays balanced; of those, one where nobody in `avoid` sits
    (his keep-apart partners, bdpv seating rule 4) when there is one. Sits out if the seat is
    between the next hand's button and small blind."""
    rng = rng or secure_random()
    candidates = [t for t in tables if t.empty_seats()]
    if not candidates:
        raise SeatingError("no open seat", code="no_open_seat")
    fewest = min(t.count for t in candidates)
    at_fewest = [t for t in candidates if t.count == fewest]
    avoided = frozenset(avoid)
    apart = [t for t in at_fewest if avoided.isdisjoint(t.seated.values())]
    table = rng.choice(apart or at_fewest)
    seat = rng.choice(table.empty_seats())
    return Seat(table.number, seat, must_wait=_must_wait(table, seat))


def tables_apart(numbers: Sequence[int], avoid: Collection[int]) -> list[int]:
    """The tables among `numbers` that are not in `avoid` (where a keep-apart partner sits,
    bdpv seating rule 4), or all of `numbers` when every one is to be avoided."""
    apart = [n for n in numbers if n not in avoid]
    return apart or list(numbers)


def partners_of(pairs: Iterable[tuple[int, int]]) -> dict[int, frozenset[int]]:
    """Entry -> the entries it must not sit with (bdpv seating rule 4)."""
    found: dict[int, set[int]] = {}
    for a, b in pairs:
        found.setdefault(a, set()).add(b)
        found.setdefault(b, set()).add(a)
    return {e: frozenset(p) for e, p in found.items()}


def pairs_together(
    tables: Iterable[TableState],
    pairs: Iterable[tuple[int, int]],
    among: Collection[int] | None = None,
) -> tuple[tuple[int, int], ...]:
    """The keep-apart pairs that share a table in `tables` (only pairs with an entry in `among`,
    when given): what the floor must be told could not be kept apart."""
    where = {e: t.number for t in tables for e in t.seated.values()}
    found = {
        (min(a, b), max(a, b))
        for a, b in pairs
        if (among is None or a in among or b in among)
        and a in where
        and b in where
        and where[a] == where[b]
    }
    return tuple(sorted(found))


# --- Balancing ----------------------------------------------------------------------------


def signature(tables: Iterable[TableState]) -> str:
    """A short fingerprint of a layout: a plan made for one layout is stale for another."""
    parts = []
    for t in sorted(tables, key=lambda x: x.number):
        # A player who starts or stops waiting, or is reported out, changes the plan too.
        seats = ",".join(
            f"{s}:{e}{'w' if s in t.waiting else ''}{'x' if s in t.leaving else ''}"
            for s, e in sorted(t.seated.items())
        )
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
            raise TableClosed(f"table {min(missing)} is not open")
        return found

    return load_many


def _whole_loader(tables: Sequence[TableState]) -> LoadMany:
    by_number = {t.number: t for t in tables}
    return lambda numbers: {n: by_number[n] for n in numbers if n in by_number}


def plan_balance(
    tables: Sequence[TableState],
    rules: Rules | None = None,
    keep_apart: Collection[tuple[int, int]] = (),
) -> BalancePlan:
    """Balance a whole layout; see `plan_balance_lazy`."""
    return plan_balance_lazy(
        HeadCounts.whole({t.number: t.count for t in tables}, {t.number: t.size for t in tables}),
        _whole_loader(tables),
        rules,
        keep_apart,
    )


def plan_balance_lazy(
    head: HeadCounts,
    load: LoadMany,
    rules: Rules | None = None,
    keep_apart: Collection[tuple[int, int]] = (),
) -> BalancePlan:
    """Moves that bring every table within the tolerance (tda-de 10).

    Works from the head counts at both ends of the room (`head`) and loads only the tables
    that give or receive players (`load(numbers)`, one call per move). Raises `NeedMoreCounts`
    when the answer depends on tables beyond the rows read.

    Predetermined procedure (docs/seating.md): the giving table is the one with the most players
    (the lowest number on a tie); the receiving table is the one with the fewest players and an
    empty seat (the lowest number on a tie), passing over a table where a keep-apart partner of
    the mover sits when another table has as few players (bdpv seating rule 4; the pairs that
    stay together are in `together`). `keep_apart` is read again at every move, after the
    tables it concerns are loaded: it need only hold the pairs of players at loaded tables, and
    may grow as `load` reads more. The mover and his seat: see `movers` and `_balance_move`. A
    leaving player never moves and a leaving seat takes nobody; when nobody at the giving table
    may move, the plan stops there.
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

    for _ in range(2 * sum(counts.values()) + 2):
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
        partners = partners_of(keep_apart)
        move = _balance_move(long, short, rules, partners)
        if move is not None and _with_partner(move.entry, short, partners):
            # Another table with as few players, in the same order, without the partner.
            level = counts[short_n]
            others = sorted(
                (n for n in open_tables if counts[n] == level and n not in (short_n, long_n)),
                key=key_empty,
            )
            stale = False
            for n in others:
                if empty_edge is not None and key_empty(n) > empty_edge:
                    raise NeedMoreCounts("emptiest", level)
                if n not in loaded:
                    loaded.update(load_many([n]))
                if loaded[n].count != counts[n]:
                    counts[n] = loaded[n].count
                    stale = True
                    break
                other = _balance_move(long, loaded[n], rules, partners)
                if other is not None and not _with_partner(other.entry, loaded[n], partners):
                    move, short_n = other, n
                    break
            else:
                if empty_edge is not None and empty_edge[0] <= level:
                    raise NeedMoreCounts("emptiest", level)
            if stale:
                continue
            short = loaded[short_n]
        if move is None:
            break  # everyone left at the giving table is out in this hand or posts a blind
        moves.append(move)
        loaded[long_n] = _without(long, move.from_seat)
        loaded[short_n] = _with(short, move.to_seat, move.entry, move.must_wait)
        counts[long_n] -= 1
        counts[short_n] += 1
    sig = signature(loaded.values()) + ":" + head.fingerprint()
    return BalancePlan(
        moves=tuple(moves),
        holds=hold,
        signature=hashlib.sha256(sig.encode()).hexdigest()[:16],
        together=pairs_together(loaded.values(), keep_apart, {m.entry for m in moves}),
    )


def _with_partner(entry: int, table: TableState, partners: Mapping[int, frozenset[int]]) -> bool:
    mine = partners.get(entry)
    return mine is not None and not mine.isdisjoint(table.seated.values())


def movers(table: TableState, rules: Rules) -> list[tuple[int, int]]:
    """Who may leave `table` when it gives up a player, best first, each with the hands dealt
    before he would post the big blind there (0: in the next hand). Never a leaving player.

    Clockwise from the next hand's big blind: with tda-de (10) the first, the player due the big
    blind next, is the mover. With `never_move_blind_posters` (bdpv 3.7) the next hand's big and
    small blind are left out, so the first is the player after the big blind. A table without a
    button: the lowest seats first."""
    return list(_movers(table, rules))


def _movers(table: TableState, rules: Rules) -> Iterator[tuple[int, int]]:
    dealt = _deal_next(table)
    if dealt is None:
        yield from ((s, 0) for s in sorted(table.seated) if s not in table.leaving)
        return
    blinds, players = dealt
    bb = blinds.big_blind
    posting = {bb, blinds.small_blind} if rules.never_move_blind_posters else set()
    for seat in [bb, *clockwise(table.size, bb)][:-1]:  # from the big blind round to before it
        if seat in table.seated and seat not in table.leaving and seat not in posting:
            yield seat, hands_before(table.size, bb, {*players, seat}, seat)


def _balance_move(
    long: TableState, short: TableState, rules: Rules, partners: Mapping[int, frozenset[int]]
) -> Move | None:
    """The move from `long` to `short`, or None when nobody at `long` may move.

    tda-de 10: the player due the big blind next goes to the worst position of `short` (the
    empty seat where he posts the big blind soonest, never the small blind).

    With `keep_position` (bdpv 3.7, 6.12) he keeps his position relative to the button: the hands
    he would be dealt before his big blind at `short` are as many as at `long`. Where no seat
    fits exactly, the closest one where he posts the big blind sooner, never later (he must not
    skip it); of seats alike, the first clockwise after the current big blind. Only when no
    seat at `short` lets him keep his turn does he post it later, by as little as can be.

    With `never_move_blind_posters` too (bdpv), no rule names the mover: of the players who may
    move (`movers`), the first for whom `short` has a seat that fits best goes, passing over
    players whose keep-apart partner sits at `short` when someone else may go."""
    by_fit = rules.keep_position and long.blinds is not None and short.blinds is not None
    if by_fit and rules.never_move_blind_posters:
        candidates = movers(long, rules)
    else:
        candidates = list(islice(_movers(long, rules), 1))  # the first in line (tda-de 10)
    if not candidates:
        return None
    empty = short.empty_seats()
    if not empty:
        raise SeatingError(f"table {short.number} is full", code="full", table=short.number)
    if by_fit:
        assert short.blinds is not None
        if rules.never_move_blind_posters:
            # bdpv names no mover: he is chosen where he fits, and not next to a partner.
            at_short = frozenset(short.seated.values())
            apart = [
                c
                for c in candidates
                if partners.get(long.seated[c[0]], frozenset()).isdisjoint(at_short)
            ]
            candidates = apart or candidates
        order = list(clockwise(short.size, short.blinds.big_blind))
        seats = sorted((newcomer(short, s) for s in empty), key=lambda n: order.index(n.seat))
        best: tuple[tuple[int, int, int, int, int], int, Newcomer] | None = None
        for i, (seat, hands) in enumerate(candidates):
            for j, place in enumerate(seats):
                there = place.hands_to_big_blind
                key = (int(there > hands), abs(there - hands), i, there, j)
                if best is None or key < best[0]:
                    best = (key, seat, place)
        assert best is not None  # candidates and seats are not empty
        _key, from_seat, place = best
    else:
        from_seat = candidates[0][0]
        place = newcomer(short, worst_position(short))
    return Move(
        entry=long.seated[from_seat],
        from_table=long.number,
        from_seat=from_seat,
        to_table=short.number,
        to_seat=place.seat,
        must_wait=place.must_wait,
    )


def _without(table: TableState, seat: int) -> TableState:
    seated = dict(table.seated)
    del seated[seat]
    return replace(
        table, seated=seated, waiting=table.waiting - {seat}, leaving=table.leaving - {seat}
    )


def _with(table: TableState, seat: int, entry: int, wait: bool) -> TableState:
    if seat in table.seated:
        raise SeatingError(
            f"table {table.number} seat {seat} is taken",
            code="taken",
            table=table.number,
            seat=seat,
        )
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
    tables: Sequence[TableState],
    breaking: int,
    *,
    rng: Random | None = None,
    keep_apart: Iterable[tuple[int, int]] = (),
) -> tuple[Move, ...]:
    """Break a whole layout; see `plan_break_lazy`."""
    return plan_break_lazy(
        HeadCounts.whole({t.number: t.count for t in tables}, {t.number: t.size for t in tables}),
        _whole_loader(tables),
        breaking,
        rng=rng,
        keep_apart=keep_apart,
    )


def plan_break_lazy(
    head: HeadCounts,
    load: LoadMany,
    breaking: int,
    *,
    rng: Random | None = None,
    keep_apart: Iterable[tuple[int, int]] = (),
) -> tuple[Move, ...]:
    """Redraw the players of table `breaking` into the other tables (tda-de 9): each player in
    random order goes to a random table among those with the fewest players, then a random open
    seat there. Seats between the next hand's button and small blind sit out until the button
    passes. Keep-apart pairs (bdpv seating rule 4) are kept apart by trading tables between the
    players drawn, where a trade does it (`pairs_together` tells the rest). A table with a
    player out in the hand being played is not broken until the floor has settled the bust.

    Reads the breaking table, then the receiving tables in one `load` call. Raises
    `NeedMoreCounts` unless `head.emptiest` holds every table at the head counts it draws from
    (the draw is among all of them)."""
    rng = rng or secure_random()
    load_many = _loader(load)
    leaving = load_many([breaking])[breaking]
    if leaving.leaving:
        raise BustPending(f"a bust reported at table {breaking} waits for the floor")
    counts, sizes = head.known()
    counts.pop(breaking, None)
    sizes.pop(breaking, None)
    edge = head.emptiest_edge
    players = sorted(leaving.seated.items())
    rng.shuffle(players)
    for _attempt in range(len(players) + 2):
        targets = _draw_tables(counts, sizes, len(players), edge, rng)
        if not players and not counts:
            raise SeatingError("the last table cannot be broken", code="last_table")
        loaded = load_many(set(targets))
        stale = {n: t.count for n, t in loaded.items() if t.count != counts[n]}
        if not stale:
            break
        counts.update(stale)  # the tables were read a moment after the counts: trust them
    else:
        raise SeatingError("the tables keep changing; try again", code="changing")
    partners = partners_of(keep_apart)
    if partners:
        _trade_apart([entry for _seat, entry in players], targets, loaded, partners)
    moves: list[Move] = []
    for (from_seat, entry), number in zip(players, targets, strict=True):
        table = loaded[number]
        seat = rng.choice(table.empty_seats())
        wait = _must_wait(table, seat)
        moves.append(Move(entry, breaking, from_seat, number, seat, wait, "break"))
        loaded[number] = _with(table, seat, entry, wait)
    return tuple(moves)


def _trade_apart(
    entries: Sequence[int],
    targets: list[int],
    tables: Mapping[int, TableState],
    partners: Mapping[int, frozenset[int]],
) -> None:
    """Trade the drawn tables (in place) between the players of a broken table until no
    keep-apart partners meet, where trades can do it: the tables drawn stay the same, so the
    room stays as balanced as the draw made it (bdpv seating rule 4)."""

    def clash(i: int, number: int) -> bool:
        mine = partners.get(entries[i])
        if not mine:
            return False
        if not mine.isdisjoint(tables[number].seated.values()):
            return True
        return any(
            targets[j] == number and entries[j] in mine for j in range(len(entries)) if j != i
        )

    for _round in range(len(entries)):
        traded = False
        for i in range(len(entries)):
            if not clash(i, targets[i]):
                continue
            for j in range(len(entries)):
                if targets[j] == targets[i]:
                    continue
                a, b = targets[i], targets[j]
                targets[i], targets[j] = b, a
                if not clash(i, b) and not clash(j, a):
                    traded = True
                    break
                targets[i], targets[j] = a, b
        if not traded:
            return


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
                raise SeatingError("the last table cannot be broken", code="last_table")
            room = sum(sizes[n] - c for n, c in counts.items())
            raise SeatingError(
                f"{players} players but only {room} open seats elsewhere",
                code="no_room",
                players=players,
                seats=room,
            )
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
        raise SeatingError(
            f"{len(players)} players do not fit a final table of {final_size}",
            code="final_fit",
            players=len(players),
            seats=final_size,
        )
    if not 2 <= final_size <= 10:
        raise SeatingError("a final table has 2 to 10 seats", code="final_size")
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
