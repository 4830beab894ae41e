"""The catalogue of live messages: every message a screen receives, declared once.

A live message goes to one audience (a websocket group kind, live/realtime.py) under a
name, with a payload whose type the app that sends it declares in its `messages.py`
(tournament/messages.py, tables/messages.py, …), registered here with `declare`. Payloads carry what the screens show, so a
screen applies them and makes no request because of an event:

- the tournament's audience (big screen, public page, my-seat pages, tablets, consoles) gets the
  **board** (players left, entries, average stack, prize pool, payouts, status, results) with
  every change of it, the **levels** when the structure changes, and the **clock** state;
- a table's audience (its dealer tablets) gets the table's view, rendered, in each language;
- an entry's audience (that player's phone) gets the player's own seat view;
- the console gets the numbers of the tables that changed, and fetches only those.

`check_message` is called for every message before it is queued (live/realtime.py): an
undeclared name or a payload that does not match its type fails the action at once, in tests and
in production alike. The event log's actions have a catalogue of their own (eventlog/catalogue.py).

docs/architecture.md lists the catalogue for readers; tests keep it equal to the registry.
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


class Empty(TypedDict):
    pass


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


# --- The registry ---------------------------------------------------------------------------
#
# Each app declares its messages and event-log actions in its own `messages.py`, next to the
# code that sends them; live/apps.py imports every installed app's `messages` module when
# Django starts (the way the admin finds `admin.py`). The sets below are filled in place, so a
# module that imported one holds the whole of it.

MESSAGES: dict[tuple[Audience, str], Message] = {}
# The tournament's messages that carry whole state (live/hub.py keeps only the newest).
LATEST_WINS: set[str] = set()
# Every message that carries whole state, by audience: of two waiting for the same group, the
# newer makes the older unneeded (live/realtime.py builds and sends only the newer).
WHOLE_STATE: set[tuple[Audience, str]] = set()
# The tournament's messages that carry the board or the clock state (a player still in does
# not need them: tournament/consumers.py SeatConsumer).
BOARD_OR_CLOCK: set[str] = set()


def declare(*messages: Message) -> None:
    """Register live messages. Declaring the same audience and name twice is a mistake."""
    for message in messages:
        key = (message.audience, message.name)
        if MESSAGES.get(key, message) != message:
            raise ValueError(f"message {message.name!r} to {message.audience} is declared twice")
        MESSAGES[key] = message
        if message.latest_wins:
            WHOLE_STATE.add(key)
        if message.audience is Audience.TOURNAMENT:
            if message.latest_wins:
                LATEST_WINS.add(message.name)
            keys = getattr(message.payload, "__required_keys__", ())
            if "board" in keys or "ends_at_ms" in keys:
                BOARD_OR_CLOCK.add(message.name)


def whole_state(group: str, name: str) -> bool:
    """Whether message `name` to `group` carries whole state (False for an unknown group)."""
    try:
        audience = audience_of(group)
    except ValueError:
        return False
    return (audience, name) in WHOLE_STATE


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


declare(
    Message(
        Audience.CONSOLE,
        "behind",
        BehindPayload,
        "live updates reach the room late (the servers are behind), or caught up again",
        latest_wins=True,
    ),
)
