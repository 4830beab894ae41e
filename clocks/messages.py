"""What the clock says on the live feeds (its state, levels, announcements) and its event-log
actions (registered with live/catalogue.py and
eventlog/catalogue.py)."""

from __future__ import annotations

from typing import Any, TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from eventlog.catalogue import declare_actions, declare_kinds, declare_words
from live.catalogue import Audience, Message, declare
from tournament.templatetags import levels


class AnnouncePayload(TypedDict):
    """A spoken announcement from the floor (clocks/announcements.py): table breaks and moves,
    hand-for-hand, the bubble, the final table, a test. `texts` holds the words in each
    language, placeholders filled; a screen that speaks (`?sound=1`) says its own language's.
    `params` the whole-number figures of the words, for the recorded fallback of a screen without
    a voice (clocks/audio_views.py: only a known kind and its own figures make a clip)."""

    kind: str
    texts: dict[str, str]
    params: dict[str, int]


class SpeechPayload(TypedDict):
    """What a screen that speaks needs to work out the clock's announcements itself changed
    (clocks/announcements.py): `texts` the venue's words of the clock's announcements in each
    language, `late_until` the last level of late registration (None: none, or closed by hand).
    Sent to the tournaments still to be played when a director edits the texts, and to one
    tournament when its registration is closed or reopened by hand or its late-registration
    level changes; the screens take it without a reload."""

    texts: dict[str, dict[str, str]]
    late_until: int | None


class ClockPayload(TypedDict):
    """The clock's state (clocks/services.py clock_payload); screens count down from
    `ends_at_ms` with their estimate of the server clock. Levels as in LevelRow, with `index`."""

    tournament: int
    started: bool
    running: bool
    stopped: bool
    level: dict[str, Any] | None
    next: dict[str, Any] | None
    remaining_ms: int
    ends_at_ms: int | None
    seconds_to_break: int | None
    on_last_level: bool
    server_ms: int


declare(
    Message(
        Audience.TOURNAMENT,
        "clock",
        ClockPayload,
        "a clock command: start, pause, adjust",
        latest_wins=True,
    ),
    Message(Audience.TOURNAMENT, "level", ClockPayload, "a level or break began (the ticker)"),
    Message(Audience.TOURNAMENT, "announce", AnnouncePayload, "a spoken announcement"),
    Message(
        Audience.TOURNAMENT,
        "speech",
        SpeechPayload,
        "the clock's announcement texts or the end of late registration changed",
    ),
)

declare_actions(
    {
        "clock.start": "the clock started",
        "clock.pause": "the clock paused",
        "clock.resume": "the clock resumed",
        "clock.stop": "the clock stopped (the end)",
        "clock.reopen": "the clock is back, paused (a reopen)",
        "clock.add": "time added or taken",
        "clock.set_remaining": "the time left was set",
        "clock.jump": "the clock jumped to another level",
        "clock.level": "a level began",
        "clock.break": "a break began",
        "announcements.edit": "a venue's announcement texts changed (language, kinds)",
        "announcements.test": "a test announcement was sent to the screens",
    }
)


def _mmss(seconds: Any) -> str:
    s = abs(int(seconds or 0))
    return f"{s // 60}:{s % 60:02d}"


declare_words(
    {
        "clock.start": lambda p: _("Clock started"),
        "clock.pause": lambda p: _("Clock paused"),
        "clock.resume": lambda p: _("Clock resumed"),
        "clock.stop": lambda p: _("Clock stopped: the tournament has ended"),
        "clock.reopen": lambda p: _("Clock back, paused: the tournament was reopened"),
        "clock.add": lambda p: (
            _("Clock +%(t)s") if int(p.get("seconds") or 0) >= 0 else _("Clock −%(t)s")
        )
        % {"t": _mmss(p.get("seconds"))},
        "clock.set_remaining": lambda p: _("Time set to %(t)s") % {"t": _mmss(p.get("seconds"))},
        "clock.jump": lambda p: levels.jump_sentence(p),
        "clock.level": lambda p: levels.level_started_sentence(p),
        "clock.break": lambda p: levels.break_started_sentence(p),
        "announcements.edit": lambda p: _("Announcement texts changed (%(lang)s): %(n)s")
        % {"lang": p.get("language", ""), "n": len(p.get("kinds", []))},
        "announcements.test": lambda p: _("Test announcement sent to the screens"),
    }
)

declare_kinds(
    {
        "clock": gettext_lazy("Clock"),
        "announcements": gettext_lazy("Spoken announcements"),
    }
)
