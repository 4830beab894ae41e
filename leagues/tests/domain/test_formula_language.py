"""The formula language's statements, comparisons, conditional and limits (docs/leagues.md)."""

from __future__ import annotations

import math
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from leagues.domain.formula import (
    EVERY,
    MAX_NODES,
    MAX_STATEMENTS,
    FormulaError,
    formula_check,
    formula_parse,
)


def value(text: str, **values: float) -> float:
    base = {"n": 10.0, "p": 3.0, "b": 0.0, "k": 0.0}
    base.update(values)
    return formula_parse(text).value(base)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("p < 4", 1),
        ("p <= 2", 0),
        ("p > 2", 1),
        ("p >= 4", 0),
        ("p == 3", 1),
        ("p != 3", 0),
        ("1 < p <= 3", 1),  # both hold
        ("1 < p < 3", 0),
        ("p > 1 and n > 5", 1),
        ("p > 5 or n > 50", 0),
        ("not p", 0),
        ("not (p - 3)", 1),
        ("5 and 7", 1),  # true is 1, not the last operand
        ("0 or 7", 1),
        ("IF(p <= 3, 10, 1)", 10),
        ("IF(p - 3, 10, 1)", 1),  # zero is false
        ("(p == 3) * 5 + (p == 1) * 20", 5),
        ("log(8, 2)", 3),
        ("log(exp(2))", 2),
        ("pow(2, 10)", 1024),
        ("x = n / 2; x * 2", 10),
        ("x = n\nx = x + 1\nx", 11),
        ("  a = 2\n    b2 = a * 3\n  a + b2", 8),  # indentation does not matter
        ("t33 = round(n / 3)\nt33", 3),
        ("points = 7", 7),  # the value of an assignment
        ("2 ^ 3", 8),
    ],
)
def test_new_constructs(text, expected):
    assert value(text) == pytest.approx(expected)


def test_only_the_chosen_branch_is_computed():
    # 1 / (p - 1) divides by zero for the winner; IF never computes it there.
    formula = formula_check("IF(p > 1, 100 / (p - 1), 150)")
    assert formula.points(n=10, p=1) == 150
    assert formula.points(n=10, p=3) == 50
    # and / or stop once the answer is known
    assert value("p > 5 and 1 / 0", p=3) == 0
    assert value("p < 5 or 1 / 0", p=3) == 1


def test_an_assigned_value_is_read_by_later_statements_only():
    with pytest.raises(FormulaError) as exc:
        formula_parse("y = x + 1\nx = 2\ny")
    assert exc.value.code == "name" and exc.value.values["name"] == "x"
    with pytest.raises(FormulaError) as exc:
        formula_parse("x = x + 1\nx")
    assert exc.value.code == "name"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("n = 3\nn", "reserved"),
        ("sqrt = 3\n1", "reserved"),
        ("IF = 3\n1", "reserved"),
        ("a = b = 1\na", "assign"),
        ("a, c = 1, 2\na", "assign"),
        ("a += 1", "syntax"),
        ("import os", "syntax"),
        ("if p: 1", "syntax"),
        ("for i in n: 1", "syntax"),
        ("def f(): 1", "syntax"),
        ("(x := 2)", "syntax"),
        ("IF(p, 1)", "arguments"),
        ("IF(p, 1, 2, 3)", "arguments"),
        ("IF(c=p, a=1, b=2)", "arguments"),
        ("if(p, 1, 2)", "syntax"),  # Python's keyword: the conditional is IF
        ("p in n", "syntax"),
        ("p is n", "syntax"),
        ("x = 1\n" * (MAX_STATEMENTS + 1) + "x", "big"),
        ("+".join(["n"] * (MAX_NODES // 2 + 10)), "big"),
        ("a" * 31 + " = 1\n1", "reserved"),  # names are at most 30 characters
        ("h + 1", "unavailable"),  # standings give n p b k only
    ],
)
def test_refused(text, code):
    with pytest.raises(FormulaError) as exc:
        formula_check(text)
    assert exc.value.code == code


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("log(p - 3)", "log"),
        ("log(8, 1)", "zero"),
        ("log(8, 0 - 2)", "log"),
        ("exp(n * 100)", "overflow"),
        ("pow(0, 0 - 1)", "zero"),
        ("pow(0 - 2, 0.5)", "negative"),
        ("x = 1 / (p - 3)\n5", "zero"),  # an unused value fails too
        ("10 ** 20", "overflow"),  # the result stays within 1e12
    ],
)
def test_failures_are_formula_errors(text, code):
    with pytest.raises(FormulaError) as exc:
        value(text)
    assert exc.value.code == code


def test_values_on_the_way_may_be_large_but_the_result_may_not():
    assert value("x = 10 ** 100\nx / 10 ** 98") == pytest.approx(100)
    assert value("pow(0.66, 1500)") == pytest.approx(0.0)


def test_extra_figures_are_given_by_the_caller():
    formula = formula_check("n - p + 1 + h * 10", given=EVERY)
    assert formula.names == {"n", "p", "b", "k", "h"}
    assert formula.points(n=10, p=1, more={"h": 2}) == 30
    with pytest.raises(FormulaError) as exc:
        formula.points(n=10, p=1)
    assert exc.value.code == "unavailable" and exc.value.values["name"] == "h"


def test_old_formulas_give_what_they_gave():
    # Written before statements and comparisons existed: same results.
    cases = {
        "9 * sqrt(n) / sqrt(p)": 90 / math.sqrt(4),
        "max(0, 10 * (n - p + 1) / n) + k": 10 * 97 / 100 + 2,
        "round(sqrt(n * b) / (p + 1), 1)": 8.9,
    }
    for text, expected in cases.items():
        assert formula_check(text).points(n=100, p=4, b=20, k=2) == pytest.approx(expected)


_pieces = st.sampled_from(
    ["n", "p", "b", "k", "h", "x", "IF", "if", "and", "or", "not", "==", "<", ">=", "!=",
     "=", "\n", ";", "(", ")", ",", "1", "0", "2.5", "1e308", "-", "+", "*", "/", "**", "%",
     "log", "pow", "exp", "sqrt", "round", " ", "x =", "a =", "__import__", ".", "[", "'"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.lists(_pieces, max_size=30).map("".join), st.text(max_size=60)))
def test_garbage_raises_only_formula_errors_and_stays_quick(text):
    started = time.perf_counter()
    try:
        formula = formula_parse(text)
        result = formula.value(dict.fromkeys(EVERY, 3.0))
    except FormulaError:
        pass
    else:
        assert math.isfinite(result) and abs(result) <= 1e12
    assert time.perf_counter() - started < 1.0


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 8))
def test_deep_or_long_input_is_refused_quickly(times):
    for text in ("abs(" * 50 * times + "n" + ")" * 50 * times, "n+" * 1000 * times + "n"):
        started = time.perf_counter()
        with pytest.raises(FormulaError):
            formula_parse(text)
        assert time.perf_counter() - started < 1.0
