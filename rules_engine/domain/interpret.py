"""What did the player do? Turn a verbal declaration and/or chips pushed into the binding
No-Limit action, with the rules that decide it.

Input is the betting situation of the player to act (`Situation`) and what happened
(`Declared`): an optional verbal declaration, an optional list of chips pushed silently, and
which of the two came first. Output is an `Interpretation`: the action, the total the player has
in front of them this round after it ("raise to"), and the rule ids that decided it.

Rules (`tda-de`, summarised in the engine's own words):

- 40: a declaration and chips — whichever came first defines the action; at the same moment a
  clear declaration wins. Naming an amount is the same as pushing it silently.
- 42, 45: "call" and "raise" bind the player to the full current action.
- 46: "raise" said first, then chips short of a full raise: it is a minimum raise.
- 47: a raise must add at least the last full bet or raise. Without "raise" declared, an amount
  that adds at least half of that but less than all of it must be completed to a full raise;
  less than half is a call. An all-in is never corrected.
- 49: one oversized chip facing a bet is a call unless "raise" was said first; "raise" with no
  amount and one chip raises by the most that chip allows. With no bet to face, the oversized
  chip alone is a bet of its full value.
- 50: several chips without a declaration are a call when every chip is needed for it (taking
  the smallest away would leave less than the call); otherwise the 50 % standard (47) applies.
- 53: "pot" in No-Limit is no valid amount but commits the player to a valid bet: the minimum
  bet, or the minimum raise when facing a bet.
- 54: "call" with nothing to call is a check; "raise" with nothing to face is at least a minimum
  bet; "check" facing a bet leaves call or fold (no raise).
- 42 (undercall): chips or an amount short of the call, without "call" said, are not
  necessarily a call: the player completes the call or folds, and the chips put in stay. This
  comes before 49 and 50: several chips that together do not reach the call are an undercall,
  not a call. Facing an all-in, chips put in silently are a full call (45).
- 46, 55: chips pushed in several motions without a declaration (a string bet) are judged by
  the first motion; a later motion does not make it a raise.
- 60: chips put in silently in the hope of change count as put in (rule 50 decides); only a
  declaration made first, or one oversized chip facing a bet (49), leaves room for change.
- 56: an amount that can be read several ways ("five" at blinds 200/400) is the highest
  sensible reading that is not more than the pot.
- 58: a conditional statement ("if you bet, I raise") is not standard: the floor decides whether
  it binds, and it may be penalised.

With `ruleset="bdpv"` these things differ and the rules cited are the BDPV's:

- 5.6: when words and chips disagree, the words count, whatever came first;
- 2.4.12: several chips pushed silently are a raise when they reach the call plus half of it
  (made up to a full raise, 2.4.6); below that they are a call. Chips pushed in several motions
  are judged by the first motion, as in tda-de 55;
- 2.4.11, 5.10: one larger chip facing a bet (the big blind included) is a call; one chip with
  no bet to face is a bet, and the dealer asks the amount meant before the next player acts;
- 2.4.10: a player who had not noticed a raise and put in less than half of the call may take
  the chips back and decide again, as long as nobody has acted since (the ruleset's
  `missed_raise_take_back`; tda-de has no such rule: 42 applies);
- 5.9 (with 5.8 and 2.4.13): chips short of the call are made up to the call when they reach
  80 % of it; below 80 % the call may be taken back if the player misunderstood the bet,
  otherwise it is made up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from rules_engine.domain.rulesets import Ruleset
from rules_engine.domain.rulesets import ruleset as ruleset_named


class InterpretError(ValueError):
    """An impossible situation or declaration."""


class Verbal(StrEnum):
    NONE = "none"
    CHECK = "check"
    CALL = "call"
    RAISE = "raise"  # "raise" or "bet", with or without an amount
    ALL_IN = "all_in"
    POT = "pot"
    AMOUNT = "amount"  # a bare number: "twelve hundred"
    CONDITIONAL = "conditional"  # "if you bet, I raise"


class Outcome(StrEnum):
    CHECK = "check"
    CALL = "call"
    BET = "bet"  # a bet or raise to `to`
    CALL_OR_FOLD = "call_or_fold"  # "check" facing a bet: the player chooses, no raise
    COMPLETE_OR_FOLD = "complete_or_fold"  # an undercall: complete the call or fold (42)
    TAKE_BACK = "take_back"  # a missed raise: the chips come back, the player decides again
    FLOOR = "floor"  # not standard: the floor decides (58)


@dataclass(frozen=True)
class Situation:
    current_bet: int  # the highest total in front of a player this round
    in_front: int  # what this player already has in front this round
    last_raise: int  # the size of the last full bet or raise (the big blind at first)
    stack: int  # chips behind
    big_blind: int
    pot: int = 0  # the pot before this round's bets, for unclear amounts (56)
    facing_all_in: bool = False  # the bet to face is a player's all-in (45)
    missed_raise: bool = False  # the player had not noticed a raise (bdpv 2.4.10)
    acted_since: bool = False  # a player after them has acted since (bdpv 2.4.10)

    def __post_init__(self) -> None:
        if min(self.current_bet, self.in_front, self.last_raise, self.stack, self.pot) < 0:
            raise InterpretError("amounts cannot be negative")
        if self.big_blind <= 0:
            raise InterpretError("the big blind must be positive")
        if self.in_front > self.current_bet:
            raise InterpretError("a player cannot have more in front than the current bet")


@dataclass(frozen=True)
class Declared:
    verbal: Verbal = Verbal.NONE
    amount: int | None = None  # named with RAISE ("raise, 8000": the total) or AMOUNT
    chips: Sequence[int] = ()  # denominations pushed silently over the line
    verbal_first: bool = True  # when both happened: did the words come first?
    first_motion: Sequence[int] = ()  # string bet: the chips of the first of several motions
    unclear_amount: bool = False  # the amount said can be read several ways (56)
    expects_change: bool = False  # the chips were put in hoping for change (60)


@dataclass(frozen=True)
class Interpretation:
    outcome: Outcome
    to: int  # the player's total in front this round after the action
    rules: tuple[str, ...] = field(default=())
    note: str = ""


# The BDPV rule for the same point, where a tda-de rule is cited.
BDPV_EQUIVALENT = {
    "tda-de 40": "bdpv 2.4.5",
    "tda-de 42": "bdpv 2.4.5",
    "tda-de 45": "bdpv 2.4.5",
    "tda-de 46": "bdpv 2.4.12",
    "tda-de 47": "bdpv 2.4.6",
    "tda-de 49": "bdpv 2.4.11",
    "tda-de 50": "bdpv 2.4.12",
    "tda-de 53": "bdpv 5.11",
    "tda-de 54": "bdpv 2.4.5",
    "tda-de 55": "bdpv 2.4.12",
}


def interpret(
    s: Situation, d: Declared, ruleset: str = "tda-de", *, version: str | None = None
) -> Interpretation:
    """What the words and chips bind the player to, under `ruleset` in `version` (the newest
    when None)."""
    try:
        rs = ruleset_named(ruleset, version)
    except KeyError as exc:
        if version:
            raise InterpretError(str(exc)) from None
        raise InterpretError(f"unknown ruleset {ruleset!r}") from None
    if any(c <= 0 for c in (*d.chips, *d.first_motion)):
        raise InterpretError("a chip must have a positive value")
    taken_back = _missed_raise_taken_back(s, d, rs)
    if taken_back is not None:
        return taken_back
    if rs.id == "tda-de":
        return _interpret(s, d)
    r = _interpret_bdpv(s, d)
    rules = tuple(dict.fromkeys(BDPV_EQUIVALENT.get(x, x) for x in r.rules))
    return Interpretation(r.outcome, r.to, rules, r.note)


def _missed_raise_taken_back(s: Situation, d: Declared, rs: Ruleset) -> Interpretation | None:
    """bdpv 2.4.10: chips put in by a player who had not noticed a raise come back when they
    are less than the ruleset's share of the call and nobody has acted since. The player then
    decides again (fold, call or raise). None when the rule does not apply (always for a
    ruleset without it, such as tda-de: 42 makes it complete or fold)."""
    limit = rs.missed_raise_take_back
    if limit is None or not s.missed_raise or s.acted_since or not d.chips:
        return None
    chips_decide = d.verbal == Verbal.NONE or (not d.verbal_first and not rs.words_over_chips)
    call = _call_amount(s)
    pushed = sum(d.chips)
    if not chips_decide or call <= 0 or 100 * pushed >= limit * call:
        return None
    return Interpretation(
        Outcome.TAKE_BACK,
        s.in_front,
        (rs.cite["missed_raise"],),
        f"the raise was missed and less than {limit} % of the call went in, with nobody acting "
        "since: the chips come back and the player decides again",
    )


def _interpret_bdpv(s: Situation, d: Declared) -> Interpretation:
    call = _call_amount(s)
    facing = s.current_bet > s.in_front
    pushed = sum(d.chips)
    if d.verbal == Verbal.CALL and d.chips and facing and pushed < min(call, s.stack):
        return _undercall_bdpv(s, pushed, call, declared=True)
    if d.verbal != Verbal.NONE:
        # 5.6: the words decide, whatever came first.
        r = _interpret(s, Declared(d.verbal, d.amount, d.chips, verbal_first=True))
        extra = ("bdpv 5.6",) if d.chips and not d.verbal_first else ()
        return Interpretation(r.outcome, r.to, (*r.rules, *extra), r.note)
    if not d.chips:
        raise InterpretError("nothing was declared and no chips were pushed")
    if d.first_motion:
        return _string_bet_bdpv(s, d)
    return _chips_bdpv(s, d.chips)


def _string_bet_bdpv(s: Situation, d: Declared) -> Interpretation:
    """bdpv 2.4.12: chips put in in several motions are judged by the first motion; a later
    motion may complete a call but adds no raise (as tda-de 46, 55)."""
    first = sum(d.first_motion)
    if first > sum(d.chips):
        raise InterpretError("the first motion cannot hold more chips than were pushed")
    note = "a string bet: the first motion decides; a later motion adds no raise"
    call = _call_amount(s)
    if s.current_bet > s.in_front and first < call:
        if sum(d.chips) >= call:
            return _call(s, ("bdpv 2.4.12",), note)
        r = _chips_bdpv(s, d.chips)  # short of the call even with the later motions
    else:
        r = _chips_bdpv(s, d.first_motion)
    return Interpretation(r.outcome, r.to, tuple(dict.fromkeys(("bdpv 2.4.12", *r.rules))), note)


def _chips_bdpv(s: Situation, chips: Sequence[int]) -> Interpretation:
    """Chips pushed without a word (bdpv 2.4.11-2.4.12, 5.8-5.10)."""
    call = _call_amount(s)
    facing = s.current_bet > s.in_front
    pushed = sum(chips)
    if facing and pushed < call and pushed < s.stack:
        return _undercall_bdpv(s, pushed, call)
    if len(chips) == 1 and facing and pushed > call:
        # 2.4.11, 5.10: one larger chip facing a bet, the big blind included, is a call.
        return _call(s, ("bdpv 2.4.11", "bdpv 5.10"), "one larger chip without 'raise': a call")
    if len(chips) == 1 and not facing:
        # 5.10: one chip is a bet; the dealer asks what the player meant before anyone acts.
        return _to(
            s,
            s.in_front + pushed,
            ("bdpv 5.10",),
            "one chip, no bet to face: a bet of its value, unless the player names a smaller "
            "amount when the dealer asks, before the next player acts",
        )
    if facing and len(chips) > 1:
        if pushed >= s.stack:
            return _to(s, s.in_front + s.stack, ("bdpv 2.4.12",), "all-in")
        if 2 * pushed >= 3 * call:
            to = max(s.in_front + pushed, _min_to(s))
            return _to(s, to, ("bdpv 2.4.12", "bdpv 2.4.6"), "the call plus half: a raise")
        return _call(s, ("bdpv 2.4.12",), "less than the call plus half: a call")
    return _interpret(s, Declared(chips=tuple(chips)))


def _undercall_bdpv(
    s: Situation, pushed: int, call: int, *, declared: bool = False
) -> Interpretation:
    """bdpv 5.8-5.9 (and 2.4.10 for chips put in silently after a missed raise): chips short
    of the call. A declared "call" is judged by 5.8-5.9 alone."""
    if s.missed_raise and not declared:
        # 2.4.10: taking back needs less than half the call and nobody acting since (see
        # `_missed_raise_taken_back`); otherwise the chips bind and are made up.
        rules = ("bdpv 2.4.10", "bdpv 5.9") if 100 * pushed >= 80 * call else ("bdpv 2.4.10",)
        return _call(
            s,
            (*rules, "bdpv 2.4.13"),
            "the raise was missed, but half the call or more went in or someone has acted "
            "since: the chips bind and are made up to the call",
        )
    if 100 * pushed >= 80 * call:
        return _call(s, ("bdpv 5.9",), "80 % or more of the call: made up to the call")
    return _call(
        s,
        ("bdpv 5.8", "bdpv 5.9", "bdpv 2.4.13"),
        "less than 80 % of the call: may be taken back if the player misunderstood the bet, "
        "otherwise made up to the call",
    )


def sensible_amount(said: int, pot: int) -> int:
    """tda-de 56: the highest reading of `said` (times 1, 10, 100, ...) not above the pot."""
    if said <= 0:
        raise InterpretError("a declared amount must be positive")
    best = said
    reading = said
    while reading * 10 <= pot:
        reading *= 10
        best = reading
    return best


def _interpret(s: Situation, d: Declared) -> Interpretation:
    if d.amount is not None and d.amount <= 0:
        raise InterpretError("a declared amount must be positive")
    if d.verbal == Verbal.CONDITIONAL:
        return Interpretation(
            Outcome.FLOOR,
            s.in_front,
            ("tda-de 58",),
            "a conditional statement is not standard: the floor decides if it binds",
        )
    if d.unclear_amount and d.amount is not None:
        amount = sensible_amount(d.amount, s.pot + s.current_bet)
        r = _interpret(
            s,
            Declared(
                d.verbal, amount, d.chips, d.verbal_first, d.first_motion, False, d.expects_change
            ),
        )
        return Interpretation(r.outcome, r.to, ("tda-de 56", *r.rules), f"read as {amount}")
    if d.first_motion and d.verbal == Verbal.NONE:
        if sum(d.first_motion) > sum(d.chips):
            raise InterpretError("the first motion cannot hold more chips than were pushed")
        r = _chips_only(s, d.first_motion, ())
        rules = ("tda-de 46", "tda-de 55", *r.rules)
        note = "a string bet: the first motion decides; a later motion adds no raise"
        if r.outcome == Outcome.COMPLETE_OR_FOLD and sum(d.chips) >= _call_amount(s):
            return _call(s, rules, note)
        return Interpretation(r.outcome, r.to, rules, note)
    all_in_to = s.in_front + s.stack
    facing = s.current_bet > s.in_front
    pushed = sum(d.chips)

    # tda-de 40: the first of words and chips defines the action.
    verbal_counts = d.verbal != Verbal.NONE and (not d.chips or d.verbal_first)
    if not verbal_counts:
        if not d.chips:
            raise InterpretError("nothing was declared and no chips were pushed")
        r = _chips_only(s, d.chips, ("tda-de 40",) if d.verbal != Verbal.NONE else ())
        return _for_change(r) if d.expects_change else r

    if d.verbal == Verbal.CHECK:
        if facing:
            return Interpretation(
                Outcome.CALL_OR_FOLD, s.in_front, ("tda-de 54",), "check facing a bet"
            )
        return Interpretation(Outcome.CHECK, s.in_front, ("tda-de 40",))
    if d.verbal == Verbal.CALL:
        if not facing:
            return Interpretation(Outcome.CHECK, s.in_front, ("tda-de 54",), "call = check")
        return _call(s, ("tda-de 42", "tda-de 45"))
    if d.verbal == Verbal.ALL_IN:
        return _to(s, all_in_to, ("tda-de 40",))
    if d.verbal == Verbal.POT:
        return _to(s, _min_to(s), ("tda-de 53",), "'pot' in No-Limit: the minimum valid bet")
    if d.verbal == Verbal.AMOUNT:
        if d.amount is None:
            raise InterpretError("a bare number needs the amount")
        # Naming an amount is the same as pushing it silently (40), then 47 decides.
        return _amount(s, s.in_front + d.amount, declared_raise=False, rules=("tda-de 40",))
    # RAISE
    if d.amount is not None:
        return _amount(s, d.amount, declared_raise=True, rules=("tda-de 40", "tda-de 47"))
    if len(d.chips) == 1 and pushed > _call_amount(s):
        # 49: "raise" and one oversized chip: the most that chip allows.
        return _to(s, s.in_front + pushed, ("tda-de 49",))
    if d.chips:
        return _amount(s, s.in_front + pushed, declared_raise=True, rules=("tda-de 46",))
    return _to(s, _min_to(s), ("tda-de 42", "tda-de 54"), "'raise' alone: a minimum raise")


def _call_amount(s: Situation) -> int:
    return min(s.current_bet - s.in_front, s.stack)


def _min_to(s: Situation) -> int:
    return min(s.current_bet + s.last_raise if s.current_bet else s.big_blind, s.in_front + s.stack)


def _call(s: Situation, rules: tuple[str, ...], note: str = "") -> Interpretation:
    return Interpretation(Outcome.CALL, s.in_front + _call_amount(s), rules, note)


def _to(s: Situation, to: int, rules: tuple[str, ...], note: str = "") -> Interpretation:
    to = min(to, s.in_front + s.stack)
    if to <= s.current_bet:
        if s.current_bet > s.in_front:
            return _call(s, rules, note or "all the player has: a call")
        return Interpretation(Outcome.CHECK, s.in_front, rules, note)
    return Interpretation(Outcome.BET, to, rules, note)


def _amount(
    s: Situation, to: int, *, declared_raise: bool, rules: tuple[str, ...]
) -> Interpretation:
    """A total of `to` in front: call, full raise, or the 50 % standard in between."""
    all_in_to = s.in_front + s.stack
    if to >= all_in_to:
        return _to(s, all_in_to, (*rules, "tda-de 47"), "all-in")
    if to <= s.current_bet:
        if s.current_bet > s.in_front:
            if to < s.current_bet:
                if declared_raise:
                    return _to(
                        s, _min_to(s), (*rules, "tda-de 42"), "'raise' binds: a minimum raise"
                    )
                if s.facing_all_in:
                    return _call(
                        s, (*rules, "tda-de 45"), "facing an all-in, chips short of it are a call"
                    )
                return Interpretation(
                    Outcome.COMPLETE_OR_FOLD,
                    s.in_front,
                    (*rules, "tda-de 42"),
                    "an undercall: complete the call or fold; the chips put in stay in the pot",
                )
            return _call(s, rules)
        if declared_raise:
            return _to(s, _min_to(s), (*rules, "tda-de 54"), "raise: at least a minimum bet")
        return Interpretation(Outcome.CHECK, s.in_front, rules)
    full_to = _min_to(s)
    if to >= full_to:
        return Interpretation(Outcome.BET, to, (*rules, "tda-de 47"))
    if not s.current_bet:  # an opening bet below the big blind: made up to the minimum bet
        return Interpretation(Outcome.BET, full_to, (*rules, "tda-de 47"), "minimum bet")
    added = to - s.current_bet
    if declared_raise or 2 * added >= s.last_raise:
        return Interpretation(
            Outcome.BET, full_to, (*rules, "tda-de 47"), "completed to a full minimum raise"
        )
    return _call(s, (*rules, "tda-de 47"), "less than half a raise: a call")


def _for_change(r: Interpretation) -> Interpretation:
    """tda-de 60: chips put in silently for change count as put in. One oversized chip facing
    a bet stays a call (49) and gets its change; an undercall is no question of change."""
    if r.outcome == Outcome.COMPLETE_OR_FOLD or (
        r.outcome == Outcome.CALL and "tda-de 49" in r.rules
    ):
        return r
    note = "chips put in for change count as put in"
    return Interpretation(
        r.outcome, r.to, (*r.rules, "tda-de 60"), f"{r.note}; {note}" if r.note else note
    )


def _chips_only(s: Situation, chips: Sequence[int], rules: tuple[str, ...]) -> Interpretation:
    pushed = sum(chips)
    to = s.in_front + pushed
    facing = s.current_bet > s.in_front
    if facing and pushed < _call_amount(s):
        # 42 comes before 49 and 50: short of the call is an undercall, however many chips.
        return _amount(s, to, declared_raise=False, rules=rules)
    if len(chips) == 1 and facing and pushed > _call_amount(s):
        return _call(s, (*rules, "tda-de 49"), "one oversized chip without 'raise': a call")
    if len(chips) == 1 and not facing:
        return _to(s, to, (*rules, "tda-de 49"), "one chip, no bet to face: a bet of its value")
    if facing and len(chips) > 1 and to - min(chips) < s.current_bet:
        return _call(s, (*rules, "tda-de 50"), "every chip was needed for the call")
    return _amount(s, to, declared_raise=False, rules=(*rules, "tda-de 50"))
