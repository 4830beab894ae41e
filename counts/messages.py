"""What chip counts say on the live feeds and in the event log (registered with live/catalogue.py and
eventlog/catalogue.py)."""

from __future__ import annotations

from typing import Any, TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from eventlog.catalogue import declare_actions, declare_kinds, declare_words
from eventlog.words import chip_figure, table_suffix
from live.catalogue import Audience, Message, declare


class CountsPayload(TypedDict):
    """Chip counts were recorded (counts/services.py). `version` is the count's event-log id, as
    a board's; `table` the table counted (None: single players). The counts pages fetch the
    public counts (kept once per version) spread over a few seconds: a whole field is not sent
    to every socket of the room."""

    version: int
    table: int | None
    counts: int


declare(
    Message(Audience.TOURNAMENT, "counts", CountsPayload, "chip counts were recorded"),
)

declare_actions(
    {
        "chips.count": "chip counts were recorded (table, source, numbers and counts, the count before)",
        "chips.bag": "bag counts were recorded at the end of a day (table, source, numbers, counts, bag numbers, whether a second count confirmed them)",
    }
)


def _chip_counts(p: dict[str, Any]) -> str:
    counts = p.get("counts", [])
    if len(counts) == 1 and "before" in counts[0]:
        c = counts[0]
        return _("Chip count of #%(n)s: %(count)s (was %(before)s)") % {
            "n": c.get("entry"),
            "count": chip_figure(c.get("count")),
            "before": chip_figure(c.get("before")),
        } + table_suffix(p)
    head = ngettext("%(n)s chip count recorded", "%(n)s chip counts recorded", len(counts)) % {
        "n": len(counts)
    }
    sample = ", ".join(f"#{c.get('entry')}: {chip_figure(c.get('count'))}" for c in counts[:4])
    return f"{head}{table_suffix(p)}: {sample}{' …' if len(counts) > 4 else ''}"


def _bags(p: dict[str, Any]) -> str:
    counts = p.get("counts", [])
    head = ngettext("%(n)s bag recorded", "%(n)s bags recorded", len(counts)) % {"n": len(counts)}
    confirmed = sum(1 for c in counts if c.get("confirmed"))
    if confirmed:
        head += " (" + _("%(n)s confirmed by a second count") % {"n": confirmed} + ")"
    sample = ", ".join(
        f"#{c.get('entry')}: {chip_figure(c.get('count'))} [{c.get('bag')}]" for c in counts[:4]
    )
    return f"{head}{table_suffix(p)}: {sample}{' …' if len(counts) > 4 else ''}"


declare_words(
    {
        "chips.count": lambda p: _chip_counts(p),
        "chips.bag": lambda p: _bags(p),
    }
)

declare_kinds(
    {
        "chips": gettext_lazy("Chips: colour-ups, counts and bags"),
    }
)
