"""The night's story as chart data: rows from the clock, the field, the entries, the ladder."""

from datetime import UTC, datetime, timedelta
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from clocks.domain.clock import ClockEvent, LevelTiming
from tournament.domain.story import (
    EntryGroup,
    RowChange,
    Rung,
    Tally,
    entries_story,
    field_story,
    payout_ladder,
    planned_row_changes,
    row_changes,
    row_tallies,
    stretch_row,
)

T0 = datetime(2026, 11, 27, 19, 0, tzinfo=UTC)
# Levels 1-2 (20'), a break (10'), level 3 (20').
LEVELS = [LevelTiming(1200), LevelTiming(1200), LevelTiming(600, True), LevelTiming(1200)]
BREAKS = [lv.is_break for lv in LEVELS]


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def test_a_clock_never_started_changes_no_row():
    assert row_changes(LEVELS, [], at(90)) == []


def test_a_running_clock_changes_row_at_each_level_end():
    changes = row_changes(LEVELS, [ClockEvent("start", T0)], at(45))
    assert changes == [RowChange(T0, 0), RowChange(at(20), 1), RowChange(at(40), 2)]


def test_a_pause_pushes_the_next_level_back():
    events = [ClockEvent("start", T0), ClockEvent("pause", at(10)), ClockEvent("resume", at(15))]
    changes = row_changes(LEVELS, events, at(54))
    assert changes == [RowChange(T0, 0), RowChange(at(25), 1), RowChange(at(45), 2)]


def test_a_jump_back_is_a_change_and_a_stop_ends_the_changes():
    events = [
        ClockEvent("start", T0),
        ClockEvent("jump", at(5), level=3),
        ClockEvent("jump", at(6), level=0),
        ClockEvent("stop", at(8)),
    ]
    changes = row_changes(LEVELS, events, at(500))
    assert [c.row for c in changes] == [0, 3, 0]


def test_the_last_level_runs_on():
    changes = row_changes(LEVELS, [ClockEvent("start", T0)], at(1000))
    assert [c.row for c in changes] == [0, 1, 2, 3]


def test_no_levels_no_changes():
    assert row_changes([], [ClockEvent("start", T0)], at(10)) == []
    assert planned_row_changes([], T0) == []


def test_the_planned_rows_follow_the_lengths():
    assert planned_row_changes(LEVELS, T0) == [
        RowChange(T0, 0),
        RowChange(at(20), 1),
        RowChange(at(40), 2),
        RowChange(at(50), 3),
    ]


def test_stretches_before_the_start_count_in_the_first_row():
    changes = [RowChange(T0, 0), RowChange(at(20), 1), RowChange(at(40), 2)]
    assert [stretch_row(changes, s) for s in range(4)] == [0, 0, 1, 2]
    assert stretch_row([], 5) == 0


def test_tallies_count_entries_busts_and_chips_per_row():
    changes = [RowChange(T0, 0), RowChange(at(20), 1), RowChange(at(40), 2)]
    groups = [
        EntryGroup(entered=0, busted=None, reentry=False, count=10),
        EntryGroup(entered=1, busted=2, reentry=False, count=3),
        EntryGroup(entered=2, busted=3, reentry=True, count=2),
        # recorded after its bust (an entry typed in late): entered when it busted
        EntryGroup(entered=3, busted=2, reentry=False, count=1),
    ]
    tallies = row_tallies(changes, groups, [(0, 100_000), (2, 6_000)])
    assert tallies == {
        0: Tally(entries=13, chips=100_000),
        1: Tally(entries=1, reentries=2, busts=4, chips=6_000),
        2: Tally(busts=2),
    }


def test_the_field_over_the_rows():
    tallies = {
        0: Tally(entries=10, chips=100_000),
        1: Tally(entries=2, busts=3, chips=20_000),
        2: Tally(reentries=1, busts=1, chips=10_000),
    }
    points = field_story(BREAKS, tallies, last_row=3)
    assert [p.players_left for p in points] == [10, 9, 9, 9]
    assert [p.entries for p in points] == [10, 12, 13, 13]
    assert [p.chips_in_play for p in points] == [100_000, 120_000, 130_000, 130_000]
    assert points[1].average_stack == 120_000 / 9
    assert [p.label.is_break for p in points] == BREAKS
    assert [p.label.number for p in points] == [1, 2, None, 3]


def test_the_field_stops_at_the_row_being_played_and_keeps_later_counts():
    tallies = {0: Tally(entries=5, chips=50_000), 3: Tally(busts=2)}
    points = field_story(BREAKS, tallies, last_row=1)
    assert len(points) == 2
    assert points[-1].players_left == 3


