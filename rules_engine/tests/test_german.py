"""The rules engine's refusals of a colour-up or a penalty say why in the reader's language:
every reason the domain raises has words in rules_engine/words.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

import rules_engine.domain.chiprace as chiprace
import rules_engine.domain.interpret as interpret
import rules_engine.domain.irregularities as irregularities
import rules_engine.domain.penalties as penalties
import rules_engine.domain.pots as pots
import rules_engine.domain.show_order as show_order
import rules_engine.domain.showdown as showdown
from rules_engine.domain.chiprace import ChipRaceError
from rules_engine.domain.interpret import InterpretError
from rules_engine.domain.irregularities import IrregularityError
from rules_engine.domain.penalties import PenaltyError
from rules_engine.domain.pots import PotError
from rules_engine.domain.show_order import ShowOrderError
from rules_engine.domain.showdown import ShowdownError
from rules_engine.words import colour_up_reason, facts_reason, penalty_reason


def _raised(module, error: str) -> list[str]:
    source = Path(module.__file__).read_text()
    return [
        "".join(re.findall(r'"([^"]*)"', call))
        for call in re.findall(rf"raise {error}\(\s*((?:f?\"[^\"]*\"\s*)+)", source)
    ]


@pytest.mark.parametrize(
    ("module", "error", "words"),
    [
        (chiprace, ChipRaceError, colour_up_reason),
        (penalties, PenaltyError, penalty_reason),
        (interpret, InterpretError, facts_reason),
        (irregularities, IrregularityError, facts_reason),
        (pots, PotError, facts_reason),
        (show_order, ShowOrderError, facts_reason),
        (showdown, ShowdownError, facts_reason),
    ],
)
def test_every_reason_the_domain_raises_has_german_words(module, error, words):
    reasons = [r for r in _raised(module, error.__name__) if r]  # str(exc): re-raised
    assert len(reasons) >= 2
    with translation.override("de"):
        for reason in reasons:
            text = re.sub(r"\{[^}]*!r\}", "'x'", reason)
            text = re.sub(r"\{kind\}", "warning", text)
            text = re.sub(r"\{(c|street|seen\[c\])\}", "As", text)
            text = re.sub(r"\{[^}]+\}", "3", text)
            assert words(error(text)) != text, reason


def test_a_colour_up_refusal_in_german():
    with translation.override("de"):
        assert colour_up_reason(ChipRaceError("seat 11 is not at a 9-seat table")) == (
            "Sitz 11 gibt es an diesem Tisch mit 9 Sitzen nicht."
        )
        assert penalty_reason(PenaltyError("unknown penalty 'slap'")) == (
            "unbekannte Strafe „slap“."
        )


def test_a_showdown_refusal_in_german():
    with translation.override("de"):
        assert facts_reason(
            ShowdownError("'Xx' is not a card (rank 2-9, T, J, Q, K, A and suit s h d c)")
        ) == ("„Xx“ ist keine Karte (Rang 2–9, T, J, Q, K, A und Farbe s h d c).")
        assert facts_reason(ShowdownError("the board must have five cards, not 4")) == (
            "das Board hat fünf Karten, nicht 4."
        )
