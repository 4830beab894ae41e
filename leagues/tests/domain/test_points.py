"""League points without a database: the formula language, tables, the DPSB preset, shared
places and standings (docs/leagues.md)."""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.domain.formula import FormulaError, formula_check, formula_parse
from leagues.domain.points import (
    DPSB_BANDS,
    PointsError,
    Result,
    dpsb_percentages,
    dpsb_points,
    results_by_player,
    shared_finish_points,
    shared_points,
    standings,
    table_from_json,
    table_parse,
    to_points,
)

# --- the formula language ------------------------------------------------------------------


def test_wpsv_style_formula():
    f = formula_check("9 * sqrt(n) / sqrt(p)")
    assert f.points(n=100, p=1) == pytest.approx(90.0)
    assert f.points(n=100, p=4) == pytest.approx(45.0)


def test_every_name_and_function():
    f = formula_parse(
        "max(0, ln(n) - log10(p)) + min(b, 10) + k * 2 + abs(-1) + floor(1.7) + ceil(0.2) + round(2.5) + 7 % 4 + 2 ** 3 + -(+1)"
    )
    expected = max(0, math.log(20) - math.log10(2)) + 10 + 6 + 1 + 1 + 1 + 3 + 3 + 8 - 1
    assert f.points(n=20, p=2, b=50, k=3) == pytest.approx(expected)
    assert formula_parse("round(2.345, 2)").points(n=2, p=1) == pytest.approx(2.35)
    assert formula_parse("n ^ 2").points(n=3, p=1) == 9  # ^ is read as a power


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty"),
        ("9 * ", "syntax"),
        ("__import__('os')", "function"),
        ("x + 1", "name"),
        ("n.real", "syntax"),
        ("open(n)", "function"),
        ("'a' * 3", "syntax"),
        ("[1, 2]", "syntax"),
        ("n if p else 1", "syntax"),
        ("n <> p", "syntax"),
        ("sqrt(n, p)", "arguments"),
        ("min(n)", "arguments"),
        ("sqrt(x=n)", "syntax"),
        ("lambda: 1", "syntax"),
        ("1" * 2001, "long"),
        ("True + n", "syntax"),
    ],
)
def test_refused_formulas(text, code):
    with pytest.raises(FormulaError) as exc:
        formula_check(text)
    assert exc.value.code == code


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("100 / (n - p)", "zero"),  # p = n
        ("100 / (p - 1)", "zero"),
        ("sqrt(n - 2 * p)", "negative"),
        ("ln(p - 1)", "log"),
        ("100 / b", "zero"),  # a freeroll
        ("n ** n", "overflow"),
        ("(-n) ** 0.5", "negative"),
        ("n % (p - 1)", "zero"),
    ],
)
def test_formulas_that_fail_somewhere_on_the_grid(text, code):
    formula_parse(text)  # parses
    with pytest.raises(FormulaError) as exc:
        formula_check(text)
    assert exc.value.code == code
    assert "at n=" in str(exc.value) and exc.value.values["at"] is True


def test_deep_nesting_is_refused():
    with pytest.raises(FormulaError):
        formula_check("-" * 200 + "n")
    with pytest.raises(FormulaError):
        formula_check("abs(" * 50 + "n" + ")" * 50)


_atoms = st.sampled_from(["n", "p", "b", "k", "0", "1", "2.5", "1e308", "x", "-1", "()", ""])
_ops = st.sampled_from(["+", "-", "*", "/", "**", "%", "^", " ", ",", "(", ")", ".", "<", "//"])
_funcs = st.sampled_from(
    ["sqrt", "ln", "log10", "min", "max", "round", "floor", "ceil", "abs", "eval", "exec"]
)


@st.composite
def _formulas(draw):
    parts = []
    for _ in range(draw(st.integers(1, 12))):
        choice = draw(st.integers(0, 3))
        if choice == 0:
            parts.append(draw(_atoms))
        elif choice == 1:
            parts.append(draw(_ops))
        elif choice == 2:
            parts.append(draw(_funcs) + "(")
        else:
            parts.append(")")
    return "".join(parts)


@settings(max_examples=300, deadline=None)
@given(st.one_of(_formulas(), st.text(max_size=40)))
def test_the_evaluator_raises_only_its_own_error(text):
    try:
        formula = formula_check(text)
    except FormulaError:
        return
    value = formula.points(n=10, p=3, b=20, k=1)
    assert math.isfinite(value)


# --- tables and the DPSB preset ------------------------------------------------------------


def test_dpsb_bands_sum_to_100_percent():
    for _low, _high, shares in DPSB_BANDS:
        assert sum(shares) == 100


@given(st.integers(9, 5000))
def test_dpsb_points_share_the_whole_pool(n):
    assert sum(dpsb_points(n, p) for p in range(1, n + 1)) == 100 * n * 100  # hundredths


def test_dpsb_bands_and_edges():
    assert dpsb_percentages(8) == ()  # fewer than 9 entries: no points
    assert dpsb_points(8, 1) == 0
    assert dpsb_percentages(9) == (60, 40)
    assert dpsb_points(9, 1) == 540_00 and dpsb_points(9, 3) == 0
    assert dpsb_percentages(14)[0] == 50 and dpsb_percentages(15)[0] == 42
    assert dpsb_percentages(129) == dpsb_percentages(130) == dpsb_percentages(2000)
    assert dpsb_points(100, 9) == 200_00


