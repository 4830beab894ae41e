"""Console: the ruling assistant (bet interpretation for now) and the ruling log."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from rules_engine import services as svc
from rules_engine.domain.interpret import Verbal
from rules_engine.models import Ruling
from tournament.csvexport import csv_response
from tournament.errors import FloorError
from tournament.events import Actor
from tournament.forms import entry_numbers
from tournament.roles import floor_required
from tournament.views import console_context, get_tournament

VERBAL_CHOICES = [
    (Verbal.NONE.value, gettext_lazy("nothing said")),
    (Verbal.CHECK.value, gettext_lazy("“check”")),
    (Verbal.CALL.value, gettext_lazy("“call”")),
    (Verbal.RAISE.value, gettext_lazy("“raise” / “bet” (amount optional)")),
    (Verbal.AMOUNT.value, gettext_lazy("an amount only (“twelve hundred”)")),
    (Verbal.ALL_IN.value, gettext_lazy("“all-in”")),
    (Verbal.POT.value, gettext_lazy("“pot”")),
]


class BetFactsForm(forms.Form):
    current_bet = forms.IntegerField(
        label=gettext_lazy("Bet to face (total this round)"), min_value=0
    )
    in_front = forms.IntegerField(
        label=gettext_lazy("Player's chips already in front"), min_value=0, initial=0
    )
    last_raise = forms.IntegerField(
        label=gettext_lazy("Last full bet or raise (size)"), min_value=0, required=False
    )
    stack = forms.IntegerField(label=gettext_lazy("Player's stack behind"), min_value=0)
    big_blind = forms.IntegerField(label=gettext_lazy("Big blind"), min_value=1)
    verbal = forms.ChoiceField(label=gettext_lazy("What the player said"), choices=VERBAL_CHOICES)
    amount = forms.IntegerField(label=gettext_lazy("Amount said"), min_value=1, required=False)
    chips = forms.CharField(
        label=gettext_lazy("Chips pushed (values)"),
        required=False,
        help_text=gettext_lazy("For example 1000, 500"),
    )
    verbal_first = forms.ChoiceField(
        label=gettext_lazy("What came first"),
        choices=[("1", gettext_lazy("the words")), ("0", gettext_lazy("the chips"))],
        initial="1",
    )
    table = forms.IntegerField(label=gettext_lazy("Table"), min_value=1, required=False)
    players = forms.CharField(label=gettext_lazy("Players (#)"), required=False, max_length=120)

    def facts(self) -> dict[str, Any]:
        d = self.cleaned_data
        try:
            chips = list(entry_numbers(d.get("chips") or ""))
        except FloorError as exc:
            raise FloorError(_("Enter the chips as values, such as 1000, 500.")) from exc
        return {
            "current_bet": d["current_bet"],
            "in_front": d["in_front"] or 0,
            "last_raise": d.get("last_raise") or d["big_blind"],
            "stack": d["stack"],
            "big_blind": d["big_blind"],
            "verbal": d["verbal"],
            "amount": d.get("amount"),
            "chips": chips,
            "verbal_first": d["verbal_first"] == "1",
        }


OUTCOME_TEXT = {
    "check": gettext_lazy("Check."),
    "call": gettext_lazy("Call: %(to)s in front."),
    "bet": gettext_lazy("Bet / raise to %(to)s."),
    "call_or_fold": gettext_lazy("The player may call or fold, not raise."),
}


def _big_blind(tournament: Any) -> int:
    """The big blind of the level being played (the first level before the clock starts)."""
    from clocks.selectors import clock_state_for

    levels = list(tournament.structure.levels.all())
    state = clock_state_for(tournament, levels=levels)
    playing = [lv for lv in levels[: state.level_index + 1] if not lv.is_break] or [
        lv for lv in levels if not lv.is_break
    ]
    return playing[-1].big_blind if playing else 0


class IrregularityForm(forms.Form):
    street = forms.ChoiceField(
        label=gettext_lazy("Dealt too early"),
        choices=[("flop", gettext_lazy("the flop")), ("turn", gettext_lazy("the turn"))],
        required=False,
    )
    oot_action = forms.ChoiceField(
        label=gettext_lazy("What the player did out of turn"),
        choices=[
            ("fold", gettext_lazy("fold")),
            ("check", gettext_lazy("check")),
            ("call", gettext_lazy("call")),
            ("bet", gettext_lazy("bet or raise")),
        ],
        required=False,
    )
    action_changed = forms.BooleanField(
        label=gettext_lazy("Someone in between bet or raised before the player's turn"),
        required=False,
    )
    table = forms.IntegerField(label=gettext_lazy("Table"), min_value=1, required=False)
    players = forms.CharField(label=gettext_lazy("Players (#)"), required=False, max_length=120)


SITUATIONS = [
    (svc.SITUATION_BET, gettext_lazy("What did the player bet?")),
    (svc.SITUATION_FOUR_CARD_FLOP, gettext_lazy("Four cards on the flop")),
    (svc.SITUATION_PREMATURE, gettext_lazy("Flop or turn dealt too early")),
    (svc.SITUATION_OUT_OF_TURN, gettext_lazy("Action out of turn")),
]


def _form(situation: str, request: HttpRequest, tournament: Any) -> forms.Form:
    data = request.POST or None
    if situation == svc.SITUATION_BET:
        return BetFactsForm(data, initial={"big_blind": _big_blind(tournament)})
    return IrregularityForm(data)


def _suggest(situation: str, form: forms.Form) -> dict[str, Any] | None:
    """The suggested ruling when the form's facts are valid (FloorError when they do not fit)."""
    if not form.is_bound or not form.is_valid():
        return None
    if isinstance(form, BetFactsForm):
        facts = form.facts()
        suggestion = svc.bet_ruling(facts)
        text = str(OUTCOME_TEXT[suggestion.outcome]) % {"to": f"{suggestion.to:,}"}
        return {
            "facts": facts,
            "text": text,
            "steps": [],
            "rules": list(suggestion.rules),
            "suggested": {"outcome": suggestion.outcome.value, "to": suggestion.to},
        }
    d = form.cleaned_data
    facts = {
        "street": d.get("street") or "",
        "action": d.get("oot_action") or "",
        "action_changed": bool(d.get("action_changed")),
    }
    procedure = svc.irregularity_ruling(situation, facts)
    language = get_language() or "en"
    return {
        "facts": facts,
        "text": procedure.outcome.text(language),
        "steps": [step.text(language) for step in procedure.steps],
        "rules": list(procedure.rules),
        "suggested": {"outcome": procedure.outcome.en},
    }


