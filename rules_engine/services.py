"""Rulings: the engine's suggestion for a situation, and the floor's recorded decision."""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.db.models import F, Q
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from core.errors import FloorError
from core.figures import chips as _grouped
from core.inputs import search_text, whole_number_or_none
from rules_engine.domain.chiprace import ChipRaceError, Holding, colour_up
from rules_engine.domain.interpret import (
    Declared,
    Interpretation,
    InterpretError,
    Situation,
    Verbal,
    interpret,
)
from rules_engine.domain.irregularities import (
    Act,
    IrregularityError,
    MisdealCause,
    OotAction,
    Procedure,
    burn_error,
    four_card_flop,
    misdeal,
    out_of_turn,
    premature_card,
    skipped_player,
    wrong_card_count,
)
from rules_engine.domain.irregularities import Street as IrregularStreet
from rules_engine.domain.penalties import Given, PenaltyError, hands_to_sit_out, suggest
from rules_engine.domain.pots import PotError, pots_from
from rules_engine.domain.rulesets import (
    RULES,
    PenaltyStep,
    citation,
    ruleset,
)
from rules_engine.domain.showdown import ShowdownError, cards, showdown
from rules_engine.models import ColourUp, Penalty, PenaltyKind, Ruling
from rules_engine.selectors import (  # noqa: F401  (the reads, importable from here too)
    show_order_ruling,
    show_order_text,
    sitting_out,
    tournament_ruleset,
    tournament_version,
)
from rules_engine.words import colour_up_reason, facts_reason, penalty_reason
from tables.models import SeatAssignment, Table
from tournament.events import Actor, event_record
from tournament.locks import lock_tournament
from tournament.models import Entry, EntryStatus, Tournament

SITUATION_BET = "bet_interpretation"
SITUATION_FOUR_CARD_FLOP = "four_card_flop"
SITUATION_PREMATURE = "premature_card"
SITUATION_OUT_OF_TURN = "out_of_turn"
SITUATION_MISDEAL = "misdeal"
SITUATION_WRONG_CARDS = "wrong_card_count"
SITUATION_BURN = "burn_error"
SITUATION_SHOWDOWN = "showdown"
SITUATION_SKIPPED = "skipped_player"
SITUATION_SHOW_ORDER = "show_order"
SITUATION_KEYS = (
    SITUATION_SKIPPED,
    SITUATION_BET,
    SITUATION_FOUR_CARD_FLOP,
    SITUATION_PREMATURE,
    SITUATION_OUT_OF_TURN,
    SITUATION_MISDEAL,
    SITUATION_WRONG_CARDS,
    SITUATION_BURN,
    SITUATION_SHOWDOWN,
    SITUATION_SHOW_ORDER,
)

# What happened before the error was noticed (tda-de 36, bdpv 2.1), as the form offers it.
SO_FAR: dict[str, tuple[Act, ...]] = {
    "none": (),
    "one": (Act.FOLD,),
    "two_no_chips": (Act.FOLD, Act.FOLD),
    "two_chips": (Act.FOLD, Act.CALL),
    "three": (Act.FOLD, Act.FOLD, Act.FOLD),
}


def _chips(amount: int) -> str:
    """A chip count grouped the reader's way (2,000 / 2.000)."""
    return _grouped(amount)


def bet_ruling(
    facts: dict[str, Any], ruleset_id: str = "tda-de", version: str | None = None
) -> Interpretation:
    """The binding action for the facts of a bet (tda-de 40-54)."""
    try:
        situation = Situation(
            current_bet=facts["current_bet"],
            in_front=facts["in_front"],
            last_raise=facts["last_raise"] or facts["big_blind"],
            stack=facts["stack"],
            big_blind=facts["big_blind"],
            pot=facts.get("pot") or 0,
            facing_all_in=bool(facts.get("facing_all_in")),
            missed_raise=bool(facts.get("missed_raise")),
            acted_since=bool(facts.get("acted_since")),
        )
        declared = Declared(
            verbal=Verbal(facts["verbal"]),
            amount=facts.get("amount"),
            chips=tuple(facts.get("chips") or ()),
            verbal_first=facts.get("verbal_first", True),
            first_motion=tuple(facts.get("first_motion") or ()),
            unclear_amount=bool(facts.get("unclear_amount")),
            expects_change=bool(facts.get("expects_change")),
        )
        return interpret(situation, declared, ruleset_id, version=version)
    except (InterpretError, ValueError, KeyError) as exc:
        raise FloorError(
            _("These facts do not make a bet: %(reason)s") % {"reason": facts_reason(exc)}
        ) from exc


