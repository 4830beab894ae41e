"""The tournament's setting rules (tournament/domain/settings_rules.py) in the reader's words.

Forms, serializers, the model's `clean` and the services all come here, with the merged state:
`merged_values(tournament, changes)` is the stored row (or the model's defaults for a new one)
with the change laid over it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from django.apps import apps
from django.db import models
from django.utils.translation import gettext as _

from core import figures
from core.errors import FloorError
from tournament.domain.settings_rules import (
    CHOICES,
    TEXT_FIELDS,
    WHOLE_FIELDS,
    Problem,
    settings_problems,
)

if TYPE_CHECKING:  # the model's clean() calls these rules
    from tournament.models import Tournament

RULE_FIELDS = (*WHOLE_FIELDS, *TEXT_FIELDS, *CHOICES, "currency")


class SettingsBroken(FloorError):
    """A stored tournament whose settings break the rules (written before they were checked):
    its own numbers cannot be computed; every other tournament's pages still work."""

    status_code = 409


def problem_message(problem: Problem) -> str:
    code = problem.code
    if code == "range" and problem.fields[0] == "withholding_bp":
        return _(
            "Enter a percentage from 0 to 50 (the API takes hundredths of a percent: 0 to 5000)."
        )
    if code == "range":
        return _("Enter a whole number from %(low)s to %(high)s.") % {
            "low": figures.chips(problem.low or 0),
            "high": figures.chips(problem.high or 0),
        }
    messages = {
        "required": _("This field is required."),
        "whole_number": _("Enter a whole number."),
        "text": _("Enter text without control characters."),
        "too_long": _("At most %(n)s characters.") % {"n": problem.high},
        "choice": _("Choose one of the offered values."),
        "currency": _("Enter an ISO 4217 currency code such as EUR, CHF or USD."),
        "bounty_missing": _("Enter the bounty per entry."),
        "bounty_above_buy_in": _("The bounty is part of the buy-in and cannot exceed it."),
    }
    return str(messages.get(code, _("This value is not allowed.")))


def merged_values(tournament: Tournament | None, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The values the rules check: the stored row (or the defaults of a new tournament) with
    `changes` laid over it."""
    values: dict[str, Any] = {}
    for name in RULE_FIELDS:
        if tournament is not None:
            values[name] = getattr(tournament, name)
        else:
            field = apps.get_model("tournament", "Tournament")._meta.get_field(name)
            assert isinstance(field, models.Field)
            if field.has_default():
                values[name] = field.get_default()
            elif field.null:
                values[name] = None
    values.update({k: v for k, v in changes.items() if k in RULE_FIELDS})
    return values


def settings_errors(
    values: Mapping[str, Any], *, changed: Iterable[str] | None = None
) -> dict[str, list[str]]:
    """Field name -> messages for every rule `values` breaks. With `changed`, only the rules
    that read a changed field: a row stored before a rule existed can still be corrected one
    field at a time, and no change can break a rule."""
    touched = None if changed is None else set(changed)
    errors: dict[str, list[str]] = {}
    for problem in settings_problems(values):
        if touched is not None and not touched.intersection(problem.fields):
            continue
        errors.setdefault(problem.field, []).append(problem_message(problem))
    return errors


def settings_check(values: Mapping[str, Any], *, changed: Iterable[str] | None = None) -> None:
    """Raise FloorError (with the field) for the first rule `values` breaks."""
    for field, messages in settings_errors(values, changed=changed).items():
        raise FloorError(messages[0], field=field)