def test_nothing_to_draw():
    assert field_story(BREAKS, {}, last_row=3) == []
    assert field_story([], {0: Tally(entries=5)}, last_row=0) == []
    assert entries_story(BREAKS, {1: Tally(busts=1)}, last_row=3) == []
    assert entries_story([], {0: Tally(entries=1)}, last_row=0) == []


def test_no_busts_yet():
    points = field_story(BREAKS, {0: Tally(entries=3, chips=30_000)}, last_row=0)
    assert [(p.players_left, p.busts, p.average_stack) for p in points] == [(3, 0, 10_000.0)]


def test_everyone_out_has_no_average():
    points = field_story(BREAKS, {0: Tally(entries=2, busts=2, chips=20_000)}, last_row=0)
    assert points[0].players_left == 0
    assert points[0].average_stack is None


def test_entries_per_row():
    tallies = {0: Tally(entries=10), 2: Tally(entries=1, reentries=4)}
    points = entries_story(BREAKS, tallies, last_row=2)
    assert [(p.entries, p.reentries, p.total_so_far) for p in points] == [
        (10, 0, 10),
        (0, 0, 10),
        (1, 4, 15),
    ]


def test_the_ladder_groups_equal_places():
    assert payout_ladder([5000, 3000, 1000, 1000, 1000, 500]) == [
        Rung(1, 1, 5000),
        Rung(2, 2, 3000),
        Rung(3, 5, 1000),
        Rung(6, 6, 500),
    ]
    assert payout_ladder([]) == []
    assert payout_ladder([1000, 0, 0]) == [Rung(1, 1, 1000)]


# A history: per row, how many enter (first or again) and how many of those in play bust.
histories = st.lists(
    st.tuples(
        st.integers(0, 50),
        st.integers(0, 10),
        st.integers(0, 60),
        st.integers(0, 20_000),
    ),
    min_size=1,
    max_size=12,
)


def _tallies(history: list[tuple[int, int, int, int]]) -> dict[int, Tally]:
    tallies: dict[int, Tally] = {}
    alive = 0
    for row, (first, again, wanted, stack) in enumerate(history):
        alive += first + again
        busts = min(wanted, alive)
        alive -= busts
        tallies[row] = Tally(first, again, busts, (first + again) * (stack + 1))
    return tallies


@settings(max_examples=200, deadline=None)
@given(histories, st.data())
def test_the_field_follows_its_entries_and_busts(history, data):
    breaks = data.draw(st.lists(st.booleans(), min_size=len(history), max_size=len(history)))
    tallies = _tallies(history)
    points = field_story(breaks, tallies, last_row=len(history) - 1)
    if not any(t.entries or t.reentries for t in tallies.values()):
        assert points == []
        return
    assert len(points) == len(history)
    entered = busted = 0
    before = 0
    for row, point in enumerate(points):
        t = tallies[row]
        entered += t.entries + t.reentries
        busted += t.busts
        # players left = entries - busts at every row
        assert point.players_left == entered - busted
        # it never rises but through entries
        assert point.players_left - before <= t.entries + t.reentries
        before = point.players_left
        # average stack x players = chips in play
        if point.players_left:
            assert point.average_stack is not None
            assert abs(point.average_stack * point.players_left - point.chips_in_play) < 1e-6 * (
                point.chips_in_play + 1
            )
        else:
            assert point.average_stack is None


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 10_000), max_size=40))
def test_the_ladder_pays_what_the_table_pays(amounts):
    ladder = payout_ladder(amounts)
    paid = []
    for amount in amounts:
        if amount <= 0:
            break
        paid.append(amount)
    assert sum(r.places * r.amount for r in ladder) == sum(paid)
    assert [r.first for r in ladder] == [1, *(r.last + 1 for r in ladder[:-1])][: len(ladder)]
    assert all(a.amount != b.amount for a, b in pairwise(ladder))


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5), st.booleans()), max_size=30),
    st.lists(st.integers(0, 5), min_size=0, max_size=6),
)
def test_tallies_keep_every_entry_and_bust(groups, rows):
    changes = [RowChange(at(10 * i), r) for i, r in enumerate(rows)]
    entry_groups = [
        EntryGroup(entered=e, busted=b if out else None, reentry=False, count=1)
        for e, b, out in groups
    ]
    tallies = row_tallies(changes, entry_groups, [])
    assert sum(t.entries for t in tallies.values()) == len(groups)
    assert sum(t.busts for t in tallies.values()) == sum(1 for *_, out in groups if out)
