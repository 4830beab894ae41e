"""Reads for events with starting flights: the bags of a bag and tag, its report (what is
missing, unconfirmed or flagged), the flights' state, and the places across the whole event.
The checks and rankings are in festivals/domain/."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, NamedTuple

from django.db.models import Max, QuerySet

from counts.models import ChipCount
from counts.selectors import latest_rows
from festivals.domain.bagging import (
    BagCount,
    BagReport,
    Finding,
    Flag,
    Seated,
    bag_report,
    normalise_bag,
    smallest_chip_in_play,
)
from festivals.domain.places import EventPlace, FlightBust, event_places
from festivals.models import Bagging, Flight, FlightEvent
from rules_engine.models import ColourUp
from tournament.domain.collation import name_key
from tournament.models import Entry, EntryStatus, Tournament
from tournament.selectors import TournamentNumbers, tournament_numbers

# "An earlier count of this level" for a table's check: counts taken in this window before bag
# and tag began.
EARLIER_COUNTS = timedelta(hours=1)


def flight_labels(event: FlightEvent) -> dict[int, str]:
    """Tournament id -> flight label ("1A") of an event."""
    return dict(event.flights.values_list("tournament_id", "label"))


def open_bagging(tournament: Tournament) -> Bagging | None:
    return Bagging.objects.filter(tournament=tournament, closed_at__isnull=True).first()


def last_bagging(tournament: Tournament) -> Bagging | None:
    return Bagging.objects.filter(tournament=tournament).order_by("-opened_at", "-id").first()


class BagRow(NamedTuple):
    """One bag count as the pages and the services read it (plain values, no model instance:
    a flight's bag and tag holds thousands)."""

    id: int
    entry_id: int
    chips: int
    bag: str
    verified: bool
    source: str
    recorded_by_id: int | None
    label: str
    table: int | None
    verified_by: str


_BAG_VALUES = (
    "id",
    "entry_id",
    "count",
    "bag_number",
    "verified_at",
    "source",
    "recorded_by_id",
    "recorded_by_label",
    "table_number",
    "verified_by__username",
)


def _bag_row(values: tuple[Any, ...]) -> BagRow:
    i, e, c, bag, at, source, by, label, table, confirmer = values
    return BagRow(i, e, c, bag, at is not None, source, by, label, table, confirmer or "")


def bag_counts(bagging: Bagging) -> QuerySet[ChipCount]:
    """The bag counts of a bag and tag (chip counts with a bag number recorded after it began)."""
    return ChipCount.objects.filter(
        tournament_id=bagging.tournament_id, id__gt=bagging.after_count
    ).exclude(bag_number="")


def latest_bags(bagging: Bagging, entry_ids: Collection[int] | None = None) -> dict[int, BagRow]:
    """Each player's latest bag of this bag and tag (of the players in `entry_ids`, or all), in
    one query."""
    rows = bag_counts(bagging)
    if entry_ids is not None:
        rows = rows.filter(entry_id__in=list(entry_ids))
    return {r.entry_id: r for r in map(_bag_row, latest_rows(rows).values_list(*_BAG_VALUES))}


def bag_holders(bagging: Bagging, bags: Collection[str]) -> dict[str, BagRow]:
    """Who holds these bag numbers now (normalised number -> the holder's latest bag): a player
    who was given another number since holds only the new one."""
    wanted = {normalise_bag(b) for b in bags}
    ids = set(bag_counts(bagging).filter(bag_number__in=wanted).values_list("entry_id", flat=True))
    return {
        normalise_bag(r.bag): r
        for r in latest_bags(bagging, ids).values()
        if normalise_bag(r.bag) in wanted
    }


@dataclass(frozen=True)
class BagLine:
    """One player at a table during bag and tag, as the pages show it."""

    entry_id: int
    number: int
    name: str
    table: int
    seat: int
    count: int | None
    bag: str
    confirmed: bool
    disputed: bool
    counted_by: str
    confirmed_by: str
    before: int | None  # the count this one replaced, when it was re-entered


def _latest_two(
    bagging: Bagging, entry_ids: Collection[int] | None = None
) -> dict[int, list[BagRow]]:
    """Each player's latest bag and the one before it (a re-entered count is disputed when
    they disagree), newest first."""
    rows = bag_counts(bagging)
    if entry_ids is not None:
        rows = rows.filter(entry_id__in=list(entry_ids))
    out: dict[int, list[BagRow]] = {}
    for values in rows.order_by("entry_id", "-id").values_list(*_BAG_VALUES):
        kept = out.setdefault(values[1], [])
        if len(kept) < 2:
            kept.append(_bag_row(values))
    return out


def counted_by(source: str, user_id: int | None, label: str) -> tuple[str, Any]:
    """Who counted: a floor account, or a table's tablet (no account: its label)."""
    return (source, user_id if user_id is not None else label)


def _disputed(rows: list[BagRow]) -> bool:
    """The latest count, not confirmed, disagrees with the one before it by another person (a
    person correcting their own count is a correction, not a dispute)."""
    if len(rows) < 2 or rows[0].verified:
        return False
    last, before = rows
    if counted_by(last.source, last.recorded_by_id, last.label) == counted_by(
        before.source, before.recorded_by_id, before.label
    ):
        return False
    return last.chips != before.chips or normalise_bag(last.bag) != normalise_bag(before.bag)


def disputed(bagging: Bagging, entry_ids: Collection[int]) -> set[int]:
    """Of these players, those whose last two counts (by two people) disagree."""
    return {e for e, rows in _latest_two(bagging, entry_ids).items() if _disputed(rows)}


def _seated(tournament_id: int, table: int | None = None) -> list[tuple[int, int, str, int, int]]:
    """(entry id, number, display name, table, seat) of everyone still in (at one table)."""
    rows = Entry.objects.filter(tournament_id=tournament_id, status=EntryStatus.ACTIVE)
    if table is not None:
        rows = rows.filter(seat__table__number=table)
    values = rows.values_list(
        "pk", "number", "player__display_name", "seat__table__number", "seat__seat"
    )
    return [(e, n, name, t or 0, s or 0) for e, n, name, t, s in values]


def bagging_report(bagging: Bagging) -> BagReport:
    """The bag and tag's state and checks (festivals/domain/bagging.py)."""
    return _report(bagging, None)


def table_findings(bagging: Bagging, table: int) -> list[Finding]:
    """The flags of one table's bags (the room's sum is checked on the whole room only)."""
    report = _report(bagging, table)
    return [f for f in report.findings if f.flag is not Flag.ROOM_SUM_OFF]


def _report(bagging: Bagging, table: int | None) -> BagReport:
    """The checks over everyone still in, or over one table's players."""
    tournament = Tournament.objects.get(pk=bagging.tournament_id)
    seated = _seated(tournament.pk, table)
    latest = _latest_two(bagging, None if table is None else [r[0] for r in seated])
    bags = {
        e: BagCount(
            entry_id=e,
            count=rows[0].chips,
            bag=rows[0].bag,
            verified=rows[0].verified,
            disputed=_disputed(rows),
        )
        for e, rows in latest.items()
    }
    return bag_report(
        [Seated(entry_id=e, table=t, seat=s) for e, _n, _name, t, s in seated],
        bags,
        chips_in_play=tournament_numbers(tournament).chips_in_play,
        smallest_chip=_smallest_chip(bagging),
        leader_before=_leader_before(bagging),
        previous=_earlier_counts(bagging),
        tolerance_bp=bagging.event.tolerance_bp,
    )


def _smallest_chip(bagging: Bagging) -> int | None:
    tournament = bagging.tournament
    if tournament.chip_set_id is None:
        return None
    values = list(tournament.chip_set.denominations.values_list("value", flat=True))
    tournaments = [
        bagging.event.day2_id,
        *bagging.event.flights.values_list("tournament_id", flat=True),
    ]
    gone = set(
        ColourUp.objects.filter(tournament_id__in=tournaments).values_list("removed", flat=True)
    )
    return smallest_chip_in_play(values, gone)


def _in_play_counts(bagging: Bagging) -> QuerySet[ChipCount]:
    return ChipCount.objects.filter(
        tournament_id=bagging.tournament_id,
        id__lte=bagging.after_count,
        entry__status=EntryStatus.ACTIVE,
    )


def _leader_before(bagging: Bagging) -> int | None:
    latest = _in_play_counts(bagging).values("entry_id").annotate(last=Max("id")).values("last")
    return ChipCount.objects.filter(id__in=latest).aggregate(m=Max("count"))["m"]


def _earlier_counts(bagging: Bagging) -> dict[int, int]:
    since: datetime = bagging.opened_at - EARLIER_COUNTS
    rows = _in_play_counts(bagging).filter(recorded_at__gte=since).order_by("entry_id", "id")
    return {e: c for e, c in rows.values_list("entry_id", "count")}


def table_lines(bagging: Bagging, table: int | None = None) -> list[BagLine]:
    """Everyone still in (at one table, or all), by table and seat, with their latest bag."""
    seated = _seated(bagging.tournament_id, table)
    latest = _latest_two(bagging, None if table is None else [r[0] for r in seated])
    lines = []
    for e, n, name, t, s in sorted(seated, key=lambda r: (r[3], r[4])):
        rows = latest.get(e, [])
        last = rows[0] if rows else None
        lines.append(
            BagLine(
                entry_id=e,
                number=n,
                name=name,
                table=t,
                seat=s,
                count=last.chips if last else None,
                bag=last.bag if last else "",
                confirmed=bool(last and last.verified),
                disputed=_disputed(rows),
                counted_by=last.label if last else "",
                confirmed_by=last.verified_by if last else "",
                before=rows[1].chips if len(rows) > 1 else None,
            )
        )
    return lines


def lines_by_table(bagging: Bagging) -> dict[int, list[BagLine]]:
    out: dict[int, list[BagLine]] = {}
    for line in table_lines(bagging):
        out.setdefault(line.table, []).append(line)
    return out


# --- The event as a whole ---------------------------------------------------------------------


@dataclass(frozen=True)
class FlightState:
    flight: Flight
    tournament: Tournament
    entries: int
    players_left: int
    bagging: Bagging | None
    report: BagReport | None


@dataclass(frozen=True)
class EventState:
    event: FlightEvent
    flights: list[FlightState]
    day2: Tournament
    numbers: TournamentNumbers
    ready_to_draw: bool
    survivors: int
    day2_baggings: list[Bagging]
    chips_in_play: int  # the flights' chips before the Day-2 draw, the Day 2's after


def event_state(event: FlightEvent, *, reports: bool = True) -> EventState:
    flights = []
    for flight in event.flights.select_related("tournament").order_by("position"):
        t = flight.tournament
        bagging = last_bagging(t)
        # Only a day under way needs its checks (a closed day shows what it kept).
        under_way = reports and bagging is not None and bagging.closed_at is None
        report = bagging_report(bagging) if under_way and bagging is not None else None
        flights.append(
            FlightState(
                flight=flight,
                tournament=t,
                entries=t.entries_counted,
                players_left=t.players_left,
                bagging=bagging,
                report=report,
            )
        )
    day2 = event.day2
    ready = event.drawn_at is None and all(
        f.bagging is not None and f.bagging.closed_at is not None for f in flights
    )
    survivors = sum(f.bagging.survivors for f in flights if f.bagging and f.bagging.closed_at)
    numbers = tournament_numbers(day2)
    chips = numbers.chips_in_play if event.drawn_at else sum(f.tournament.chips_in for f in flights)
    return EventState(
        event=event,
        flights=flights,
        day2=day2,
        numbers=numbers,
        ready_to_draw=ready,
        survivors=survivors,
        day2_baggings=list(Bagging.objects.filter(tournament=day2).order_by("opened_at")),
        chips_in_play=chips,
    )


@dataclass(frozen=True)
class Standing:
    place: int
    shared_to: int
    name: str
    reached: str  # "2" or the flight's label
    prize: int
    still_in: bool = False


def event_standings(event: FlightEvent) -> list[Standing]:
    """Places across the whole event (festivals/domain/places.py): Day-2 players first, then the
    Day-1 busts of every flight by how many busts of their flight came after theirs; a shared
    place (everyone still in before the draw) in German order of the names."""
    labels = {f.position: f.label for f in event.flights.all()}
    flight_of = dict(event.flights.values_list("tournament_id", "position"))
    busts: list[FlightBust] = []
    names: dict[int, tuple[str, str, int]] = {}
    survivors: dict[int, int] = {}
    for tid, position in flight_of.items():
        survivors[position] = Entry.objects.filter(
            tournament_id=tid, status=EntryStatus.ACTIVE
        ).count()
        for e, place, name in Entry.objects.filter(
            tournament_id=tid, status=EntryStatus.BUSTED, place__isnull=False
        ).values_list("pk", "place", "player__display_name"):
            busts.append(FlightBust(key=e, flight=position, flight_place=place or 0))
            names[e] = (name, labels[position], 0)
    day2: list[tuple[int, int | None]] = []
    seen: set[int] = set()
    for e, player, place, status, name, prize in Entry.objects.filter(
        tournament_id=event.day2_id
    ).values_list("pk", "player_id", "place", "status", "player__display_name", "prize"):
        if status in (EntryStatus.ACTIVE, EntryStatus.BUSTED):
            seen.add(player)
            day2.append((e, place if status == EntryStatus.BUSTED else None))
            names[e] = (name, "2", prize)
    if event.drawn_at is None:
        # Before the draw the players still in a flight whose day is not closed (one row per
        # person, none already carried into the Day 2 from a closed day) reach Day 2 as well:
        # they all share the top places.
        for e, player, tid, name in Entry.objects.filter(
            tournament_id__in=list(flight_of), status=EntryStatus.ACTIVE
        ).values_list("pk", "player_id", "tournament_id", "player__display_name"):
            if player not in seen:
                seen.add(player)
                day2.append((e, None))
                names[e] = (name, labels[flight_of[tid]], 0)
    places = event_places(day2, busts, survivors)
    playing = {key for key, place in day2 if place is None}
    rows = [_standing(p, names, p.key in playing) for p in places]
    return sorted(rows, key=lambda r: (r.place, name_key(r.name)))


def _standing(p: EventPlace, names: dict[int, tuple[str, str, int]], still_in: bool) -> Standing:
    name, reached, prize = names[p.key]
    return Standing(
        place=p.place,
        shared_to=p.shared_to,
        name=name,
        reached=reached,
        prize=prize,
        still_in=still_in,
    )


def festival_of(tournament: Tournament) -> dict[str, Any] | None:
    """For a tournament's pages: its event and its part in it (flight label or Day 2)."""
    flight = Flight.objects.filter(tournament=tournament).select_related("event").first()
    if flight is not None:
        return {"event": flight.event, "label": flight.label, "is_day2": False}
    event = FlightEvent.objects.filter(day2=tournament).first()
    if event is not None:
        return {"event": event, "label": "2", "is_day2": True}
    return None
