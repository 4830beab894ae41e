"""The festival's day report (docs/results.md, "The festival's day report"): for each flight
and the Day 2, the day's play (entries, re-entries, the players bagged and their chips, the chip
leader) and the day's money as the cage counts it (the event's money counted once: each
flight's part, tournament/ledger_selectors.py `event_cage`), for one date or the whole event.

The money of the rows shown adds up with `reckonings_sum`, as the cage's day and event reports
do, so the report's totals are the cage page's to the cent."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from django.utils import timezone

from festivals.models import Bagging, FlightEvent
from festivals.selectors import latest_bags
from tournament.domain.ledger import Reckoning, reckonings_sum
from tournament.ledger_selectors import TournamentCage, event_cage
from tournament.models import Entry, Tournament


@dataclass(frozen=True)
class Bagged:
    """The players bagged at the end of a day and their chips: as the day closed, or the bags
    recorded so far while bag and tag is under way."""

    day: str  # the day that ended: "1A", "2", "3"
    closed: bool
    players: int
    chips: int
    leader: str  # the chip leader's display name ("" when nobody is bagged)
    leader_chips: int

    @property
    def average(self) -> int:
        return self.chips // self.players if self.players else 0


@dataclass(frozen=True)
class DayRow:
    label: str  # "1A" for a flight, "2" for the Day 2
    is_day2: bool
    tournament: Tournament
    date: date
    entries: int
    reentries: int
    players_left: int
    bagged: list[Bagged]
    cage: TournamentCage


@dataclass(frozen=True)
class DayReport:
    event: FlightEvent
    day: date | None  # None: the whole event
    days: list[date]  # the dates the event plays on
    rows: list[DayRow]
    money: Reckoning  # the rows' money together
    currency: str

    @property
    def entries(self) -> int:
        return sum(r.entries for r in self.rows if not r.is_day2)

    @property
    def reentries(self) -> int:
        return sum(r.reentries for r in self.rows)

    @property
    def bagged_players(self) -> int:
        """The players the flights shown bagged for the Day 2, their days closed (as the
        festival view counts them); a bag and tag under way shows in its own row."""
        return sum(
            b.players for r in self.rows for b in r.bagged[-1:] if not r.is_day2 and b.closed
        )

    @property
    def balanced(self) -> bool:
        return self.money.unexplained == 0 and all(r.cage.balanced for r in self.rows)


def _bagged(bagging: Bagging) -> Bagged:
    bags = latest_bags(bagging)
    if bagging.closed_at is not None:
        players, chips = bagging.survivors, bagging.chips
    else:
        players, chips = len(bags), sum(b.chips for b in bags.values())
    top = max(bags.values(), key=lambda b: (b.chips, -b.entry_id), default=None)
    name = ""
    if top is not None:
        name = (
            Entry.objects.filter(pk=top.entry_id)
            .values_list("player__display_name", flat=True)
            .first()
            or ""
        )
    return Bagged(
        day=bagging.day,
        closed=bagging.closed_at is not None,
        players=players,
        chips=chips,
        leader=name,
        leader_chips=top.chips if top is not None else 0,
    )


def day_report(event: FlightEvent, day: date | None = None) -> DayReport:
    """The event's flights and its Day 2 (those that start on `day`, or all), each with its
    day's play and money."""
    cage = event_cage(event.day2)
    assert cage is not None  # a Day 2 is always its event's
    labels = dict(event.flights.values_list("tournament_id", "label"))
    baggings: dict[int, list[Bagging]] = {}
    for b in Bagging.objects.filter(event=event).order_by("opened_at", "id"):
        baggings.setdefault(b.tournament_id, []).append(b)
    all_rows = []
    for part in cage.parts:
        t = part.tournament
        is_day2 = t.pk == event.day2_id
        all_rows.append(
            DayRow(
                label="2" if is_day2 else labels.get(t.pk, "?"),
                is_day2=is_day2,
                tournament=t,
                date=timezone.localtime(t.starts_at).date(),
                entries=t.entries_counted,
                reentries=t.bought_reentries,
                players_left=t.players_left,
                bagged=[_bagged(b) for b in baggings.get(t.pk, [])],
                cage=part,
            )
        )
    rows = [r for r in all_rows if day is None or r.date == day]
    return DayReport(
        event=event,
        day=day,
        days=sorted({r.date for r in all_rows}),
        rows=rows,
        money=reckonings_sum(r.cage.reckoning for r in rows),
        currency=event.day2.currency,
    )
