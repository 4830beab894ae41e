"""The event catalogue: every live message and every event-log action, declared once.

A live message goes to one audience (a websocket group kind, live/realtime.py) under a
name, with a payload whose type is declared here. Payloads carry what the screens show, so a
screen applies them and makes no request because of an event:

- the tournament's audience (big screen, public page, my-seat pages, tablets, consoles) gets the
  **board** (players left, entries, average stack, prize pool, payouts, status, results) with
  every change of it, the **levels** when the structure changes, and the **clock** state;
- a table's audience (its dealer tablets) gets the table's view, rendered, in each language;
- an entry's audience (that player's phone) gets the player's own seat view;
- the console gets the numbers of the tables that changed, and fetches only those.

`check_message` is called for every message before it is queued (live/realtime.py), and
`check_action` for every event-log row (tournament/events.py): an undeclared name or a payload
that does not match its type fails the action at once, in tests and in production alike.

docs/architecture.md lists the catalogue for readers; tests keep it equal to this module.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypedDict, get_type_hints


class Audience(StrEnum):
    """Who receives a message: the kind of websocket group (live/realtime.py)."""

    TOURNAMENT = "tournament"
    TABLE = "table"
    ENTRY = "entry"
    CONSOLE = "console"
    USER = "user"
    DEALER = "dealer"
    DISPLAY = "display"
    PUBLIC_TABLE = "public_table"


# --- Payload types --------------------------------------------------------------------------


class Board(TypedDict, total=False):
    """The tournament's public figures, as the big screen shows them (clocks/views.py
    public_snapshot has the same keys). `version` orders boards: a screen keeps the board with
    the highest version (a message from another server process may arrive late)."""

    version: int
    status: str
    registration_closed: bool
    players_left: int | None
    entries: int | None
    average_stack: int | None
    prize_pool: int | None
    payouts: list[int]
    notice: str
    results: dict[str, Any] | None
    results_by_language: dict[str, Any]


class LevelRow(TypedDict):
    number: int | None
    after_level: int | None
    is_break: bool
    small_blind: int
    big_blind: int
    ante: int
    big_blind_ante: bool
    minutes: int
    color_up: list[int]


class BoardChanged(TypedDict):
    """Any change of the tournament's figures; `what` says which (for sounds and words)."""

    board: Board


class Busted(TypedDict):
    entry: int
    place: int | None


class BustPayload(TypedDict):
    board: Board
    busted: list[Busted]


class StructurePayload(TypedDict):
    board: Board
    levels: list[LevelRow]


class StatusPayload(TypedDict):
    board: Board
    status: str


class CountsPayload(TypedDict):
    """Chip counts were recorded (counts/services.py). `version` is the count's event-log id, as
    a board's; `table` the table counted (None: single players). The counts pages fetch the
    public counts (kept once per version) spread over a few seconds: a whole field is not sent
    to every socket of the room."""

    version: int
    table: int | None
    counts: int


class _SignupsOrder(TypedDict, total=False):
    waiting: list[int]


class SignupsPayload(_SignupsOrder):
    """Sign-ups changed (signups/services.py): numbers only, no names. `moved` the arrival
    numbers that just got a place, `waiting_count` how many wait, `waiting` the waiting list in
    order when positions changed (a sign-up's page finds its own position in it; a new sign-up
    only joins the end, so its message leaves the list out and every page keeps its position),
    `free` the places left, `open` whether sign-ups are open."""

    moved: list[int]
    waiting_count: int
    free: int
    open: bool


class SeatingPayload(TypedDict):
    """The draw is out (or redone): each phone asks once for its seat, spread over a few
    seconds (one draw of thousands is not sent as thousands of messages)."""

    draw: bool


class HandForHandPayload(TypedDict):
    on: bool
    round: int


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


class SeatView(TypedDict):
    """A player's own seat, as the my-seat page shows it (public_selectors.PublicSeat)."""

    number: int
    display_name: str
    status: str
    table: int | None
    seat: int | None
    area: str
    must_wait: bool
    alternate_position: int | None
    place: int | None
    prize: int | None
    won_seat: bool
    rank: int | None


