"""The festivals' event-log actions (registered with live/catalogue.py and
eventlog/catalogue.py)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from eventlog.catalogue import declare_actions, declare_kinds, declare_words
from eventlog.words import chip_figure, table_suffix

declare_actions(
    {
        "chips.bag_confirm": "a second person confirmed bag counts (table, numbers)",
        "festival.create": "an event with starting flights was made (flights, policy)",
        "festival.bagging_open": "bag and tag began at the end of a day",
        "festival.bagging_close": "a director closed the day: survivors, chips, whether flags stood",
        "festival.bagging_reopen": "a director reopened a closed day before the Day-2 draw",
        "festival.day2_draw": "the Day 2 was drawn from the flights' bags (random or seeded, players, forfeited bags)",
    }
)


declare_words(
    {
        "chips.bag_confirm": lambda p: _("Bags confirmed by a second person")
        + table_suffix(p)
        + ": "
        + ", ".join(f"#{n}" for n in p.get("numbers", [])),
        "festival.create": lambda p: _("Event with %(n)s starting flights made")
        % {"n": len(p.get("flights", []))},
        "festival.bagging_open": lambda p: _("Bag and tag began (Day %(d)s, %(n)s players)")
        % {"d": p.get("day"), "n": p.get("players")},
        "festival.bagging_close": lambda p: _("Day %(d)s closed: %(n)s players bagged %(c)s chips")
        % {"d": p.get("day"), "n": p.get("survivors"), "c": chip_figure(p.get("chips"))}
        + (" · " + _("despite %(f)s flags") % {"f": p["flags"]} if p.get("flags") else ""),
        "festival.bagging_reopen": lambda p: _("Day %(d)s reopened: %(r)s")
        % {"d": p.get("day"), "r": p.get("reason", "")},
        "festival.day2_draw": lambda p: (
            _("Day 2 drawn, seeded: %(n)s players at %(t)s tables")
            if p.get("seeded")
            else _("Day 2 drawn at random: %(n)s players at %(t)s tables")
        )
        % {"n": p.get("players"), "t": p.get("tables")},
    }
)

declare_kinds(
    {
        "festival": gettext_lazy("Flights, bag and tag, Day 2"),
    }
)
