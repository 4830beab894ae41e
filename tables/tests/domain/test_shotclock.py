"""The shot clock and time-bank cards without the database (tables/domain/shotclock.py)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.domain.shotclock import (
    NoCardsLeft,
    NotRunning,
    Phase,
    ShotClock,
    TimeBankRules,
    TimeIsUp,
    cards_left,
    phase,
    remaining_ms,
    resets_on,
    seconds_shown,
    start,
    stop,
    use_card,
)

RULES = TimeBankRules(seconds=30, cards=2, card_seconds=30)
T0 = 1_700_000_000_000


def test_a_started_clock_counts_down_and_warns_then_says_time_up():
    clock = start(RULES, T0)
    assert clock.running and clock.ends_ms == T0 + 30_000
    assert seconds_shown(clock, T0) == 30
    assert phase(clock, T0 + 19_999) is Phase.RUNNING
    assert phase(clock, T0 + 20_000) is Phase.WARNING  # 10 s left
    assert seconds_shown(clock, T0 + 29_001) == 1  # rounded up: 0 only when the time is up
    assert phase(clock, T0 + 30_000) is Phase.TIME_UP
    assert remaining_ms(clock, T0 + 99_000) == 0


def test_an_idle_clock_has_no_time():
    assert phase(stop(), T0) is Phase.IDLE
    assert remaining_ms(ShotClock(), T0) is None and seconds_shown(ShotClock(), T0) is None


def test_next_decision_restarts_with_the_full_seconds_also_after_cards():
    extended = use_card(start(RULES, T0), RULES, used=0, seat=4, now_ms=T0 + 25_000)
    assert extended.seconds == 60
    again = start(RULES, T0 + 40_000)
    assert again == ShotClock(started_ms=T0 + 40_000, seconds=30)


def test_a_card_adds_its_seconds_to_the_running_clock():
    clock = start(RULES, T0)
    extended = use_card(clock, RULES, used=0, seat=4, now_ms=T0 + 25_000)
    assert extended.ends_ms == T0 + 60_000
    assert extended.seat == 4 and extended.cards_used == 1
    assert seconds_shown(extended, T0 + 25_000) == 35


def test_a_card_is_refused_idle_out_of_time_or_with_none_left():
    with pytest.raises(NotRunning):
        use_card(stop(), RULES, used=0, seat=1, now_ms=T0)
    with pytest.raises(TimeIsUp):
        use_card(start(RULES, T0), RULES, used=0, seat=1, now_ms=T0 + 30_000)
    with pytest.raises(NoCardsLeft):
        use_card(start(RULES, T0), RULES, used=2, seat=1, now_ms=T0 + 1_000)
    with pytest.raises(NoCardsLeft):
        no_cards = TimeBankRules(seconds=30, cards=0, card_seconds=30)
        use_card(start(no_cards, T0), no_cards, used=0, seat=1, now_ms=T0)


def test_cards_left_never_goes_below_zero():
    assert cards_left(RULES, 0) == 2 and cards_left(RULES, 2) == 0
    assert cards_left(TimeBankRules(30, 1, 30), 3) == 0  # the setting was lowered


@pytest.mark.parametrize(
    ("setting", "day", "final"),
    [
        ("day_and_final_table", True, True),
        ("day", True, False),
        ("final_table", False, True),
        ("never", False, False),
        ("bogus", False, False),
    ],
)
def test_when_the_cards_come_back(setting, day, final):
    assert resets_on(setting, "day") is day
    assert resets_on(setting, "final_table") is final
    assert resets_on(setting, "lunch") is False


@given(
    seconds=st.integers(10, 120),
    cards=st.integers(0, 20),
    card_seconds=st.integers(10, 300),
    taps=st.lists(st.integers(0, 200_000), max_size=30),
)
def test_cards_used_add_exactly_their_seconds_and_never_more_than_held(
    seconds, cards, card_seconds, taps
):
    """Whatever the dealer taps and when: every accepted card adds exactly its seconds, a
    player never uses more cards than held, and nothing is accepted once the time is up."""
    rules = TimeBankRules(seconds=seconds, cards=cards, card_seconds=card_seconds)
    clock = start(rules, T0)
    used = 0
    for offset in sorted(taps):
        now = T0 + offset
        before = clock
        try:
            clock = use_card(clock, rules, used=used, seat=3, now_ms=now)
        except NoCardsLeft:
            assert used >= cards
            continue
        except TimeIsUp:
            assert remaining_ms(before, now) == 0
            continue
        used += 1
        assert clock.ends_ms == before.ends_ms + card_seconds * 1000
    assert used <= cards
    assert clock.seconds == seconds + used * card_seconds
    assert clock.cards_used == used


@given(st.integers(0, 10**9), st.integers(10, 120), st.integers(0, 10**6))
def test_seconds_shown_matches_the_phase(start_ms, seconds, elapsed):
    clock = start(TimeBankRules(seconds, 0, 10), start_ms)
    now = start_ms + elapsed
    shown = seconds_shown(clock, now)
    assert shown is not None and 0 <= shown <= seconds
    assert (shown == 0) == (phase(clock, now) is Phase.TIME_UP)
    assert (0 < shown <= 10) == (phase(clock, now) is Phase.WARNING)
