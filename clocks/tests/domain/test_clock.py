from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clocks.domain.clock import (
    ClockError,
    ClockEvent,
    LevelTiming,
    clock_state,
    validate_command,
)
from tournament.domain.levels import level_reached
from tournament.domain.lifecycle import EntryRules, field_may_grow

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


def test_not_started():
    s = clock_state(LEVELS, [], at(0))
    assert not s.started and s.remaining == 1200 and s.level_ends_at is None


def test_levels_roll_over_and_break_is_seen():
    events = [ev("start", 0)]
    s = clock_state(LEVELS, events, at(1300))
    assert s.level_index == 1 and s.remaining == 1100 and s.running
    assert s.seconds_to_next_break == 1100
    assert s.level_ends_at == at(2400)
    s = clock_state(LEVELS, events, at(2500))
    assert s.is_break and s.remaining == 800


def test_pause_and_resume_stop_time():
    events = [ev("start", 0), ev("pause", 600), ev("resume", 1600)]
    assert clock_state(LEVELS, events[:2], at(5000)).remaining == 600
    s = clock_state(LEVELS, events, at(1700))
    assert s.level_index == 0 and s.remaining == 500


def test_adjustments_and_jump():
    events = [ev("start", 0), ev("add", 100, seconds=60)]
    assert clock_state(LEVELS, events, at(100)).remaining == 1160
    events.append(ev("set_remaining", 200, seconds=30))
    assert clock_state(LEVELS, events, at(210)).remaining == 20
    events.append(ev("jump", 220, level=3))
    s = clock_state(LEVELS, events, at(220))
    assert s.level_index == 3 and s.on_last_level and s.next_level_index is None


def test_last_level_runs_on():
    s = clock_state(LEVELS, [ev("start", 0)], at(100_000))
    assert s.level_index == 3 and s.remaining == 0 and s.on_last_level


@pytest.mark.parametrize(
    ("history", "command"),
    [
        ([], ev("pause", 1)),
        ([ev("start", 0)], ev("start", 1)),
        ([ev("start", 0)], ev("resume", 1)),
        ([ev("start", 0), ev("pause", 1)], ev("pause", 2)),
        ([ev("start", 0)], ev("add", 1, seconds=-5000)),
        ([ev("start", 0)], ev("set_remaining", 1, seconds=99_999)),
        ([ev("start", 0)], ev("jump", 1, level=9)),
        ([ev("start", 10)], ev("pause", 5)),
        ([ev("start", 0)], ev("explode", 1)),
    ],
)
def test_impossible_commands(history, command):
    with pytest.raises(ClockError):
        validate_command(LEVELS, history, command)


def _late_registration_open(at_: datetime, until_level: int | None) -> bool:
    """The tournament's rule (lifecycle.field_may_grow) read at the clock's playing level."""
    state = clock_state(LEVELS, [ev("start", 0)], at_)
    level = level_reached([lv.is_break for lv in LEVELS], state.level_index)
    rules = EntryRules(late_registration_until_level=until_level)
    return field_may_grow(rules=rules, status="running", current_level=level)


def test_late_registration_through_the_break_after_the_level():
    assert _late_registration_open(at(2500), 2)
    assert not _late_registration_open(at(3400), 2)
    assert not _late_registration_open(at(1), None)


@given(
    st.lists(
        st.tuples(
            st.sampled_from(["pause", "resume", "add", "jump"]),
            st.integers(1, 4000),
            st.integers(-600, 600),
            st.integers(0, 3),
        ),
        max_size=12,
    ),
    st.integers(0, 20_000),
)
def test_replay_invariants(commands, probe):
    history = [ev("start", 0)]
    t = 0
    for kind, gap, secs, level in commands:
        t += gap
        command = ev(kind, t, seconds=secs, level=level)
        try:
            validate_command(LEVELS, history, command)
        except ClockError:
            continue
        history.append(command)
    s = clock_state(LEVELS, history, at(t + probe))
    assert 0 <= s.level_index < len(LEVELS)
    assert 0 <= s.remaining <= LEVELS[s.level_index].seconds
    # The state is a pure function of the history: asking twice gives the same answer.
    assert s == clock_state(LEVELS, history, at(t + probe))
    if s.running and s.level_ends_at is not None:
        assert s.level_ends_at == at(t + probe) + timedelta(seconds=s.remaining)