def cited(rule_ids: list[str] | tuple[str, ...], version: str = "") -> list[dict[str, str]]:
    """The rules as every page and the API show them: the rule id, the citation with the
    version in force ("tda-de 1.0 · 49"), and the title and summary in the reader's language."""
    language = get_language() or "en"
    return [
        {
            "id": r,
            "citation": citation(r, version),
            "title": RULES[r].title(language),
            "summary": RULES[r].summary(language),
        }
        for r in rule_ids
        if r in RULES
    ]


def irregularity_ruling(
    situation: str, facts: dict[str, Any], ruleset_id: str = "tda-de"
) -> Procedure:
    """What the dealer and the floor do now, under the tournament's ruleset."""
    rs = ruleset_id
    try:
        if situation == SITUATION_FOUR_CARD_FLOP:
            return four_card_flop(rs, fourth_known=facts.get("fourth_known", True) is not False)
        if situation == SITUATION_PREMATURE:
            return premature_card(IrregularStreet(facts["street"]), rs)
        if situation == SITUATION_OUT_OF_TURN:
            return out_of_turn(OotAction(facts["action"]), bool(facts.get("action_changed")), rs)
        if situation == SITUATION_SKIPPED:
            return skipped_player(SO_FAR[facts["so_far"]], rs)
        if situation == SITUATION_MISDEAL:
            return misdeal(MisdealCause(facts["cause"]), SO_FAR[facts["so_far"]], rs)
        if situation == SITUATION_WRONG_CARDS:
            return wrong_card_count(
                acted=bool(facts.get("acted")),
                button_short=bool(facts.get("button_short")),
                ruleset=rs,
            )
        if situation == SITUATION_BURN:
            return burn_error(betting_started=bool(facts.get("betting_started")), ruleset=rs)
    except (IrregularityError, ValueError, KeyError) as exc:
        raise FloorError(
            _("These facts do not fit the situation: %(reason)s") % {"reason": facts_reason(exc)}
        ) from exc
    raise FloorError(_("Choose a situation."))


def rulings_search(tournament: Tournament, q: str) -> Any:
    """The ruling log, newest first; `q` matches the decision, reason, players, situation, a
    rule id (e.g. "tda-de 49" or just "49") or the ruleset version ruled under ("1.0")."""
    qs = Ruling.objects.filter(tournament=tournament)
    q = search_text(q)
    if q:
        match = (
            Q(decision__icontains=q)
            | Q(reason__icontains=q)
            | Q(players__icontains=q)
            | Q(situation__icontains=q)
            | Q(rules__icontains=q)
            | Q(ruleset_version=q)
        )
        table = whole_number_or_none(q, low=1)
        if table is not None:
            match |= Q(table=table)
        qs = qs.filter(match)
    return qs


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
    """Record the floor's decision (tda-de 1: the floor may decide otherwise, with a reason),
    with the ruleset and the version in force that the rules cited belong to."""
    decision = decision.strip()
    if not decision:
        raise FloorError(_("Write down the decision."))
    if not follows and not reason.strip():
        raise FloorError(_("A decision that differs from the suggestion needs a reason."))
    lock_tournament(tournament.pk, only=("id",))
    version = tournament_version(tournament)
    ruling = Ruling.objects.create(
        tournament=tournament,
        ruleset=tournament.ruleset,
        ruleset_version=version,
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
            "ruleset_version": version,
            "follows": follows,
            "table": table,
        },
    )
    return ruling


