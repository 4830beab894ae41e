"""Forms of the console. Money is typed as 12,50 or 12.50 and stored as cents."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from core.domain.money import MoneyError, parse_money
from core.errors import FloorError
from rules_engine.domain.rulesets import version_in_force, versions
from tournament.domain.ledger import PURCHASE_METHODS
from tournament.domain.settings_rules import MONEY_FIELDS
from tournament.models import (
    TOURNAMENT_SETTINGS,
    ChipSet,
    Game,
    PaymentMethod,
    Ruleset,
    Structure,
    Tournament,
)
from tournament.services.tournaments import default_final_table_size


class MoneyField(forms.CharField):
    """A money amount typed by a person, cleaned to integer minor units."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.widget.attrs.setdefault("maxlength", "20")
        self.widget.attrs.setdefault("inputmode", "decimal")
        self.widget.attrs.setdefault("class", "money")

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, int):
            return f"{value // 100}.{value % 100:02d}" if value % 100 else str(value // 100)
        return value

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        text = super().to_python(value)
        if not text:
            return None
        if len(text) > 20:
            raise forms.ValidationError(_("Enter an amount such as 50 or 12.50."), code="money")
        try:
            return parse_money(text)
        except MoneyError as exc:
            raise forms.ValidationError(
                _("Enter an amount such as 50 or 12.50."), code="money"
            ) from exc


class PercentField(forms.CharField):
    """A percentage typed by a person ("2.5", "2,5", "3"), cleaned to hundredths of a percent."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.widget.attrs.setdefault("maxlength", "6")
        self.widget.attrs.setdefault("inputmode", "decimal")

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, int):
            whole, part = divmod(value, 100)
            return f"{whole}.{part:02d}".rstrip("0").rstrip(".") if part else str(whole)
        return value

    def to_python(self, value: Any) -> int | None:  # type: ignore[override]
        text = (super().to_python(value) or "").strip().rstrip("%").strip().replace(",", ".")
        if not text:
            return None
        whole, _dot, part = text.partition(".")
        if (
            not (whole.isascii() and whole.isdigit())
            or len(whole) > 3
            or (part and (not (part.isascii() and part.isdigit()) or len(part) > 2))
        ):
            raise forms.ValidationError(_("Enter a percentage such as 3 or 2.5."), code="percent")
        return int(whole) * 100 + int((part + "00")[:2])


# The money fields of a tournament: one list, with the rules (tournament/domain/settings_rules.py).
TOURNAMENT_MONEY = MONEY_FIELDS


# Levels are playing levels: breaks are not counted (tournament/domain/levels.py). A setting
# "until level N" holds through level N and the break right after it.
UNTIL_LEVEL_HELP = {
    "late_registration_until_level": _(
        "Level number (breaks not counted): open through this level and the break right after "
        "it. Empty: closes when the clock starts."
    ),
    "reentry_until_level": _(
        "Level number (breaks not counted). Empty: as late registration, never longer."
    ),
    "rebuy_until_level": _(
        "Level number (breaks not counted), the break right after it included. Empty: no limit."
    ),
    "addon_until_level": _(
        "Level number (breaks not counted), the break right after it included. Empty: no limit."
    ),
}


# The shot clock and time-bank settings (docs/seating.md "Shot clock and time banks").
SHOT_CLOCK_HELP = {
    "shot_clock_seconds": _(
        "From 10 to 120 seconds. Neither rulebook sets a shot clock; the clock called on a "
        "player (tda-de 29, bdpv NL 12) works beside it."
    ),
    "time_bank_cards": _("Each card adds its seconds to a running shot clock. 0: no cards."),
    "time_bank_seconds": _("From 10 to 300 seconds."),
    "time_bank_reset": _("A director starts a new day from the seating chart."),
}


def ruleset_version_field(ruleset_id: str) -> forms.ChoiceField:
    """The versions the registry holds for the ruleset, newest first."""
    held = list(reversed(versions(ruleset_id)))
    return forms.ChoiceField(
        label=_("Ruleset version"),
        choices=[
            (v, _("%(version)s (newest)") % {"version": v} if i == 0 else v)
            for i, v in enumerate(held)
        ],
        help_text=_("Kept when a newer version comes out. Another ruleset starts at its newest."),
        required=False,
    )


class TournamentForm(forms.ModelForm):
    buy_in = MoneyField(label=_("Buy-in (to the prize pool)"))
    fee = MoneyField(label=_("Fee"), required=False)
    guarantee = MoneyField(label=_("Guaranteed prize pool"), required=False)
    withholding_bp = PercentField(
        label=_("Staff fee withheld from the prize pool (percent)"),
        required=False,
        help_text=_("Taken from the players' contributions before payouts; the house keeps it."),
    )
    house_contribution = MoneyField(
        label=_("House contribution to the prize pool"),
        required=False,
        help_text=_("Added to the prize pool by the house."),
    )
    rebuy_price = MoneyField(label=_("Rebuy price"), required=False)
    rebuy_fee = MoneyField(label=_("Rebuy fee"), required=False)
    addon_price = MoneyField(label=_("Add-on price"), required=False)
    addon_fee = MoneyField(label=_("Add-on fee"), required=False)
    payout_unit = MoneyField(label=_("Round payouts to"), required=False)
    bounty = MoneyField(label=_("Bounty per entry (part of the buy-in)"), required=False)
    satellite_seat_value = MoneyField(
        label=_("Satellite: seat value"),
        required=False,
        help_text=_("Leave empty for a normal tournament. The pool then pays seats of this value."),
    )
    starts_at = forms.DateTimeField(
        label=_("Start time"),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )

    class Meta:
        model = Tournament
        fields = [f for f in TOURNAMENT_SETTINGS if f != "ruleset_version"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            # The settings pick a version; a new tournament takes the newest of its ruleset.
            ruleset_id = self.instance.ruleset
            self.fields["ruleset_version"] = ruleset_version_field(ruleset_id)
            self.initial["ruleset_version"] = version_in_force(
                ruleset_id, self.instance.ruleset_version
            )
        for name, help_text in UNTIL_LEVEL_HELP.items():
            if name in self.fields:
                self.fields[name].help_text = help_text
        for name in ("balance_tolerance", "break_order", "bounty_kind", "final_table_size"):
            if name in self.fields:
                self.fields[name].required = False
        for name, help_text in SHOT_CLOCK_HELP.items():
            if name in self.fields:
                self.fields[name].required = False
                self.fields[name].help_text = help_text
        if "final_table_size" in self.fields:
            self.fields["final_table_size"].help_text = _(
                "Empty: one full table, as many seats as a table has (at most 10)."
            )
            if self.instance.pk is None and "final_table_size" not in (kwargs.get("initial") or {}):
                # A new tournament's final table follows its seats per table (tda-de 11): the
                # field starts empty, as its help says, not with the model's default of 9
                # (which the form field takes as its own initial value), so a 6-max event made
                # with the page's defaults gets a final table of 6, as through the API.
                self.initial.pop("final_table_size", None)
                self.fields["final_table_size"].initial = None

    def show_until_texts(self, texts: dict[str, str]) -> None:
        """Say beside each "until level" setting when it closes as the tournament stands now
        ("until the end of level 6, about 21:40"), from the saved settings."""
        for name, text in texts.items():
            if name in self.fields and text:
                self.fields[name].help_text = _("%(rule)s Now: %(outlook)s.") % {
                    "rule": UNTIL_LEVEL_HELP.get(name, ""),
                    "outlook": text,
                }

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if "balance_tolerance" in self.fields and not data.get("balance_tolerance"):
            data["balance_tolerance"] = 1
        if "break_order" in self.fields and not data.get("break_order"):
            data["break_order"] = "highest"
        if "bounty_kind" in self.fields and not data.get("bounty_kind"):
            data["bounty_kind"] = "none"
        for name in SHOT_CLOCK_HELP:
            # Left empty: the default (30 s per decision, two cards of 30 s, back each day
            # and at the final table).
            if name in self.fields and data.get(name) in (None, ""):
                data[name] = Tournament._meta.get_field(name).get_default()  # type: ignore[union-attr]
        if "final_table_size" in self.fields and not data.get("final_table_size"):
            data["final_table_size"] = default_final_table_size(data.get("seats_per_table"))
        for name in TOURNAMENT_MONEY:
            if data.get(name) is None and name in self.fields:
                data[name] = 100 if name == "payout_unit" else 0
        if "withholding_bp" in self.fields and data.get("withholding_bp") is None:
            data["withholding_bp"] = 0
        return data

    def clean_currency(self) -> str:
        # People type "eur"; the code is kept in upper case (ISO 4217).
        return str(self.cleaned_data.get("currency") or "").strip().upper()

    def values(self) -> dict[str, Any]:
        values = {k: self.cleaned_data[k] for k in self.Meta.fields}
        # A version picked goes along; otherwise it is kept, or a new ruleset starts at its newest.
        if "ruleset_version" in self.changed_data and self.cleaned_data.get("ruleset_version"):
            values["ruleset_version"] = self.cleaned_data["ruleset_version"]
        return values


class NewTournamentForm(TournamentForm):
    structure = forms.ModelChoiceField(
        queryset=Structure.objects.filter(is_template=True),
        label=_("Blind structure"),
        empty_label=None,
    )
    chip_set = forms.ModelChoiceField(
        queryset=ChipSet.objects.all(), label=_("Chip set"), empty_label=None
    )


class RegisterForm(forms.Form):
    name = forms.CharField(label=_("Full name"), max_length=120)
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=60,
        required=False,
        help_text=_("Shown on public pages. Empty: first name and initial."),
    )
    email = forms.EmailField(label=_("E-mail (private)"), required=False)
    phone = forms.CharField(label=_("Phone (private)"), max_length=40, required=False)
    method = forms.ChoiceField(
        label=_("Payment method"),
        choices=[(m, label) for m, label in PaymentMethod.choices if m in PURCHASE_METHODS],
        initial="cash",
        widget=forms.RadioSelect,
        error_messages={"required": _("Say how the buy-in was paid.")},
    )


class GenerateStructureForm(forms.Form):
    starting_stack = forms.IntegerField(label=_("Starting stack"), min_value=100)
    level_minutes = forms.IntegerField(
        label=_("Level length (minutes)"), min_value=1, max_value=180
    )
    target_hours = forms.DecimalField(
        label=_("Target duration (hours)"), min_value=0.5, max_value=72, decimal_places=1
    )
    break_every = forms.IntegerField(
        label=_("Break every … levels"), min_value=1, max_value=20, initial=4
    )
    break_minutes = forms.IntegerField(
        label=_("Break length (minutes)"), min_value=1, max_value=120, initial=15
    )
    big_blind_ante = forms.BooleanField(label=_("Big blind ante"), required=False, initial=True)


class ImportStructureForm(forms.Form):
    file = forms.FileField(label=_("JSON or CSV file"))


__all__ = [
    "Game",
    "GenerateStructureForm",
    "ImportStructureForm",
    "MoneyField",
    "NewTournamentForm",
    "RegisterForm",
    "Ruleset",
    "TournamentForm",
]


def entry_numbers(text: str) -> tuple[int, ...]:
    """Entry numbers typed as "12", "#12" or "12, 40"."""
    parts = [p for p in text.replace("#", " ").replace(",", " ").split() if p]
    if len(parts) > 9 or not all(p.isascii() and p.isdigit() and len(p) <= 9 for p in parts):
        raise FloorError(
            _("Enter who knocked a player out as entry numbers, such as 12 or 12, 40.")
        )
    return tuple(int(p) for p in parts)


def chips_or_none(text: str | None) -> int | None:
    """A stack typed at the desk or on a tablet: empty, or a whole number of chips."""
    text = (text or "").strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit() and len(text) <= 15):
        raise FloorError(_("Stacks are whole numbers of chips."))
    return int(text)
