"""One numbering of levels: breaks are not levels; "until level N" against the clock."""

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clocks.domain.clock import ClockEvent, LevelTiming, clock_state
from tournament.domain.levels import (
    Anchor,
    anchor_before_start,
    last_row_through,
    level_reached,
    playing_levels,
    row_ends_at,
    row_labels,
    row_of_level,
    until_level,
)
from tournament.domain.lifecycle import EntryRules, RegistrationError, check_purchase

T0 = datetime(2026, 11, 27, 19, 0, tzinfo=UTC)


@dataclass(frozen=True)
class R:
    minutes: int
    is_break: bool = False


# Levels 1-4 (20'), a break (15'), levels 5-6, a break, level 7.
STRUCTURE = [R(20), R(20), R(20), R(20), R(15, True), R(20), R(20), R(10, True), R(20)]
BREAKS = [r.is_break for r in STRUCTURE]


def test_breaks_have_no_number_and_follow_a_level():
    labels = row_labels(BREAKS)
    assert [lb.number for lb in labels] == [1, 2, 3, 4, None, 5, 6, None, 7]
    assert labels[4].after == 4 and labels[7].after == 6
    assert playing_levels(BREAKS) == 7


def test_the_level_after_a_break_is_the_next_number():
    assert row_of_level(BREAKS, 5) == 5
    assert row_of_level(BREAKS, 7) == 8
    assert level_reached(BREAKS, 4) == 4  # during the break: level 4 is the last one played
    assert level_reached(BREAKS, 5) == 5
    with pytest.raises(ValueError):
        row_of_level(BREAKS, 8)


def test_until_a_level_includes_the_break_after_it():
    assert last_row_through(BREAKS, 4) == 4
    assert last_row_through(BREAKS, 3) == 2
    assert last_row_through(BREAKS, 6) == 7
    assert last_row_through(BREAKS, 7) is None  # the last level runs on
    assert last_row_through(BREAKS, 9) is None


def test_estimated_end_before_the_start():
    anchor = anchor_before_start(STRUCTURE, T0, T0 - timedelta(hours=2))
    assert row_ends_at(STRUCTURE, anchor, 3) == T0 + timedelta(minutes=80)
    outlook = until_level(STRUCTURE, 4, anchor=anchor, started=False)
    assert outlook.state == "open" and outlook.with_break
    assert outlook.closes_at == T0 + timedelta(minutes=95)  # 4 levels and the break
    outlook = until_level(STRUCTURE, 3, anchor=anchor, started=False)
    assert outlook.closes_at == T0 + timedelta(minutes=60) and not outlook.with_break


def test_a_start_time_in_the_past_counts_from_now():
    now = T0 + timedelta(minutes=30)
    anchor = anchor_before_start(STRUCTURE, T0, now)
    assert row_ends_at(STRUCTURE, anchor, 0) == now + timedelta(minutes=20)


def test_estimated_end_from_the_running_clock():
    anchor = Anchor(index=5, remaining=300.0, at=T0)  # level 5, five minutes left
    assert row_ends_at(STRUCTURE, anchor, 5) == T0 + timedelta(minutes=5)
    assert row_ends_at(STRUCTURE, anchor, 4) is None  # already over
    outlook = until_level(STRUCTURE, 6, anchor=anchor, started=True)
    assert outlook.closes_at == T0 + timedelta(minutes=5 + 20 + 10)
    assert until_level(STRUCTURE, 4, anchor=anchor, started=True).state == "closed"


def test_unset_levels():
    anchor = anchor_before_start(STRUCTURE, T0, T0)
    assert until_level(STRUCTURE, None, anchor=anchor, started=False).state == "at_start"
    assert until_level(STRUCTURE, None, anchor=anchor, started=True).state == "closed"
    assert until_level(STRUCTURE, 0, anchor=anchor, started=False).state == "at_start"
    no_limit = until_level(STRUCTURE, None, anchor=anchor, started=True, unset_means_no_limit=True)
    assert no_limit.state == "no_limit"
    assert until_level(STRUCTURE, 7, anchor=anchor, started=True).state == "open_to_the_end"


def _timings(rows):
    return [LevelTiming(seconds=r.minutes * 60, is_break=r.is_break) for r in rows]


def _late_entry_allowed(rows, until, at):
    state = clock_state(_timings(rows), [ClockEvent("start", T0)], at)
    level = level_reached([r.is_break for r in rows], state.level_index)
    try:
        check_purchase(
            "buyin",
            rules=EntryRules(late_registration_until_level=until),
            status="running",
            current_level=level,
            purchases_so_far={},
            player_is_alive=False,
            player_has_active_entry=False,
        )
    except RegistrationError:
        return False
    return True


def test_until_level_against_the_clock():
    # Until level 4: open through the break after level 4, closed once level 5 begins.
    assert _late_entry_allowed(STRUCTURE, 4, T0 + timedelta(minutes=79))
    assert _late_entry_allowed(STRUCTURE, 4, T0 + timedelta(minutes=94))  # the break
    assert not _late_entry_allowed(STRUCTURE, 4, T0 + timedelta(minutes=95))  # level 5


rows_strategy = st.lists(
    st.builds(R, minutes=st.integers(1, 30), is_break=st.booleans()), min_size=1, max_size=14
).filter(lambda rows: not rows[0].is_break)


@settings(max_examples=200, deadline=None)
@given(rows=rows_strategy, data=st.data())
def test_estimated_close_is_when_the_clock_closes(rows, data):
    """For a clock started on time and never paused, the estimated closing instant is exactly
    when the rule starts refusing late entries."""
    breaks = [r.is_break for r in rows]
    until = data.draw(st.integers(1, playing_levels(breaks) + 1))
    outlook = until_level(rows, until, anchor=anchor_before_start(rows, T0, T0), started=False)
    if outlook.state == "open_to_the_end":
        end = T0 + timedelta(minutes=sum(r.minutes for r in rows) + 60)
        assert _late_entry_allowed(rows, until, end)
        return
    assert outlook.state == "open" and outlook.closes_at is not None
    assert _late_entry_allowed(rows, until, outlook.closes_at - timedelta(seconds=1))
    assert not _late_entry_allowed(rows, until, outlook.closes_at)


@given(breaks=st.lists(st.booleans(), max_size=30))
def test_numbers_count_only_playing_levels(breaks):
    labels = row_labels(breaks)
    numbers = [lb.number for lb in labels if lb.number is not None]
    assert numbers == list(range(1, playing_levels(breaks) + 1))
    for lb in labels:
        assert level_reached(breaks, lb.index) == (lb.number if lb.number else lb.after)
        if lb.number is not None:
            assert row_of_level(breaks, lb.number) == lb.index


@settings(max_examples=200, deadline=None)
@given(rows=rows_strategy, data=st.data())
def test_the_estimate_from_the_running_clock_does_not_drift(rows, data):
    """While the clock runs without pauses, every moment's estimate names the same instant as
    the estimate made before the start."""
    breaks = [r.is_break for r in rows]
    until = data.draw(st.integers(1, playing_levels(breaks)))
    planned = until_level(rows, until, anchor=anchor_before_start(rows, T0, T0), started=False)
    if planned.closes_at is None:
        return
    open_for = int((planned.closes_at - T0).total_seconds())
    now = T0 + timedelta(seconds=data.draw(st.integers(0, open_for - 1)))
    state = clock_state(_timings(rows), [ClockEvent("start", T0)], now)
    anchor = Anchor(state.level_index, state.remaining, now)
    running = until_level(rows, until, anchor=anchor, started=True)
    assert running.state == "open"
    assert running.closes_at == planned.closes_at
