from collections import Counter
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.domain.button import Blinds, due_big_blind_next, first_hand
from tables.domain.seating import (
    HeadCounts,
    NeedMoreCounts,
    Rules,
    SeatingError,
    TableState,
    apply_moves,
    draw,
    even_sizes,
    late_seat,
    plan_balance,
    plan_balance_lazy,
    plan_break,
    plan_break_lazy,
    plan_final_table,
    suggest_break,
)


def test_even_sizes():
    assert even_sizes(20, [9, 9, 9]) == [7, 7, 6]
    assert even_sizes(9, [9, 9]) == [5, 4]
    assert even_sizes(12, [10, 6]) == [6, 6]
    with pytest.raises(SeatingError):
        even_sizes(30, [9, 9])


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 400), st.sampled_from([6, 8, 9, 10]), st.integers(0, 2**32))
def test_draw_seats_everyone_once_and_evenly(players, seats, seed):
    tables = [(n, seats) for n in range(1, players // seats + 3)]
    result = draw(list(range(players)), tables, rng=Random(seed))
    assert len(result) == players
    places = [(s.table, s.seat) for s in result.values()]
    assert len(set(places)) == players  # no seat holds two players
    counts = Counter(s.table for s in result.values())
    assert max(counts.values()) - min(counts.values()) <= 1
    assert all(1 <= s.seat <= seats for s in result.values())


def test_draw_reserved_and_keep_apart():
    entries = list(range(1, 19))
    result = draw(
        entries,
        [(1, 9), (2, 9)],
        rng=Random(4),
        reserved={5: (2, 1)},
        keep_apart=[(1, 2), (3, 4), (2, 7)],
    )
    assert (result[5].table, result[5].seat) == (2, 1)
    assert result[1].table != result[2].table and result[3].table != result[4].table
    assert result[2].table != result[7].table
    with pytest.raises(SeatingError):
        draw([1, 2], [(1, 9)], reserved={1: (1, 3), 2: (1, 3)})
    with pytest.raises(SeatingError):
        draw([1, 2], [(1, 9)], reserved={1: (1, 12)})


def table(number, seated, button=None, size=9):
    blinds = first_hand(size, set(seated), button) if button else None
    return TableState(number=number, size=size, seated=dict(seated), blinds=blinds)


def test_balancing_moves_the_big_blind_due_player_to_the_worst_seat():
    long = table(1, {s: 100 + s for s in range(1, 10)}, button=1)  # SB 2, BB 3
    short = table(2, {1: 201, 2: 202, 3: 203, 6: 206, 7: 207, 8: 208, 9: 209}, button=1)
    plan = plan_balance([long, short])
    assert len(plan.moves) == 1
    m = plan.moves[0]
    assert (m.from_table, m.from_seat, m.entry) == (1, 4, 104)  # due the big blind next
    assert (m.to_table, m.to_seat) == (2, 4)  # first empty seat after the big blind (3)
    assert not m.must_wait


def test_holds_and_tolerance():
    long = table(1, {s: s for s in range(1, 10)}, button=1)
    short = table(2, {s: 20 + s for s in range(1, 7)}, button=1)
    plan = plan_balance([long, short])
    assert plan.holds == (2,)
    assert len(plan.moves) == 1
    assert plan_balance([long, short], Rules(tolerance=3)).moves == ()


def test_keep_position_variant():
    long = table(1, {s: s for s in range(1, 10)}, button=1)
    short = table(2, {1: 21, 2: 22, 3: 23, 4: 24, 5: 25, 8: 28, 9: 29}, button=1)
    plan = plan_balance([long, short], Rules(keep_position=True))
    # The mover was 3 players after the button; the empty seat 6 is 5th after the button,
    # seat 7 the 6th: seat 6 is the closest position.
    assert plan.moves[0].to_seat == 6


def test_break_and_suggestion():
    a = table(1, {s: s for s in range(1, 7)}, button=1)
    b = table(2, {s: 10 + s for s in range(1, 7)}, button=1)
    c = table(3, {1: 31, 5: 35, 9: 39}, button=1)
    counts = {t.number: t.count for t in (a, b, c)}
    assert suggest_break(counts, 9) == 3
    assert suggest_break(counts, 9, order="lowest") == 1
    assert suggest_break({1: 9, 2: 9, 3: 1}, 9) is None
    moves = plan_break([a, b, c], 3, rng=Random(1))
    assert sorted(m.entry for m in moves) == [31, 35, 39]
    after = [t for t in apply_moves([a, b, c], moves) if t.number != 3]
    assert sorted(t.count for t in after) == [7, 8]
    with pytest.raises(SeatingError):
        plan_break([a], 1)
    with pytest.raises(SeatingError):
        plan_break([a, b], 7)


def test_final_table():
    a = table(1, {1: 1, 2: 2, 3: 3, 4: 4, 5: 5}, button=1)
    b = table(2, {1: 11, 2: 12, 3: 13, 4: 14}, button=1)
    moves = plan_final_table([a, b], 1, 9, rng=Random(2))
    assert len({m.to_seat for m in moves}) == 9
    with pytest.raises(SeatingError):
        plan_final_table([a, b], 1, 6)


def test_late_seat_goes_to_a_short_table_and_waits_between_sb_and_button():
    # tda-de 7: the newcomer plays from the next hand, whose button is seat 5 (the small blind
    # now) and whose small blind is seat 8 (the big blind now): seats 6 and 7 wait.
    a = table(1, {s: s for s in range(1, 9)}, button=1)
    b = TableState(2, 9, {2: 22, 5: 25, 8: 28}, Blinds(2, 5, 8))
    seen = {late_seat([a, b], rng=Random(seed)) for seed in range(60)}
    assert {s.table for s in seen} == {2}
    assert {s.seat for s in seen} == {1, 3, 4, 6, 7, 9}
    assert all(s.must_wait == (s.seat in (6, 7)) for s in seen)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(2, 9), min_size=2, max_size=8),
    st.booleans(),
    st.integers(0, 2**32),
)
def test_balanced_after_plan(counts, keep_position, seed):
    rng = Random(seed)
    tables = []
    entry = 0
    for number, count in enumerate(counts, start=1):
        seats = rng.sample(range(1, 10), count)
        seated = {}
        for s in seats:
            entry += 1
            seated[s] = entry
        tables.append(table(number, seated, button=seats[0]))
    plan = plan_balance(tables, Rules(keep_position=keep_position))
    after = apply_moves(tables, plan.moves)
    sizes = [t.count for t in after]
    assert max(sizes) - min(sizes) <= 1
    assert sum(sizes) == entry
    everyone = [e for t in after for e in t.seated.values()]
    assert len(everyone) == len(set(everyone)) == entry
    # The first mover from each table is the player due the big blind next there.
    first_from: dict[int, int] = {}
    for m in plan.moves:
        first_from.setdefault(m.from_table, m.from_seat)
    for number, seat in first_from.items():
        t = tables[number - 1]
        assert seat == due_big_blind_next(t.size, set(t.seated), t.blinds)


