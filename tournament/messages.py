"""What the tournament app says: the board and the player's seat on the live feeds, and the
event-log actions of entries, money, people and corrections (registered with live/catalogue.py)."""

from __future__ import annotations

from typing import Any, TypedDict

from live.catalogue import Audience, Empty, Message, declare, declare_actions


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


declare(
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
    Message(Audience.USER, "revoked", Empty, "the account lost its floor role"),
)

declare_actions(
    {
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
        "player.create": "a player record was created",
        "player.export": "a player's data was exported",
        "player.erase": "a player's data was erased",
        "player.update": "a person's record was edited (payload: the changed fields' names)",
        "player.merge": "two records of one person were merged (ids, entry counts)",
        "club.update": "the club's settings changed (name, public profiles)",
        "players.contact_read": "a director read a player's contact data",
        "registration.close": "registration closed",
        "registration.reopen": "registration reopened",
        "deal.record": "a deal was recorded",
        "login.locked": "a login was locked",
        "sessions.ended": "an account was logged out everywhere",
        "correction.void": "a registration was voided",
        "correction.person": "an entry was given to another person",
        "correction.name": "a name was corrected",
        "correction.money": "an amount was corrected",
        "correction.undo": "a correction was undone",
    }
)
