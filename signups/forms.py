"""The forms of the sign-up pages. The services check the names, the consent line and the
places; these forms only read what was typed."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from signups.models import SignUpSheet
from signups.services import PLACES_MOST


class SignUpForm(forms.Form):
    display_name = forms.CharField(
        label=_("Your name"),
        max_length=200,  # the service says what is too long, in the floor's words
        help_text=_("As it should appear on the list and on the screens."),
        widget=forms.TextInput(attrs={"autocomplete": "nickname", "maxlength": 60}),
    )
    email = forms.CharField(
        label=_("E-mail (optional)"),
        required=False,
        max_length=254,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    phone = forms.CharField(
        label=_("Phone (optional)"),
        required=False,
        max_length=40,
        widget=forms.TextInput(attrs={"type": "tel", "autocomplete": "tel"}),
    )
    consent = forms.BooleanField(
        label=_(
            "I agree that the club keeps my e-mail and phone number to tell me about this "
            "sign-up. Only the tournament directors see them; I can delete them at any time."
        ),
        required=False,
    )


class SheetForm(forms.Form):
    is_open = forms.BooleanField(label=_("Sign-ups open"), required=False)
    places = forms.IntegerField(
        label=pgettext_lazy("the seats of a tournament", "Places"),
        required=False,
        min_value=1,
        max_value=PLACES_MOST,
        help_text=_("Blank: the tournament's capacity, less the places held back."),
    )
    reserved = forms.IntegerField(
        label=_("Places held back (staff, invited players)"),
        min_value=0,
        max_value=PLACES_MOST,
        initial=0,
    )
    check_in_deadline = forms.DateTimeField(
        label=_("Check-in deadline"),
        required=False,
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_(
            "Sign-ups not checked in by then become no-shows; their places go to the list."
        ),
    )

    @classmethod
    def for_sheet(cls, sheet: SignUpSheet | None, data: Any = None) -> SheetForm:
        initial: dict[str, Any] = {"reserved": 0}
        if sheet is not None:
            initial = {
                "is_open": sheet.is_open,
                "places": sheet.places,
                "reserved": sheet.reserved,
                "check_in_deadline": timezone.localtime(sheet.check_in_deadline)
                if sheet.check_in_deadline
                else None,
            }
        return cls(data, initial=initial)
