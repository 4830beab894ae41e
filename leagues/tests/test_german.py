"""A refused formula names what it calls, in the reader's language."""

from __future__ import annotations

import pytest
from django.utils import translation

from leagues.domain.formula import FormulaError, formula_check
from leagues.words import formula_error


@pytest.mark.parametrize(
    ("text", "called"),
    [
        ("__import__('os')", "__import__"),
        ("__import__('os').system('ls')", "__import__('os').system"),
        ("math.sqrt(n)", "math.sqrt"),
        ("(lambda: 1)()", "lambda: 1"),
    ],
)
def test_an_unknown_function_is_named(text, called):
    with pytest.raises(FormulaError) as refused:
        formula_check(text)
    assert refused.value.code == "function"
    with translation.override("de"):
        assert formula_error(refused.value) == f"Unbekannte Funktion in der Formel: „{called}“."
    with translation.override("en"):
        assert formula_error(refused.value) == f"Unknown function in the formula: {called}."


def test_a_long_call_is_cut_short():
    with pytest.raises(FormulaError) as refused:
        formula_check("a" * 60 + ".b(n)")
    name = refused.value.values["name"]
    assert len(name) == 40 and name.endswith("…")