class SeatMessage(TypedDict):
    seat: SeatView


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


class Empty(TypedDict):
    pass


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


class BehindPayload(TypedDict):
    """How far the live updates of a tournament lag behind its changes, measured where they
    queue (`where`: "builder", the floor's process building payloads after the commit;
    "sockets", a server process's outboxes to its screens). `seconds` 0: caught up."""

    seconds: float
    waiting: int
    where: str
    process: str


@dataclass(frozen=True)
class Message:
    """`latest_wins`: the payload is whole state (the clock, the board, a table's view, a
    player's seat), so a newer message of the same name to the same group makes one still
    waiting unneeded: the floor's process builds and sends only the newer
    (live/realtime.py), and for the tournament's feed the process's listener
    (live/hub.py) sends the newer instead of both to a slow socket. The screens take only the board from such a
    message (static/clocks/bigscreen.js, lobby.js, static/floor/seat.js); the console fetches
    its figures once for any number of busts (static/tables/console.js)."""

    audience: Audience
    name: str
    payload: type
    meaning: str
    latest_wins: bool = False


_MESSAGES = (
    # The tournament's audience.
    Message(
        Audience.TOURNAMENT,
        "clock",
        ClockPayload,
        "a clock command: start, pause, adjust",
        latest_wins=True,
    ),
    Message(Audience.TOURNAMENT, "level", ClockPayload, "a level or break began (the ticker)"),
    Message(
        Audience.TOURNAMENT,
        "bust",
        BustPayload,
        "players are out; their places",
        latest_wins=True,
    ),
    Message(
        Audience.TOURNAMENT,
        "bust_undo",
        BoardChanged,
        "the last bust was taken back",
        latest_wins=True,
    ),
    Message(
        Audience.TOURNAMENT,
        "entries",
        BoardChanged,
        "registrations, refunds, corrections",
        latest_wins=True,
    ),
    Message(
        Audience.TOURNAMENT,
        "payouts",
        BoardChanged,
        "the payout table changed",
        latest_wins=True,
    ),
    Message(Audience.TOURNAMENT, "deal", BoardChanged, "a deal was recorded", latest_wins=True),
    Message(Audience.TOURNAMENT, "status", StatusPayload, "the tournament's status changed"),
    Message(Audience.TOURNAMENT, "structure", StructurePayload, "the blind structure changed"),
    Message(
        Audience.TOURNAMENT,
        "tournament",
        BoardChanged,
        "the settings changed",
        latest_wins=True,
    ),
    Message(Audience.TOURNAMENT, "seating", SeatingPayload, "seats were drawn"),
    Message(Audience.TOURNAMENT, "h4h", HandForHandPayload, "hand-for-hand on, off, next"),
    Message(Audience.TOURNAMENT, "announce", AnnouncePayload, "a spoken announcement"),
    Message(
        Audience.TOURNAMENT,
        "speech",
        SpeechPayload,
        "the clock's announcement texts or the end of late registration changed",
    ),
    Message(Audience.TOURNAMENT, "counts", CountsPayload, "chip counts were recorded"),
    Message(Audience.TOURNAMENT, "signups", SignupsPayload, "sign-ups, cancellations, move-ups"),
    # A table's dealer tablets.
    Message(
        Audience.TABLE,
        "table",
        TableView,
        "seats, button, hand, a time call, a penalty",
        latest_wins=True,
    ),
    Message(Audience.TABLE, "table_closed", Empty, "the table was broken: tablets close"),
    # One player's phone.
    Message(
        Audience.ENTRY,
        "seat",
        SeatMessage,
        "the player's seat is new (draw, move)",
        latest_wins=True,
    ),
    Message(
        Audience.ENTRY,
        "bust",
        SeatMessage,
        "the player is out, with place and prize",
        latest_wins=True,
    ),
    # The floor console.
    Message(Audience.CONSOLE, "seating", TablesChanged, "seats, buttons or hands changed"),
    Message(Audience.CONSOLE, "report", ReportPayload, "a dealer report came or was handled"),
    Message(Audience.CONSOLE, "shot_clock", ShotClockPayload, "a table's shot clock changed"),
    Message(
        Audience.CONSOLE,
        "behind",
        BehindPayload,
        "live updates reach the room late (the servers are behind), or caught up again",
        latest_wins=True,
    ),
    # Sockets to close.
    Message(Audience.USER, "revoked", Empty, "the account lost its floor role"),
    Message(Audience.DEALER, "revoked", Empty, "the table's dealer link was renewed"),
    # The public page of one table.
    Message(
        Audience.PUBLIC_TABLE,
        "seats",
        PublicTableView,
        "who sits at the table changed",
        latest_wins=True,
    ),
    # One screen of the display manager.
    Message(
        Audience.DISPLAY,
        "assignment",
        DisplayAssignment,
        "paired, or shown another view",
        latest_wins=True,
    ),
    Message(Audience.DISPLAY, "removed", Empty, "the screen was removed: it shows a new code"),
)

