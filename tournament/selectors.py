"""Reads for tournaments: prize pool, payouts, counts and search."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q, QuerySet, Sum
from django.utils.translation import gettext as _

from core.errors import FloorError
from core.inputs import search_text, whole_number_or_none
from rules_engine.domain.rulesets import Ruleset, ruleset, version_in_force
from tournament.domain.collation import by_name
from tournament.domain.ledger import LedgerError, Pool, pool_of
from tournament.domain.names import query_words
from tournament.domain.payouts import PayoutError, payout_table, satellite_payouts
from tournament.models import BountyKind, Entry, Event, Player, Tournament
from tournament.validation import SettingsBroken


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
    # How the pool is made (tournament/domain/ledger.py): contributions less the staff fee
    # withheld, plus the house's contribution, plus the overlay up to the guarantee.
    pool: Pool | None = None
    # An event's Day 2: the players' money and the fees its flights took, counted above with
    # its own (the flights hold that money, the Day 2 owes the pool; docs/ledger.md).
    carried_in: int = 0
    carried_fees: int = 0


def tournament_numbers(tournament: Tournament, *, fresh: bool = True) -> TournamentNumbers:
    """The tournament's numbers, from the counts the database keeps (tournament/counters.py),
    read fresh in one query: the caller's copy of the row may be older than its writes.
    `fresh=False`: the copy's own counts, for a caller that has just read the row."""
    row = (
        Tournament.objects.values_list(*Tournament.counters).get(pk=tournament.pk)
        if fresh
        else tuple(getattr(tournament, name) for name in Tournament.counters)
    )
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
    ) = row
    carried_in = carried_fees = 0
    if tournament.pooled:
        # An event's Day 2: the entries and the money are its flights' and its own buy-ins
        # (its carried stacks are not entries, festivals/).
        fed = Tournament.objects.filter(pool_to=tournament.pk).aggregate(
            entries=Sum("entries_counted"), paid=Sum("paid_in"), fees=Sum("fees_in")
        )
        entries = (fed["entries"] or 0) + buyins + reentries
        carried_in, carried_fees = fed["paid"] or 0, fed["fees"] or 0
        paid_in += carried_in
        fees_in += carried_fees
    bounty_pool = 0
    if tournament.bounty_kind != BountyKind.NONE:
        bounty_pool = tournament.bounty * (buyins + reentries)
    contributions = paid_in - bounty_pool
    try:
        made = pool_of(
            contributions,
            withholding_bp=tournament.withholding_bp,
            house=tournament.house_contribution,
            guarantee=tournament.guarantee,
        )
    except LedgerError as exc:
        raise _broken(tournament) from exc
    return TournamentNumbers(
        entries=entries,
        players_left=left,
        alternates=alternates,
        chips_in_play=chips,
        average_stack=chips // left if left else 0,
        prize_pool=made.total,
        contributions=contributions,
        fees=fees_in,
        rebuys=rebuys,
        addons=addons,
        bounty_pool=bounty_pool,
        pool=made,
        carried_in=carried_in,
        carried_fees=carried_fees,
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
    if tournament.pool_to_id:
        return []  # a starting flight: its event's Day 2 pays the places
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
    problem = None
    for unit in (tournament.payout_unit, 1):  # 1: a table the unit cannot make (a tiny pool)
        try:
            return list(payout_table(numbers.prize_pool, numbers.entries, unit=unit, places=places))
        except PayoutError as exc:
            problem = exc
    raise _broken(tournament) from problem


def _broken(tournament: Tournament) -> SettingsBroken:
    return SettingsBroken(
        _(
            "The settings of “%(name)s” break a rule (they were saved before it was checked), "
            "so its prize pool and payouts cannot be shown. A director can correct them in "
            "the tournament's settings."
        )
        % {"name": tournament.name}
    )


def name_query(query: str, *, through: str = "") -> Q:
    """Players whose full or display name holds every word of `query`, in any order, case,
    accents and German umlauts folded (tournament/domain/names.py). `through` reaches the
    player from another model ("player__"). No words: nobody."""
    words = query_words(query)
    if not words:
        return Q(pk__in=[])
    cond = Q()
    for word in words:
        cond &= Q(**{f"{through}search_key__contains": word})
    return cond


def entry_search(tournament: Tournament, query: str) -> QuerySet[Entry]:
    """The entries a search finds: none typed, the latest first; a number, that entry; else by
    name (the rows, for filtering further: `entries_found` gives them in German order)."""
    entries = tournament.entries.select_related("player", "seat__table")
    query = search_text(query)
    if not query:
        return entries.order_by("-number")
    number = whole_number_or_none(query, low=1)
    if number is not None or query.isdigit():
        return entries.filter(number=number or 0)
    cond = name_query(query, through="player__")
    return entries.filter(cond).order_by("number")


def entries_found(tournament: Tournament, query: str, limit: int) -> list[Entry]:
    """At most `limit` of what `entry_search` finds; a search by name in German alphabetical
    order of the names (tournament/domain/collation.py), sorted here: the database's order is
    by code point (or its own locale). Every match is read to sort it; a name search within one
    tournament matches few of its entries, and at most all of them."""
    found = entry_search(tournament, query)
    text = search_text(query)
    if not text or whole_number_or_none(text, low=1) is not None or text.isdigit():
        return list(found[:limit])
    return by_name(found, lambda e: e.player.name)[:limit]


def players_by_name(players: QuerySet[Player], limit: int) -> list[Player]:
    """The first `limit` of `players` in German alphabetical order (tournament/domain/
    collation.py). Sorted here, not in the database (whose order is by code point, or by its
    own locale, and differs between SQLite and PostgreSQL): the ids and names of every match
    are read (a club's register: thousands of short rows at most), sorted (keys cached per
    name), and only the first `limit` rows fetched whole, in that order."""
    pairs = sorted(players.order_by().values_list("pk", "name"))
    chosen = [pk for pk, _name in by_name(pairs, lambda p: p[1])[:limit]]
    rows = players.order_by().in_bulk(chosen)
    return [rows[pk] for pk in chosen if pk in rows]


# The event an import writes when it gave the tournament's rows new ids.
IMPORT_RENUMBERED = "tournament.import"


def event_renumbered(*, event: Event) -> bool:
    """Whether an import gave the tournament's rows new ids after this event was recorded: the
    ids in its payload then no longer name the same rows, and nothing may act on them."""
    return Event.objects.filter(
        tournament=event.tournament_id, action=IMPORT_RENUMBERED, pk__gt=event.pk
    ).exists()


# Which rulebook, in which version, the tournament plays by: a setting of the tournament, read
# by the tables (the balancing rules, the dealer's tablet) and the rules engine.
def tournament_version(tournament: Tournament) -> str:
    """The version of its ruleset the tournament plays under: the one it recorded, or the newest
    when it recorded none (tournaments made before versions were kept)."""
    try:
        return version_in_force(tournament.ruleset, tournament.ruleset_version)
    except KeyError as exc:
        raise FloorError(
            _("The tournament's ruleset is not available: %(reason)s") % {"reason": exc}
        ) from exc


def tournament_ruleset(tournament: Tournament) -> Ruleset:
    """The ruleset in force for the tournament, in the tournament's version."""
    return ruleset(tournament.ruleset, tournament_version(tournament))
