"""Keep-apart pairs (bdpv seating rule 4) at late seats, breaks and balancing: honoured where
a table with the fewest players allows it, and reported where not."""

from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.domain.button import Blinds, first_hand
from tables.domain.seating import (
    BustPending,
    HeadCounts,
    NeedMoreCounts,
    Rules,
    TableState,
    apply_moves,
    late_seat,
    pairs_together,
    partners_of,
    plan_balance,
    plan_balance_lazy,
    plan_break,
    plan_break_lazy,
    tables_apart,
)


def table(number, seated, button=None, size=9, leaving=()):
    blinds = first_hand(size, set(seated), button) if button else None
    return TableState(
        number=number, size=size, seated=dict(seated), blinds=blinds, leaving=frozenset(leaving)
    )


def test_pairs_and_partners():
    assert partners_of([(1, 2), (1, 3)]) == {1: {2, 3}, 2: {1}, 3: {1}}
    a = table(1, {1: 1, 2: 2})
    b = table(2, {1: 3})
    assert pairs_together([a, b], [(2, 1), (1, 3)]) == ((1, 2),)
    assert pairs_together([a, b], [(2, 1)], among={3}) == ()
    assert tables_apart([4, 5, 6], {5}) == [4, 6]
    assert tables_apart([5], {5}) == [5]


def test_late_seat_avoids_a_partners_table_among_the_fewest():
    a = table(1, {s: s for s in range(1, 6)}, button=1)
    b = table(2, {s: 10 + s for s in range(1, 6)}, button=1)
    c = table(3, {s: 20 + s for s in range(1, 8)}, button=1)
    seen = {late_seat([a, b, c], rng=Random(seed), avoid={3}).table for seed in range(30)}
    assert seen == {2}
    # Every table at the fewest holds a partner: seated anyway (the caller warns).
    seen = {late_seat([a, b, c], rng=Random(seed), avoid={3, 13}).table for seed in range(30)}
    assert seen == {1, 2}


def test_balancing_passes_over_a_table_where_the_movers_partner_sits():
    long = table(1, {s: 100 + s for s in range(1, 10)}, button=1)  # the mover is 104
    short = table(2, {s: 200 + s for s in range(1, 8)}, button=1)
    other = table(3, {s: 300 + s for s in range(1, 8)}, button=1)
    plain = plan_balance([long, short, other])
    assert [m.to_table for m in plain.moves] == [2]
    plan = plan_balance([long, short, other], keep_apart=[(104, 203)])
    assert [(m.entry, m.to_table) for m in plan.moves] == [(104, 3)]
    assert plan.together == ()


def test_balancing_reports_a_pair_it_cannot_keep_apart():
    long = table(1, {s: 100 + s for s in range(1, 10)}, button=1)
    short = table(2, {s: 200 + s for s in range(1, 8)}, button=1)
    other = table(3, {s: 300 + s for s in range(1, 9)}, button=1)  # one more player: no choice
    plan = plan_balance([long, short, other], keep_apart=[(104, 203)])
    assert [(m.entry, m.to_table) for m in plan.moves] == [(104, 2)]
    assert plan.together == ((104, 203),)


def test_bdpv_balancing_picks_another_mover_rather_than_seat_a_pair_together():
    # bdpv names no mover: the one who fits best (seat 6, see test_balance_rules) has a partner
    # at table 2, so the next best goes.
    rules = Rules(keep_position=True, never_move_blind_posters=True)
    long = TableState(1, 9, {s: 100 + s for s in range(1, 10)}, Blinds(1, 2, 3))
    short = TableState(2, 9, {s: 200 + s for s in (1, 2, 3, 4, 5, 8, 9)}, Blinds(1, 2, 3))
    assert plan_balance([long, short], rules).moves[0].entry == 106
    plan = plan_balance([long, short], rules, keep_apart=[(106, 201)])
    assert plan.moves[0].entry != 106 and plan.together == ()


def test_a_break_trades_tables_to_keep_a_pair_apart():
    a = table(1, {s: 10 + s for s in range(1, 6)}, button=1)
    b = table(2, {s: 20 + s for s in range(1, 6)}, button=1)
    breaking = table(3, {1: 31, 5: 35}, button=1)
    for seed in range(40):
        moves = plan_break([a, b, breaking], 3, rng=Random(seed), keep_apart=[(31, 12)])
        landed = {m.entry: m.to_table for m in moves}
        assert landed[31] == 2 and landed[35] == 1