OUTCOME_TEXT = {
    "check": gettext_lazy("Check."),
    "call": gettext_lazy("Call: %(to)s in front."),
    "bet": gettext_lazy("Bet / raise to %(to)s."),
    "call_or_fold": gettext_lazy("The player may call or fold, not raise."),
    "complete_or_fold": gettext_lazy(
        "Undercall: the player completes the call or folds; the chips put in stay in the pot."
    ),
    "floor": gettext_lazy("Not standard: the floor decides whether it binds (and may penalise)."),
    "take_back": gettext_lazy(
        "The player takes the chips back and decides again: fold, call or raise."
    ),
}


def outcome_text(r: Interpretation) -> str:
    return str(OUTCOME_TEXT[r.outcome.value]) % {"to": _chips(r.to)}


def suggestion(
    situation: str, facts: dict[str, Any], ruleset_id: str, version: str | None = None
) -> dict[str, Any]:
    """The engine's ruling for any situation under `ruleset_id` in `version` (the newest when
    None), in the reader's language: outcome text, steps, the rules with their summaries, and
    the machine-readable result."""
    language = get_language() or "en"
    if situation == SITUATION_BET:
        r = bet_ruling(facts, ruleset_id, version)
        return {
            "text": outcome_text(r),
            "steps": [],
            "rules": list(r.rules),
            "result": {"outcome": r.outcome.value, "to": r.to, "note": r.note},
        }
    if situation == SITUATION_SHOWDOWN:
        shown = showdown_ruling(facts, ruleset_id, version)
        return {"text": showdown_text(shown), "steps": [], "rules": shown["rules"], "result": shown}
    if situation == SITUATION_SHOW_ORDER:
        order = show_order_ruling(facts, ruleset_id, version)
        text, steps = show_order_text(order)
        return {"text": text, "steps": steps, "rules": order["rules"], "result": order}
    if situation not in SITUATION_KEYS:
        raise FloorError(_("Unknown situation %(s)s.") % {"s": situation})
    procedure = irregularity_ruling(situation, facts, ruleset_id)
    return {
        "text": procedure.outcome.text(language),
        "steps": [step.text(language) for step in procedure.steps],
        "rules": list(procedure.rules),
        "result": {"outcome": procedure.outcome.en},
    }


def showdown_text(result: dict[str, Any]) -> str:
    parts = []
    for i, pot in enumerate(result["pots"]):
        name = _("Main pot") if i == 0 else _("Side pot %(n)s") % {"n": i}
        if not pot["winners"]:
            parts.append(_("%(pot)s: no eligible hand shown") % {"pot": name})
            continue
        shares = ", ".join(
            _("seat %(seat)s %(amount)s") % {"seat": seat, "amount": _chips(amount)}
            for seat, amount in pot["shares"].items()
        )
        parts.append(f"{name} ({_chips(pot['amount'])}): {shares}")
    return "; ".join(parts) + "."


def _seat_lines(text: str, what: str) -> dict[int, str]:
    """Parse lines such as "3: As Kd" or "3 5000" into {seat: rest}."""
    out: dict[int, str] = {}
    for line in text.replace(";", "\n").splitlines():
        line = line.strip()
        if not line:
            continue
        head, _sep, rest = line.replace(":", " ", 1).partition(" ")
        if not (head.isascii() and head.isdigit() and len(head) <= 2) or not rest.strip():
            raise FloorError(
                _("Write each %(what)s as a seat number, a colon and the value: %(line)s")
                % {"what": what, "line": line}
            )
        seat = int(head)
        if seat in out:
            raise FloorError(_("Seat %(n)s is listed twice.") % {"n": seat})
        out[seat] = rest.strip()
    return out


