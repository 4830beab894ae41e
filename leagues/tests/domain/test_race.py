"""The season's race and a person's history without a database (leagues/domain/race.py): the
race counts as the standings do, night by night."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.domain.points import PointsError, Result, standings
from leagues.domain.race import (
    Finish,
    Night,
    Racer,
    history_table,
    person_history,
    race,
    race_table,
)

NIGHTS = [Night(100 + k, f"N{k + 1}") for k in range(4)]


def racers_of(by_player, best_n=None, participation=0):
    """The racers in the standings' order, as the standings page lists them."""
    rows = standings(by_player, best_n=best_n, participation=participation)
    return rows, [Racer(s.player, f"P{s.player}", s.results) for s in rows]


def test_totals_and_ranks_after_each_night():
    by_player = {
        1: [Result(100, 1, 1000), Result(102, 2, 500)],
        2: [Result(101, 1, 800), Result(102, 1, 900)],
        3: [Result(103, 1, 2000)],
    }
    _rows, racers = racers_of(by_player)
    r = race(NIGHTS, racers, best_n=None, participation=0)
    lines = {line.player: line for line in r.lines}
    assert lines[2].totals == (None, 800, 1700, 1700)
    assert lines[1].totals == (1000, 1000, 1500, 1500)
    assert lines[3].totals == (None, None, None, 2000)
    assert lines[1].ranks == (1, 1, 2, 3)
    assert lines[2].ranks == (None, 2, 1, 2)
    assert lines[3].ranks == (None, None, None, 1)
    assert [line.player for line in r.lines] == [3, 2, 1]  # the standings' order
    assert r.players == 3
    assert not r.empty


def test_best_n_and_participation_per_prefix():
    by_player = {1: [Result(100, 5, 100), Result(101, 1, 1000), Result(102, 3, 300)]}
    _rows, racers = racers_of(by_player, best_n=2, participation=50)
    line = race(NIGHTS, racers, best_n=2, participation=50).lines[0]
    # best 2 of (100), (100, 1000), (100, 1000, 300) plus 50 per night played
    assert line.totals == (150, 1200, 1450, 1450)


def test_equal_totals_share_a_rank():
    by_player = {1: [Result(100, 1, 500)], 2: [Result(100, 1, 500)], 3: [Result(100, 3, 100)]}
    _rows, racers = racers_of(by_player)
    r = race(NIGHTS[:1], racers, best_n=None, participation=0)
    assert [line.ranks for line in r.lines] == [(1,), (1,), (3,)]


def test_shared_points_as_fractions():
    by_player = {1: [Result(100, 2, Fraction(1001, 2))], 2: [Result(100, 2, Fraction(1001, 2))]}
    _rows, racers = racers_of(by_player)
    r = race(NIGHTS[:1], racers, best_n=None, participation=0)
    assert [line.totals for line in r.lines] == [(Fraction(1001, 2),)] * 2


def test_only_the_top_ten():
    by_player = {p: [Result(100, p, 10_000 - p)] for p in range(1, 31)}
    _rows, racers = racers_of(by_player)
    r = race(NIGHTS, racers, best_n=None, participation=0)
    assert [line.player for line in r.lines] == list(range(1, 11))
    assert r.players == 30
    assert r.lines[9].ranks[0] == 10


def test_one_night_and_none():
    by_player = {1: [Result(100, 1, 1000)]}
    _rows, racers = racers_of(by_player)
    one = race(NIGHTS[:1], racers, best_n=None, participation=0)
    assert not one.empty
    assert one.lines[0].totals == (1000,)
    none = race([], racers, best_n=None, participation=0)
    assert none.empty
    assert none.lines == ()
    assert race(NIGHTS, [], best_n=None, participation=0).empty


def test_a_result_of_another_night_is_left_out():
    racers = [Racer(1, "P1", [Result(999, 1, 1000), Result(100, 2, 10)])]
    r = race(NIGHTS[:1], racers, best_n=None, participation=0)
    assert r.lines[0].totals == (10,)


def test_best_n_below_one_is_refused():
    with pytest.raises(PointsError):
        race(NIGHTS, [], best_n=0, participation=0)


