"""What the display manager says to its screens and in the event log (registered with live/catalogue.py and
eventlog/catalogue.py)."""

from __future__ import annotations

from typing import TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from eventlog.catalogue import declare_actions, declare_kinds, declare_words
from live.catalogue import Audience, Empty, Message, declare


class DisplayView(TypedDict):
    """One step of what a screen shows: the page it frames and for how long (displays/)."""

    kind: str
    url: str
    seconds: int
    # A clock that speaks: the screen keeps its page running between its turns of a rotation,
    # so it announces a level change that comes while another view is shown.
    sound: bool


class DisplayAssignment(TypedDict):
    """What a paired screen shows now; one view, or several that rotate. `version` grows with
    every assignment, so a screen ignores an older one."""

    display: int
    name: str
    paired: bool
    version: int
    views: list[DisplayView]


declare(
    Message(
        Audience.DISPLAY,
        "assignment",
        DisplayAssignment,
        "paired, or shown another view",
        latest_wins=True,
    ),
    Message(Audience.DISPLAY, "removed", Empty, "the screen was removed: it shows a new code"),
)

declare_actions(
    {
        "display.pair": "a screen was paired (display, name)",
        "display.assign": "a screen was given what to show (display, views)",
        "display.rename": "a screen was renamed (display, name)",
        "display.remove": "a screen was removed (display, name)",
        "layout.save": "a clock layout was saved (venue or tournament, layout, figures, colours, logo)",
        "layout.reset": "a tournament's own clock layout was dropped (the venue's applies)",
    }
)


declare_words(
    {
        "display.pair": lambda p: _("Screen “%(name)s” paired") % {"name": p.get("name", "")},
        "display.assign": lambda p: _("Screen “%(name)s” now shows: %(views)s")
        % {"name": p.get("name", ""), "views": ", ".join(p.get("views", [])) or "–"},
        "display.rename": lambda p: _("Screen renamed to “%(name)s”") % {"name": p.get("name", "")},
        "display.remove": lambda p: _("Screen “%(name)s” removed") % {"name": p.get("name", "")},
        "layout.save": lambda p: (
            _("The venue's clock layout saved: %(layout)s, %(figures)s")
            if p.get("venue")
            else _("Clock layout saved: %(layout)s, %(figures)s")
        )
        % {"layout": p.get("layout", ""), "figures": ", ".join(p.get("figures", [])) or "–"},
        "layout.reset": lambda p: _(
            "The tournament's own clock layout dropped: the venue's applies"
        ),
    }
)

declare_kinds(
    {
        "display": gettext_lazy("Screens"),
        "layout": gettext_lazy("Clock layouts"),
    }
)
