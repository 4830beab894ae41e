"""Event places without a database: Day 2 above Day 1, Day-1 busts ranked by the busts of their
own flight after them, equal ranks sharing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from festivals.domain.places import EventPlace, FlightBust, busts_after, event_places


def test_day2_players_still_playing_share_the_top_places() -> None:
    places = event_places([(1, None), (2, None), (3, 3)], [], {})
    assert places == [EventPlace(1, 1, 2), EventPlace(2, 1, 2), EventPlace(3, 3, 3)]


def test_day1_busts_rank_by_the_busts_after_them_in_their_flight() -> None:
    # flight 0: 2 survivors, busts at places 3, 4; flight 1: 1 survivor, busts at places 2, 3, 4
    busts = [
        FlightBust(10, 0, 3),
        FlightBust(11, 0, 4),
        FlightBust(20, 1, 2),
        FlightBust(21, 1, 3),
        FlightBust(22, 1, 4),
    ]
    assert busts_after(busts[0], {0: 2, 1: 1}) == 0
    places = event_places([(1, None), (2, 3), (3, 2)], busts, {0: 2, 1: 1})
    assert places == [
        EventPlace(1, 1, 1),
        EventPlace(3, 2, 2),
        EventPlace(2, 3, 3),
        EventPlace(10, 4, 5),  # last busts of their flights share 4-5
        EventPlace(20, 4, 5),
        EventPlace(11, 6, 7),
        EventPlace(21, 6, 7),
        EventPlace(22, 8, 8),
    ]


def test_a_flight_missing_from_the_survivors_had_none() -> None:
    assert event_places([], [FlightBust(5, 3, 1)], {}) == [EventPlace(5, 1, 1)]


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 12),
    st.integers(0, 12),
    st.lists(st.tuples(st.integers(0, 5), st.integers(0, 15)), max_size=5),
)
def test_places_form_a_contiguous_ranking_with_consistent_shares(n2, busted, flights) -> None:
    playing = n2 - min(busted, n2)
    day2 = [(k, None if k < playing else n2 - (k - playing)) for k in range(n2)]
    survivors: dict[int, int] = {}
    busts: list[FlightBust] = []
    key = 1_000
    for flight, (alive, out) in enumerate(flights):
        survivors[flight] = alive
        for place in range(alive + 1, alive + out + 1):
            busts.append(FlightBust(key, flight, place))
            key += 1
    places = event_places(day2, busts, survivors)
    assert len(places) == n2 + len(busts)
    assert len({p.key for p in places}) == len(places)
    groups: dict[tuple[int, int], int] = {}
    for p in places:
        assert p.place <= p.shared_to
        groups[(p.place, p.shared_to)] = groups.get((p.place, p.shared_to), 0) + 1
    # each shared range holds exactly as many players as places, and the ranges tile 1..N
    expected = 1
    for (place, shared_to), count in sorted(groups.items()):
        assert place == expected
        assert shared_to - place + 1 == count
        expected = shared_to + 1
    assert expected == len(places) + 1
    day2_keys = {k for k, _ in day2}
    assert all(p.shared_to <= n2 for p in places if p.key in day2_keys)
    assert all(p.place > n2 for p in places if p.key not in day2_keys)
