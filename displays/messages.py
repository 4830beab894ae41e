"""What the display manager says to its screens and in the event log (registered with
live/catalogue.py)."""

from __future__ import annotations

from typing import TypedDict

from live.catalogue import Audience, Empty, Message, declare, declare_actions


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
