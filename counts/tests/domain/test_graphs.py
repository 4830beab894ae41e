"""The chip graphs' data, without a database: the x axis of levels and bag-and-tag days, one
player's stack, the leaders' lines through a level of the playback, and the empty cases."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from counts.domain.graphs import (
    CountPoint,
    Runner,
    Slot,
    chart_axis,
    leaders_at,
    leaders_chart,
    level_periods,
    levels_at,
    stack_chart,
)

T0 = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def pt(id_: int, entry: int, chips: int, level: int, bag: bool = False) -> CountPoint:
    return CountPoint(id=id_, entry_id=entry, chips=chips, level=level, bag=bag)


def runners(*numbers: int, out: dict[int, int] | None = None) -> dict[int, Runner]:
    out = out or {}
    return {n: Runner(entry_id=n, number=n, name=f"P{n}", out_level=out.get(n)) for n in numbers}


# The x axis


def test_the_axis_has_every_level_between_the_first_and_the_last_count() -> None:
    assert chart_axis([(2, False), (5, False)]) == [Slot(2), Slot(3), Slot(4), Slot(5)]


def test_a_start_position_only_when_counted_before_the_first_level() -> None:
    assert chart_axis([(0, False), (2, False)]) == [Slot(0), Slot(1), Slot(2)]
    assert chart_axis([(1, False)]) == [Slot(1)]


def test_bag_and_tag_after_its_level_and_a_carried_bag_before_the_start() -> None:
    # A Day 2: the bags carried in (before the first level), a correction before the start,
    # levels 1 to 3, the Day 2's own bag and tag in level 3.
    axis = chart_axis([(0, True), (0, False), (1, False), (3, False), (3, True)])
    assert axis == [Slot(0, day=1), Slot(0), Slot(1), Slot(2), Slot(3), Slot(3, day=2)]
    assert [s.bag for s in axis] == [True, False, False, False, False, True]


def test_no_counts_no_axis() -> None:
    assert chart_axis([]) == []


# Times to levels


def test_a_count_in_a_break_belongs_to_the_level_before_it() -> None:
    breaks = [False, False, True, False]
    starts = [(at(0), 0), (at(20), 1), (at(40), 2), (at(50), 3)]
    periods = level_periods(starts, breaks)
    assert periods == [(at(0), 1), (at(20), 2), (at(50), 3)]
    times = [at(-5), at(0), at(19.9), at(20), at(45), at(50), at(500)]
    assert levels_at(periods, times) == [0, 1, 1, 2, 2, 3, 3]


def test_no_clock_means_every_count_is_before_the_start() -> None:
    assert levels_at(level_periods([], []), [at(0), at(100)]) == [0, 0]


def test_a_jump_back_puts_later_counts_in_the_earlier_level() -> None:
    breaks = [False, False, False]
    periods = level_periods([(at(0), 0), (at(20), 1), (at(25), 0), (at(45), 1)], breaks)
    assert levels_at(periods, [at(22), at(30), at(50)]) == [2, 1, 2]


# One player's stack


def test_a_player_without_a_count_has_nothing_to_draw() -> None:
    assert stack_chart([]) is None


def test_a_player_with_one_count_draws_one_point() -> None:
    chart = stack_chart([pt(1, 7, 25_000, 3)])
    assert chart is not None
    assert chart.slots == [Slot(3)] and chart.values == [25_000]
    assert chart.rows == [(Slot(3), 25_000)]


def test_the_last_count_within_a_level_is_its_value_and_between_counts_the_stack_holds() -> None:
    chart = stack_chart(
        [pt(1, 7, 20_000, 1), pt(4, 7, 26_000, 1), pt(3, 7, 31_000, 1), pt(9, 7, 12_000, 4)]
    )
    assert chart is not None
    assert chart.slots == [Slot(1), Slot(2), Slot(3), Slot(4)]
    assert chart.values == [26_000, 26_000, 26_000, 12_000]
    assert chart.rows == [(Slot(1), 26_000), (Slot(4), 12_000)]


def test_the_bag_of_a_day_is_its_own_point() -> None:
    chart = stack_chart([pt(1, 7, 30_000, 8), pt(2, 7, 31_500, 8, bag=True)])
    assert chart is not None
    assert chart.slots == [Slot(8), Slot(8, day=1)]
    assert chart.values == [30_000, 31_500]


# The leaders


def test_the_leaders_by_their_latest_count_ties_by_number() -> None:
    points = [pt(1, 1, 30_000, 1), pt(2, 2, 40_000, 1), pt(3, 3, 40_000, 1), pt(4, 1, 50_000, 2)]
    top = leaders_at(points, runners(1, 2, 3), upto=2, limit=2)
    assert [(r.number, p.chips) for r, p in top] == [(1, 50_000), (2, 40_000)]
    # Through level 1 player 1's latest count was 30,000.
    top = leaders_at(points, runners(1, 2, 3), upto=1, limit=3)
    assert [(r.number, p.chips) for r, p in top] == [(2, 40_000), (3, 40_000), (1, 30_000)]


def test_a_player_out_is_no_leader_from_the_level_they_busted_in() -> None:
    points = [pt(1, 1, 90_000, 1), pt(2, 2, 10_000, 1)]
    field = runners(1, 2, out={1: 3})
    assert [r.number for r, _p in leaders_at(points, field, upto=2)] == [1, 2]
    assert [r.number for r, _p in leaders_at(points, field, upto=3)] == [2]


def test_counts_of_players_not_in_the_field_are_ignored() -> None:
    assert leaders_at([pt(1, 99, 50_000, 1)], runners(1), upto=1) == []


def test_the_leaders_chart_playback_keeps_the_axis_and_empties_the_later_levels() -> None:
    points = [pt(1, 1, 20_000, 1), pt(2, 2, 20_000, 1), pt(3, 1, 35_000, 2), pt(4, 2, 5_000, 3)]
    chart = leaders_chart(points, runners(1, 2), upto=2)
    assert chart is not None
    assert chart.slots == [Slot(1), Slot(2), Slot(3)] and chart.levels == [1, 2, 3]
    assert chart.upto == 2
    assert [(line.runner.number, line.values) for line in chart.lines] == [
        (1, [20_000, 35_000, None]),
        (2, [20_000, None, None]),  # its line ends at its last count
    ]
    assert [(r.rank, r.runner.number, r.chips, r.slot) for r in chart.rows] == [
        (1, 1, 35_000, Slot(2)),
        (2, 2, 20_000, Slot(1)),
    ]
    last = leaders_chart(points, runners(1, 2))
    assert last is not None and last.upto == 3
    beyond = leaders_chart(points, runners(1, 2), upto=40)
    assert beyond is not None and beyond.upto == 3 and beyond.lines == last.lines
    assert last.lines[1].values == [20_000, 20_000, 5_000]


def test_the_leaders_chart_with_nothing_counted_draws_nothing() -> None:
    assert leaders_chart([], runners(1)) is None


def test_before_the_first_counted_level_the_axis_has_no_lines() -> None:
    chart = leaders_chart([pt(1, 1, 20_000, 4)], runners(1), upto=2)
    assert chart is not None and chart.slots == [Slot(4)] and chart.lines == []


def test_the_whole_axis_given_with_the_leaders_counts_only() -> None:
    axis = [Slot(0), Slot(1), Slot(2)]
    chart = leaders_chart([pt(5, 1, 30_000, 1)], runners(1), axis=axis)
    assert chart is not None and chart.slots == axis and chart.upto == 2
    assert chart.lines[0].values == [None, 30_000, None]


# Properties

point_lists = st.lists(
    st.tuples(st.integers(1, 12), st.integers(0, 100_000), st.integers(0, 8), st.booleans()),
    max_size=60,
).map(lambda rows: [pt(i + 1, e, c, lv, b) for i, (e, c, lv, b) in enumerate(rows)])


@given(point_lists, st.dictionaries(st.integers(1, 12), st.integers(0, 9)), st.integers(0, 8))
def test_each_line_has_one_value_per_position_and_the_leaders_are_the_top_known(
    points: list[CountPoint], out: dict[int, int], upto: int
) -> None:
    field = runners(*range(1, 13), out=out)
    limit = 4
    chart = leaders_chart(points, field, upto=upto, limit=limit)
    if not points:
        assert chart is None
        return
    assert chart is not None
    for line in chart.lines:
        assert len(line.values) == len(chart.slots)
        # Nothing after the playback's level is drawn.
        assert all(
            v is None for v, s in zip(line.values, chart.slots, strict=False) if s.level > upto
        )
    # The leaders at `upto` are exactly the top `limit` by the count known then, among the
    # players still in. A level beyond the axis' last one shows the last (`chart.upto`).
    assert chart.upto == min(upto, max(s.level for s in chart.slots))
    through = chart.upto
    known: dict[int, CountPoint] = {}
    for p in sorted(points, key=lambda p: p.id):
        if p.level <= through:
            known[p.entry_id] = p
    still_in = [(p.chips, e) for e, p in known.items() if out.get(e, through + 1) > through]
    expected = sorted(still_in, key=lambda ce: (-ce[0], ce[1]))[:limit]
    assert [(r.chips, r.runner.number) for r in chart.rows] == expected
    assert [line.runner.number for line in chart.lines] == [e for _c, e in expected]
    # The axis is ordered: levels never go back, a bag after its level (before the start: first).
    assert [s.level for s in chart.slots] == sorted(s.level for s in chart.slots)


@given(point_lists)
def test_a_stack_holds_its_last_count_from_the_first_position_to_the_last(
    points: list[CountPoint],
) -> None:
    mine = [p for p in points if p.entry_id == 1]
    chart = stack_chart(mine)
    if not mine:
        assert chart is None
        return
    assert chart is not None
    assert len(chart.values) == len(chart.slots)
    counted = {(p.level, p.bag) for p in mine}
    assert {(s.level, s.bag) for s, _v in chart.rows} == counted
    held = None
    counted_at = [i for i, s in enumerate(chart.slots) if (s.level, s.bag) in counted]
    for i, (s, v) in enumerate(zip(chart.slots, chart.values, strict=True)):
        if i > counted_at[-1]:
            assert v is None  # the line ends at the last count
            continue
        mine_here = [p for p in mine if (p.level, p.bag) == (s.level, s.bag)]
        if mine_here:
            held = max(mine_here, key=lambda p: p.id).chips
            assert (s, held) in chart.rows
        # The last count there, or the stack as last counted.
        assert v == held