def test_table():
    by_player = {1: [Result(100, 1, 1000)], 2: [Result(101, 1, 500)]}
    _rows, racers = racers_of(by_player)
    headers, rows = race_table(race(NIGHTS[:2], racers, best_n=None, participation=0))
    assert headers == ["P1", "P2"]
    assert rows == [["N1", 1000, 1, None, None], ["N2", 1000, 1, 500, 2]]


# --- properties: the race is the standings, night by night ----------------------------------

results_st = st.dictionaries(
    st.integers(1, 40),
    st.lists(
        st.tuples(st.integers(0, 7), st.integers(1, 30), st.integers(0, 5000)),
        min_size=1,
        max_size=8,
        unique_by=lambda r: r[0],
    ),
    min_size=0,
    max_size=15,
)
scoring_st = st.tuples(st.one_of(st.none(), st.integers(1, 5)), st.sampled_from([0, 100, 250]))
EIGHT = [Night(200 + k, f"N{k}") for k in range(8)]


def _by_player(raw):
    return {
        p: sorted((Result(200 + n, place, pts) for n, place, pts in own), key=lambda r: r[0])
        for p, own in raw.items()
    }


@settings(max_examples=60, deadline=None)
@given(results_st, scoring_st)
def test_last_point_is_the_standings_total(raw, scoring):
    best_n, participation = scoring
    rows, racers = racers_of(_by_player(raw), best_n, participation)
    r = race(EIGHT, racers, best_n=best_n, participation=participation, top=len(racers))
    assert [line.player for line in r.lines] == [s.player for s in rows]
    for line, s in zip(r.lines, rows, strict=True):
        assert line.totals[-1] == s.total
        assert line.ranks[-1] == s.rank


@settings(max_examples=60, deadline=None)
@given(results_st, scoring_st, st.integers(0, 8))
def test_after_night_k_nothing_later_counts(raw, scoring, k):
    best_n, participation = scoring
    by_player = _by_player(raw)
    _rows, racers = racers_of(by_player, best_n, participation)
    full = race(EIGHT, racers, best_n=best_n, participation=participation, top=len(racers))
    # The same season as it stood after night k: later results not there at all.
    kept = {200 + n for n in range(k)}
    cut = [Racer(r.player, r.name, [x for x in r.results if x.tournament in kept]) for r in racers]
    early = race(EIGHT[:k], cut, best_n=best_n, participation=participation, top=len(racers))
    early_lines = {line.player: line for line in early.lines}
    for line in full.lines:
        if any(t is not None for t in line.totals[:k]):
            mine = early_lines[line.player]
            assert mine.totals == line.totals[:k]
            assert mine.ranks == line.ranks[:k]
        else:
            assert line.player not in early_lines
    # ... and after night k the standings are those of the first k nights.
    if k:
        then = standings(
            {p: own for r in cut if (own := list(r.results)) for p in [r.player]},
            best_n=best_n,
            participation=participation,
        )
        for s in then:
            assert early_lines.get(s.player) is None or (
                early_lines[s.player].totals[-1] == s.total
                and early_lines[s.player].ranks[-1] == s.rank
            )


# --- a person's history ----------------------------------------------------------------------

T0 = datetime(2026, 1, 2, 19, tzinfo=UTC)


def test_history_oldest_first_best_entry_of_a_night():
    finishes = [
        Finish(3, "Fr 3", T0 + timedelta(days=14), 2, 30, 1500),
        Finish(2, "Fr 2", T0 + timedelta(days=7), 9, 40, None),
        Finish(1, "Fr 1", T0, 12, 20, 0),
        Finish(1, "Fr 1", T0, 4, 21, 300),  # the re-entry went deeper
    ]
    h = person_history(finishes)
    assert h.x_labels == ["Fr 1", "Fr 2", "Fr 3"]
    assert h.places == [4, 9, 2]
    assert h.fields == [21, 40, 30]
    assert h.points == [300, None, 1500]
    assert [n.entries for n in h.nights] == [2, 1, 1]
    assert h.with_points and not h.empty
    assert history_table(h)[0] == ["Fr 1", 4, 21, 300]


def test_history_one_tournament_and_none():
    one = person_history([Finish(1, "Fr", T0, 1, 9, None)])
    assert not one.empty and not one.with_points
    assert one.places == [1]
    none = person_history([])
    assert none.empty and history_table(none) == []
    no_place = person_history([Finish(1, "Fr", T0, None, 9, None)])
    assert no_place.empty