def showdown_ruling(
    facts: dict[str, Any], ruleset_id: str = "tda-de", version: str | None = None
) -> dict[str, Any]:
    """Winners of each pot from the board, the shown hands and what each seat put in."""
    try:
        board = cards(facts["board"])
        hands = {s: cards(v) for s, v in _seat_lines(facts["hands"], _("hand")).items()}
        paid: dict[int, int] = {}
        for s, v in _seat_lines(facts["contributions"], _("amount")).items():
            digits = v.replace(",", "").replace(".", "")
            if not (digits.isascii() and digits.isdigit() and len(digits) <= 10):
                raise FloorError(_("Seat %(n)s: %(v)s is not an amount.") % {"n": s, "v": v})
            paid[s] = int(digits)
        missing = sorted(set(hands) - set(paid))
        if missing:
            raise FloorError(
                _("Enter what seat %(n)s put in.") % {"n": ", ".join(map(str, missing))}
            )
        folded = set(paid) - set(hands)
        result = pots_from(paid, folded)
        rs = ruleset(ruleset_id, version)
        sd = showdown(
            board,
            hands,
            result.pots,
            button=facts["button"],
            table_seats=facts["table_seats"],
            smallest_chip=facts.get("smallest_chip") or 1,
            odd_chips="first" if rs.odd_chips == "first" else "one_each",
            ruleset_id=ruleset_id,
            version=version,
        )
    except (ShowdownError, PotError, KeyError) as exc:
        raise FloorError(
            _("These facts do not make a showdown: %(reason)s") % {"reason": facts_reason(exc)}
        ) from exc
    return {
        "hands": [
            {"seat": h.seat, "cards": list(h.cards), "category": h.category.value, "rank": h.rank}
            for h in sd.hands
        ],
        "pots": [
            {
                "amount": a.pot.amount,
                "eligible": sorted(a.pot.eligible),
                "winners": list(a.winners),
                "shares": {str(k): v for k, v in a.shares.items()},
            }
            for a in sd.awards
        ],
        "returned": list(result.returned) if result.returned else None,
        "won": {str(k): v for k, v in sd.won().items()},
        "rules": list(sd.rules),
    }


# --- penalties -------------------------------------------------------------------------


def playing_entry(tournament: Tournament, number: int) -> Entry:
    entry = (
        Entry.objects.select_related("player").filter(tournament=tournament, number=number).first()
    )
    if entry is None or entry.status != EntryStatus.ACTIVE:
        raise FloorError(_("#%(n)s is not playing in this tournament.") % {"n": number})
    return entry


def penalty_suggestion(tournament: Tournament, entry: Entry) -> PenaltyStep:
    """The next rung of the ruleset's ladder for this player (repeats escalate)."""
    previous = [Given(p.kind, p.count) for p in entry.penalties.all()]
    return suggest(tournament_ruleset(tournament).penalty_ladder, previous)


def penalty_record(
    *,
    tournament: Tournament,
    number: int,
    kind: str,
    count: int,
    reason: str,
    actor: Actor,
) -> tuple[Penalty, int | None]:
    """Record a penalty. Rounds become hands: one per player at the table, the player included,
    times the rounds (tda-de 69). Returns the penalty and the id of the table where the player
    sits (None without a seat). A disqualification takes the player's chips out of play: the
    layer above (`actions.penalties.penalty_give`, whose transaction this runs in) has the
    player out at once."""
    tournament = lock_tournament(tournament.pk, key=True)
    entry = playing_entry(tournament, number)
    reason = reason.strip()
    if not reason:
        raise FloorError(_("Say what the penalty is for."))
    if kind not in PenaltyKind.values:
        raise FloorError(_("Choose a penalty."))
    if kind in (PenaltyKind.WARNING, PenaltyKind.DISQUALIFICATION):
        count = 0
    seat = SeatAssignment.objects.select_related("table").filter(entry=entry).first()
    at_table = seat.table.assignments.count() if seat else 0
    if kind in (PenaltyKind.HANDS, PenaltyKind.ROUNDS) and seat is None:
        raise FloorError(_("#%(n)s has no seat: sitting out needs a table.") % {"n": number})
    try:
        hands = hands_to_sit_out(kind, count, at_table)
    except PenaltyError as exc:
        raise FloorError(
            _("This penalty cannot be given: %(reason)s") % {"reason": penalty_reason(exc)}
        ) from exc
    rs = tournament_ruleset(tournament)
    rule = rs.cite["penalties"]
    penalty = Penalty.objects.create(
        tournament=tournament,
        entry=entry,
        kind=kind,
        count=count,
        hands=hands,
        hands_left=hands,
        table=seat.table.number if seat else None,
        reason=reason[:200],
        rule=rule,
        ruleset_version=rs.version,
        given_by=actor.label[:120],
    )
    event_record(
        tournament=tournament,
        action="penalty.give",
        actor=actor,
        payload={
            "penalty": penalty.pk,
            "entry": entry.number,
            "kind": kind,
            "count": count,
            "hands": hands,
            "table": penalty.table,
            "rule": rule,
            "ruleset_version": rs.version,
        },
    )
    return penalty, seat.table_id if seat is not None else None


