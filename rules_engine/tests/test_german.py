"""The rules engine's refusals of a colour-up or a penalty say why in the reader's language:
every reason the domain raises has words in rules_engine/words.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

import rules_engine.domain.chiprace as chiprace
import rules_engine.domain.penalties as penalties
from rules_engine.domain.chiprace import ChipRaceError
from rules_engine.domain.penalties import PenaltyError
from rules_engine.words import colour_up_reason, penalty_reason


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
    ],
)
def test_every_reason_the_domain_raises_has_german_words(module, error, words):
    reasons = _raised(module, error.__name__)
    assert len(reasons) >= 5
    with translation.override("de"):
        for reason in reasons:
            text = re.sub(r"\{[^}]*!r\}", "'x'", reason)
            text = re.sub(r"\{kind\}", "warning", text)
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
