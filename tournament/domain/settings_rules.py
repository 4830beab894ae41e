"""The rules a tournament's settings obey, checked on the whole set of values at once.

One home for them: the model's `clean`, the console forms, the API serializers and the
services all call `settings_problems`, always with the merged state (the stored row plus the
change), so no partial change can skip a rule that spans two fields.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pycountry

from core.domain.limits import INT_MAX, SMALL_MAX

# The shot clock's seconds per decision (tables/domain/shotclock.py).
SHOT_CLOCK_MIN_SECONDS = 10
SHOT_CLOCK_MAX_SECONDS = 120

MONEY_FIELDS = (
    "buy_in",
    "fee",
    "guarantee",
    "rebuy_price",
    "rebuy_fee",
    "addon_price",
    "addon_fee",
    "payout_unit",
    "bounty",
    "satellite_seat_value",
    "house_contribution",
)
# Whole-number fields and their bounds (None: the field may be empty).
WHOLE_FIELDS: dict[str, tuple[int, int]] = {
    **{name: (0, INT_MAX) for name in MONEY_FIELDS},
    "payout_unit": (1, INT_MAX),
    "starting_stack": (1, INT_MAX),
    "seats_per_table": (2, 10),
    "final_table_size": (2, 10),
    "capacity": (0, INT_MAX),
    "balance_tolerance": (1, 5),
    # Hundredths of a percent of the players' contributions (tournament/domain/ledger.py).
    "withholding_bp": (0, 5_000),
    "max_entries_per_player": (1, SMALL_MAX),
    "reentry_until_level": (0, SMALL_MAX),
    "late_registration_until_level": (0, SMALL_MAX),
    "rebuys_max": (0, SMALL_MAX),
    "rebuy_chips": (0, INT_MAX),
    "rebuy_until_level": (0, SMALL_MAX),
    "addons_max": (0, SMALL_MAX),
    "addon_chips": (0, INT_MAX),
    "addon_until_level": (0, SMALL_MAX),
    # More places than any field could pay is a typing error, not a payout plan.
    "places_paid": (1, 100_000),
    # Neither rulebook sets a shot clock (tda-de 29 and bdpv NL 12 give a called clock 60 s
    # plus a 10 s countdown and let the floor shorten it): below 10 s no decision can be
    # made, beyond 120 s it is no longer a shot clock.
    "shot_clock_seconds": (SHOT_CLOCK_MIN_SECONDS, SHOT_CLOCK_MAX_SECONDS),
    "time_bank_cards": (0, 20),
    "time_bank_seconds": (10, 300),
}
NULLABLE = {
    "capacity",
    "places_paid",
    "reentry_until_level",
    "late_registration_until_level",
    "rebuy_until_level",
    "addon_until_level",
}
TEXT_FIELDS = {"name": 120, "venue": 120, "satellite_target": 120}
CHOICES = {
    "bounty_kind": ("none", "fixed", "progressive"),
    "break_order": ("highest", "lowest"),
    "time_bank_reset": ("day_and_final_table", "day", "final_table", "never"),
}
# ISO 4217, as kept by the iso-codes project (through pycountry).
CURRENCIES = frozenset(c.alpha_3 for c in pycountry.currencies)


@dataclass(frozen=True)
class Problem:
    """One broken rule. `code` names it; `low`/`high` are the bounds for the range codes.

    `fields` are all the fields the rule reads (the first is where it is shown)."""

    fields: tuple[str, ...]
    code: str
    low: int | None = None
    high: int | None = None

    @property
    def field(self) -> str:
        return self.fields[0]


def is_currency(code: object) -> bool:
    """True for a current ISO 4217 code in upper case, such as EUR."""
    return isinstance(code, str) and code in CURRENCIES


def settings_problems(values: Mapping[str, Any]) -> tuple[Problem, ...]:
    """Every rule `values` breaks. A field missing from `values` is not checked, so pass the
    merged state (stored row plus change) when a tournament is changed."""
    problems: list[Problem] = []
    for name, (low, high) in WHOLE_FIELDS.items():
        if name not in values:
            continue
        value = values[name]
        if value is None:
            if name not in NULLABLE:
                problems.append(Problem((name,), "required"))
        elif not isinstance(value, int) or isinstance(value, bool):
            problems.append(Problem((name,), "whole_number"))
        elif not low <= value <= high:
            problems.append(Problem((name,), "range", low, high))
    for name, longest in TEXT_FIELDS.items():
        text = values.get(name)
        if text is None:
            continue
        if not isinstance(text, str) or "\x00" in text:
            problems.append(Problem((name,), "text"))
        elif len(text) > longest:
            problems.append(Problem((name,), "too_long", None, longest))
    if "name" in values and not str(values["name"] or "").strip():
        problems.append(Problem(("name",), "required"))
    for name, allowed in CHOICES.items():
        if name in values and values[name] not in allowed:
            problems.append(Problem((name,), "choice"))
    if "currency" in values and not is_currency(values["currency"]):
        problems.append(Problem(("currency",), "currency"))
    problems.extend(_bounty_problems(values))
    return tuple(problems)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _bounty_problems(values: Mapping[str, Any]) -> list[Problem]:
    kind = values.get("bounty_kind")
    if kind not in ("fixed", "progressive") or "bounty" not in values:
        return []
    bounty = values["bounty"]
    if not _whole(bounty):
        return []  # reported as a whole-number problem above
    if bounty <= 0:
        return [Problem(("bounty", "bounty_kind"), "bounty_missing")]
    buy_in = values.get("buy_in")
    if _whole(buy_in) and bounty > buy_in:
        # The bounty is taken out of the buy-in: more than all of it leaves a negative pool.
        return [Problem(("bounty", "buy_in", "bounty_kind"), "bounty_above_buy_in")]
    return []
