"""Finishing places from the order of busts: ranks kept apart from the field size, the rulesets'
tie rules for players out in the same hand, and the permutation invariant."""

from __future__ import annotations

from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.domain.eliminations import (
    Bust,
    BustGroup,
    EliminationError,
    elimination_ranks,
    group_offsets,
    place_of,
    places_are_complete,
)


def test_bdpv_6_28_equal_stacks_nearer_the_button_clockwise_finishes_higher():
    # Button in seat 4 of 9: seat 5 is one seat clockwise from it, seat 2 is seven.
    busts = [
        Bust(1, 3000, seats_from_button=(2 - 4) % 9),
        Bust(2, 3000, seats_from_button=(5 - 4) % 9),
    ]
    assert group_offsets(busts, ruleset="bdpv", hand_for_hand=False) == {2: 0, 1: 1}


def test_bdpv_6_28_larger_stack_first_then_position():
    busts = [
        Bust(1, 800, seats_from_button=1),
        Bust(2, 5000, seats_from_button=8),
        Bust(3, 800, seats_from_button=3),
    ]
    assert group_offsets(busts, ruleset="bdpv", hand_for_hand=False) == {2: 0, 1: 1, 3: 2}


def test_bdpv_6_28_never_shares_the_lot_settles_what_seats_cannot():
    # Two tables in the same hand-for-hand round, both one seat after their button.
    busts = [Bust(1, 800, seats_from_button=1, table=1, lot=9), Bust(2, 800, 1, 2, lot=4)]
    assert group_offsets(busts, ruleset="bdpv", hand_for_hand=True) == {2: 0, 1: 1}
    # Button unknown: the lot decides among equal stacks.
    busts = [Bust(1, 800, None, lot=1), Bust(2, 800, 3, lot=7)]
    assert group_offsets(busts, ruleset="bdpv", hand_for_hand=False) == {1: 0, 2: 1}


def test_tda_one_table_larger_stack_higher_equal_stacks_share():
    busts = [Bust(1, 800), Bust(2, 800), Bust(3, 100), Bust(4, 9000)]
    assert group_offsets(busts, ruleset="tda-de", hand_for_hand=False) == {4: 0, 1: 1, 2: 1, 3: 3}


def test_tda_hand_for_hand_tables_tie_each_ranked_at_its_own_table():
    # Table 1 loses a big and a small stack, table 2 one player: the best of each table tie.
    busts = [Bust(1, 5000, table=1), Bust(2, 3000, table=1), Bust(3, 100, table=2)]
    assert group_offsets(busts, ruleset="tda-de", hand_for_hand=True) == {1: 0, 3: 0, 2: 2}


def test_ranks_count_from_the_bottom_and_places_follow_the_field():
    groups = [
        BustGroup((Bust(10),)),
        BustGroup((Bust(11, 500), Bust(12, 900))),
        BustGroup((Bust(13),)),
    ]
    ranks = elimination_ranks(groups, ruleset="tda-de")
    assert ranks == {10: 1, 12: 3, 11: 2, 13: 4}
    # 33 entries: the first out is 33rd; a late entry makes the same bust 34th.
    assert place_of(ranks[10], 33) == 33
    assert place_of(ranks[10], 34) == 34
    assert place_of(ranks[13], 34) == 31
    with pytest.raises(EliminationError):
        place_of(40, 33)


def test_places_are_complete_counts_shared_places_as_their_range():
    assert places_are_complete([1, 2, 3, 4], 4)
    assert places_are_complete([1, 2, 3, 3], 4)
    assert not places_are_complete([1, 2, 2, 2], 3)
    assert not places_are_complete([1, 3, 3], 3)  # two sharing 2nd would be 2, 2
    assert not places_are_complete([27, 27, 27, 28], 4)


busts_in_hand = st.lists(
    st.tuples(st.integers(0, 5000), st.one_of(st.none(), st.integers(0, 9)), st.integers(1, 3)),
    min_size=1,
    max_size=5,
)


@settings(max_examples=300)
@given(
    hands=st.lists(st.tuples(busts_in_hand, st.booleans()), min_size=1, max_size=12),
    ruleset=st.sampled_from(["tda-de", "bdpv"]),
    survivors=st.integers(1, 5),
    late=st.integers(0, 10),
    lots=st.randoms(use_true_random=False),
)
def test_places_are_a_permutation_however_the_field_grows(hands, ruleset, survivors, late, lots):
    """Places are 1..N once each (shared places taking their range), bdpv never shares, and
    the order of hands is kept: an earlier hand never finishes above a later one."""
    groups = []
    next_id = 1
    for busts, h4h in hands:
        group = []
        for stack, distance, table in busts:
            group.append(Bust(next_id, stack, distance, table, lots.randrange(2**31)))
            next_id += 1
        groups.append(BustGroup(tuple(group), hand_for_hand=h4h))
    ranks = elimination_ranks(groups, ruleset=ruleset)
    out = next_id - 1
    field = out + survivors + late
    places = [place_of(r, field) for r in ranks.values()]
    # The survivors finish 1..survivors when it ends; late entries bust in order afterwards.
    finished = places + list(range(1, survivors + late + 1))
    assert places_are_complete(finished, field)
    if ruleset == "bdpv":
        assert len(set(places)) == len(places)
    by_hand = [[place_of(ranks[b.entry_id], field) for b in g.busts] for g in groups]
    for earlier, later in pairwise(by_hand):
        assert min(earlier) > max(later)
