from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from core.errors import FloorError
from leagues.domain.formula import MAX_LENGTH
from leagues.models import Scoring
from leagues.services import scoring_check


class LeagueForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    public = forms.BooleanField(
        label=_("Public standings"),
        required=False,
        help_text=_("Anyone with the link may read the standings (public names only)."),
    )


class SeasonNewForm(forms.Form):
    name = forms.CharField(label=_("Season"), max_length=120)


class SeasonForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    scoring = forms.ChoiceField(
        label=_("Scoring"), choices=Scoring.choices, widget=forms.RadioSelect
    )
    formula = forms.CharField(
        label=_("Formula"),
        required=False,
        max_length=MAX_LENGTH,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_(
            "n field size, p place, b buy-in, k bounties won, h knock-outs, and the night's figures: players, pool, prize, itm, paid_places, buyins_in, rebuys_in, addons_in, rebuys, addons, paid; e.g. 9 * sqrt(n) / sqrt(p). One statement per line; name = … keeps a value, the last line is the points; IF(p <= 3, 10, 0)."
        ),
    )
    table_text = forms.CharField(
        label=_("Points table"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Points of 1st, 2nd, … place; one line per field size, e.g. 10-14: 50 30 20"),
    )
    best_n = forms.IntegerField(
        label=_("Results counted (best N)"),
        required=False,
        min_value=1,
        max_value=1000,  # within the column (a 20-digit number was a 500)
        help_text=_("Empty: every result counts."),
    )
    participation = forms.DecimalField(
        label=_("Points per tournament played"),
        required=False,
        max_digits=8,
        decimal_places=2,
        initial=0,
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            scoring_check(
                scoring=data.get("scoring", ""),
                formula=data.get("formula", ""),
                table_text=data.get("table_text", ""),
                best_n=data.get("best_n"),
                participation=data.get("participation") or 0,
            )
        except FloorError as exc:
            self.add_error(exc.field, str(exc))
        return data
