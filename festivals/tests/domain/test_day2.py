"""Day 2 without a database: the merge keeps one bag per player, the draw seats everyone once
and evenly, and a seeded draw spreads the big stacks one per table in each round."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from festivals.domain.day2 import (
    FestivalError,
    Seat,
    Survivor,
    day2_draw,
    day2_tables,
    draw_violations,
    merge_survivors,
)
from tables.domain.seating import secure_random


def bag(player: int, entry: int, chips: int, flight: int = 0) -> Survivor:
    return Survivor(player_id=player, entry_id=entry, flight=flight, chips=chips, bag=f"B{entry}")


def field(chips: list[int]) -> list[Survivor]:
    return [bag(i, 100 + i, c) for i, c in enumerate(chips)]


# --- merge ---------------------------------------------------------------------------------


def test_best_stack_keeps_the_biggest_bag_and_forfeits_the_rest() -> None:
    merge = merge_survivors(
        [bag(1, 10, 5_000, 0), bag(1, 20, 9_000, 1), bag(2, 30, 7_000, 1)], best_stack=True
    )
    assert [s.entry_id for s in merge.advancing] == [20, 30]
    assert [s.entry_id for s in merge.forfeited] == [10]


def test_equal_bags_keep_the_earlier_flight_then_the_lower_entry() -> None:
    merge = merge_survivors(
        [bag(1, 30, 5_000, 2), bag(1, 20, 5_000, 1), bag(1, 10, 5_000, 1)], best_stack=True
    )
    assert merge.advancing == [bag(1, 10, 5_000, 1)]
    assert [s.entry_id for s in merge.forfeited] == [20, 30]


def test_advancing_is_sorted_by_chips_then_flight_then_entry() -> None:
    merge = merge_survivors(
        [bag(1, 5, 100, 1), bag(2, 4, 100, 0), bag(3, 3, 200, 2), bag(4, 2, 100, 0)],
        best_stack=True,
    )
    assert [s.entry_id for s in merge.advancing] == [3, 2, 4, 5]


def test_all_stacks_advance_refuses_two_bags_of_one_player() -> None:
    with pytest.raises(FestivalError) as caught:
        merge_survivors([bag(7, 1, 100), bag(7, 2, 300, 1), bag(8, 3, 50)], best_stack=False)
    assert caught.value.code == "two_bags"
    assert caught.value.player_id == 7
    fine = merge_survivors([bag(7, 1, 100), bag(8, 3, 50)], best_stack=False)
    assert fine.forfeited == [] and len(fine.advancing) == 2


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(1, 8), st.integers(0, 3), st.integers(0, 10)), min_size=0, max_size=30
    )
)
def test_merge_keeps_one_bag_per_player_with_the_most_chips(rows) -> None:
    bags = [bag(p, i, c * 1_000, f) for i, (p, f, c) in enumerate(rows)]
    merge = merge_survivors(bags, best_stack=True)
    players = [s.player_id for s in merge.advancing]
    assert sorted(players) == sorted(set(p for p, _, _ in rows))
    assert len(merge.advancing) + len(merge.forfeited) == len(bags)
    for kept in merge.advancing:
        own = [b.chips for b in bags if b.player_id == kept.player_id]
        assert kept.chips == max(own)
    chips = [s.chips for s in merge.advancing]
    assert chips == sorted(chips, reverse=True)


# --- tables and draw ------------------------------------------------------------------------


def test_day2_tables() -> None:
    assert day2_tables(0, 9) == 0
    assert day2_tables(1, 9) == 1
    assert day2_tables(18, 9) == 2
    assert day2_tables(19, 9) == 3


def test_empty_and_no_room_are_refused() -> None:
    with pytest.raises(FestivalError) as caught:
        day2_draw([], tables=[(1, 9)], seeded=False, rng=Random(1))
    assert caught.value.code == "empty"
    with pytest.raises(FestivalError) as caught:
        day2_draw(field([1] * 10), tables=[(1, 9)], seeded=True, rng=Random(1))
    assert caught.value.code == "no_room"
    assert caught.value.tables == (1,)


def test_only_the_leading_tables_needed_are_used() -> None:
    result = day2_draw(
        field([1_000] * 17), tables=[(5, 9), (3, 9), (8, 9)], seeded=False, rng=Random(2)
    )
    assert Counter(s.table for s in result.values()) == {5: 9, 3: 8}


def test_seeded_snake_order_with_distinct_stacks() -> None:
    chips = [900, 800, 700, 600, 500, 400, 300]
    survivors = field(chips)
    result = day2_draw(survivors, tables=[(1, 3), (2, 3), (3, 3)], seeded=True, rng=Random(3))
    table_of = {s.chips: result[s.entry_id].table for s in survivors}
    # round 1: 900, 800, 700 -> tables 1, 2, 3; round 2 reversed: 600, 500, 400 -> 3, 2, 1
    assert [table_of[c] for c in chips] == [1, 2, 3, 3, 2, 1, 1]
    assert draw_violations(result, survivors, tables=[(1, 3), (2, 3), (3, 3)], seeded=True) == []


def test_violations_are_named() -> None:
    survivors = field([500, 400, 300, 200])
    tables = [(1, 2), (2, 2)]
    bad = {100: Seat(1, 1), 101: Seat(1, 1), 102: Seat(2, 3), 999: Seat(2, 1)}
    problems = draw_violations(bad, survivors, tables=tables, seeded=False)
    assert "table 1 seat 1 is held by entries 100, 101" in problems
    assert "table 2 has no seat 3 (seats 1 to 2)" in problems
    assert "entry 103 has no seat" in problems
    assert "entry 999 has a seat but is not a survivor" in problems


def test_seeded_violation_when_the_big_stacks_share_a_table() -> None:
    survivors = field([500, 400, 300, 200])
    tables = [(1, 2), (2, 2)]
    together = {100: Seat(1, 1), 101: Seat(1, 2), 102: Seat(2, 1), 103: Seat(2, 2)}
    assert draw_violations(together, survivors, tables=tables, seeded=False) == []
    problems = draw_violations(together, survivors, tables=tables, seeded=True)
    assert problems and problems[0].startswith("table 1: its stack number 2 (400 chips)")


def test_uneven_tables_are_a_violation() -> None:
    survivors = field([1] * 9)
    tables = [(1, 4), (2, 4), (3, 4)]
    lopsided = {100 + i: Seat(min(i // 4 + 1, 3), i % 4 + 1) for i in range(9)}
    assert draw_violations(lopsided, survivors, tables=tables, seeded=False) == [
        "table 1 has 4 players and table 3 has 1"
    ]


def test_the_secure_source_draws_too() -> None:
    survivors = field([1_000 * (i % 7) for i in range(40)])
    tables = [(n, 9) for n in range(1, 7)]
    result = day2_draw(survivors, tables=tables, seeded=True, rng=secure_random())
    assert draw_violations(result, survivors, tables=tables, seeded=True) == []


tables_strategy = st.lists(st.integers(0, 10), min_size=1, max_size=12).map(
    lambda seats: [(n * 10 + 1, s) for n, s in enumerate(seats)]
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 30), min_size=1, max_size=90),
    tables_strategy,
    st.booleans(),
    st.integers(0, 2**32),
)
def test_draw_seats_everyone_once_evenly_and_passes_its_own_check(chips, tables, seeded, seed):
    survivors = field([c * 100 for c in chips])
    if len(survivors) > sum(s for _, s in tables):
        with pytest.raises(FestivalError) as caught:
            day2_draw(survivors, tables=tables, seeded=seeded, rng=Random(seed))
        assert caught.value.code == "no_room"
        return
    result = day2_draw(survivors, tables=tables, seeded=seeded, rng=Random(seed))
    assert set(result) == {s.entry_id for s in survivors}
    places = [(s.table, s.seat) for s in result.values()]
    assert len(set(places)) == len(places)  # no seat twice
    seats_of = dict(tables)
    assert all(1 <= s.seat <= seats_of[s.table] for s in result.values())
    sizes = Counter(s.table for s in result.values())
    # the tables used are the leading ones with seats, and sizes differ by at most one unless
    # the smaller table is full
    with_seats = [n for n, s in tables if s > 0]
    assert set(sizes) == set(with_seats[: len(sizes)])
    for a in sizes:
        for b in sizes:
            assert sizes[a] - sizes[b] <= 1 or sizes[b] == seats_of[b]
    if all(s == tables[0][1] for _, s in tables):
        assert max(sizes.values()) - min(sizes.values()) <= 1
    assert draw_violations(result, survivors, tables=tables, seeded=seeded) == []


@settings(max_examples=100, deadline=None)
@given(st.integers(1, 80), st.sampled_from([6, 8, 9, 10]), st.integers(0, 2**32))
def test_seeded_each_table_gets_one_stack_of_each_round(players, seats, seed):
    rng = Random(seed)
    survivors = field([rng.randrange(1, 6) * 1_000 for _ in range(players)])
    tables = [(n, seats) for n in range(1, day2_tables(players, seats) + 3)]
    result = day2_draw(survivors, tables=tables, seeded=True, rng=rng)
    count = day2_tables(players, seats)
    ranked = sorted((s.chips for s in survivors), reverse=True)
    chips_at: dict[int, list[int]] = {}
    for s in survivors:
        chips_at.setdefault(result[s.entry_id].table, []).append(s.chips)
    assert len(chips_at) == count
    for chips in chips_at.values():
        for k, value in enumerate(sorted(chips, reverse=True)):
            assert ranked[min(k * count + count - 1, players - 1)] <= value <= ranked[k * count]
    assert draw_violations(result, survivors, tables=tables, seeded=True) == []
