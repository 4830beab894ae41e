"""One readable, translated line per event-log entry (the raw payload stays in the CSV)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from core import figures
from tournament.correction_text import SENTENCES as CORRECTION_SENTENCES
from tournament.models import status_label
from tournament.templatetags import levels

register = template.Library()


def _mmss(seconds: Any) -> str:
    s = abs(int(seconds or 0))
    return f"{s // 60}:{s % 60:02d}"


def _table_suffix(p: dict[str, Any]) -> str:
    return " · " + _("table %(t)s") % {"t": p["table"]} if p.get("table") else ""


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


def _moves(p: dict[str, Any]) -> str:
    moves = p.get("moves", [])
    head = ngettext("%(n)s player moved", "%(n)s players moved", len(moves)) % {"n": len(moves)}
    sample = ", ".join(
        f"{m.get('from_table')}/{m.get('from_seat')} → {m.get('to_table')}/{m.get('to_seat')}"
        for m in moves[:3]
    )
    return f"{head}: {sample}{' …' if len(moves) > 3 else ''}" if moves else head


def _chip_counts(p: dict[str, Any]) -> str:
    counts = p.get("counts", [])
    if len(counts) == 1 and "before" in counts[0]:
        c = counts[0]
        return _("Chip count of #%(n)s: %(count)s (was %(before)s)") % {
            "n": c.get("entry"),
            "count": _figure(c.get("count")),
            "before": _figure(c.get("before")),
        } + _table_suffix(p)
    head = ngettext("%(n)s chip count recorded", "%(n)s chip counts recorded", len(counts)) % {
        "n": len(counts)
    }
    sample = ", ".join(f"#{c.get('entry')}: {_figure(c.get('count'))}" for c in counts[:4])
    return f"{head}{_table_suffix(p)}: {sample}{' …' if len(counts) > 4 else ''}"


def _bags(p: dict[str, Any]) -> str:
    counts = p.get("counts", [])
    head = ngettext("%(n)s bag recorded", "%(n)s bags recorded", len(counts)) % {"n": len(counts)}
    confirmed = sum(1 for c in counts if c.get("confirmed"))
    if confirmed:
        head += " (" + _("%(n)s confirmed by a second count") % {"n": confirmed} + ")"
    sample = ", ".join(
        f"#{c.get('entry')}: {_figure(c.get('count'))} [{c.get('bag')}]" for c in counts[:4]
    )
    return f"{head}{_table_suffix(p)}: {sample}{' …' if len(counts) > 4 else ''}"


SENTENCES: dict[str, Any] = {
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
    "entry.unregister": lambda p: _("#%(n)s unregistered and refunded") % {"n": p.get("number")},
    "entry.rebuy": lambda p: _("Rebuy for #%(n)s") % {"n": p.get("number", p.get("entry"))},
    "entry.addon": lambda p: _("Add-on for #%(n)s") % {"n": p.get("number", p.get("entry"))},
    "entry.alternate_in": lambda p: _("Alternate #%(n)s gets a place") % {"n": p.get("number")},
    "entry.bust": _bust,
    "entry.bust_undo": lambda p: _("Last bust undone"),
    "payouts.set": lambda p: _("Payout table set"),
    "payouts.reset": lambda p: _("Payout table back to the default"),
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
    "announcements.edit": lambda p: _("Announcement texts changed (%(lang)s): %(n)s")
    % {"lang": p.get("language", ""), "n": len(p.get("kinds", []))},
    "announcements.test": lambda p: _("Test announcement sent to the screens"),
    "player.create": lambda p: _("Player created"),
    "player.update": lambda p: _("Player #%(id)s edited: %(f)s")
    % {"id": p.get("player"), "f": ", ".join(p.get("changed", [])) or "–"},
    "player.merge": lambda p: _("Player #%(merged)s merged into #%(kept)s (%(n)s entries moved)")
    % {"merged": p.get("merged"), "kept": p.get("kept"), "n": p.get("entries_moved")},
    "club.update": lambda p: _("Club settings changed: %(f)s")
    % {"f": ", ".join(p.get("changed", [])) or "–"},
    "display.pair": lambda p: _("Screen “%(name)s” paired") % {"name": p.get("name", "")},
    "display.assign": lambda p: _("Screen “%(name)s” now shows: %(views)s")
    % {"name": p.get("name", ""), "views": ", ".join(p.get("views", [])) or "–"},
    "display.rename": lambda p: _("Screen renamed to “%(name)s”") % {"name": p.get("name", "")},
    "display.remove": lambda p: _("Screen “%(name)s” removed") % {"name": p.get("name", "")},
    "layout.save": lambda p: (
        _("The venue's clock layout saved: %(layout)s, %(figures)s")
        if p.get("venue")
        else _("Clock layout saved: %(layout)s, %(figures)s")
    )
    % {"layout": p.get("layout", ""), "figures": ", ".join(p.get("figures", [])) or "–"},
    "layout.reset": lambda p: _("The tournament's own clock layout dropped: the venue's applies"),
    "registration.close": lambda p: _("Registration closed"),
    "registration.reopen": lambda p: _("Registration reopened"),
    "deal.record": lambda p: ngettext(
        "Deal recorded for %(n)s player", "Deal recorded for %(n)s players", len(p["shares"])
    )
    % {"n": len(p["shares"])},
    "payout.paid": lambda p: _("Prize paid out to #%(n)s") % {"n": p.get("number")},
    "payout.correction": lambda p: _("Payout correction: money already paid is to be collected"),
    "payout.collected": lambda p: _("Money paid too much collected back from #%(n)s")
    % {"n": p.get("number")},
    "ledger.method_change": lambda p: _("Ledger: a line's payment method was corrected"),
    "ledger.difference": lambda p: _("Ledger: a counted difference was recorded"),
    "ruling.record": lambda p: _("Ruling recorded") + _table_suffix(p),
    "penalty.give": lambda p: _("Penalty for #%(n)s") % {"n": p.get("entry")} + _table_suffix(p),
    "chips.colour_up": lambda p: _("Colour-up recorded") + _table_suffix(p),
    "chips.count": lambda p: _chip_counts(p),
    "chips.bag": lambda p: _bags(p),
    "chips.bag_confirm": lambda p: _("Bags confirmed by a second person")
    + _table_suffix(p)
    + ": "
    + ", ".join(f"#{n}" for n in p.get("numbers", [])),
    "signup.sheet": lambda p: (
        _("Sign-ups opened: %(n)s places") if p.get("open") else _("Sign-ups closed: %(n)s places")
    )
    % {"n": p.get("places")},
    "signup.create": lambda p: (
        _("Sign-up #%(s)s %(name)s: has a place")
        if p.get("status") == "confirmed"
        else _("Sign-up #%(s)s %(name)s: waiting list")
    )
    % {"s": p.get("sequence"), "name": p.get("name", "")},
    "signup.cancel": lambda p: _("Sign-up #%(s)s cancelled") % {"s": p.get("sequence")},
    "signup.move": lambda p: _("Sign-up #%(s)s moved to the top of the waiting list")
    % {"s": p.get("sequence")},
    "signup.move_up": lambda p: _("Moved up from the waiting list: %(s)s")
    % {"s": ", ".join(f"#{n}" for n in p.get("sequences", []))},
    "signup.check_in": lambda p: _("Sign-up #%(s)s checked in") % {"s": p.get("sequence")},
    "signup.person": lambda p: _("Sign-up linked to a person record"),
    "signup.deadline": lambda p: _("Check-in deadline: %(n)s no-shows")
    % {"n": len(p.get("no_shows", []))},
    "festival.create": lambda p: _("Event with %(n)s starting flights made")
    % {"n": len(p.get("flights", []))},
    "festival.bagging_open": lambda p: _("Bag and tag began (Day %(d)s, %(n)s players)")
    % {"d": p.get("day"), "n": p.get("players")},
    "festival.bagging_close": lambda p: _("Day %(d)s closed: %(n)s players bagged %(c)s chips")
    % {"d": p.get("day"), "n": p.get("survivors"), "c": _figure(p.get("chips"))}
    + (" · " + _("despite %(f)s flags") % {"f": p["flags"]} if p.get("flags") else ""),
    "festival.bagging_reopen": lambda p: _("Day %(d)s reopened: %(r)s")
    % {"d": p.get("day"), "r": p.get("reason", "")},
    "festival.day2_draw": lambda p: (
        _("Day 2 drawn, seeded: %(n)s players at %(t)s tables")
        if p.get("seeded")
        else _("Day 2 drawn at random: %(n)s players at %(t)s tables")
    )
    % {"n": p.get("players"), "t": p.get("tables")},
    "login.locked": lambda p: _("Login locked for %(account)s from %(address)s")
    % {"account": p.get("account") or "–", "address": p.get("address")},
    "sessions.ended": lambda p: ngettext(
        "%(account)s logged out everywhere (%(n)s session)",
        "%(account)s logged out everywhere (%(n)s sessions)",
        int(p.get("sessions") or 0),
    )
    % {"account": p.get("account"), "n": p.get("sessions")},
}
# Corrections at the desk (tournament/correction_text.py); other lines keep theirs.
for _action, _make in CORRECTION_SENTENCES.items():
    SENTENCES.setdefault(_action, _make)


@register.filter
def event_sentence(event: Any) -> str:
    make = SENTENCES.get(event.action)
    payload = event.payload if isinstance(event.payload, dict) else {}
    if make is None:
        return str(event.action)
    try:
        return str(make(payload))
    except (KeyError, TypeError, ValueError):
        return str(event.action)


# What kind of change each action is, for the history's filter (a noun, not a code).
ACTION_NAMES: dict[str, Any] = {
    "tournament": gettext_lazy("Tournament: status and settings"),
    "structure": gettext_lazy("Blind structure"),
    "entry": gettext_lazy("Registrations and busts"),
    "payouts": gettext_lazy("Payout table"),
    "payout": gettext_lazy("Payouts paid"),
    "ledger": gettext_lazy("Cash ledger"),
    "deal": gettext_lazy("Deals"),
    "clock": gettext_lazy("Clock"),
    "tables": gettext_lazy("Tables opened"),
    "seats": gettext_lazy("Draws and moves"),
    "seat": gettext_lazy("Seats given"),
    "table": gettext_lazy("Dealer tablets"),
    "time_bank": gettext_lazy("Time-bank cards back"),
    "h4h": gettext_lazy("Hand-for-hand"),
    "announcements": gettext_lazy("Spoken announcements"),
    "player": gettext_lazy("Players"),
    "club": gettext_lazy("Club settings"),
    "display": gettext_lazy("Screens"),
    "layout": gettext_lazy("Clock layouts"),
    "registration": gettext_lazy("Registration open and closed"),
    "ruling": gettext_lazy("Rulings"),
    "penalty": gettext_lazy("Penalties"),
    "chips": gettext_lazy("Chips: colour-ups, counts and bags"),
    "festival": gettext_lazy("Flights, bag and tag, Day 2"),
    "signup": gettext_lazy("Sign-ups and check-in"),
    "login": gettext_lazy("Logins"),
    "sessions": gettext_lazy("Logins"),
    "correction": gettext_lazy("Corrections"),
}


def action_groups(actions: list[str]) -> list[tuple[str, str]]:
    """The history filter's choices: one per kind of action present, named in words."""
    groups: dict[str, str] = {}
    for action in actions:
        prefix = action.split(".", 1)[0]
        name = str(ACTION_NAMES.get(prefix, prefix))
        groups.setdefault(prefix, name)
    return sorted(((prefix + ".", name) for prefix, name in groups.items()), key=lambda g: g[1])


def _figure(value: Any) -> str:
    """A chip figure from a stored payload, grouped the reader's way ("–" when missing)."""
    return figures.chips(value) if isinstance(value, int) else "–" if value is None else str(value)
