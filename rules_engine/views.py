"""Console: the ruling assistant, the ruling log, penalties and colour-ups."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from actions.penalties import penalty_give
from clocks.selectors import clock_state_for
from core.csvexport import csv_response
from core.errors import FloorError
from core.inputs import plain_text, search_text, whole_number_or_none
from core.roles import floor_required
from counts.selectors import table_sheet, tournament_field
from rules_engine import services as svc
from rules_engine.domain.chiprace import other_value_from_count
from rules_engine.domain.interpret import Verbal
from rules_engine.models import ColourUp, Penalty, PenaltyKind, Ruling
from tables.models import SeatAssignment, Table
from tournament.events import Actor
from tournament.forms import entry_numbers
from tournament.views import console_context, get_tournament

VERBAL_CHOICES = [
    (Verbal.NONE.value, gettext_lazy("nothing said")),
    (Verbal.CHECK.value, gettext_lazy("“check”")),
    (Verbal.CALL.value, gettext_lazy("“call”")),
    (Verbal.RAISE.value, gettext_lazy("“raise” / “bet” (amount optional)")),
    (Verbal.AMOUNT.value, gettext_lazy("an amount only (“twelve hundred”)")),
    (Verbal.ALL_IN.value, gettext_lazy("“all-in”")),
    (Verbal.POT.value, gettext_lazy("“pot”")),
    (Verbal.CONDITIONAL.value, gettext_lazy("a condition (“if you bet, I raise”)")),
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
    unclear_amount = forms.BooleanField(
        label=gettext_lazy("The amount can be read several ways (“five”)"), required=False
    )
    pot = forms.IntegerField(
        label=gettext_lazy("Pot before this round"), min_value=0, required=False
    )
    first_motion = forms.CharField(
        label=gettext_lazy("Several motions: chips of the first one"),
        required=False,
        help_text=gettext_lazy("Only for chips pushed in more than one motion"),
    )
    facing_all_in = forms.BooleanField(
        label=gettext_lazy("The bet to face is an all-in"), required=False
    )
    expects_change = forms.BooleanField(
        label=gettext_lazy("The player put in more, expecting change"), required=False
    )
    missed_raise = forms.BooleanField(
        label=gettext_lazy("The player had not noticed a raise"), required=False
    )
    acted_since = forms.BooleanField(
        label=gettext_lazy("A player after them has acted since"), required=False
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
            first_motion = list(entry_numbers(d.get("first_motion") or ""))
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
            "first_motion": first_motion,
            "unclear_amount": bool(d.get("unclear_amount")),
            "pot": d.get("pot") or 0,
            "facing_all_in": bool(d.get("facing_all_in")),
            "expects_change": bool(d.get("expects_change")),
            "missed_raise": bool(d.get("missed_raise")),
            "acted_since": bool(d.get("acted_since")),
        }


def _big_blind(tournament: Any) -> int:
    """The big blind of the level being played (the first level before the clock starts)."""
    levels = list(tournament.structure.levels.all())
    state = clock_state_for(tournament, levels=levels)
    playing = [lv for lv in levels[: state.level_index + 1] if not lv.is_break] or [
        lv for lv in levels if not lv.is_break
    ]
    return playing[-1].big_blind if playing else 0


MISDEAL_CAUSES = [
    ("first_cards_exposed", gettext_lazy("The dealer exposed the first or second card dealt")),
    ("later_card_exposed", gettext_lazy("The dealer exposed another hole card")),
    ("two_exposed", gettext_lazy("Two or more cards exposed or found face up")),
    ("card_up_in_deck", gettext_lazy("One card face up in the deck")),
    ("first_card_wrong_seat", gettext_lazy("The first card went to the wrong seat")),
    ("empty_seat_dealt", gettext_lazy("Cards dealt to a seat not in the hand")),
    ("seat_missed", gettext_lazy("A seat in the hand got no cards")),
    ("button_two_in_a_row", gettext_lazy("The button got two cards in a row")),
]

SO_FAR_CHOICES = [
    ("none", gettext_lazy("nobody has acted yet")),
    ("one", gettext_lazy("one player has acted")),
    ("two_no_chips", gettext_lazy("two players acted, no chips in (check or fold)")),
    ("two_chips", gettext_lazy("two players acted, chips went in")),
    ("three", gettext_lazy("three or more players have acted")),
]


class IrregularityForm(forms.Form):
    street = forms.ChoiceField(
        label=gettext_lazy("Dealt too early"),
        choices=[
            ("flop", gettext_lazy("the flop")),
            ("turn", gettext_lazy("the turn")),
            ("river", gettext_lazy("the river")),
        ],
        required=False,
    )
    cause = forms.ChoiceField(
        label=gettext_lazy("What went wrong"), choices=MISDEAL_CAUSES, required=False
    )
    so_far = forms.ChoiceField(
        label=gettext_lazy("Action so far (blinds and antes do not count)"),
        choices=SO_FAR_CHOICES,
        required=False,
    )
    skipped_so_far = forms.ChoiceField(
        label=gettext_lazy("Players who acted after the skipped player"),
        choices=SO_FAR_CHOICES,
        required=False,
    )
    fourth_known = forms.BooleanField(
        label=gettext_lazy("It is clear which card was dealt fourth"),
        required=False,
        initial=True,
    )
    acted = forms.BooleanField(
        label=gettext_lazy("The player has already acted with the wrong cards"), required=False
    )
    button_short = forms.BooleanField(
        label=gettext_lazy("The player on the button is short a card"), required=False
    )
    betting_started = forms.BooleanField(
        label=gettext_lazy("Betting on this street has begun"), required=False
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


class ShowdownForm(forms.Form):
    board = forms.CharField(
        label=gettext_lazy("Board (five cards)"),
        max_length=40,
        help_text=gettext_lazy("For example Ah Kd 7c 7s 2h"),
    )
    hands = forms.CharField(
        label=gettext_lazy("Hands shown (one seat per line)"),
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy("For example 3: As Ad"),
    )
    contributions = forms.CharField(
        label=gettext_lazy("Chips each seat put in this hand (one per line, folded seats too)"),
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=gettext_lazy("For example 3: 12000"),
    )
    button = forms.IntegerField(label=gettext_lazy("Button seat"), min_value=1, max_value=10)
    table_seats = forms.IntegerField(
        label=gettext_lazy("Seats at the table"), min_value=2, max_value=10, initial=9
    )
    smallest_chip = forms.IntegerField(
        label=gettext_lazy("Smallest chip in play"), min_value=1, initial=1
    )
    table = forms.IntegerField(label=gettext_lazy("Table"), min_value=1, required=False)
    players = forms.CharField(label=gettext_lazy("Players (#)"), required=False, max_length=120)


class ShowOrderForm(forms.Form):
    seats = forms.CharField(
        label=gettext_lazy("Seats still in the hand"),
        max_length=40,
        help_text=gettext_lazy("For example 2, 6, 8"),
    )
    button = forms.IntegerField(label=gettext_lazy("Button seat"), min_value=1, max_value=10)
    table_seats = forms.IntegerField(
        label=gettext_lazy("Seats at the table"), min_value=2, max_value=10, initial=9
    )
    aggressor = forms.IntegerField(
        label=gettext_lazy("Last bet or raise on the last betting round: seat"),
        min_value=1,
        max_value=10,
        required=False,
        help_text=gettext_lazy("Leave empty when nobody bet on the last round"),
    )
    all_in = forms.CharField(
        label=gettext_lazy("All-in seats"),
        max_length=40,
        required=False,
        help_text=gettext_lazy("For example 6"),
    )
    table = forms.IntegerField(label=gettext_lazy("Table"), min_value=1, required=False)
    players = forms.CharField(label=gettext_lazy("Players (#)"), required=False, max_length=120)


SITUATIONS = [
    (svc.SITUATION_BET, gettext_lazy("What did the player bet?")),
    (svc.SITUATION_OUT_OF_TURN, gettext_lazy("Action out of turn")),
    (svc.SITUATION_SKIPPED, gettext_lazy("A player was skipped")),
    (svc.SITUATION_MISDEAL, gettext_lazy("Misdeal?")),
    (svc.SITUATION_WRONG_CARDS, gettext_lazy("Wrong number of cards")),
    (svc.SITUATION_FOUR_CARD_FLOP, gettext_lazy("Four cards on the flop")),
    (svc.SITUATION_PREMATURE, gettext_lazy("Board card dealt too early")),
    (svc.SITUATION_BURN, gettext_lazy("Burn card missed or doubled")),
    (svc.SITUATION_SHOW_ORDER, gettext_lazy("Who shows first?")),
    (svc.SITUATION_SHOWDOWN, gettext_lazy("Who wins the pot?")),
]

CATEGORY_TEXT = {
    "straight_flush": gettext_lazy("straight flush"),
    "four_of_a_kind": gettext_lazy("four of a kind"),
    "full_house": gettext_lazy("full house"),
    "flush": gettext_lazy("flush"),
    "straight": gettext_lazy("straight"),
    "three_of_a_kind": gettext_lazy("three of a kind"),
    "two_pair": gettext_lazy("two pair"),
    "one_pair": gettext_lazy("one pair"),
    "high_card": gettext_lazy("high card"),
}


def _form(situation: str, request: HttpRequest, tournament: Any) -> forms.Form:
    data = request.POST or None
    if situation == svc.SITUATION_BET:
        return BetFactsForm(data, initial={"big_blind": _big_blind(tournament)})
    if situation == svc.SITUATION_SHOWDOWN:
        smallest = tournament.chip_set.denominations.order_by("value").first()
        return ShowdownForm(
            data,
            initial={
                "table_seats": tournament.seats_per_table,
                "smallest_chip": smallest.value if smallest else 1,
            },
        )
    if situation == svc.SITUATION_SHOW_ORDER:
        return ShowOrderForm(data, initial={"table_seats": tournament.seats_per_table})
    return IrregularityForm(data)


def _facts(form: forms.Form) -> dict[str, Any]:
    """The facts of a valid form, in the shape the ruling API takes them."""
    if isinstance(form, BetFactsForm):
        return form.facts()
    d = form.cleaned_data
    if isinstance(form, ShowdownForm):
        keys = ("board", "hands", "contributions", "button", "table_seats", "smallest_chip")
        return {k: d[k] for k in keys}
    if isinstance(form, ShowOrderForm):
        return {
            "seats": d["seats"],
            "button": d["button"],
            "table_seats": d["table_seats"],
            "aggressor": d.get("aggressor"),
            "all_in": d.get("all_in") or "",
        }
    return {
        "street": d.get("street") or "",
        "action": d.get("oot_action") or "",
        "action_changed": bool(d.get("action_changed")),
        "cause": d.get("cause") or "",
        "so_far": d.get("so_far") or d.get("skipped_so_far") or "none",
        "fourth_known": bool(d.get("fourth_known")),
        "acted": bool(d.get("acted")),
        "button_short": bool(d.get("button_short")),
        "betting_started": bool(d.get("betting_started")),
    }


def _suggest(situation: str, form: forms.Form, tournament: Any) -> dict[str, Any] | None:
    """The suggested ruling when the form's facts are valid (FloorError when they do not fit):
    the same `svc.suggestion` the API answers with."""
    if not form.is_bound or not form.is_valid():
        return None
    facts = _facts(form)
    out = svc.suggestion(situation, facts, tournament.ruleset, svc.tournament_version(tournament))
    result = {**out, "facts": facts, "suggested": out["result"]}
    if situation == svc.SITUATION_SHOWDOWN:
        shown = out["result"]  # stored as the suggestion: the display gets its own copy
        hands = [
            {
                **h,
                "category_text": CATEGORY_TEXT[h["category"]],
                "won": shown["won"].get(str(h["seat"]), 0),
            }
            for h in shown["hands"]
        ]
        result["showdown"] = {**shown, "hands": hands}
    return result


@floor_required
def rulings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    situation = request.POST.get("situation") or request.GET.get("situation") or svc.SITUATION_BET
    if situation not in dict(SITUATIONS):
        situation = svc.SITUATION_BET
    result = None
    form = _form(situation, request, tournament)
    refused = form.is_bound and not form.is_valid()
    try:
        result = _suggest(situation, form, tournament)
        if result is not None and request.POST.get("action") == "record":
            follows = request.POST.get("follows") != "0"
            svc.ruling_record(
                tournament=tournament,
                situation=situation,
                facts=result["facts"],
                suggested=result["suggested"],
                rules=result["rules"],
                decision=result["text"]
                if follows
                else plain_text(request.POST.get("decision"), longest=2000),
                follows=follows,
                reason=plain_text(request.POST.get("reason"), longest=2000),
                actor=Actor.from_request(request),
                table=form.cleaned_data.get("table"),
                players=form.cleaned_data.get("players") or "",
            )
            messages.success(request, _("Ruling recorded."))
            return redirect(f"{reverse('rulings', args=[pk])}?situation={situation}")
    except FloorError as exc:
        refused = True
        messages.error(request, str(exc))
    version = svc.tournament_version(tournament)
    if result is not None:
        result["cited"] = svc.cited(result["rules"], version)
    log = svc.rulings_search(tournament, request.GET.get("q", ""))[:50]
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
            ruleset_in_force=f"{tournament.get_ruleset_display()} {version}",
            q=search_text(request.GET.get("q")),
        ),
        status=400 if refused else 200,
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
        "ruleset_version",
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
            r.ruleset_version,
            r.decision,
            r.follows_suggestion,
            r.reason,
            r.decided_by,
        ]
        for r in Ruling.objects.filter(tournament=tournament).order_by("decided_at", "id")
    )
    return csv_response(f"rulings-{tournament.pk}.csv", header, rows)


# --- penalties ---------------------------------------------------------------------------


def penalty_text(kind: str, count: int) -> str:
    if kind == "hands":
        return ngettext("Sit out %(n)s hand", "Sit out %(n)s hands", count) % {"n": count}
    if kind == "rounds":
        return ngettext("Sit out %(n)s round", "Sit out %(n)s rounds", count) % {"n": count}
    if kind == "warning":
        return _("Warning")
    return _("Disqualification")


class PenaltyForm(forms.Form):
    number = forms.IntegerField(label=gettext_lazy("Player #"), min_value=1)
    reason = forms.CharField(
        label=gettext_lazy("What for"),
        max_length=200,
        required=False,
        help_text=gettext_lazy("For example: exposed cards with action pending"),
    )
    kind = forms.ChoiceField(
        label=gettext_lazy("Penalty"),
        choices=[(k, v) for k, v in PenaltyKind.choices],
        required=False,
    )
    count = forms.IntegerField(
        label=gettext_lazy("Hands or rounds"), min_value=0, max_value=20, initial=1, required=False
    )


@floor_required
def penalties(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    form = PenaltyForm(request.POST or None)
    player = None
    suggestion = None
    history: list[Penalty] = []
    refused = form.is_bound and not form.is_valid()
    if form.is_bound and form.is_valid():
        d = form.cleaned_data
        try:
            entry = svc.playing_entry(tournament, d["number"])
            if request.POST.get("action") == "give":
                penalty = penalty_give(
                    tournament=tournament,
                    number=d["number"],
                    kind=d.get("kind") or "",
                    count=d.get("count") or 0,
                    reason=d.get("reason") or "",
                    actor=Actor.from_request(request),
                )
                messages.success(
                    request,
                    _("%(penalty)s for #%(n)s recorded.")
                    % {"penalty": penalty_text(penalty.kind, penalty.count), "n": d["number"]},
                )
                return redirect("penalties", pk)
            player = entry
            history = list(entry.penalties.all())
            step = svc.penalty_suggestion(tournament, entry)
            suggestion = penalty_text(step.kind, step.count)
            form = PenaltyForm(
                initial={
                    "number": d["number"],
                    "reason": d.get("reason"),
                    "kind": step.kind,
                    "count": step.count or 1,
                }
            )
        except FloorError as exc:
            refused = True
            messages.error(request, str(exc))
    rows = Penalty.objects.filter(tournament=tournament).select_related("entry__player")[:100]
    for p in rows:
        p.text = penalty_text(p.kind, p.count)  # type: ignore[attr-defined]
    for p in history:
        p.text = penalty_text(p.kind, p.count)  # type: ignore[attr-defined]
    rules = svc.tournament_ruleset(tournament)
    return render(
        request,
        "rules_engine/penalties.html",
        console_context(
            tournament,
            "rulings",
            form=form,
            player=player,
            history=history,
            suggestion=suggestion,
            rows=rows,
            cited=svc.cited([rules.cite["penalties"]], rules.version),
        ),
        status=400 if refused else 200,
    )


# --- colour-up ---------------------------------------------------------------------------


@floor_required
def colour_up(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    values = list(
        tournament.chip_set.denominations.order_by("value").values_list("value", flat=True)
    )
    tables = list(Table.objects.filter(tournament=tournament, is_open=True).order_by("number"))
    number = request.POST.get("table") or request.GET.get("table")
    table = next((t for t in tables if str(t.number) == str(number)), None)
    seats = []
    if table is not None:
        seats = list(table.assignments.select_related("entry__player").order_by("seat"))
    removed = _int(
        request.POST.get("removed") or request.GET.get("removed"), values[0] if values else 0
    )
    new_value = _int(
        request.POST.get("new_value") or request.GET.get("new_value"),
        values[1] if len(values) > 1 else 0,
    )
    typed = request.POST
    stacks = _seat_stacks(tournament, table.number) if table is not None else {}
    for row in seats:
        # What was typed comes back when the colour-up is refused (0 on a fresh page).
        row.typed_chips = typed.get(f"chips_{row.seat}", "0")[:12]  # type: ignore[attr-defined]
        row.typed_only = bool(typed.get(f"only_{row.seat}"))  # type: ignore[attr-defined]
        row.stack = stacks.get(row.entry_id)  # type: ignore[attr-defined]
    status = 200
    if request.method == "POST" and table is not None:
        counts: dict[int, tuple[int, int]] = {}
        try:
            for row in seats:
                chips = _int(request.POST.get(f"chips_{row.seat}"), -1)
                if chips < 0:
                    raise FloorError(
                        _("Enter how many chips seat %(n)s has (0 for none).") % {"n": row.seat}
                    )
                counts[row.seat] = (chips, _other_value(request.POST, row, chips, removed))
            record = svc.colour_up_run(
                tournament=tournament,
                table_number=table.number,
                removed=removed,
                new_value=new_value,
                counts=counts,
                actor=Actor.from_request(request),
                stacks={
                    row.seat: (row.stack.chips, row.stack.counted)  # type: ignore[attr-defined]
                    for row in seats
                    if row.stack is not None  # type: ignore[attr-defined]
                },
            )
            messages.success(request, _("Colour-up at table %(n)s recorded.") % {"n": table.number})
            return redirect(
                f"{reverse('colour-up', args=[pk])}?done={record.pk}"
                f"&removed={removed}&new_value={new_value}"
            )
        except FloorError as exc:
            messages.error(request, str(exc))
            status = 400
    done = ColourUp.objects.filter(
        tournament=tournament, pk=_int(request.GET.get("done"), 0)
    ).first()
    names = {}
    if done is not None:
        names = {
            a.seat: a.entry.player.display_name
            for a in SeatAssignment.objects.filter(
                table__tournament=tournament, table__number=done.table
            ).select_related("entry__player")
        }
        for s in done.result["seats"]:
            s["name"] = names.get(s["seat"], "")
    rs = svc.tournament_ruleset(tournament)
    return render(
        request,
        "rules_engine/colour_up.html",
        console_context(
            tournament,
            "rulings",
            tables=tables,
            table=table,
            seats=seats,
            values=values,
            removed=removed,
            new_value=new_value,
            done=done,
            race=rs.chip_colour_up == "race",
            history=ColourUp.objects.filter(tournament=tournament)[:20],
            cited=svc.cited([rs.cite["colour_up"]], rs.version),
            needs_button=table is not None and not table.button_seat,
            stacks_counted=sum(1 for s in stacks.values() if s.counted),
            stacks_estimated=sum(1 for s in stacks.values() if not s.counted),
        ),
        status=status,
    )


def _seat_stacks(tournament: Any, table_number: int) -> dict[int, Any]:
    """{entry id: Stack} of the players at the table: the latest chip count where there is one,
    else an estimate from the chips in play (counts/selectors.py, a read across apps)."""
    return {s.player.entry_id: s for s in table_sheet(tournament_field(tournament), table_number)}


def _other_value(post: Any, row: Any, chips: int, removed: int) -> int:
    """The value of a seat's other chips for the race (bdpv 6.8: nobody is raced out). Ticked
    "No other chips": 0. Else from the player's latest count where it is known; else the
    player is taken to hold other chips (1)."""
    if post.get(f"only_{row.seat}"):
        return 0
    stack = row.stack
    counted = stack.chips if stack is not None and stack.counted else None
    rest = other_value_from_count(counted, chips, removed)
    return 1 if rest is None else rest


def _int(value: Any, default: int) -> int:
    number = whole_number_or_none(value)
    return default if number is None else number
