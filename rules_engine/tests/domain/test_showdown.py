"""Showdown helper: winners per pot from the board and the hands shown."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine.domain.pots import Pot, pots_from
from rules_engine.domain.rulesets import RULES
from rules_engine.domain.showdown import (
    Category,
    ShowdownError,
    cards,
    rank_hands,
    showdown,
)

DECK = [r + s for r in "23456789TJQKA" for s in "cdhs"]


def test_card_parsing_accepts_the_usual_spellings():
    assert cards("As kd 10h") == ("As", "Kd", "Th")
    assert cards("AsKd") == ("As", "Kd")
    assert cards(["qc", "2S"]) == ("Qc", "2s")
    with pytest.raises(ShowdownError):
        cards("Ax")
    with pytest.raises(ShowdownError):
        cards("1s")


def test_categories_and_order():
    board = cards("Ah Kh Qh 7c 2d")
    ranked = rank_hands(board, {1: cards("Jh Th"), 2: cards("Ac Ad"), 3: cards("7h 2h")})
    assert [h.seat for h in ranked] == [1, 3, 2]
    assert [h.category for h in ranked] == [
        Category.STRAIGHT_FLUSH,
        Category.FLUSH,
        Category.THREE_OF_A_KIND,
    ]


def test_duplicate_and_wrong_counts_are_refused():
    with pytest.raises(ShowdownError, match="also in"):
        rank_hands(cards("Ah Kh Qh 7c 2d"), {1: cards("Ah 3c")})
    with pytest.raises(ShowdownError, match="five cards"):
        rank_hands(cards("Ah Kh Qh 7c"), {1: cards("As 3c")})
    with pytest.raises(ShowdownError, match="two cards"):
        rank_hands(cards("Ah Kh Qh 7c 2d"), {1: cards("As")})


def test_side_pots_go_to_the_best_eligible_hand():
    # Seat 1 all-in short with the best hand, seat 2 beats seat 3 for the side pot.
    result = pots_from({1: 1000, 2: 5000, 3: 5000})
    board = cards("2c 7d 9h Js 3s")
    sd = showdown(
        board,
        {1: cards("As Ad"), 2: cards("Kc Kd"), 3: cards("Qc Qd")},
        result.pots,
        button=3,
        table_seats=9,
    )
    assert sd.won() == {1: 3000, 2: 8000}
    assert sd.rules[:2] == ("tda-de 13", "tda-de 12")
    assert "tda-de 21" in sd.rules


def test_tie_splits_with_odd_chip_to_first_left_of_button():
    board = cards("Ac Kd Qh Js Tc")  # both play the board's straight
    pot = Pot(1050, frozenset({2, 5}))
    sd = showdown(
        board,
        {2: cards("2c 3d"), 5: cards("4h 5s")},
        [pot],
        button=3,
        table_seats=9,
        smallest_chip=100,
    )
    # 10 chips of 100 plus 50 that cannot be split: seat 5 is the first left of the button 3.
    assert sd.awards[0].winners == (5, 2)
    assert sd.awards[0].shares == {5: 550, 2: 500}
    assert "tda-de 20" in sd.rules


def test_bdpv_cites_its_own_rules():
    board = cards("Ac Kd Qh Js Tc")
    sd = showdown(
        board,
        {2: cards("2c 3d"), 5: cards("4h 5s")},
        [Pot(100, frozenset({2, 5}))],
        button=3,
        table_seats=9,
        ruleset_id="bdpv",
    )
    assert set(sd.rules) == {"bdpv 2.5.1", "bdpv 2.6.2"}
    for r in sd.rules:
        assert r in RULES


def test_a_pot_nobody_eligible_showed_is_left_open():
    sd = showdown(
        cards("2c 7d 9h Js 3s"),
        {1: cards("As Ad")},
        [Pot(300, frozenset({1, 2})), Pot(400, frozenset({2, 3}))],
        button=1,
        table_seats=6,
    )
    assert sd.awards[1].rank is None and sd.awards[1].shares == {}
    with pytest.raises(ShowdownError):
        showdown(cards("2c 7d 9h Js 3s"), {}, [], button=1, table_seats=6)
    with pytest.raises(ShowdownError):
        showdown(
            cards("2c 7d 9h Js 3s"),
            {7: cards("As Ad")},
            [Pot(1, frozenset({7}))],
            button=1,
            table_seats=6,
        )
    with pytest.raises(ShowdownError, match="ruleset"):
        showdown(
            cards("2c 7d 9h Js 3s"),
            {1: cards("As Ad")},
            [Pot(1, frozenset({1}))],
            button=1,
            table_seats=6,
            ruleset_id="wsop",
        )


@settings(max_examples=200, deadline=None)
@given(
    st.permutations(DECK),
    st.lists(st.integers(0, 5000), min_size=2, max_size=9),
    st.data(),
)
def test_pots_sum_to_what_was_bet_and_winners_hold_the_best_hand(deck, bets, data):
    seats = list(range(1, len(bets) + 1))
    contributions = dict(zip(seats, bets, strict=True))
    if not any(contributions.values()):
        contributions[1] = 100
    folded = set(data.draw(st.sets(st.sampled_from(seats), max_size=len(seats) - 1)))
    result = pots_from(contributions, folded)
    if not result.pots:  # everything was an uncalled bet, handed back
        return
    live = [s for s in seats if s not in folded]
    board = deck[:5]
    shown = {s: deck[5 + 2 * i : 7 + 2 * i] for i, s in enumerate(live)}
    button = data.draw(st.sampled_from(seats))
    sd = showdown(board, shown, result.pots, button=button, table_seats=9, smallest_chip=5)
    assert sum(sd.won().values()) == sum(p.amount for p in result.pots)
    by_seat = {h.seat: h.rank for h in sd.hands}
    for award in sd.awards:
        best = min(by_seat[s] for s in award.pot.eligible)
        assert {by_seat[w] for w in award.winners} == {best}
        assert set(award.winners) == {s for s in award.pot.eligible if by_seat[s] == best}
