"""Rulings: the engine's suggestion for a situation, and the floor's recorded decision."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from rules_engine.domain.interpret import (
    Declared,
    Interpretation,
    InterpretError,
    Situation,
    Verbal,
    interpret,
)
from rules_engine.domain.irregularities import (
    IrregularityError,
    OotAction,
    Procedure,
    four_card_flop,
    out_of_turn,
    premature_card,
)
from rules_engine.domain.irregularities import Street as IrregularStreet
from rules_engine.domain.rulesets import RULES
from rules_engine.models import Ruling
from tournament.errors import FloorError
from tournament.events import Actor, event_record
from tournament.models import Tournament

SITUATION_BET = "bet_interpretation"
SITUATION_FOUR_CARD_FLOP = "four_card_flop"
SITUATION_PREMATURE = "premature_card"
SITUATION_OUT_OF_TURN = "out_of_turn"


def bet_ruling(facts: dict[str, Any]) -> Interpretation:
    """The binding action for the facts of a bet (tda-de 40-54)."""
    try:
        situation = Situation(
            current_bet=facts["current_bet"],
            in_front=facts["in_front"],
            last_raise=facts["last_raise"] or facts["big_blind"],
            stack=facts["stack"],
            big_blind=facts["big_blind"],
        )
        declared = Declared(
            verbal=Verbal(facts["verbal"]),
            amount=facts.get("amount"),
            chips=tuple(facts.get("chips") or ()),
            verbal_first=facts.get("verbal_first", True),
        )
        return interpret(situation, declared)
    except (InterpretError, ValueError, KeyError) as exc:
        raise FloorError(_("These facts do not make a bet: %(reason)s") % {"reason": exc}) from exc


def cited(rule_ids: list[str] | tuple[str, ...]) -> list[dict[str, str]]:
    language = get_language() or "en"
    return [
        {"id": r, "title": RULES[r].title(language), "summary": RULES[r].summary(language)}
        for r in rule_ids
        if r in RULES
    ]


def irregularity_ruling(situation: str, facts: dict[str, Any]) -> Procedure:
    """Four-card flop, premature flop or turn, action out of turn (tda-de 39, 44)."""
    try:
        if situation == SITUATION_FOUR_CARD_FLOP:
            return four_card_flop()
        if situation == SITUATION_PREMATURE:
            return premature_card(IrregularStreet(facts["street"]))
        if situation == SITUATION_OUT_OF_TURN:
            return out_of_turn(OotAction(facts["action"]), bool(facts.get("action_changed")))
    except (IrregularityError, ValueError, KeyError) as exc:
        raise FloorError(
            _("These facts do not fit the situation: %(reason)s") % {"reason": exc}
        ) from exc
    raise FloorError(_("Choose a situation."))


@transaction.atomic
def ruling_record(
    *,
    tournament: Tournament,
    situation: str,
    facts: dict[str, Any],
    suggested: dict[str, Any],
    rules: list[str],
    decision: str,
    follows: bool,
    reason: str,
    actor: Actor,
    table: int | None = None,
    hand: int | None = None,
    players: str = "",
) -> Ruling:
    """Record the floor's decision (tda-de 1: the floor may decide otherwise, with a reason)."""
    decision = decision.strip()
    if not decision:
        raise FloorError(_("Write down the decision."))
    if not follows and not reason.strip():
        raise FloorError(_("A decision that differs from the suggestion needs a reason."))
    ruling = Ruling.objects.create(
        tournament=tournament,
        situation=situation,
        table=table,
        hand=hand,
        players=players[:120],
        facts=facts,
        suggested=suggested,
        rules=rules,
        decision=decision[:300],
        follows_suggestion=follows,
        reason=reason.strip()[:300],
        decided_by=actor.label[:120],
    )
    event_record(
        tournament=tournament,
        action="ruling.record",
        actor=actor,
        payload={
            "ruling": ruling.pk,
            "situation": situation,
            "rules": rules,
            "follows": follows,
            "table": table,
        },
    )
    return ruling
