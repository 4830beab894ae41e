"""Reads about people across tournaments (docs/players.md): likely duplicates, a person's
history for staff and the results a public profile shows. League points are not read here
(the tournament app does not know leagues): actions/views.py adds them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from django.db.models import Count, Max, Min

from tournament.domain.people import DuplicateGroup, PersonKeys, Reason, duplicate_groups
from tournament.models import Entry, EntryStatus, Player, Status
from tournament.public_selectors import names_withheld


@dataclass(frozen=True)
class DuplicateRecords:
    """One group of records that look like one person, as the duplicates page lists it."""

    group: DuplicateGroup
    players: Sequence[Player]  # annotated: entry_count, first_played, last_played

    @property
    def reasons(self) -> list[Reason]:
        return sorted(self.group.reasons, key=lambda r: list(Reason).index(r))

    @property
    def pairs(self) -> list[tuple[Player, Player]]:
        """The merges to look at: the first record with each of the others."""
        return [(self.players[0], p) for p in self.players[1:]]


def duplicates_found() -> list[DuplicateRecords]:
    """Every group of likely duplicates (tournament/domain/people.py), most entries first
    within a group; groups in the order of their lowest id. Reads every record's keys once."""
    keys = [
        PersonKeys(
            id=pk,
            name=name,
            birth_year=year,
            email=email,
            phone=phone,
            membership_number=number,
        )
        for pk, name, year, email, phone, number in Player.objects.values_list(
            "pk", "name", "birth_year", "email", "phone", "membership_number"
        ).iterator(chunk_size=5000)
    ]
    groups = duplicate_groups(keys)
    ids = [pk for g in groups for pk in g.ids]
    players = {
        p.pk: p
        for p in Player.objects.filter(pk__in=ids).annotate(
            entry_count=Count("entries"),
            first_played=Min("entries__tournament__starts_at"),
            last_played=Max("entries__tournament__starts_at"),
        )
    }
    found = []
    for g in groups:
        members = sorted(
            (players[pk] for pk in g.ids if pk in players),
            key=lambda p: (-p.entry_count, p.pk),
        )
        if len(members) > 1:
            found.append(DuplicateRecords(group=g, players=members))
    return found


@dataclass(frozen=True)
class HistoryRow:
    entry: Entry
    deal_share: int | None  # cents
    points: float | None = None  # league points of this entry (filled in by actions/views.py)
    season: object | None = None  # the season the tournament counts for (likewise)


@dataclass
class HistoryTotals:
    entries: int = 0
    cashes: int = 0
    # by currency: prizes and bounties won, in cents
    prizes: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    bounties: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def _rows(entries: list[Entry]) -> list[HistoryRow]:
    rows = []
    for e in entries:
        share = getattr(e, "deal_share", None)
        rows.append(HistoryRow(entry=e, deal_share=share.amount if share is not None else None))
    return rows


def person_history(player: Player) -> list[HistoryRow]:
    """Every entry of `player` (refunded registrations left out), newest tournament first."""
    entries = list(
        player.entries.exclude(status=EntryStatus.UNREGISTERED)
        .select_related("tournament", "deal_share")
        .order_by("-tournament__starts_at", "-tournament_id", "-number")
    )
    return _rows(entries)


def history_totals(rows: list[HistoryRow]) -> HistoryTotals:
    """Entries, cashes (an entry with a prize) and the money won, by currency."""
    totals = HistoryTotals()
    for row in rows:
        e = row.entry
        totals.entries += 1
        if e.prize > 0:
            totals.cashes += 1
            totals.prizes[e.tournament.currency] += e.prize
        if e.bounties_won:
            totals.bounties[e.tournament.currency] += e.bounties_won
    totals.prizes = dict(totals.prizes)
    totals.bounties = dict(totals.bounties)
    return totals


def public_history(player: Player) -> list[HistoryRow]:
    """What a public profile shows: the finishes of finished tournaments whose public pages
    still show names (FLOOR_PUBLIC_RESULTS_DAYS); older results show no name, so no profile
    lists them either."""
    entries = [
        e
        for e in player.entries.filter(tournament__status=Status.FINISHED, place__isnull=False)
        .exclude(status=EntryStatus.UNREGISTERED)
        .select_related("tournament", "deal_share")
        .order_by("-tournament__starts_at", "-tournament_id", "place")
        if not names_withheld(status=e.tournament.status, starts_at=e.tournament.starts_at)
    ]
    return _rows(entries)
