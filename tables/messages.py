"""What the tables say on the live feeds (the dealer tablets, the console, a table's public page,
the draw) and their event-log actions (registered with live/catalogue.py)."""

from __future__ import annotations

from typing import TypedDict

from live.catalogue import Audience, Empty, Message, declare, declare_actions


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
