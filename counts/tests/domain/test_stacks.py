"""The stacks from counts, without a database: latest count wins, a busted player's count never
reaches the average, estimates fill the chips the counts do not account for."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from counts.domain.stacks import (
    Counted,
    CountRefused,
    Player,
    field_stacks,
    latest_counts,
    leaders,
    ranked,
    refusal,
)

T0 = datetime(2026, 11, 25, 20, 0, tzinfo=UTC)


def player(i: int, table: int | None = 1, seat: int | None = None) -> Player:
    return Player(entry_id=i, number=i, name=f"P{i}", table=table, seat=seat or i)


def count(id_: int, entry: int, chips: int, minutes: int = 0) -> Counted:
    return Counted(id=id_, entry_id=entry, count=chips, at=T0 + timedelta(minutes=minutes))


def test_the_latest_count_wins_and_the_old_one_is_ignored() -> None:
    latest = latest_counts([count(1, 7, 100), count(5, 7, 300), count(3, 7, 200)])
    assert latest[7].count == 300


def test_no_count_means_the_average_of_the_chips_in_play() -> None:
    field = field_stacks([player(1), player(2)], {}, chips_in_play=40_000, big_blind=400)
    assert field.average.chips == 20_000
    assert field.average.source == "chips"
    assert all(not s.counted and s.chips == 20_000 and s.big_blinds == 50.0 for s in field.stacks)


def test_some_counted_the_rest_share_what_is_left() -> None:
    players = [player(1), player(2), player(3)]
    field = field_stacks(players, {1: count(1, 1, 30_000, 5)}, chips_in_play=60_000, big_blind=None)
    assert field.average.source == "mixed" and field.average.counted == 1
    assert field.estimate == 15_000
    assert [s.chips for s in field.stacks] == [30_000, 15_000, 15_000]
    assert field.average.chips == 20_000
    assert field.stacks[0].big_blinds is None


def test_counts_above_the_chips_in_play_estimate_the_others_at_zero() -> None:
    field = field_stacks(
        [player(1), player(2)], {1: count(1, 1, 50_000)}, chips_in_play=40_000, big_blind=100
    )
    assert field.estimate == 0
    assert field.average.chips == 25_000


def test_leaders_are_counted_stacks_only_largest_first() -> None:
    players = [player(i) for i in range(1, 6)]
    latest = {2: count(1, 2, 9_000), 4: count(2, 4, 12_000), 5: count(3, 5, 9_000)}
    field = field_stacks(players, latest, chips_in_play=100_000, big_blind=1_000)
    assert [s.player.number for s in leaders(field)] == [4, 2, 5]
    assert [s.player.number for s in ranked(field)][:3] == [4, 2, 5]
    assert all(not s.counted for s in ranked(field)[3:])


def test_refusals() -> None:
    assert refusal(-1, chips_in_play=10) is CountRefused.NEGATIVE
    assert refusal(11, chips_in_play=10) is CountRefused.ABOVE_CHIPS_IN_PLAY
    assert refusal(10, chips_in_play=10) is None
    assert refusal(0, chips_in_play=10) is None


counts_strategy = st.lists(
    st.tuples(st.integers(1, 30), st.integers(0, 10**7), st.integers(0, 600)), max_size=80
)


@given(counts_strategy, st.sets(st.integers(1, 30)), st.integers(0, 10**8))
def test_a_busted_players_count_never_reaches_the_average(
    raw: list[tuple[int, int, int]], playing: set[int], chips_in_play: int
) -> None:
    records = [count(i + 1, e, c, m) for i, (e, c, m) in enumerate(raw)]
    latest = latest_counts(records)
    players = [player(e) for e in sorted(playing)]
    field = field_stacks(players, latest, chips_in_play=chips_in_play, big_blind=200)
    # The same field without the counts of those who are out: the very same answer.
    only_playing = {e: c for e, c in latest.items() if e in playing}
    again = field_stacks(players, only_playing, chips_in_play=chips_in_play, big_blind=200)
    assert field == again
    assert {s.player.entry_id for s in field.stacks} == playing
    assert field.average.counted == len(only_playing)
    if players:
        total = sum(s.chips for s in field.stacks)
        counted_sum = sum(c.count for c in only_playing.values())
        if len(only_playing) == len(players):
            assert field.average.chips == counted_sum // len(players)
        else:
            # Chips are conserved: the estimates take the rest, less the rounding.
            assert field.average.chips == max(chips_in_play, counted_sum) // len(players)
            if counted_sum <= chips_in_play:
                assert chips_in_play - len(players) < total <= chips_in_play


@given(counts_strategy)
def test_the_latest_count_wins_whatever_the_order(raw: list[tuple[int, int, int]]) -> None:
    records = [count(i + 1, e, c, m) for i, (e, c, m) in enumerate(raw)]
    forward = latest_counts(records)
    backward = latest_counts(reversed(records))
    assert forward == backward
    for e, c in forward.items():
        assert c.id == max(r.id for r in records if r.entry_id == e)
