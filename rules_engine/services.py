"""Rulings: the engine's suggestion for a situation, and the floor's recorded decision."""

from __future__ import annotations

from dataclasses import asdict
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
from rules_engine.domain.rulesets import RULES
from rules_engine.models import Ruling
from tournament.errors import FloorError
from tournament.events import Actor, event_record
from tournament.models import Tournament

SITUATION_BET = "bet_interpretation"


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


@transaction.atomic
def ruling_record(
    *,
    tournament: Tournament,
    facts: dict[str, Any],
    decision: str,
    follows: bool,
    reason: str,
    actor: Actor,
    table: int | None = None,
    hand: int | None = None,
    players: str = "",
) -> Ruling:
    """Record the floor's decision (tda-de 1: the floor may decide otherwise, with a reason)."""
    suggestion = bet_ruling(facts)
    decision = decision.strip()
    if not decision:
        raise FloorError(_("Write down the decision."))
    if not follows and not reason.strip():
        raise FloorError(_("A decision that differs from the suggestion needs a reason."))
    ruling = Ruling.objects.create(
        tournament=tournament,
        situation=SITUATION_BET,
        table=table,
        hand=hand,
        players=players[:120],
        facts=facts,
        suggested={k: v for k, v in asdict(suggestion).items() if k != "rules"},
        rules=list(suggestion.rules),
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
            "situation": SITUATION_BET,
            "rules": list(suggestion.rules),
            "follows": follows,
            "table": table,
        },
    )
    return ruling