MESSAGES: dict[tuple[Audience, str], Message] = {(m.audience, m.name): m for m in _MESSAGES}
LATEST_WINS = frozenset(
    m.name for m in _MESSAGES if m.audience is Audience.TOURNAMENT and m.latest_wins
)
# Every message that carries whole state, by audience: of two waiting for the same group, the
# newer makes the older unneeded (live/realtime.py builds and sends only the newer).
WHOLE_STATE = frozenset((m.audience, m.name) for m in _MESSAGES if m.latest_wins)


def whole_state(group: str, name: str) -> bool:
    """Whether message `name` to `group` carries whole state (False for an unknown group)."""
    try:
        audience = audience_of(group)
    except ValueError:
        return False
    return (audience, name) in WHOLE_STATE


# The tournament's messages that carry the board or the clock state.
BOARD_OR_CLOCK = frozenset(
    m.name
    for m in _MESSAGES
    if m.audience is Audience.TOURNAMENT
    and (m.payload is ClockPayload or "board" in getattr(m.payload, "__required_keys__", ()))
)


class UndeclaredEvent(ValueError):
    pass


def audience_of(group: str) -> Audience:
    return Audience(group.split(".", 1)[0])


# A payload type's hints, read once: every message queued is checked, and resolving a
# TypedDict's hints anew made the check of a `signups` message 48 us instead of 3.4 us.
_hints = functools.cache(get_type_hints)


def _check_keys(payload_type: type, data: dict[str, Any], where: str) -> None:
    required = set(getattr(payload_type, "__required_keys__", ()))
    known = required | set(getattr(payload_type, "__optional_keys__", ()))
    missing = required - data.keys()
    extra = data.keys() - known
    if missing or extra:
        raise UndeclaredEvent(
            f"{where}: payload does not match {payload_type.__name__}"
            f" (missing {sorted(missing)}, undeclared {sorted(extra)})"
        )
    hints = _hints(payload_type)
    for key, value in data.items():
        inner = hints.get(key)
        if isinstance(inner, type) and hasattr(inner, "__required_keys__"):
            if not isinstance(value, dict):
                raise UndeclaredEvent(f"{where}.{key}: expected {inner.__name__}")
            _check_keys(inner, value, f"{where}.{key}")


def check_message(group: str, name: str, data: dict[str, Any]) -> Message:
    """The declaration of message `name` to `group`; raises UndeclaredEvent when there is none
    or the payload's keys differ from its type's."""
    message = MESSAGES.get((audience_of(group), name))
    if message is None:
        raise UndeclaredEvent(f"no message {name!r} is declared for {group}")
    _check_keys(message.payload, data, name)
    return message


# --- Event-log actions ----------------------------------------------------------------------
#
# Every action the event log records (tournament/events.py event_record). The history shows
# each in words (tournament/templatetags/events.py SENTENCES); a test keeps the two equal.

