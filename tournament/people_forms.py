"""The forms of a person's record and the club's settings. They type the input; the rules
(lengths, the plausible year of birth, a membership number held once) are the service's
(tournament/services/people.py), so the API and the pages refuse the same values."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from tournament.domain.countries import country_choices
from tournament.models import Player
from tournament.services.people import DIRECTOR_FIELDS, FLOOR_FIELDS


class PersonForm(forms.Form):
    name = forms.CharField(label=_("Full name"), max_length=120)
    display_name = forms.CharField(
        label=_("Display name"),
        max_length=60,
        required=False,
        help_text=_("What public pages show. Empty: first name and initial."),
    )
    membership_number = forms.CharField(
        label=_("Membership number"),
        max_length=40,
        required=False,
        help_text=_("The club's number for a member; each number belongs to one person."),
    )
    country = forms.ChoiceField(
        label=_("Country"),
        required=False,
        help_text=_("Published with the results, for results databases."),
    )
    needs_accessible_seat = forms.BooleanField(label=_("Needs an accessible seat"), required=False)
    birth_year = forms.IntegerField(
        label=_("Year of birth"),
        required=False,
        min_value=1,
        max_value=9999,
        help_text=_("Only to tell two people of the same name apart."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "maxw-160px"}),
    )
    email = forms.CharField(label=_("E-mail"), max_length=254, required=False)
    phone = forms.CharField(label=_("Phone"), max_length=40, required=False)
    notes = forms.CharField(
        label=_("Notes"), max_length=2000, required=False, widget=forms.Textarea(attrs={"rows": 3})
    )

    def __init__(self, *args: Any, director: bool, player: Player, **kwargs: Any) -> None:
        kwargs["initial"] = {f: getattr(player, f) for f in FLOOR_FIELDS + DIRECTOR_FIELDS}
        super().__init__(*args, **kwargs)
        self.fields["name"].widget.attrs["autocomplete"] = "off"
        country = self.fields["country"]
        assert isinstance(country, forms.ChoiceField)
        country.choices = [("", "—"), *country_choices(get_language() or "en")]
        self.fields["email"].widget.input_type = "email"
        self.fields["phone"].widget.attrs["inputmode"] = "tel"  # type text: styled as the others
        if not director:  # contact data and the year of birth: directors only
            for name in DIRECTOR_FIELDS:
                del self.fields[name]

    def changes(self) -> dict[str, Any]:
        """The values to hand to the service: every field this form shows."""
        return {name: self.cleaned_data.get(name) for name in self.fields}


class ClubForm(forms.Form):
    name = forms.CharField(label=_("Club name"), max_length=120, required=False)
    public_profiles = forms.BooleanField(
        label=_("Public player profiles"),
        required=False,
        help_text=_(
            "Anyone may open a player's profile: the display name and the results of the last "
            "days the public pages name players for. Never the full name, contact data, the "
            "membership number or the year of birth."
        ),
    )
