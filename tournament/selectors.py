"""Reads for tournaments: prize pool, payouts, counts and search."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet

from tournament.domain.payouts import PayoutError, payout_table, prize_pool, satellite_payouts
from tournament.models import BountyKind, Entry, Tournament


@dataclass(frozen=True)
class TournamentNumbers:
    entries: int
    players_left: int
    alternates: int
    chips_in_play: int
    average_stack: int
    prize_pool: int
    contributions: int
    fees: int
    rebuys: int
    addons: int
    bounty_pool: int = 0  # the bounties taken out of the buy-ins


def tournament_numbers(tournament: Tournament) -> TournamentNumbers:
    """The tournament's numbers, from the counts the database keeps (tournament/counters.py),
    read fresh in one query: the caller's copy of the row may be older than its writes."""
    (
        left,
        entries,
        alternates,
        paid_in,
        fees_in,
        chips,
        buyins,
        reentries,
        rebuys,
        addons,
        _tables_open,
    ) = Tournament.objects.values_list(*Tournament.counters).get(pk=tournament.pk)
    bounty_pool = 0
    if tournament.bounty_kind != BountyKind.NONE:
        bounty_pool = tournament.bounty * (buyins + reentries)
    contributions = paid_in - bounty_pool
    return TournamentNumbers(
        entries=entries,
        players_left=left,
        alternates=alternates,
        chips_in_play=chips,
        average_stack=chips // left if left else 0,
        prize_pool=prize_pool(contributions, tournament.guarantee),
        contributions=contributions,
        fees=fees_in,
        rebuys=rebuys,
        addons=addons,
        bounty_pool=bounty_pool,
    )


def satellite_seats(tournament: Tournament, numbers: TournamentNumbers | None = None) -> int:
    """How many seats the satellite's pool buys (0 when it is not a satellite)."""
    if not tournament.satellite_seat_value:
        return 0
    numbers = numbers or tournament_numbers(tournament)
    return satellite_payouts(numbers.prize_pool, tournament.satellite_seat_value)[0]


def payout_amounts(tournament: Tournament, numbers: TournamentNumbers | None = None) -> list[int]:
    """Prize per place (index 0 = 1st): the manual table if the director set one, else the
    default schedule for the field size, rounded to the tournament's unit and summing exactly
    to the pool."""
    if tournament.satellite_seat_value:
        numbers = numbers or tournament_numbers(tournament)
        return satellite_payouts(numbers.prize_pool, tournament.satellite_seat_value)[2]
    manual = list(tournament.payouts.order_by("place").values_list("amount", flat=True))
    if manual:
        return manual
    numbers = numbers or tournament_numbers(tournament)
    if numbers.entries < 1 or numbers.prize_pool == 0:
        return []
    places = tournament.places_paid
    if places is not None:
        places = min(places, numbers.entries)
    try:
        return list(
            payout_table(
                numbers.prize_pool, numbers.entries, unit=tournament.payout_unit, places=places
            )
        )
    except PayoutError:
        return list(payout_table(numbers.prize_pool, numbers.entries, unit=1, places=places))


def entry_search(tournament: Tournament, query: str) -> QuerySet[Entry]:
    entries = tournament.entries.select_related("player", "seat__table")
    query = query.strip()
    if not query:
        return entries.order_by("-number")
    if query.isdigit():
        return entries.filter(number=int(query))
    cond = Q()
    for word in query.split():
        cond &= Q(player__name__icontains=word) | Q(player__display_name__icontains=word)
    return entries.filter(cond).order_by("player__name")