def test_table_with_bands():
    table = table_parse("2-9: 10 5\n10-19: 20 10 5\n20+: 30, 20 10 5")
    assert table.points(5, 1) == 10_00 and table.points(5, 3) == 0
    assert table.points(12, 3) == 5_00
    assert table.points(500, 1) == 30_00 and table.points(500, 4) == 5_00
    assert table.points(1, 1) == 0  # no band
    assert table_from_json(table.as_json()) == table
    assert table_parse(table.as_text()) == table
    assert table_parse("25 18 15 12.5").points(3, 4) == 12_50
    assert table_parse("1 0.333").points(3, 2) == 33  # two decimals


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "empty"),
        ("10: ", "empty"),
        ("a-b: 1 2", "band"),
        ("9-2: 1", "band"),
        ("1 two 3", "number"),
        ("1 -2", "negative"),
        ("2-10: 1\n5-20: 2", "overlap"),
        ("2+: 1\n50+: 2", "overlap"),
    ],
)
def test_refused_tables(text, code):
    with pytest.raises(PointsError) as exc:
        table_parse(text)
    assert exc.value.code == code


# --- shared places -------------------------------------------------------------------------


def test_two_sharing_third_get_the_average_of_third_and_fourth():
    table = table_parse("100 70 50 30 10")
    points = shared_points([1, 2, 3, 3, 5], 5, table.points)
    assert points == [100_00, 70_00, 40_00, 40_00, 10_00]
    assert shared_points([1, 1, 1], 3, table.points) == [Fraction(220_00, 3)] * 3


@given(
    st.integers(2, 60).flatmap(
        lambda n: st.tuples(st.just(n), st.lists(st.integers(1, 4), min_size=1, max_size=n))
    )
)
def test_shared_points_sum_to_the_places_they_cover(case):
    n, groups = case
    # Standard competition places: a group of k on place p, the next group on p + k.
    places, p = [], 1
    for k in groups:
        places += [p] * k
        p += k
    n = max(n, len(places))
    for scoring in (dpsb_points, table_parse("25 18 15 12 10 8 6 4 2 1").points):
        points = shared_points(places, n, scoring)
        assert sum(points) == sum(scoring(n, q) for q in range(1, len(places) + 1))
        covered = [scoring(n, q) for q in range(1, len(places) + 1)]
        assert min(covered) <= min(points) and max(points) <= max(covered)


def test_finish_points_use_each_finish_own_bounties():
    formula = formula_check("10 * (n - p + 1) + k")
    bounties = [0.0, 2.0, 0.0]

    def points(n, p, i):
        return to_points(formula.points(n=n, p=p, k=bounties[i]))

    assert shared_finish_points([1, 2, 2], 3, points) == [30_00, 17_00, 15_00]


# --- standings -----------------------------------------------------------------------------


def test_best_n_and_participation():
    results = [
        (1, Result(1, 1, Fraction(100))),
        (1, Result(2, 5, Fraction(10))),
        (1, Result(3, 2, Fraction(60))),
        (2, Result(1, 2, Fraction(60))),
        (2, Result(2, 1, Fraction(100))),
        (3, Result(3, 1, Fraction(170))),
    ]
    rows = standings(results_by_player(results), best_n=2, participation=5)
    assert [(r.player, r.rank, r.total) for r in rows] == [(1, 1, 175), (3, 1, 175), (2, 3, 170)]
    # Equal totals share a rank; the third is third.
    rows = standings(
        results_by_player(results),
        best_n=2,
        participation=5,
        order=lambda p: {3: "a", 1: "b"}.get(p, "c"),
    )
    assert [(r.player, r.rank) for r in rows] == [(3, 1), (1, 1), (2, 3)]
    anna = rows[1]
    assert anna.counted == (True, False, True)
    assert anna.participation == 15 and anna.played == 3


def test_best_n_below_one_is_refused():
    with pytest.raises(PointsError):
        standings({}, best_n=0, participation=0)


_results = st.lists(
    st.tuples(
        st.integers(1, 8),
        st.builds(
            Result,
            st.integers(1, 12),
            st.integers(1, 50),
            st.fractions(min_value=0, max_value=1000, max_denominator=12),
        ),
    ),
    max_size=60,
)


@given(_results, st.one_of(st.none(), st.integers(1, 6)), st.integers(0, 2000))
def test_a_total_is_its_counted_results_plus_participation(results, best_n, bonus):
    rows = standings(results_by_player(results), best_n=best_n, participation=bonus)
    for row in rows:
        counted = [r.points for r, c in zip(row.results, row.counted, strict=True) if c]
        assert row.total == sum(counted) + bonus * row.played
        assert best_n is None or len(counted) == min(best_n, row.played)
        # The counted results are the best ones.
        struck = [r.points for r, c in zip(row.results, row.counted, strict=True) if not c]
        assert not struck or not counted or min(counted) >= max(struck)
    totals = [r.total for r in rows]
    assert totals == sorted(totals, reverse=True)
    for a, b in pairwise(rows):
        assert (a.rank == b.rank) == (a.total == b.total)
