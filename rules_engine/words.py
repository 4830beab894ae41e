"""The rules engine's domain refusals (colour-up, penalties) in the reader's language."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy

from rules_engine.domain.chiprace import ChipRaceError
from rules_engine.domain.penalties import PenaltyError
from tournament.reasons import reason_text

COLOUR_UP_REASONS = {
    "the new chip must be worth more than the chip taken out": gettext_lazy(
        "the new chip must be worth more than the chip taken out."
    ),
    "the new chip must be a whole number of the chips taken out": gettext_lazy(
        "the new chip must be worth a whole number of the chips taken out."
    ),
    "a seat is listed twice": gettext_lazy("a seat is listed twice."),
    "chip counts cannot be negative": gettext_lazy("a number of chips cannot be negative."),
    "more odd chips than cards in a deck: colour up in two steps (a smaller chip first)": (
        gettext_lazy(
            "more odd chips than cards in a deck: colour up in two steps (the smaller chip first)."
        )
    ),
    "the shuffle lost or added cards": gettext_lazy("the shuffle lost or added cards."),
}
COLOUR_UP_PATTERNS = [
    (
        re.compile(r"seat (?P<s>\d+) is not at a (?P<n>\d+)-seat table"),
        gettext_lazy("seat %(s)s is not at this table of %(n)s seats."),
    ),
    (re.compile(r"unknown colour-up method '(?P<m>.*)'"), gettext_lazy("unknown method “%(m)s”.")),
]

PENALTY_REASONS = {
    "the ruleset has no penalty ladder": gettext_lazy("the ruleset has no penalty ladder."),
    "sit out at least one hand or round": gettext_lazy(
        "the player sits out at least one hand or round."
    ),
    "the player must be seated at a table to sit out rounds": gettext_lazy(
        "the player must sit at a table to sit out rounds."
    ),
}
PENALTY_PATTERNS = [
    (re.compile(r"unknown penalty '(?P<k>.*)'"), gettext_lazy("unknown penalty “%(k)s”.")),
    (
        re.compile(r"a (?P<k>warning|disqualification) has no count"),
        gettext_lazy("a warning or a disqualification has no number of hands or rounds."),
    ),
]


def colour_up_reason(exc: ChipRaceError) -> str:
    return reason_text(exc, COLOUR_UP_REASONS, COLOUR_UP_PATTERNS)


def penalty_reason(exc: PenaltyError) -> str:
    return reason_text(exc, PENALTY_REASONS, PENALTY_PATTERNS)