LOG_ACTIONS: dict[str, str] = {
    "tournament.create": "a tournament was created",
    "tournament.import": "a tournament was imported from an export",
    "tournament.update": "settings changed (payload: the changed fields)",
    "tournament.status": "the status changed (from, to)",
    "tournament.reopen": "a finished tournament was reopened (to, reason)",
    "structure.edit": "the blind structure was edited",
    "entry.register": "an entry was registered (number, alternate)",
    "entry.unregister": "an entry was refunded before the start",
    "entry.rebuy": "a rebuy",
    "entry.addon": "an add-on",
    "entry.alternate_in": "an alternate got a place",
    "entry.bust": "players are out (entries, places, prizes)",
    "entry.bust_undo": "the last bust was taken back",
    "payouts.set": "the payout table was set by hand",
    "payouts.reset": "the payout table went back to the default",
    "payout.paid": "a prize was paid out",
    "payout.correction": "money already paid is to be collected",
    "payout.collected": "money paid too much came back to the cage",
    "ledger.method_change": "a ledger line was paid another way than recorded (two new lines)",
    "ledger.difference": "a counted difference at the cage was recorded",
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
    "announcements.edit": "a venue's announcement texts changed (language, kinds)",
    "announcements.test": "a test announcement was sent to the screens",
    "player.create": "a player record was created",
    "player.export": "a player's data was exported",
    "player.erase": "a player's data was erased",
    "player.update": "a person's record was edited (payload: the changed fields' names)",
    "player.merge": "two records of one person were merged (ids, entry counts)",
    "club.update": "the club's settings changed (name, public profiles)",
    "display.pair": "a screen was paired (display, name)",
    "display.assign": "a screen was given what to show (display, views)",
    "display.rename": "a screen was renamed (display, name)",
    "display.remove": "a screen was removed (display, name)",
    "layout.save": "a clock layout was saved (venue or tournament, layout, figures, colours, logo)",
    "layout.reset": "a tournament's own clock layout was dropped (the venue's applies)",
    "players.contact_read": "a director read a player's contact data",
    "registration.close": "registration closed",
    "registration.reopen": "registration reopened",
    "deal.record": "a deal was recorded",
    "ruling.record": "a ruling was recorded",
    "penalty.give": "a penalty was given",
    "chips.colour_up": "a colour-up was recorded",
    "chips.count": "chip counts were recorded (table, source, numbers and counts, the count before)",
    "chips.bag": "bag counts were recorded at the end of a day (table, source, numbers, counts, bag numbers, whether a second count confirmed them)",
    "chips.bag_confirm": "a second person confirmed bag counts (table, numbers)",
    "festival.create": "an event with starting flights was made (flights, policy)",
    "festival.bagging_open": "bag and tag began at the end of a day",
    "festival.bagging_close": "a director closed the day: survivors, chips, whether flags stood",
    "festival.bagging_reopen": "a director reopened a closed day before the Day-2 draw",
    "festival.day2_draw": "the Day 2 was drawn from the flights' bags (random or seeded, players, forfeited bags)",
    "signup.sheet": "a director changed the sign-up sheet (open, places, held back, deadline)",
    "signup.create": "a sign-up arrived (arrival number, name, place or waiting list)",
    "signup.cancel": "a sign-up was cancelled (by the player or a director; contact erased or not)",
    "signup.move": "a director moved a sign-up to the top of the waiting list",
    "signup.move_up": "waiting sign-ups got a place (arrival numbers)",
    "signup.check_in": "a sign-up was checked in at the desk (its entry)",
    "signup.person": "a director linked a sign-up to a person record",
    "signup.deadline": "the check-in deadline passed: no-shows (arrival numbers)",
    "login.locked": "a login was locked",
    "sessions.ended": "an account was logged out everywhere",
    "correction.void": "a registration was voided",
    "correction.person": "an entry was given to another person",
    "correction.name": "a name was corrected",
    "correction.money": "an amount was corrected",
    "correction.undo": "a correction was undone",
}


def check_action(action: str) -> None:
    if action not in LOG_ACTIONS:
        raise UndeclaredEvent(f"event-log action {action!r} is not declared")
