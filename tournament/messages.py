"""What the tournament app says: the board and the player's seat on the live feeds, and the
event-log actions of entries, money, people and corrections (registered with live/catalogue.py and
eventlog/catalogue.py)."""

from __future__ import annotations

from typing import Any, TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from eventlog.catalogue import WORDS, declare_actions, declare_kinds, declare_words
from live.catalogue import Audience, Empty, Message, declare
from tournament.correction_text import SENTENCES as CORRECTION_SENTENCES
from tournament.models import status_label


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
        "players.import": "person records were created from a spreadsheet (count, file name)",
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


def _bust(p: dict[str, Any]) -> str:
    parts = []
    for b in p.get("busts", []):
        line = _("#%(n)s out in place %(place)s") % {"n": b.get("number"), "place": b.get("place")}
        if b.get("prize"):
            line += " " + _("(prize)")
        parts.append(line)
    text = "; ".join(parts)
    if p.get("winner"):
        text += " · " + _("the tournament has a winner")
    return text


declare_words(
    {
        "tournament.create": lambda p: _("Tournament created"),
        "tournament.import": lambda p: _(
            "Imported from an export (tournament %(n)s there); rows got new ids"
        )
        % {"n": p.get("from")},
        "tournament.update": lambda p: _("Settings changed: %(f)s")
        % {"f": ", ".join(p.get("changed", []) or p.get("fields", []) or ["–"])},
        "tournament.status": lambda p: _("Status changed: %(a)s → %(b)s")
        % {"a": status_label(p.get("from")), "b": status_label(p.get("to"))},
        "tournament.reopen": lambda p: _("Finished tournament reopened (%(b)s)")
        % {"b": status_label(p.get("to"))}
        + (": " + str(p["reason"]) if p.get("reason") else ""),
        "structure.edit": lambda p: _("Blind structure edited"),
        "entry.register": lambda p: _("#%(n)s registered") % {"n": p.get("number")}
        + (" · " + _("alternate") if p.get("alternate") else ""),
        "entry.unregister": lambda p: _("#%(n)s unregistered and refunded")
        % {"n": p.get("number")},
        "entry.rebuy": lambda p: _("Rebuy for #%(n)s") % {"n": p.get("number", p.get("entry"))},
        "entry.addon": lambda p: _("Add-on for #%(n)s") % {"n": p.get("number", p.get("entry"))},
        "entry.alternate_in": lambda p: _("Alternate #%(n)s gets a place") % {"n": p.get("number")},
        "entry.bust": _bust,
        "entry.bust_undo": lambda p: _("Last bust undone"),
        "payouts.set": lambda p: _("Payout table set"),
        "payouts.reset": lambda p: _("Payout table back to the default"),
        "player.create": lambda p: _("Player created"),
        "players.import": lambda p: ngettext(
            "%(n)s player imported from %(file)s",
            "%(n)s players imported from %(file)s",
            p.get("count", 0),
        )
        % {"n": p.get("count"), "file": p.get("file", "–")},
        "player.update": lambda p: _("Player #%(id)s edited: %(f)s")
        % {"id": p.get("player"), "f": ", ".join(p.get("changed", [])) or "–"},
        "player.merge": lambda p: _(
            "Player #%(merged)s merged into #%(kept)s (%(n)s entries moved)"
        )
        % {"merged": p.get("merged"), "kept": p.get("kept"), "n": p.get("entries_moved")},
        "club.update": lambda p: _("Club settings changed: %(f)s")
        % {"f": ", ".join(p.get("changed", [])) or "–"},
        "registration.close": lambda p: _("Registration closed"),
        "registration.reopen": lambda p: _("Registration reopened"),
        "deal.record": lambda p: ngettext(
            "Deal recorded for %(n)s player", "Deal recorded for %(n)s players", len(p["shares"])
        )
        % {"n": len(p["shares"])},
        "payout.paid": lambda p: _("Prize paid out to #%(n)s") % {"n": p.get("number")},
        "payout.correction": lambda p: _(
            "Payout correction: money already paid is to be collected"
        ),
        "payout.collected": lambda p: _("Money paid too much collected back from #%(n)s")
        % {"n": p.get("number")},
        "ledger.method_change": lambda p: _("Ledger: a line's payment method was corrected"),
        "ledger.difference": lambda p: _("Ledger: a counted difference was recorded"),
        "login.locked": lambda p: _("Login locked for %(account)s from %(address)s")
        % {"account": p.get("account") or "–", "address": p.get("address")},
        "sessions.ended": lambda p: ngettext(
            "%(account)s logged out everywhere (%(n)s session)",
            "%(account)s logged out everywhere (%(n)s sessions)",
            int(p.get("sessions") or 0),
        )
        % {"account": p.get("account"), "n": p.get("sessions")},
    }
)

declare_kinds(
    {
        "tournament": gettext_lazy("Tournament: status and settings"),
        "structure": gettext_lazy("Blind structure"),
        "entry": gettext_lazy("Registrations and busts"),
        "payouts": gettext_lazy("Payout table"),
        "payout": gettext_lazy("Payouts paid"),
        "ledger": gettext_lazy("Cash ledger"),
        "deal": gettext_lazy("Deals"),
        "player": gettext_lazy("Players"),
        "club": gettext_lazy("Club settings"),
        "registration": gettext_lazy("Registration open and closed"),
        "login": gettext_lazy("Logins"),
        "sessions": gettext_lazy("Logins"),
        "correction": gettext_lazy("Corrections"),
    }
)

# Corrections at the desk (tournament/correction_text.py); other lines keep theirs.
declare_words({a: w for a, w in CORRECTION_SENTENCES.items() if a not in WORDS})
