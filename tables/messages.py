"""What the tables say on the live feeds (the dealer tablets, the console, a table's public page,
the draw) and their event-log actions (registered with live/catalogue.py and
eventlog/catalogue.py)."""

from __future__ import annotations

from typing import Any, TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from eventlog.catalogue import declare_actions, declare_kinds, declare_words
from live.catalogue import Audience, Empty, Message, declare


class SeatingPayload(TypedDict):
    """The draw is out (or redone): each phone asks once for its seat, spread over a few
    seconds (one draw of thousands is not sent as thousands of messages)."""

    draw: bool


class HandForHandPayload(TypedDict):
    on: bool
    round: int


class TableView(TypedDict):
    """A dealer tablet's whole table, rendered in the language of the tablets it goes to
    (`html`: language -> fragment; one message per language a tablet of the table uses,
    tables/live.py)."""

    table: int
    html: dict[str, str]
    hand_level: int


class PublicSeat(TypedDict):
    n: int
    name: str | None


class PublicTableView(TypedDict):
    """Who sits at one table, as its public page shows (the QR on the table card): display
    names, or initials once the results are old (docs/players.md); `name` None is an empty seat.
    `version` orders views as a board's does (the tournament's latest event-log row, read before
    the seats)."""

    version: int
    table: int
    open: bool
    seats: list[PublicSeat]


class TablesChanged(TypedDict):
    """The tables whose seats, button or hand changed; the console re-renders only these.
    `all` when the whole chart changed (a draw, a redraw)."""

    tables: list[int]
    all: bool


class ShotClockPayload(TypedDict):
    """A table's shot clock for the seating chart (tables/services/shotclock.py): when the
    running decision ends (None: idle) and its seconds, time-bank cards included. `version`
    counts the clock's changes: the chart keeps the newest of what it rendered and what came
    on its socket (a card fetched before a change may arrive after it)."""

    table: int
    ends_ms: int | None
    seconds: int
    version: int


class ReportPayload(TypedDict, total=False):
    table: int
    resolved: int


declare(
    Message(Audience.TOURNAMENT, "seating", SeatingPayload, "seats were drawn"),
    Message(Audience.TOURNAMENT, "h4h", HandForHandPayload, "hand-for-hand on, off, next"),
    Message(
        Audience.TABLE,
        "table",
        TableView,
        "seats, button, hand, a time call, a penalty",
        latest_wins=True,
    ),
    Message(Audience.TABLE, "table_closed", Empty, "the table was broken: tablets close"),
    Message(Audience.CONSOLE, "seating", TablesChanged, "seats, buttons or hands changed"),
    Message(Audience.CONSOLE, "report", ReportPayload, "a dealer report came or was handled"),
    Message(Audience.CONSOLE, "shot_clock", ShotClockPayload, "a table's shot clock changed"),
    Message(Audience.DEALER, "revoked", Empty, "the table's dealer link was renewed"),
    Message(
        Audience.PUBLIC_TABLE,
        "seats",
        PublicTableView,
        "who sits at the table changed",
        latest_wins=True,
    ),
)

declare_actions(
    {
        "tables.open": "tables were opened",
        "seats.draw": "seats were drawn",
        "seats.redraw": "all seats were redrawn",
        "seat.assign": "one player was seated",
        "seats.balance": "players were moved to balance",
        "seats.break": "a table was broken",
        "seats.final": "the final table was drawn",
        "seats.move": "the floor moved players",
        "seats.undo_moves": "moves were undone",
        "seats.undo": "moves were undone",
        "table.close": "a table was closed",
        "table.button": "a table's button was set",
        "table.hand": "a hand was done",
        "table.report_bust": "a tablet reported a bust",
        "table.report_resolve": "a dealer report was handled",
        "table.call_floor": "a tablet called the floor",
        "table.tablet_conflict": "an action a tablet kept offline was not applied (what, reason)",
        "table.time_call": "the clock was called on a player",
        "table.time_call_cancel": "a clock call was stopped",
        "table.token_renew": "a table got a new dealer link",
        "table.time_bank": "a player used a time-bank card (table, seat, entry, seconds, left)",
        "time_bank.reset": "the time-bank cards came back (a new day, the final table)",
        "h4h.set": "hand-for-hand on or off",
        "h4h.next": "hand-for-hand: the next hand",
    }
)


