"""The rules engine's event-log actions (registered with live/catalogue.py and
eventlog/catalogue.py)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from eventlog.catalogue import declare_actions, declare_kinds, declare_words
from eventlog.words import table_suffix

declare_actions(
    {
        "ruling.record": "a ruling was recorded",
        "penalty.give": "a penalty was given",
        "chips.colour_up": "a colour-up was recorded",
    }
)


declare_words(
    {
        "ruling.record": lambda p: _("Ruling recorded") + table_suffix(p),
        "penalty.give": lambda p: _("Penalty for #%(n)s") % {"n": p.get("entry")} + table_suffix(p),
        "chips.colour_up": lambda p: _("Colour-up recorded") + table_suffix(p),
    }
)

declare_kinds(
    {
        "ruling": gettext_lazy("Rulings"),
        "penalty": gettext_lazy("Penalties"),
    }
)