def penalties_count_hand(table: Any) -> None:
    """One hand finished at `table`: every penalised player seated there has one hand less to
    sit out (called inside the hand-done transaction)."""
    entries = table.assignments.values("entry_id")
    Penalty.objects.filter(entry_id__in=entries, hands_left__gt=0).update(
        hands_left=F("hands_left") - 1
    )


# --- colour-up -------------------------------------------------------------------------


def _colour_up_data(
    result: Any, ruleset_version: str, stacks: Mapping[int, tuple[int, bool]] | None
) -> dict[str, Any]:
    """A colour-up's record: the winner, the rules, the values and each seat's chips and cards
    (with the stack the page showed, where given)."""
    return {
        "winner": result.winner,
        "rules": list(result.rules),
        "ruleset_version": ruleset_version,
        "value_before": result.value_before,
        "value_after": result.value_after,
        "seats": [
            {
                "seat": r.seat,
                "chips": r.chips,
                "changed": r.changed,
                "odd_chips": r.odd_chips,
                "cards": list(r.cards),
                "won": r.won,
                "not_raced_out": r.not_raced_out,
                "new_chips": r.new_chips,
                **(
                    {"stack": stacks[r.seat][0], "stack_counted": stacks[r.seat][1]}
                    if stacks and r.seat in stacks
                    else {}
                ),
            }
            for r in result.seats
        ],
    }


@transaction.atomic
def colour_up_run(
    *,
    tournament: Tournament,
    table_number: int,
    removed: int,
    new_value: int,
    counts: dict[int, tuple[int, int]],
    actor: Actor,
    stacks: Mapping[int, tuple[int, bool]] | None = None,
) -> ColourUp:
    """Colour up one table by the ruleset (tda-de 24 round-up, bdpv 6.8 race). `counts`:
    {seat: (chips of the removed value, value of the player's other chips)}. `stacks`: {seat:
    (stack, counted)} as the page showed them (the latest chip count, or an estimate from the
    chips in play), kept with the record. The cards come from the operating system's secure
    random source; every card dealt is recorded."""
    tournament = lock_tournament(tournament.pk, key=True)
    table = Table.objects.filter(tournament=tournament, number=table_number, is_open=True).first()
    if table is None:
        raise FloorError(_("Table %(n)s is not open.") % {"n": table_number})
    if not table.button_seat:
        raise FloorError(_("Set the button at table %(n)s first.") % {"n": table_number})
    seated = set(table.assignments.values_list("seat", flat=True))
    unknown = sorted(set(counts) - seated)
    if unknown:
        raise FloorError(
            _("Nobody sits in seat %(n)s at this table.") % {"n": ", ".join(map(str, unknown))}
        )
    rs = tournament_ruleset(tournament)
    method = "race" if rs.chip_colour_up == "race" else "round_up"
    try:
        result = colour_up(
            [Holding(seat, chips, other) for seat, (chips, other) in counts.items()],
            removed=removed,
            new_value=new_value,
            method=method,
            button=table.button_seat,
            table_seats=table.seats,
            rng=secrets.SystemRandom(),
        )
    except ChipRaceError as exc:
        raise FloorError(
            _("This colour-up cannot be done: %(reason)s") % {"reason": colour_up_reason(exc)}
        ) from exc
    data = _colour_up_data(result, rs.version, stacks)
    record = ColourUp.objects.create(
        tournament=tournament,
        table=table_number,
        removed=removed,
        new_value=new_value,
        method=method,
        result=data,
        done_by=actor.label[:120],
    )
    event_record(
        tournament=tournament,
        action="chips.colour_up",
        actor=actor,
        payload={"colour_up": record.pk, "table": table_number, "method": method, **data},
    )
    return record