def _moves(p: dict[str, Any]) -> str:
    moves = p.get("moves", [])
    head = ngettext("%(n)s player moved", "%(n)s players moved", len(moves)) % {"n": len(moves)}
    sample = ", ".join(
        f"{m.get('from_table')}/{m.get('from_seat')} → {m.get('to_table')}/{m.get('to_seat')}"
        for m in moves[:3]
    )
    return f"{head}: {sample}{' …' if len(moves) > 3 else ''}" if moves else head


declare_words(
    {
        "tables.open": lambda p: ngettext(
            "%(n)s table opened", "%(n)s tables opened", len(p.get("numbers", []))
        )
        % {"n": len(p.get("numbers", []))},
        "seats.draw": lambda p: _("Seats drawn for %(n)s players") % {"n": p.get("seated")},
        "seats.redraw": lambda p: _("All seats redrawn (%(n)s players)") % {"n": p.get("seated")},
        "seat.assign": lambda p: (
            _("#%(e)s seated at table %(t)s seat %(s)s")
            if p.get("number")
            else _("Player seated at table %(t)s seat %(s)s")
        )
        % {"e": p.get("number"), "t": p.get("table"), "s": p.get("seat")},
        "seats.balance": lambda p: _("Balancing") + ": " + _moves(p),
        "seats.break": lambda p: (
            _("Table %(t)s broken") % {"t": p["table"]} if "table" in p else _("Table broken")
        )
        + ": "
        + _moves(p),
        "seats.final": lambda p: _("Final table drawn") + ": " + _moves(p),
        "seats.move": lambda p: _("Moved by the floor") + ": " + _moves(p),
        "seats.undo_moves": lambda p: _("Moves undone") + ": " + _moves(p),
        "seats.undo": lambda p: _("Moves undone"),
        "table.close": lambda p: _("Table %(t)s closed") % {"t": p.get("table")},
        "table.button": lambda p: _("Table %(t)s: button on seat %(s)s")
        % {"t": p.get("table"), "s": p.get("button")},
        "table.hand": lambda p: _("Table %(t)s: hand %(h)s done")
        % {"t": p.get("table"), "h": p.get("hand")},
        "table.report_bust": lambda p: _("Table %(t)s reports a bust in seat %(s)s")
        % {"t": p.get("table"), "s": p.get("seat")},
        "table.report_resolve": lambda p: _("Dealer report handled"),
        "table.call_floor": lambda p: _("Table %(t)s calls the floor") % {"t": p.get("table")},
        "table.tablet_conflict": lambda p: _(
            "Table %(t)s: not applied from the tablet: %(what)s: %(why)s"
        )
        % {"t": p.get("table"), "what": p.get("what"), "why": p.get("reason")},
        "table.time_call": lambda p: _("Table %(t)s: clock called on seat %(s)s")
        % {"t": p.get("table"), "s": p.get("seat") or "–"},
        "table.time_call_cancel": lambda p: _("Table %(t)s: clock call stopped")
        % {"t": p.get("table")},
        "table.token_renew": lambda p: _("Table %(t)s: new dealer link") % {"t": p.get("table")},
        "table.time_bank": lambda p: _(
            "Table %(t)s: #%(e)s in seat %(s)s used a time-bank card (+%(n)s s, %(left)s left)"
        )
        % {
            "t": p.get("table"),
            "e": p.get("entry"),
            "s": p.get("seat"),
            "n": p.get("seconds"),
            "left": p.get("left"),
        },
        "time_bank.reset": lambda p: _("Time-bank cards are back (new day)")
        if p.get("occasion") == "day"
        else _("Time-bank cards are back (final table)"),
        "h4h.set": lambda p: _("Hand-for-hand on") if p.get("on") else _("Hand-for-hand off"),
        "h4h.next": lambda p: _("Hand-for-hand: next hand"),
    }
)

declare_kinds(
    {
        "tables": gettext_lazy("Tables opened"),
        "seats": gettext_lazy("Draws and moves"),
        "seat": gettext_lazy("Seats given"),
        "table": gettext_lazy("Dealer tablets"),
        "time_bank": gettext_lazy("Time-bank cards back"),
        "h4h": gettext_lazy("Hand-for-hand"),
    }
)
