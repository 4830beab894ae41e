"""A tournament's results: every finish with its prize, deal share, bounties and seat won, in
public names (initials once the retention time has passed: public_selectors.names_withheld),
the export other sites import (docs/results.md, "Results export") and the one results databases
take (database_rows, database_json: finished tournaments only).

Before the end the places given so far are shown as provisional: late entries still move them
(place = entries + 1 - elimination rank) and prizes are given once the field is final.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from django.utils import timezone

from tournament.domain.collation import name_key
from tournament.models import DealMethod, EntryStatus, Status, Tournament
from tournament.public_selectors import initials, names_withheld
from tournament.selectors import tournament_numbers
from tournament.validation import SettingsBroken

EXPORT_FORMAT = "floor-results/1"
# The export's columns, in order (docs/results.md). Money as a decimal in the currency's unit.
EXPORT_COLUMNS = (
    "tournament",
    "date",
    "venue",
    "currency",
    "entries",
    "place",
    "name",
    "prize",
    "deal_share",
    "bounties",
    "won_seat",
    "points",
)


@dataclass(frozen=True)
class Finish:
    place: int
    number: int
    name: str
    prize: int  # cents
    deal_share: int | None  # cents, when the prize was agreed in a deal
    bounties: int  # cents won from knock-outs
    won_seat: bool
    points: float | None = None  # league points (when the tournament counts for a league)
    country: str = ""  # ISO 3166-1 alpha-2 where the person's record has it


@dataclass(frozen=True)
class Results:
    final: bool
    entries: int
    prize_pool: int | None
    finishes: list[Finish]


def tournament_finishes(tournament: Tournament) -> list[Finish]:
    """Every finish so far, best place first, in public names (one query); a shared place in
    German alphabetical order of the names shown (tournament/domain/collation.py)."""
    withheld = names_withheld(status=tournament.status, starts_at=tournament.starts_at)
    rows = (
        tournament.entries.filter(place__isnull=False)
        .exclude(status=EntryStatus.UNREGISTERED)
        .select_related("player", "deal_share")
        .order_by("place", "number")
    )
    finishes = []
    for e in rows:
        share = getattr(e, "deal_share", None)
        name = e.player.display_name
        finishes.append(
            Finish(
                place=e.place or 0,
                number=e.number,
                name=initials(name) if withheld else name,
                prize=e.prize,
                deal_share=share.amount if share is not None else None,
                bounties=e.bounties_won,
                won_seat=e.won_seat,
                country=e.player.country,
            )
        )
    finishes.sort(key=lambda f: (f.place, name_key(f.name)))  # stable: then by number
    return finishes


def tournament_results(tournament: Tournament) -> Results:
    """Every finish so far with the figures the results page heads them with."""
    finishes = tournament_finishes(tournament)
    try:
        pool: int | None = tournament_numbers(tournament).prize_pool
    except SettingsBroken:
        pool = None
    return Results(
        final=tournament.status == Status.FINISHED,
        entries=tournament.entries_counted,
        prize_pool=pool,
        finishes=finishes,
    )


def _decimal(cents: int | None) -> str:
    return "" if cents is None else f"{cents // 100}.{cents % 100:02d}"


def export_rows(tournament: Tournament, results: Results) -> list[list[Any]]:
    """The results as rows of EXPORT_COLUMNS."""
    date = tournament.starts_at.date().isoformat()
    return [
        [
            tournament.name,
            date,
            tournament.venue,
            tournament.currency,
            results.entries,
            f.place,
            f.name,
            _decimal(f.prize),
            _decimal(f.deal_share),
            _decimal(f.bounties),
            "yes" if f.won_seat else "no",
            "" if f.points is None else f.points,
        ]
        for f in results.finishes
    ]


def export_json(tournament: Tournament, results: Results) -> dict[str, Any]:
    """The results as JSON: amounts in cents, as everywhere in the API."""
    return {
        "format": EXPORT_FORMAT,
        "tournament": {
            "id": tournament.pk,
            "name": tournament.name,
            "date": tournament.starts_at.date().isoformat(),
            "venue": tournament.venue,
            "currency": tournament.currency,
            "entries": results.entries,
            "prize_pool": results.prize_pool,
            "final": results.final,
        },
        "finishes": [asdict(f) for f in results.finishes],
    }


# The export in the shape results databases take (docs/results.md, "For results databases"):
# one row per finish of a finished tournament, the names as the results page shows them.
DATABASE_FORMAT = "floor-results-db/1"
DATABASE_COLUMNS = (
    "event",
    "date",
    "place",
    "name",
    "country",
    "prize",
    "currency",
    "entries",
    "buy_in",
    "fee",
)


def _local_date(tournament: Tournament) -> str:
    """The start date as the pages show it (the server's time zone, not UTC's)."""
    return timezone.localtime(tournament.starts_at).date().isoformat()


def database_rows(tournament: Tournament, results: Results) -> list[list[Any]]:
    """The finishes as rows of DATABASE_COLUMNS, money as decimals in the currency's unit;
    `country` as ISO 3166-1 alpha-2 where the person's record has one, else empty."""
    date = _local_date(tournament)
    return [
        [
            tournament.name,
            date,
            f.place,
            f.name,
            f.country,
            _decimal(f.prize),
            tournament.currency,
            results.entries,
            _decimal(tournament.buy_in),
            _decimal(tournament.fee),
        ]
        for f in results.finishes
    ]


def database_json(tournament: Tournament, results: Results) -> dict[str, Any]:
    """The same rows as JSON, money in cents as everywhere in the API (docs/results.md)."""
    return {
        "format": DATABASE_FORMAT,
        "event": {
            "id": tournament.pk,
            "name": tournament.name,
            "date": _local_date(tournament),
            "venue": tournament.venue,
            "currency": tournament.currency,
            "entries": results.entries,
            "buy_in": tournament.buy_in,
            "fee": tournament.fee,
            "prize_pool": results.prize_pool,
        },
        "results": [
            {"place": f.place, "name": f.name, "country": f.country or None, "prize": f.prize}
            for f in results.finishes
        ],
    }


# When the tournament has finished, the big screen and the public page show the winner and the
# final results: places, display names (initials once names are withheld) and prizes. With a
# deal the prizes are the amounts agreed (the winner's share plus what was left to play for).

RESULTS_AT_LEAST = 3  # places shown even when no prize is paid (a freeroll)


def final_results(tournament: Tournament) -> dict[str, Any] | None:
    """The public final results of a finished tournament, best place first; None before the
    end. Every place with a prize or a seat won is listed, and at least the first three."""
    if tournament.status != Status.FINISHED:
        return None
    rows: list[dict[str, Any]] = []
    for f in tournament_finishes(tournament):
        if f.place > RESULTS_AT_LEAST and not f.prize and not f.won_seat:
            break
        rows.append(
            {
                "place": f.place,
                "number": f.number,
                "name": f.name,
                "prize": f.prize,
                "won_seat": f.won_seat,
                "deal": f.deal_share is not None,
            }
        )
    deal = tournament.deals.first()
    return {
        "winners": [r for r in rows if r["place"] == 1],
        "places": rows,
        "entries": tournament.entries_counted,
        "satellite": bool(tournament.satellite_seat_value),
        "deal": {
            "method": str(DealMethod(deal.method).label),
            "players": deal.shares.count(),
            "play_for": deal.play_for,
        }
        if deal is not None
        else None,
    }
