"""A refused formula names what it calls, in the reader's language."""

from __future__ import annotations

import pytest
from django.utils import translation

from leagues.domain.formula import FormulaError, formula_check
from leagues.domain.td3_formula import td3_translate
from leagues.words import formula_error, td3_refusal

translation_override = translation.override


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


@pytest.mark.parametrize(
    ("td3", "english", "german"),
    [
        (
            "random() * 10",
            "Floor cannot express the TD3 function random().",
            "TD3-Funktion random()",
        ),
        (
            "chipStack / 10",
            "Floor does not know the TD3 variable chipstack.",
            "TD3-Variable chipstack",
        ),
        ("r ^ 2", "Floor cannot express the TD3 operator ^.", "TD3-Operator ^"),
        ("n +", "The TD3 formula ends too early.", "endet zu früh"),
        ("", "The TD3 formula is empty.", "ist leer"),
        ("1e400", "refuses the translation: The formula gives", "lehnt die Übersetzung ab"),
        ("n - r + 1", "", ""),
    ],
)
def test_a_td3_refusal_names_the_construct(td3, english, german):
    translation = td3_translate(td3)
    with translation_override("en"):
        assert english in td3_refusal(translation)
    with translation_override("de"):
        assert german in td3_refusal(translation)
    assert (td3_refusal(translation) == "") == translation.ok
