"""Chart data of a league: the season's race (the standings after each night) and a person's
history (their finish and points per night). Pure: plain rows in, plain data out; the views
(leagues/chart_views.py) draw it with core.charts and show the table beside it (docs/leagues.md,
"The season's race"; docs/players.md).

The race counts exactly as the standings do: after night k, each player's total is `tally` of
their results in the first k finished nights (best N, participation points), and the ranks are
`shared_ranks`' (equal totals share a rank). So the race's last point of every player is their
total in the standings, and what it shows after night k never depends on a later night.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from itertools import pairwise
from typing import NamedTuple

from leagues.domain.points import Points, PointsError, Result, tally

TOP = 10  # the race draws the first ten of the standings


class Night(NamedTuple):
    """A finished tournament of the season, in the season's order."""

    tournament: int
    label: str  # the x axis' text (a date, a short name)


class Racer(NamedTuple):
    """A player of the standings with their results in the season's order (the standings row's
    played cells); `name` as the page shows it (public pages: the public name)."""

    player: int
    name: str
    results: Sequence[Result]


@dataclass(frozen=True, slots=True)
class RaceLine:
    player: int
    name: str
    totals: tuple[Points | None, ...]  # after each night; None before their first result
    ranks: tuple[int | None, ...]  # their rank after each night; None before their first result


@dataclass(frozen=True, slots=True)
class Race:
    nights: tuple[Night, ...]
    lines: tuple[RaceLine, ...]  # the top players, in the order of the standings given
    players: int  # players in the standings

    @property
    def empty(self) -> bool:
        """Nothing to draw: no finished night or nobody with a result."""
        return not self.nights or not self.lines


def race(
    nights: Sequence[Night],
    racers: Sequence[Racer],
    *,
    best_n: int | None,
    participation: int,
    top: int = TOP,
) -> Race:
    """The standings after each of `nights` for the first `top` of `racers` (every player of the
    standings, in the standings' order: the current or final ranking, ties as the page orders
    them). Each player's total after night k is `tally` of their results up to night k; their
    rank after night k is 1 + the players with more points then (equal totals share a rank;
    players without a result yet are not ranked). A result of a night not in `nights` is left
    out."""
    if best_n is not None and best_n < 1:
        raise PointsError("best_n", "Best N must be at least 1.")
    column = {night.tournament: k for k, night in enumerate(nights)}
    shown = racers[: max(top, 0)]
    # changes[k]: the players whose total changes at night k, with their new total.
    changes: list[list[tuple[int, Points]]] = [[] for _ in nights]
    lines: dict[int, list[Points | None]] = {r.player: [None] * len(nights) for r in shown}
    played = 0
    for racer in racers:
        own = [r for r in racer.results if r.tournament in column]
        if not own:
            continue
        played += 1
        if any(column[a.tournament] > column[b.tournament] for a, b in pairwise(own)):
            own.sort(key=lambda r: column[r.tournament])
        line = lines.get(racer.player)
        running: Points = 0
        for m, result in enumerate(own):
            k = column[result.tournament]
            running += result.points
            if best_n is None or m < best_n:
                # tally's own sum while every result counts (the same total, without the copy)
                total = running + participation * (m + 1)
            else:
                total = tally(own[: m + 1], best_n=best_n, participation=participation).total
            changes[k].append((racer.player, total))
            if line is not None:
                line[k] = total
    # The totals of the shown players carry over the nights they did not play.
    for line in lines.values():
        for k in range(1, len(line)):
            if line[k] is None:
                line[k] = line[k - 1]
    ranks: dict[int, list[int | None]] = {r.player: [None] * len(nights) for r in shown}
    current: dict[int, Points] = {}
    for k, changed in enumerate(changes):
        current.update(changed)
        if not current or not ranks:
            continue
        ascending = sorted(current.values())
        everyone = len(ascending)
        for player, mine in ranks.items():
            if (now := current.get(player)) is not None:
                mine[k] = 1 + everyone - bisect_right(ascending, now)
    return Race(
        nights=tuple(nights),
        lines=tuple(
            RaceLine(r.player, r.name, tuple(lines[r.player]), tuple(ranks[r.player]))
            for r in shown
            if any(t is not None for t in lines[r.player])
        ),
        players=played,
    )


def race_table(race_: Race) -> tuple[list[str], list[list[Points | int | str | None]]]:
    """The race as a table (the figure's data): a row per night, its label then each shown
    player's total and rank after it (None: no result yet). Headers: the players' names (the
    view adds the words of the first column)."""
    headers = [line.name for line in race_.lines]
    rows: list[list[Points | int | str | None]] = []
    for k, night in enumerate(race_.nights):
        row: list[Points | int | str | None] = [night.label]
        for line in race_.lines:
            row.append(line.totals[k])
            row.append(line.ranks[k])
        rows.append(row)
    return headers, rows


# --- A person's history ------------------------------------------------------------------


class Finish(NamedTuple):
    """One entry of a person in a finished tournament (a re-entry is another Finish of the same
    tournament)."""

    tournament: int
    label: str
    starts_at: datetime
    place: int | None  # None: no place (yet)
    field: int  # the entries counted
    points: Points | None  # league points of this finish; None: counts for no season


class NightOfPerson(NamedTuple):
    tournament: int
    label: str
    place: int | None  # the best place of their entries that night
    field: int
    points: Points | None  # the best points of their entries that night (as standings count)
    entries: int  # their entries that night (1 + re-entries)


@dataclass(frozen=True, slots=True)
class PersonHistory:
    nights: tuple[NightOfPerson, ...]  # oldest first

    @property
    def empty(self) -> bool:
        """Nothing to draw: no tournament with a place."""
        return not any(n.place is not None for n in self.nights)

    @property
    def with_points(self) -> bool:
        return any(n.points is not None for n in self.nights)

    @property
    def x_labels(self) -> list[str]:
        return [n.label for n in self.nights]

    @property
    def places(self) -> list[int | None]:
        return [n.place for n in self.nights]

    @property
    def fields(self) -> list[int]:
        return [n.field for n in self.nights]

    @property
    def points(self) -> list[Points | None]:
        return [n.points for n in self.nights]


def person_history(finishes: Sequence[Finish]) -> PersonHistory:
    """A person's nights, oldest first (by start, then tournament): per tournament their best
    place and the best points of their entries (the standings count a player's best finish of a
    night), the field and how many entries they had."""
    by_tournament: dict[int, list[Finish]] = {}
    for f in finishes:
        by_tournament.setdefault(f.tournament, []).append(f)
    nights = []
    for tournament, own in by_tournament.items():
        places = [f.place for f in own if f.place is not None]
        points = [f.points for f in own if f.points is not None]
        first = own[0]
        nights.append(
            (
                first.starts_at,
                tournament,
                NightOfPerson(
                    tournament=tournament,
                    label=first.label,
                    place=min(places) if places else None,
                    field=max(f.field for f in own),
                    points=max(points) if points else None,
                    entries=len(own),
                ),
            )
        )
    nights.sort(key=lambda row: (row[0], row[1]))
    return PersonHistory(tuple(night for _when, _pk, night in nights))


def history_table(history: PersonHistory) -> list[list[str | int | Points | None]]:
    """The history as a table: per night its label, the place, the field and the points."""
    return [[n.label, n.place, n.field, n.points] for n in history.nights]
