"""How old a count is, in the floor's words: "just now", "12 min ago", "2 h 5 min ago"."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.utils import timezone
from django.utils.translation import gettext as _

register = template.Library()


@register.filter
def count_age(at: datetime | None, now: Any = None) -> str:
    if at is None:
        return ""
    minutes = int(((now or timezone.now()) - at).total_seconds() // 60)
    if minutes < 1:
        return _("just now")
    if minutes < 60:
        return _("%(m)s min ago") % {"m": minutes}
    return _("%(h)s h %(m)s min ago") % {"h": minutes // 60, "m": minutes % 60}