# --- Plans from part of the room (HeadCounts) ---------------------------------------------


def _room(draw_counts, seed):
    rng = Random(seed)
    tables, entry = [], 0
    for number, (size, count) in enumerate(draw_counts, start=1):
        count = min(count, size)
        seats = rng.sample(range(1, size + 1), count)
        seated = {}
        for s in seats:
            entry += 1
            seated[s] = entry
        tables.append(table(number, seated, button=seats[0] if count >= 2 else None, size=size))
    return tables


def _windowed(plan, tables, start):
    """Run `plan` as the service does: a few rows from each end, more when it asks."""
    whole = HeadCounts.whole(
        {t.number: t.count for t in tables}, {t.number: t.size for t in tables}
    )
    limits = {"fullest": start, "emptiest": start}
    rounds = 0
    while True:
        head = HeadCounts(
            whole.fullest[: limits["fullest"]],
            whole.emptiest[: limits["emptiest"]],
            limits["fullest"],
            limits["emptiest"],
        )
        try:
            return plan(head), rounds
        except NeedMoreCounts as more:
            rounds += 1
            wanted = limits[more.end] * 2
            if more.players_at_most is not None:
                at_most = sum(1 for t in tables if t.count <= more.players_at_most)
                wanted = max(wanted // 2 + 1, at_most + 1)
            limits[more.end] = wanted


room_strategy = st.lists(
    st.tuples(st.sampled_from([6, 9, 10]), st.integers(0, 10)), min_size=2, max_size=40
)


@settings(max_examples=80, deadline=None)
@given(room_strategy, st.integers(1, 6), st.booleans(), st.integers(0, 2**32))
def test_balancing_from_both_ends_equals_balancing_the_whole_room(counts, start, keep, seed):
    tables = _room(counts, seed)
    rules = Rules(keep_position=keep)
    by_number = {t.number: t for t in tables}
    whole = plan_balance(tables, rules)
    part, _rounds = _windowed(
        lambda head: plan_balance_lazy(head, lambda ns: {n: by_number[n] for n in ns}, rules),
        tables,
        start,
    )
    assert (part.moves, part.holds) == (whole.moves, whole.holds)


@settings(max_examples=80, deadline=None)
@given(room_strategy, st.integers(1, 6), st.integers(0, 2**32))
def test_breaking_from_the_emptiest_end_equals_breaking_with_the_whole_room(counts, start, seed):
    tables = _room(counts, seed)
    by_number = {t.number: t for t in tables}
    breaking = tables[-1].number
    try:
        whole = plan_break(tables, breaking, rng=Random(seed))
    except SeatingError:
        with pytest.raises(SeatingError):
            _windowed(
                lambda head: plan_break_lazy(
                    head, lambda ns: {n: by_number[n] for n in ns}, breaking, rng=Random(seed)
                ),
                tables,
                start,
            )
        return
    part, _rounds = _windowed(
        lambda head: plan_break_lazy(
            head, lambda ns: {n: by_number[n] for n in ns}, breaking, rng=Random(seed)
        ),
        tables,
        start,
    )
    assert part == whole
    # Everyone from the broken table lands once, in an empty seat, at a table with the fewest.
    after = apply_moves(tables, whole)
    assert sorted(m.entry for m in whole) == sorted(by_number[breaking].seated.values())
    assert sum(t.count for t in after) == sum(t.count for t in tables)


def test_a_small_window_reads_more_only_when_it_must():
    # 40 tables of 9 and one of 8: the plan needs two rows from each end, nothing more.
    tables = _room([(9, 9)] * 40 + [(9, 7)], seed=3)
    by_number = {t.number: t for t in tables}
    plan, rounds = _windowed(
        lambda head: plan_balance_lazy(head, lambda ns: {n: by_number[n] for n in ns}),
        tables,
        2,
    )
    assert rounds == 0 and len(plan.moves) == 1
    assert plan.moves[0].from_table == 1 and plan.moves[0].to_table == 41


def test_secure_shuffle_is_a_permutation_and_moves_things():
    from tables.domain.seating import secure_random, shuffle

    items = list(range(1000))
    shuffle(items, secure_random())
    assert sorted(items) == list(range(1000))
    assert items != list(range(1000))
    firsts = set()
    for _ in range(50):
        few = [1, 2, 3]
        shuffle(few, secure_random())
        firsts.add(few[0])
    assert firsts == {1, 2, 3}
