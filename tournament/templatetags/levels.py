"""Level numbers and "until level N" settings in words (breaks are not levels)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from clocks.selectors import numbered as numbered_levels
from clocks.selectors import until_level_outlooks
from tournament.domain.levels import UntilLevel, playing_levels

register = template.Library()


def _clock_time(at: datetime | None, now: datetime | None = None) -> str:
    """21:40 today, or with the date when it falls on another day."""
    if at is None:
        return ""
    local = timezone.localtime(at)
    today = timezone.localtime(now or timezone.now()).date()
    if local.date() == today:
        return date_format(local, "H:i")
    return date_format(local, "SHORT_DATETIME_FORMAT")


def until_text(outlook: UntilLevel | None, *, levels_in_structure: int = 0) -> str:
    """When a setting such as late registration closes, in words: "until the end of level 6,
    about 21:40". Empty when there is nothing to say."""
    if outlook is None:
        return ""
    n = outlook.level
    if outlook.state == "at_start":
        return _("until the clock starts")
    if outlook.state == "no_limit":
        return _("no limit by level")
    if outlook.state == "closed":
        if not n:
            return _("closed since the clock started")
        return _("closed: level %(n)s is over") % {"n": n}
    if outlook.state == "open_to_the_end":
        return _(
            "until the end of level %(n)s: the structure has %(count)s levels, so the clock "
            "does not close it"
        ) % {"n": n, "count": levels_in_structure}
    time = _clock_time(outlook.closes_at)
    if outlook.with_break:
        return _("until the end of level %(n)s and the break after it, about %(time)s") % {
            "n": n,
            "time": time,
        }
    return _("until the end of level %(n)s, about %(time)s") % {"n": n, "time": time}


def until_texts(tournament: Any) -> dict[str, str]:
    """For each "until level" setting of the tournament, its outlook in words."""
    count = playing_levels([lv.is_break for lv in tournament.structure.levels.all()])
    offered = {
        "late_registration_until_level": True,
        "reentry_until_level": tournament.max_entries_per_player > 1,
        "rebuy_until_level": tournament.rebuys_max > 0,
        "addon_until_level": tournament.addons_max > 0,
    }
    texts = {
        field: until_text(outlook, levels_in_structure=count) if offered.get(field) else ""
        for field, outlook in until_level_outlooks(tournament).items()
    }
    # Closed whatever the level: by the floor, or by the tournament's stage (lifecycle rules).
    entries_closed = ""
    if tournament.registration_closed_at:
        entries_closed = _("closed by the floor")
    elif tournament.status in ("final_table", "finished"):
        entries_closed = _("closed")
    for field in ("late_registration_until_level", "reentry_until_level"):
        if entries_closed and texts.get(field):
            texts[field] = entries_closed
    if tournament.status == "finished":
        for field in ("rebuy_until_level", "addon_until_level"):
            if texts.get(field):
                texts[field] = _("closed")
    return texts


@register.simple_tag
def late_registration_text(tournament: Any) -> str:
    """Late registration's outlook in words, for the overview and the desk."""
    return until_texts(tournament).get("late_registration_until_level", "")


@register.filter
def numbered(levels: Any) -> list[Any]:
    """The levels with `number` (None for a break) and `after` (the level a break follows)."""
    return numbered_levels(list(levels))


# Event log sentences for level changes. Events recorded before the level's number was kept
# in the payload name the row of the structure instead.


def level_started_sentence(payload: dict[str, Any]) -> str:
    if payload.get("number"):
        return _("Level %(n)s started") % {"n": payload["number"]}
    return _("New level (row %(n)s)") % {"n": int(payload.get("level_index", 0)) + 1}


def break_started_sentence(payload: dict[str, Any]) -> str:
    if payload.get("after_level"):
        return _("Break after level %(n)s started") % {"n": payload["after_level"]}
    return _("Break started")


def jump_sentence(payload: dict[str, Any]) -> str:
    if payload.get("number"):
        return _("Jumped to level %(n)s") % {"n": payload["number"]}
    if payload.get("after_level"):
        return _("Jumped to the break after level %(n)s") % {"n": payload["after_level"]}
    return _("Jumped to level row %(n)s") % {"n": int(payload.get("level", 0)) + 1}
