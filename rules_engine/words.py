"""The rules engine's domain refusals (colour-up, penalties) in the reader's language."""

from __future__ import annotations

import re

from django.utils.translation import gettext_lazy

from core.reasons import reason_text
from rules_engine.domain.chiprace import ChipRaceError
from rules_engine.domain.penalties import PenaltyError

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


# A ruling's facts (rules_engine/domain/interpret.py, showdown.py, pots.py, show_order.py,
# irregularities.py): what the floor typed that does not make a situation.
FACTS_REASONS = {
    "amounts cannot be negative": gettext_lazy("amounts cannot be negative."),
    "the big blind must be positive": gettext_lazy("the big blind must be above zero."),
    "a player cannot have more in front than the current bet": gettext_lazy(
        "a player cannot have more in front than the current bet."
    ),
    "a chip must have a positive value": gettext_lazy("a chip must be worth more than zero."),
    "nothing was declared and no chips were pushed": gettext_lazy(
        "nothing was declared and no chips were pushed."
    ),
    "the first motion cannot hold more chips than were pushed": gettext_lazy(
        "the first motion cannot hold more chips than were pushed."
    ),
    "a declared amount must be positive": gettext_lazy("a declared amount must be above zero."),
    "a bare number needs the amount": gettext_lazy("a number alone needs the amount."),
    "a contribution cannot be negative": gettext_lazy("what a seat put in cannot be negative."),
    "a folded seat has no contribution": gettext_lazy("a folded seat has put nothing in."),
    "at least one player must still be in the hand": gettext_lazy(
        "at least one player must still be in the hand."
    ),
    "a pot cannot be negative": gettext_lazy("a pot cannot be negative."),
    "a pot needs at least one winner": gettext_lazy("a pot needs at least one winner."),
    "a winner is listed twice": gettext_lazy("a winner is listed twice."),
    "the smallest chip must be at least 1": gettext_lazy("the smallest chip must be at least 1."),
    "a table has 2 to 10 seats": gettext_lazy("a table has 2 to 10 seats."),
    "a seat is listed twice": gettext_lazy("a seat is listed twice."),
    "a showdown needs two or more hands; one hand left wins unshown": gettext_lazy(
        "a showdown needs two or more hands; one hand left wins without showing."
    ),
    "a card is on the board twice": gettext_lazy("a card is on the board twice."),
    "there is no pot to award": gettext_lazy("there is no pot to award."),
}
FACTS_PATTERNS = [
    (re.compile(r"unknown ruleset '(?P<r>.*)'"), gettext_lazy("unknown ruleset “%(r)s”.")),
    (
        re.compile(r"no procedure for a premature (?P<s>.*)"),
        gettext_lazy("the ruleset has no procedure for a premature “%(s)s”."),
    ),
    (
        re.compile(r"seat (?P<s>\d+) made the last bet but is not in the hand"),
        gettext_lazy("seat %(s)s made the last bet but is not in the hand."),
    ),
    (
        re.compile(r"seat (?P<s>\d+) is all-in but not in the hand"),
        gettext_lazy("seat %(s)s is all-in but not in the hand."),
    ),
    (
        re.compile(r"unknown all-in showdown mode '(?P<m>.*)'"),
        gettext_lazy("unknown method “%(m)s”."),
    ),
    (
        re.compile(r"the button \(seat (?P<s>\d+)\) is not at a (?P<n>\d+)-seat table"),
        gettext_lazy("the button (seat %(s)s) is not at this table of %(n)s seats."),
    ),
    (
        re.compile(r"seat (?P<s>\d+) is not at a (?P<n>\d+)-seat table"),
        gettext_lazy("seat %(s)s is not at this table of %(n)s seats."),
    ),
    (re.compile(r"no hand has rank (?P<r>.*)"), gettext_lazy("no hand has rank %(r)s.")),
    (
        re.compile(r"'(?P<c>.*)' is not a card \(rank 2-9, T, J, Q, K, A and suit s h d c\)"),
        gettext_lazy("“%(c)s” is not a card (rank 2–9, T, J, Q, K, A and suit s h d c)."),
    ),
    (
        re.compile(r"the board must have five cards, not (?P<n>\d+)"),
        gettext_lazy("the board has five cards, not %(n)s."),
    ),
    (
        re.compile(r"seat (?P<s>\d+) must show two cards, not (?P<n>\d+)"),
        gettext_lazy("seat %(s)s shows two cards, not %(n)s."),
    ),
    (
        re.compile(r"(?P<c>\S+) of seat (?P<s>\d+) is also in (?P<o>.*)"),
        gettext_lazy("%(c)s of seat %(s)s is also in %(o)s."),
    ),
]


def facts_reason(exc: Exception) -> str:
    """Why the facts typed for a ruling do not make a situation."""
    return reason_text(exc, FACTS_REASONS, FACTS_PATTERNS)
