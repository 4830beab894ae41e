"""The next hand of a table: one answer to "who posts next" (tda-de 32-34, bdpv 3.2), read by
the mover, the worst seat and the waiting zone."""

from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.domain.button import (
    Blinds,
    deal_next_hand,
    first_hand,
    newcomer_at,
    next_hand,
    worst_empty_seat,
)
from tables.domain.seating import (
    Rules,
    TableState,
    movers,
    newcomer,
    next_hand_blinds,
    waiting_zone,
    worst_position,
)


def state(seated, blinds, *, waiting=(), leaving=(), size=9, number=1):
    return TableState(
        number=number,
        size=size,
        seated={s: 100 * number + s for s in seated},
        blinds=blinds,
        waiting=frozenset(waiting),
        leaving=frozenset(leaving),
    )


# --- Examples -------------------------------------------------------------------------------


def test_the_big_blind_moves_past_a_leaving_player():
    # tda-de 32, bdpv 3.2: seat 4 is out in this hand; the big blind goes on to seat 5.
    t = state({1, 2, 3, 4, 5, 6}, Blinds(1, 2, 3), leaving={4})
    assert next_hand_blinds(t) == Blinds(button=2, small_blind=3, big_blind=5)
    assert next_hand_blinds(t) == next_hand(9, {1, 2, 3, 5, 6}, Blinds(1, 2, 3))


def test_a_leaving_big_blind_leaves_a_dead_small_blind_and_a_leaving_small_blind_a_dead_button():
    # bdpv 3.2: a lone big blind, never a lone small blind; the positions do not care whether
    # the bust is confirmed (seat freed) yet.
    bb_out = state({1, 2, 3, 4, 5, 6}, Blinds(1, 2, 3), leaving={3})
    assert next_hand_blinds(bb_out) == Blinds(button=2, small_blind=3, big_blind=4)
    sb_out = state({1, 2, 3, 4, 5, 6}, Blinds(1, 2, 3), leaving={2})
    assert next_hand_blinds(sb_out) == Blinds(button=2, small_blind=3, big_blind=4)


def test_down_to_two_the_last_big_blind_gets_the_button():
    # tda-de 34: heads-up the button posts the small blind; nobody posts the big blind twice.
    t = state({1, 3, 7}, Blinds(1, 3, 7), leaving={1})
    assert next_hand_blinds(t) == Blinds(button=7, small_blind=7, big_blind=3)


def test_no_next_hand_without_a_button_or_without_two_players():
    assert next_hand_blinds(state({1, 2, 3}, None)) is None
    assert next_hand_blinds(state({1, 2}, Blinds(1, 1, 2), leaving={2})) is None


def test_a_waiting_player_is_dealt_in_once_the_button_has_passed():
    # tda-de 7: seat 7 was seated while seat 1 had the button; in the next hand the button is
    # at 3 and the small blind at 5: seat 7 is dealt in, and posts the big blind.
    t = state({1, 3, 5, 7}, Blinds(1, 3, 5), waiting={7})
    assert next_hand_blinds(t) == Blinds(button=3, small_blind=5, big_blind=7)
    blinds, dealt = deal_next_hand(9, Blinds(1, 3, 5), {1, 3, 5}, {7})
    assert dealt == {1, 3, 5, 7} and blinds.big_blind == 7
    # Seat 4 lies between the next button (3) and small blind (5): it keeps waiting.
    t = state({1, 3, 4, 5}, Blinds(1, 3, 5), waiting={4})
    assert next_hand_blinds(t) == Blinds(button=3, small_blind=5, big_blind=1)


def test_the_waiting_zone_is_the_next_hands():
    # Now: button 2, small blind 5, big blind 8. Next hand: button 5, small blind 8, big
    # blind 2. A newcomer waits at 6 and 7 (tda-de 7, 9); at 9 or 1 he posts the big blind
    # at once; at 3 or 4 he is the first to act.
    t = state({2, 5, 8}, Blinds(2, 5, 8))
    assert waiting_zone(t) == {6, 7}
    assert [newcomer(t, s).hands_to_big_blind for s in (9, 1, 3, 4)] == [0, 0, 1, 1]
    assert newcomer(t, 6).hands_to_big_blind == 2


def test_worst_seat_is_never_the_small_blind_when_a_table_leaves_heads_up():
    # Heads-up, seat 2 has the button and the small blind, seat 6 the big blind. A third
    # player makes the big blind (6) the button next; at seats 7-1 he would post the small
    # blind, at 3-5 the big blind (tda-de 10, 34).
    assert worst_empty_seat(9, {2, 6}, Blinds(2, 2, 6)) == 3
    t = state({2, 6}, Blinds(2, 2, 6))
    assert worst_position(t) == 3
    assert newcomer(t, 7) == newcomer_at(9, Blinds(2, 2, 6), {2, 6}, (), 7)
    assert newcomer(t, 7).hands_to_big_blind == 2