def test_a_break_reports_a_pair_the_draw_must_seat_together():
    a = table(1, {s: 10 + s for s in range(1, 6)}, button=1)
    b = table(2, {s: 20 + s for s in range(1, 8)}, button=1)
    breaking = table(3, {1: 31, 5: 35}, button=1)
    moves = plan_break([a, b, breaking], 3, rng=Random(1), keep_apart=[(31, 35)])
    assert {m.to_table for m in moves} == {1}  # both go to the table with the fewest
    after = apply_moves([a, b, breaking], moves)
    assert pairs_together(after, [(31, 35)], {m.entry for m in moves}) == ((31, 35),)


def test_a_table_with_an_unsettled_bust_is_not_broken():
    a = table(1, {s: 10 + s for s in range(1, 6)}, button=1)
    breaking = table(3, {1: 31, 5: 35, 7: 37}, button=1, leaving={5})
    with pytest.raises(BustPending):
        plan_break([a, breaking], 3)


# --- Properties -----------------------------------------------------------------------------


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
    return tables, entry


def _windowed(plan, tables, start):
    whole = HeadCounts.whole(
        {t.number: t.count for t in tables}, {t.number: t.size for t in tables}
    )
    limits = {"fullest": start, "emptiest": start}
    while True:
        head = HeadCounts(
            whole.fullest[: limits["fullest"]],
            whole.emptiest[: limits["emptiest"]],
            limits["fullest"],
            limits["emptiest"],
        )
        try:
            return plan(head)
        except NeedMoreCounts as more:
            wanted = limits[more.end] * 2
            if more.players_at_most is not None:
                at_most = sum(1 for t in tables if t.count <= more.players_at_most)
                wanted = max(wanted // 2 + 1, at_most + 1)
            limits[more.end] = wanted


room = st.lists(st.tuples(st.sampled_from([6, 9, 10]), st.integers(0, 10)), min_size=2, max_size=30)


@settings(max_examples=120, deadline=None)
@given(
    room,
    st.integers(1, 6),
    st.sampled_from([Rules(), Rules(keep_position=True, never_move_blind_posters=True)]),
    st.lists(st.tuples(st.integers(1, 300), st.integers(1, 300)), max_size=40),
    st.integers(0, 2**32),
)
def test_balancing_with_pairs_from_both_ends_equals_the_whole_room(
    counts, start, rules, pairs, seed
):
    tables, _entries = _room(counts, seed)
    pairs = [(a, b) for a, b in pairs if a != b]
    by_number = {t.number: t for t in tables}
    whole = plan_balance(tables, rules, pairs)
    part = _windowed(
        lambda head: plan_balance_lazy(
            head, lambda ns: {n: by_number[n] for n in ns}, rules, pairs
        ),
        tables,
        start,
    )
    assert (part.moves, part.holds, part.together) == (whole.moves, whole.holds, whole.together)
    # What is reported is exactly the pairs the moves seat together.
    after = apply_moves(tables, whole.moves)
    assert whole.together == pairs_together(after, pairs, {m.entry for m in whole.moves})


@settings(max_examples=120, deadline=None)
@given(
    room,
    st.integers(1, 6),
    st.lists(st.tuples(st.integers(1, 300), st.integers(1, 300)), max_size=40),
    st.integers(0, 2**32),
)
def test_breaking_with_pairs_from_the_emptiest_end_equals_the_whole_room(
    counts, start, pairs, seed
):
    tables, _entries = _room(counts, seed)
    pairs = [(a, b) for a, b in pairs if a != b]
    by_number = {t.number: t for t in tables}
    breaking = tables[-1].number
    try:
        whole = plan_break(tables, breaking, rng=Random(seed), keep_apart=pairs)
    except Exception as exc:  # the same refusal either way
        with pytest.raises(type(exc)):
            _windowed(
                lambda head: plan_break_lazy(
                    head,
                    lambda ns: {n: by_number[n] for n in ns},
                    breaking,
                    rng=Random(seed),
                    keep_apart=pairs,
                ),
                tables,
                start,
            )
        return
    part = _windowed(
        lambda head: plan_break_lazy(
            head,
            lambda ns: {n: by_number[n] for n in ns},
            breaking,
            rng=Random(seed),
            keep_apart=pairs,
        ),
        tables,
        start,
    )
    assert part == whole
    # Trading never changes how many players each table receives.
    plain = plan_break(tables, breaking, rng=Random(seed))
    assert sorted(m.to_table for m in plain) == sorted(m.to_table for m in whole)
