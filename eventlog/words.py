"""One readable, translated line per event-log entry (the raw payload stays in the CSV), and the
pieces the apps' words share."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from core import figures
from eventlog.catalogue import KINDS, WORDS


def event_sentence(event: Any) -> str:
    """The history's line of an event-log row: its action's words, or the action's name when it
    has none or its payload is not what the words expect."""
    make = WORDS.get(event.action)
    payload = event.payload if isinstance(event.payload, dict) else {}
    if make is None:
        return str(event.action)
    try:
        return str(make(payload))
    except (KeyError, TypeError, ValueError):
        return str(event.action)


def action_groups(actions: list[str]) -> list[tuple[str, str]]:
    """The history filter's choices: one per kind of action present, named in words."""
    groups: dict[str, str] = {}
    for action in actions:
        prefix = action.split(".", 1)[0]
        name = str(KINDS.get(prefix, prefix))
        groups.setdefault(prefix, name)
    return sorted(((prefix + ".", name) for prefix, name in groups.items()), key=lambda g: g[1])


def table_suffix(p: dict[str, Any]) -> str:
    """ " · table 4" when the payload names a table."""
    return " · " + _("table %(t)s") % {"t": p["table"]} if p.get("table") else ""


def chip_figure(value: Any) -> str:
    """A chip figure from a stored payload, grouped the reader's way ("–" when missing)."""
    return figures.chips(value) if isinstance(value, int) else "–" if value is None else str(value)