def test_worst_seat_counts_a_leaving_seat_as_taken():
    # Seat 4 is empty, seat 5 leaving: the newcomer at 4 posts the big blind next.
    t = state({1, 2, 3, 5, 6}, Blinds(1, 2, 3), leaving={5})
    assert worst_position(t) == 4
    full = state(set(range(1, 10)), Blinds(1, 2, 3), leaving={5})
    assert full.empty_seats() == []


def test_mover_is_due_the_big_blind_next_and_never_leaving():
    # tda-de 10: the player due the big blind next moves; seat 4 is out in this hand, so 5.
    t = state(set(range(1, 10)), Blinds(1, 2, 3), leaving={4})
    assert movers(t, Rules())[0] == (5, 0)
    assert all(seat != 4 for seat, _hands in movers(t, Rules()))


# --- Properties -----------------------------------------------------------------------------


@st.composite
def tables_in_play(draw):
    """A table some hands into play: dead buttons and small blinds, newcomers (some waiting
    for the button) and players out in the hand being played."""
    size = draw(st.integers(2, 10))
    players = set(draw(st.sets(st.integers(1, size), min_size=2, max_size=size)))
    blinds = first_hand(size, players, draw(st.sampled_from(sorted(players))))
    for bust in draw(st.lists(st.integers(1, size), max_size=8)):
        if len(players) > 2 and bust in players:
            players.discard(bust)
        blinds = next_hand(size, players, blinds)
    arrivals = draw(st.sets(st.integers(1, size))) - players
    waiting = draw(st.sets(st.sampled_from(sorted(arrivals)))) if arrivals else set()
    seated = players | arrivals
    leaving = draw(st.sets(st.sampled_from(sorted(seated))))
    return state(seated, blinds, waiting=waiting, leaving=leaving, size=size)


def confirmed(t: TableState) -> TableState:
    """The same table once the floor has confirmed its busts: the seats are free."""
    seated = {s: e for s, e in t.seated.items() if s not in t.leaving}
    return replace(t, seated=seated, waiting=t.waiting - t.leaving, leaving=frozenset())


@settings(max_examples=400, deadline=None)
@given(tables_in_play())
def test_next_big_blind_is_a_seated_player_dealt_in_and_not_the_last_one(t):
    nb = next_hand_blinds(t)
    dealt_in = t.playing | (t.waiting - t.leaving)
    if len(t.playing) < 2:
        assert nb is None
        return
    assert nb is not None
    assert nb.big_blind in t.seated and nb.big_blind not in t.leaving
    assert nb.big_blind in dealt_in
    assert nb.big_blind != t.blinds.big_blind  # nobody posts the big blind twice in a row
    if nb.heads_up:
        assert nb.button in dealt_in
    # A waiting player is only dealt in outside the next hand's waiting zone.
    assert nb.big_blind not in t.waiting or nb.big_blind not in waiting_zone(t)


@settings(max_examples=400, deadline=None)
@given(tables_in_play())
def test_next_hand_is_the_same_whether_busts_are_confirmed_before_or_after_hand_done(t):
    nb = next_hand_blinds(t)
    assert nb == next_hand_blinds(confirmed(t))
    rest = set(t.seated) - t.leaving
    if not t.waiting and len(rest) >= 2:
        assert nb == next_hand(t.size, rest, t.blinds)


@settings(max_examples=200, deadline=None)
@given(tables_in_play(), st.lists(st.tuples(st.integers(0, 9), st.integers(1, 10)), max_size=20))
def test_hand_after_hand_the_big_blind_never_repeats_and_never_goes_to_a_leaving_player(t, steps):
    for out, arrive in steps:
        nb = next_hand_blinds(t)
        if nb is None:
            return
        assert nb.big_blind not in t.leaving and nb.big_blind in t.seated
        assert nb.big_blind != t.blinds.big_blind
        # Hand done: the busts are confirmed, the players dealt in stop waiting, a newcomer
        # may sit down (waiting where the rules say so) and someone may be out in the new hand.
        _blinds, dealt = deal_next_hand(t.size, t.blinds, t.playing, t.waiting - t.leaving)
        t = replace(confirmed(t), blinds=nb)
        t = replace(t, waiting=t.waiting - dealt)
        if arrive <= t.size and arrive not in t.seated:
            wait = newcomer(t, arrive).must_wait
            t = replace(
                t,
                seated={**t.seated, arrive: 1000 + arrive},
                waiting=t.waiting | ({arrive} if wait else set()),
            )
        seats = sorted(t.playing)
        if len(seats) > 2:
            t = replace(t, leaving=frozenset({seats[out % len(seats)]}))
