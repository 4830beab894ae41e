"""A stopped clock (the tournament has ended) stands still and takes no command but reopen."""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clocks.domain.clock import ClockError, ClockEvent, LevelTiming, clock_state, validate_command

T0 = datetime(2026, 11, 1, 18, 0, tzinfo=UTC)
LEVELS = [LevelTiming(1200), LevelTiming(900, is_break=True), LevelTiming(1200)]


def ev(kind: str, after: float, seconds: int = 0, level: int = 0) -> ClockEvent:
    return ClockEvent(kind=kind, at=T0 + timedelta(seconds=after), seconds=seconds, level=level)


def test_stop_freezes_the_time_and_the_level():
    history = [ev("start", 0), ev("stop", 300)]
    for later in (300, 1200, 86400):
        state = clock_state(LEVELS, history, T0 + timedelta(seconds=later))
        assert state.stopped and not state.running
        assert state.level_index == 0 and state.remaining == 900
        assert state.level_ends_at is None


@pytest.mark.parametrize("kind", ["start", "pause", "resume", "add", "set_remaining", "jump"])
def test_a_stopped_clock_takes_no_command(kind):
    with pytest.raises(ClockError, match="stopped"):
        validate_command(LEVELS, [ev("start", 0), ev("stop", 10)], ev(kind, 20, 60, 1))


def test_stop_twice_and_reopen_without_stop_are_refused():
    with pytest.raises(ClockError):
        validate_command(LEVELS, [ev("start", 0), ev("stop", 10)], ev("stop", 20))
    with pytest.raises(ClockError):
        validate_command(LEVELS, [ev("start", 0)], ev("reopen", 20))


def test_reopen_comes_back_paused_where_it_stopped():
    history = [ev("start", 0), ev("stop", 300), ev("reopen", 5000)]
    state = clock_state(LEVELS, history, T0 + timedelta(seconds=9000))
    assert not state.stopped and not state.running and state.remaining == 900
    state = clock_state(LEVELS, [*history, ev("resume", 9000)], T0 + timedelta(seconds=9100))
    assert state.running and state.remaining == 800


@given(
    st.lists(st.integers(min_value=1, max_value=4000), min_size=1, max_size=6),
    st.integers(min_value=0, max_value=10**6),
)
def test_the_stopped_time_never_counts(gaps, probe):
    # Whatever ran before, a stopped clock shows the same level and time at any later instant.
    t = 0.0
    history = [ev("start", 0)]
    for i, gap in enumerate(gaps):
        t += gap
        history.append(ev("pause" if i % 2 == 0 else "resume", t))
    t += 1
    history.append(ev("stop", t))
    at_stop = clock_state(LEVELS, history, T0 + timedelta(seconds=t))
    later = clock_state(LEVELS, history, T0 + timedelta(seconds=t + probe))
    assert (later.level_index, later.remaining) == (at_stop.level_index, at_stop.remaining)
    assert later.stopped and not later.running
