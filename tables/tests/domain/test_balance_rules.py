"""Who moves and where to, by ruleset: tda-de 10 against bdpv 3.7 / 6.12."""

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.domain.button import Blinds, first_hand
from tables.domain.seating import (
    Rules,
    TableState,
    apply_moves,
    hold_threshold,
    holds,
    movers,
    newcomer,
    next_hand_blinds,
    plan_balance,
)

TDA = Rules()
BDPV = Rules(keep_position=True, never_move_blind_posters=True)


def state(number, seated, blinds, *, leaving=(), waiting=(), size=9):
    return TableState(
        number=number,
        size=size,
        seated={s: 100 * number + s for s in seated},
        blinds=blinds,
        leaving=frozenset(leaving),
        waiting=frozenset(waiting),
    )


def test_tda_moves_the_big_blind_due_player_to_the_worst_seat():
    # tda-de 10. Next hand at table 1: button 2, small blind 3, big blind 4.
    long = state(1, range(1, 10), Blinds(1, 2, 3))
    short = state(2, {1, 2, 3, 4, 5, 8, 9}, Blinds(1, 2, 3))
    (move,) = plan_balance([long, short], TDA).moves
    assert move.from_seat == 4
    # At table 2 the big blind goes from 3 to 4 next: the worst empty seat is 6, where he
    # posts it after 4 and 5.
    assert move.to_seat == 6


def test_bdpv_never_moves_a_player_who_posts_a_blind_next():
    # bdpv 3.7: the next hand's small blind (3) and big blind (4) stay.
    long = state(1, range(1, 10), Blinds(1, 2, 3))
    assert [seat for seat, _h in movers(long, BDPV)] == [5, 6, 7, 8, 9, 1, 2]
    assert [h for _seat, h in movers(long, BDPV)] == [1, 2, 3, 4, 5, 6, 7]
    assert movers(long, TDA)[0] == (4, 0)


def test_bdpv_mover_keeps_his_position_relative_to_the_button():
    # bdpv 3.7, 6.12. At table 2 both empty seats (6, 7) come two hands before the big blind
    # (4 and 5 post first). At table 1 that is the player in seat 6: he moves, to seat 6.
    # Seat 5 (one hand before his big blind) would skip it at table 2, so he stays.
    long = state(1, range(1, 10), Blinds(1, 2, 3))
    short = state(2, {1, 2, 3, 4, 5, 8, 9}, Blinds(1, 2, 3))
    (move,) = plan_balance([long, short], BDPV).moves
    assert (move.from_seat, move.to_seat) == (6, 6)
    assert newcomer(short, 6).hands_to_big_blind == 2
    assert not move.must_wait


def test_bdpv_without_an_exact_seat_moves_who_posts_sooner_never_later():
    # Table 2's only empty seats lie between its big blind (3) and the next one (4): whoever
    # sits there posts the big blind in the next hand. The player one hand from his big blind
    # at table 1 (seat 5) comes closest without skipping it.
    long = state(1, range(1, 10), Blinds(1, 2, 3))
    short = state(2, {1, 2, 3, 6, 7, 8, 9}, Blinds(1, 2, 3))  # next big blind 6; 4, 5 empty
    assert {newcomer(short, s).hands_to_big_blind for s in (4, 5)} == {0}
    (move,) = plan_balance([long, short], BDPV).moves
    assert (move.from_seat, move.to_seat) == (5, 4)


def test_bdpv_a_leaving_player_is_not_a_mover_and_his_seat_takes_nobody():
    long = state(1, range(1, 10), Blinds(1, 2, 3), leaving={6})
    short = state(2, {1, 2, 3, 4, 5, 8, 9}, Blinds(1, 2, 3), leaving={5})
    (move,) = plan_balance([long, short], BDPV).moves
    assert move.from_seat != 6 and move.to_seat in (6, 7)


def test_a_table_whose_players_all_post_or_leave_gives_nobody():
    # Two players dealt in (both post a blind under bdpv), the third is out in this hand.
    long = state(1, {1, 2, 3, 4}, Blinds(1, 2, 3), leaving={1, 4})
    short = state(2, {1, 2}, Blinds(1, 1, 2))
    assert plan_balance([long, short], BDPV).moves == ()
    assert len(plan_balance([long, short], TDA).moves) == 1


def test_hold_threshold_comes_from_the_ruleset_and_the_table_size():
    # tda-de 10: three short at full tables; short-handed the ruleset's own (two).
    assert hold_threshold(9, full_ring=3, short_handed=2, tolerance=1) == 3
    assert hold_threshold(6, full_ring=3, short_handed=2, tolerance=1) == 2
    # Never within the tolerance: such a table is not out of balance.
    assert hold_threshold(9, full_ring=3, short_handed=2, tolerance=3) == 4
    assert holds({1: 6, 2: 4}, Rules(hold_short_by=2)) == (2,)
    assert holds({1: 6, 2: 4}, Rules(hold_short_by=3)) == ()


# --- Properties -----------------------------------------------------------------------------


def _room(counts, seed, leaving_share):
    rng = Random(seed)
    tables, entry = [], 0
    for number, count in enumerate(counts, start=1):
        seats = rng.sample(range(1, 10), count)
        seated = {}
        for s in seats:
            entry += 1
            seated[s] = entry
        blinds = first_hand(9, set(seats), seats[0])
        for _ in range(rng.randrange(4)):
            blinds = next_hand_blinds(TableState(number, 9, seated, blinds)) or blinds
        out = {s for s in seats if rng.random() < leaving_share}
        tables.append(TableState(number, 9, seated, blinds, leaving=frozenset(out)))
    return tables


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.integers(2, 9), min_size=2, max_size=8),
    st.sampled_from([TDA, BDPV, Rules(keep_position=True)]),
    st.sampled_from([0.0, 0.15]),
    st.integers(0, 2**32),
)
def test_every_move_by_the_rules(counts, rules, leaving_share, seed):
    tables = _room(counts, seed, leaving_share)
    plan = plan_balance(tables, rules)
    now = {t.number: t for t in tables}
    for m in plan.moves:
        long, short = now[m.from_table], now[m.to_table]
        assert m.from_seat not in long.leaving  # a leaving player never moves
        assert m.to_seat not in short.seated  # nor does anyone land on a taken or leaving seat
        nb = next_hand_blinds(long)
        candidates = movers(long, rules)
        if nb is not None and not rules.never_move_blind_posters:
            assert m.from_seat == nb.big_blind  # tda-de 10
        if nb is not None and rules.never_move_blind_posters:
            assert m.from_seat not in (nb.big_blind, nb.small_blind)  # bdpv 3.7
        if rules.keep_position and nb is not None and short.blinds is not None:
            # bdpv 3.7, 6.12: he does not skip his big blind when anyone could avoid it.
            hands = dict(candidates)[m.from_seat]
            there = newcomer(short, m.to_seat).hands_to_big_blind
            could = [
                (seat, h)
                for seat, h in (candidates if rules.never_move_blind_posters else candidates[:1])
                if any(newcomer(short, s).hands_to_big_blind <= h for s in short.empty_seats())
            ]
            if could:
                assert there <= hands
        elif short.blinds is not None:
            worst = min(newcomer(short, s).hands_to_big_blind for s in short.empty_seats())
            assert newcomer(short, m.to_seat).hands_to_big_blind == worst  # tda-de 10
        now = {t.number: t for t in apply_moves(list(now.values()), [m])}
    if leaving_share == 0.0:
        sizes = [t.count for t in now.values()]
        assert max(sizes) - min(sizes) <= rules.tolerance
