"""When each level began (`level_starts`): what the chip graphs use to place a count in the level
it was made in. The row found for an instant is the row the clock showed then."""

from bisect import bisect_right
from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from clocks.domain.clock import (
    ClockError,
    ClockEvent,
    LevelTiming,
    clock_state,
    level_starts,
    validate_command,
)

T0 = datetime(2026, 11, 1, 18, 0, tzinfo=UTC)
LEVELS = [
    LevelTiming(1200),
    LevelTiming(1200),
    LevelTiming(900, is_break=True),
    LevelTiming(1200),
]


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def ev(kind, seconds_after, seconds=0, level=0):
    return ClockEvent(kind=kind, at=at(seconds_after), seconds=seconds, level=level)


def test_nothing_before_the_start_and_without_levels():
    assert level_starts(LEVELS, [], at(9000)) == []
    assert level_starts([], [ev("start", 0)], at(9000)) == []


def test_the_levels_roll_over_a_pause_and_a_jump_back():
    history = [ev("start", 0), ev("pause", 600), ev("resume", 1200), ev("jump", 2400, level=0)]
    # Level 1 ran 600 s, stood 600 s, ran 600 s more: level 2 began at 1800 s; the jump at
    # 2400 s began level 1 again; it ends 1200 s later.
    assert level_starts(LEVELS, history, at(4000)) == [
        (at(0), 0),
        (at(1800), 1),
        (at(2400), 0),
        (at(3600), 1),
    ]


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["pause", "resume", "add", "jump", "set_remaining"]),
            st.integers(1, 3000),
            st.integers(-600, 900),
            st.integers(0, 3),
        ),
        max_size=10,
    ),
    st.lists(st.integers(0, 25_000), min_size=1, max_size=6),
)
def test_the_row_of_an_instant_is_the_row_the_clock_showed(commands, probes):
    history = [ev("start", 0)]
    t = 0
    for kind, gap, secs, level in commands:
        t += gap
        command = ev(kind, t, seconds=abs(secs) if kind == "set_remaining" else secs, level=level)
        try:
            validate_command(LEVELS, history, command)
        except ClockError:
            continue
        history.append(command)
    starts = level_starts(LEVELS, history, at(30_000))
    assert [s[0] for s in starts] == sorted(s[0] for s in starts)
    for probe in probes:
        known = [e for e in history if e.at <= at(probe)]
        state = clock_state(LEVELS, known, at(probe))
        i = bisect_right([s[0] for s in starts], at(probe))
        assert starts[i - 1][1] == state.level_index
