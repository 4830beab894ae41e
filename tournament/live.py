"""What the tournament's screens are sent when something changes: the board and seat views.

Built when the transaction commits, from what is committed, so a screen never shows a change
that was rolled back and two changes made at once on two server processes cannot leave a screen
on the older one: each board carries `version`, the id of the tournament's latest event-log
row read before the figures, and a screen keeps the highest version it has seen.

The messages and their payload types are declared in live/catalogue.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.utils import translation

from live import realtime
from live.realtime import entry_group, send_on_commit, tournament_group
from tournament.domain.levels import row_labels
from tournament.messages import Board, LevelRow, SeatView
from tournament.models import DealMethod, Entry, Event, Level, Tournament
from tournament.public_selectors import public_seat
from tournament.results import final_results
from tournament.selectors import payout_amounts, tournament_numbers
from tournament.validation import SettingsBroken

BIG_SCREEN_PAYOUTS = 9  # the payout rows a big screen shows


def board_version(tournament_id: int) -> int:
    """The id of the tournament's latest event-log row (0 before any)."""
    latest = (
        Event.objects.filter(tournament_id=tournament_id)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    return latest or 0


def tournament_board(
    tournament: Tournament, *, version: int | None = None, fresh: bool = True
) -> Board:
    """The tournament's public figures: players left, entries, average stack, prize pool, the
    first payouts, the status and (at the end) the results. Public data only. `fresh=False`:
    `tournament` was read just now, its counts are taken as they are."""
    if version is None:
        version = board_version(tournament.pk)
    board: Board = {
        "version": version,
        "status": tournament.status,
        # A tournament not started yet may have closed its registration (a Day 2 once drawn):
        # the screens that name the status say so instead of "Registering".
        "registration_closed": tournament.registration_closed_at is not None,
        "notice": "",
    }
    try:
        numbers = tournament_numbers(tournament, fresh=fresh)
        board["payouts"] = payout_amounts(tournament, numbers)[:BIG_SCREEN_PAYOUTS]
        board["players_left"] = numbers.players_left
        board["entries"] = numbers.entries
        board["average_stack"] = numbers.average_stack
        board["prize_pool"] = numbers.prize_pool
    except SettingsBroken as exc:
        # Stored before the rules were checked: the clock runs, the money is not shown.
        board["players_left"] = board["entries"] = None
        board["average_stack"] = board["prize_pool"] = None
        board["payouts"] = []
        board["notice"] = str(exc)
    board["results"] = final_results(tournament)
    return board


def _board_for_screens(tournament_id: int) -> Board:
    version = board_version(tournament_id)  # first: the figures are at least this new
    tournament = Tournament.objects.get(pk=tournament_id)
    board = tournament_board(tournament, version=version, fresh=False)
    results = board["results"]
    if results is not None:
        # The results name a deal's method in words: one copy per language (only those words
        # differ), the screen takes its own.
        deal = tournament.deals.first() if results["deal"] else None
        by_language: dict[str, Any] = {}
        for code, _name in settings.LANGUAGES:
            with translation.override(code):
                words = (
                    {**results["deal"], "method": str(DealMethod(deal.method).label)}
                    if deal
                    else None
                )
            by_language[code] = {**results, "deal": words}
        board["results_by_language"] = by_language
    return board


def level_rows(levels: Iterable[Level]) -> list[LevelRow]:
    """The structure as every screen draws it: breaks are not levels (a break has no number and
    follows level `after_level`)."""
    rows = list(levels)
    labels = row_labels([lv.is_break for lv in rows])
    return [
        {
            "number": label.number,
            "after_level": label.after if lv.is_break else None,
            "is_break": lv.is_break,
            "small_blind": lv.small_blind,
            "big_blind": lv.big_blind,
            "ante": lv.ante,
            "big_blind_ante": lv.big_blind_ante,
            "minutes": lv.minutes,
            "color_up": list(lv.color_up or []),
        }
        for lv, label in zip(rows, labels, strict=True)
    ]


def notify_board(
    tournament_id: int,
    name: str,
    extra: dict[str, Any] | None = None,
    *,
    with_levels: bool = False,
) -> None:
    """Send message `name` with the board (and `extra`) to the tournament's audience when the
    transaction commits. Call inside the transaction that made the change."""

    def build() -> dict[str, Any] | None:
        if not realtime.listened(tournament_group(tournament_id)):
            return None  # no screen follows the tournament now; one that connects loads it
        data: dict[str, Any] = {"board": _board_for_screens(tournament_id), **(extra or {})}
        if with_levels:
            tournament = Tournament.objects.select_related("structure").get(pk=tournament_id)
            data["levels"] = level_rows(tournament.structure.levels.all())
        return data

    send_on_commit(tournament_group(tournament_id), name, build)


def seat_view(entry: Entry) -> SeatView:
    """The player's own seat, and the elimination rank of a player who is out: the phone works
    out the place from it and the board's entries as late entries push places down (place =
    entries + 1 - rank), so a late registration does not send a message to every phone."""
    view: dict[str, Any] = public_seat(entry).as_dict()
    view["rank"] = entry.elimination_rank
    return view  # type: ignore[return-value]


def notify_seats(entry_ids: Iterable[int], name: str = "seat") -> None:
    """Send each player their own seat view when the transaction commits (a move, a bust, a
    seat given): the my-seat page shows it without asking."""
    ids = sorted(set(entry_ids))
    if not ids:
        return
    views: dict[int, SeatView] = {}
    # The first builder asks, in one round trip, which of these players have their page open,
    # and reads those players' seats together (a break moves a table's players at once); the
    # later builders of the same change use what it read.
    loaded = False

    def load() -> None:
        nonlocal loaded
        found = realtime.listened_of([entry_group(pk) for pk in ids])
        wanted = [pk for pk in ids if entry_group(pk) in found]
        if wanted:
            rows = Entry.objects.filter(pk__in=wanted).select_related(
                "player", "tournament", "seat__table"
            )
            views.update({entry.pk: seat_view(entry) for entry in rows})
        # Only once read: a read that failed is made again by the retry or the next builder.
        loaded = True

    def builder(entry_id: int) -> Callable[[], dict[str, Any] | None]:
        def build() -> dict[str, Any] | None:
            if not loaded:
                load()
            # Not there: no phone open on this seat when the change's first view was built
            # (one that connects asks for it), or the entry is gone.
            return {"seat": views[entry_id]} if entry_id in views else None

        return build

    for entry_id in ids:
        send_on_commit(entry_group(entry_id), name, builder(entry_id))
