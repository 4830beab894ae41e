"""What each event says, built from the event-log row after it committed: public data only.

The names are the ones the public pages show (`display_name`, initials once a finished
tournament's names are withheld: tournament.public_selectors), never a player's full name,
e-mail, phone or notes; money in minor units of the tournament's currency, as the API gives it.
A row that is none of the events gives nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tournament.models import Entry, Event, Level, Status, Tournament
from tournament.public_selectors import initials, names_withheld
from webhooks.domain.rules import Kind

LEVEL_ACTIONS = ("clock.level", "clock.break", "clock.start", "clock.jump")
BUST = "entry.bust"
BUST_UNDO = "entry.bust_undo"
STATUS = "tournament.status"
COUNTS = ("chips.count", "chips.bag")
# The event-log actions that may become a webhook; the receiver looks at no other row.
ACTIONS = frozenset((*LEVEL_ACTIONS, BUST, BUST_UNDO, STATUS, *COUNTS))


def kinds_of(action: str, payload: dict[str, Any]) -> list[Kind]:
    """The webhook events an event-log row makes, from the row alone (no query)."""
    if action in LEVEL_ACTIONS:
        return [Kind.LEVEL_STARTED]
    if action == BUST:
        kinds = [Kind.PLAYER_OUT] if payload.get("busts") else []
        if payload.get("winner") or payload.get("seat_winners"):
            kinds.append(Kind.TOURNAMENT_FINISHED)
        return kinds
    if action == BUST_UNDO:
        return [Kind.PLAYER_OUT_UNDONE] if payload.get("entries") else []
    if action == STATUS and payload.get("to") == Status.FINISHED:
        return [Kind.TOURNAMENT_FINISHED]
    if action in COUNTS:
        return [Kind.CHIPS_PUBLISHED]
    return []


def tournament_part(t: Tournament) -> dict[str, Any]:
    return {
        "id": t.pk,
        "name": t.name,
        "venue": t.venue,
        "starts_at": t.starts_at.isoformat(),
        "currency": t.currency,
    }


def _names(t: Tournament, entries: Iterable[Entry]) -> dict[int, str]:
    withheld = names_withheld(status=t.status, starts_at=t.starts_at)
    return {
        e.pk: initials(e.player.display_name) if withheld else e.player.display_name
        for e in entries
    }


def level_data(event: Event, t: Tournament) -> dict[str, Any]:
    p = event.payload
    index = p.get("level_index")
    level: Level | None = None
    if isinstance(index, int) and index >= 0:
        level = (
            Level.objects.filter(structure_id=t.structure_id)
            .order_by("position")[index : index + 1]
            .first()
        )
    shown: dict[str, Any] = {"index": index, "number": p.get("number")}
    if level is not None:
        shown.update(
            {
                "break": level.is_break,
                "after_level": p.get("after_level"),
                "minutes": level.minutes,
                "small_blind": level.small_blind,
                "big_blind": level.big_blind,
                "ante": level.ante,
                "big_blind_ante": level.big_blind_ante,
            }
        )
    return {
        "level": shown,
        "late": bool(p.get("late", False)),
        "how": event.action.removeprefix("clock."),
    }


def bust_data(event: Event, t: Tournament) -> dict[str, Any]:
    busts = event.payload.get("busts", [])
    entries = list(
        Entry.objects.filter(tournament=t, pk__in=[b.get("entry") for b in busts]).select_related(
            "player"
        )
    )
    names = _names(t, entries)
    return {
        "players": [
            {
                "number": b.get("number"),
                "name": names.get(b.get("entry"), ""),
                "place": b.get("place"),
                "prize": b.get("prize") or 0,
            }
            for b in busts
        ],
        "provisional": bool(event.payload.get("provisional", False)),
        "players_left": t.players_left,
        "entries": t.entries_counted,
    }


def undo_data(event: Event, t: Tournament) -> dict[str, Any]:
    """The players back in after the last bust was undone (their places are open again)."""
    entries = list(
        Entry.objects.filter(tournament=t, pk__in=event.payload.get("entries", []))
        .select_related("player")
        .order_by("number")
    )
    names = _names(t, entries)
    return {
        "players": [{"number": e.number, "name": names[e.pk]} for e in entries],
        "players_left": t.players_left,
        "entries": t.entries_counted,
    }


def results_data(t: Tournament) -> dict[str, Any]:
    entries = list(
        Entry.objects.filter(tournament=t, place__isnull=False)
        .select_related("player")
        .order_by("place", "number")
    )
    names = _names(t, entries)
    return {
        "entries": t.entries_counted,
        "results": [
            {
                "place": e.place,
                "number": e.number,
                "name": names[e.pk],
                "prize": e.prize,
                "won_seat": e.won_seat,
            }
            for e in entries
        ],
    }


def counts_data(event: Event, t: Tournament) -> dict[str, Any]:
    counts = event.payload.get("counts", [])
    numbers = [c.get("entry") for c in counts]
    entries = list(Entry.objects.filter(tournament=t, number__in=numbers).select_related("player"))
    by_number = {e.number: e for e in entries}
    names = _names(t, entries)
    return {
        "table": event.payload.get("table"),
        "bag": event.action == "chips.bag",
        "counts": [
            {
                "number": c.get("entry"),
                "name": names.get(by_number[c["entry"]].pk, "")
                if c.get("entry") in by_number
                else "",
                "chips": c.get("count"),
            }
            for c in counts
        ],
    }


def message(kind: Kind, event: Event, t: Tournament) -> dict[str, Any]:
    """The whole message of one kind for one row: the Standard Webhooks envelope (`type`,
    `timestamp`, `data`)."""
    if kind == Kind.LEVEL_STARTED:
        data = level_data(event, t)
    elif kind == Kind.PLAYER_OUT:
        data = bust_data(event, t)
    elif kind == Kind.PLAYER_OUT_UNDONE:
        data = undo_data(event, t)
    elif kind == Kind.TOURNAMENT_FINISHED:
        data = results_data(t)
    else:
        data = counts_data(event, t)
    return {
        "type": str(kind),
        "timestamp": event.at.isoformat(),
        "data": {"tournament": tournament_part(t), **data},
    }


def ping_message(at: str) -> dict[str, Any]:
    return {"type": str(Kind.TEST), "timestamp": at, "data": {"test": True}}
