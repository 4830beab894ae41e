"""Places in a multi-flight event: Day 2 first, then everyone who busted on Day 1.

The rulebooks (tda-de, bdpv) have no flight rule; the formula is the event's documented policy:
a Day-1 bust is ranked by how many players of his own flight busted after him (the flight's
last bust ranks best), and busts with the same number in different flights share the places.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class FlightBust:
    key: int  # an id the caller chooses (entry id)
    flight: int
    flight_place: int  # the place in its flight (1 = best)


@dataclass(frozen=True)
class EventPlace:
    key: int
    place: int  # best place of the shared range
    shared_to: int  # == place when not shared


def busts_after(bust: FlightBust, survivors_per_flight: Mapping[int, int]) -> int:
    """How many players of the bust's flight busted after him: flight_place - survivors - 1
    (0 = the flight's last bust). A flight missing from `survivors_per_flight` had none."""
    return bust.flight_place - survivors_per_flight.get(bust.flight, 0) - 1


def event_places(
    day2: Sequence[tuple[int, int | None]],
    busts: Sequence[FlightBust],
    survivors_per_flight: Mapping[int, int],
) -> list[EventPlace]:
    """The event's places, best first (then by key).

    `day2`: (key, Day-2 place, or None while still playing). Day-2 players take places 1..N2:
    those with a place keep it (players given the same place share it with the next ones:
    place .. place + count - 1), those still playing share 1..(number still playing).
    Day-1 busts rank below all of Day 2, ordered by how many busts of their own flight came
    after theirs (`busts_after`: smaller is better); equal numbers across flights share the
    places (place .. shared_to). Precondition: the Day-2 places given are those after the
    players still playing, as the Day-2 bust order hands them out."""
    result: list[EventPlace] = []
    playing = sorted(key for key, place in day2 if place is None)
    result += [EventPlace(key, 1, len(playing)) for key in playing]
    given: dict[int, list[int]] = defaultdict(list)
    for key, place in day2:
        if place is not None:
            given[place].append(key)
    for place, keys in given.items():
        result += [EventPlace(key, place, place + len(keys) - 1) for key in sorted(keys)]
    by_rank: dict[int, list[int]] = defaultdict(list)
    for bust in busts:
        by_rank[busts_after(bust, survivors_per_flight)].append(bust.key)
    place = len(day2) + 1
    for rank in sorted(by_rank):
        keys = sorted(by_rank[rank])
        result += [EventPlace(key, place, place + len(keys) - 1) for key in keys]
        place += len(keys)
    result.sort(key=lambda p: (p.place, p.key))
    return result