@floor_required
def rulings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    situation = request.POST.get("situation") or request.GET.get("situation") or svc.SITUATION_BET
    if situation not in dict(SITUATIONS):
        situation = svc.SITUATION_BET
    result = None
    form = _form(situation, request, tournament)
    try:
        result = _suggest(situation, form)
        if result is not None and request.POST.get("action") == "record":
            follows = request.POST.get("follows") != "0"
            svc.ruling_record(
                tournament=tournament,
                situation=situation,
                facts=result["facts"],
                suggested=result["suggested"],
                rules=result["rules"],
                decision=result["text"] if follows else request.POST.get("decision", ""),
                follows=follows,
                reason=request.POST.get("reason", ""),
                actor=Actor.from_request(request),
                table=form.cleaned_data.get("table"),
                players=form.cleaned_data.get("players") or "",
            )
            messages.success(request, _("Ruling recorded."))
            return redirect(f"{reverse('rulings', args=[pk])}?situation={situation}")
    except FloorError as exc:
        messages.error(request, str(exc))
    if result is not None:
        result["cited"] = svc.cited(result["rules"])
    log = Ruling.objects.filter(tournament=tournament)[:50]
    return render(
        request,
        "rules_engine/rulings.html",
        console_context(
            tournament,
            "rulings",
            form=form,
            result=result,
            log=log,
            situation=situation,
            situations=SITUATIONS,
        ),
    )


@floor_required
def rulings_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    header = [
        "decided_at",
        "table",
        "players",
        "situation",
        "rules",
        "decision",
        "follows_suggestion",
        "reason",
        "decided_by",
    ]
    rows = (
        [
            r.decided_at.isoformat(),
            r.table or "",
            r.players,
            r.situation,
            " ".join(r.rules),
            r.decision,
            r.follows_suggestion,
            r.reason,
            r.decided_by,
        ]
        for r in Ruling.objects.filter(tournament=tournament).order_by("decided_at", "id")
    )
    return csv_response(f"rulings-{tournament.pk}.csv", header, rows)
