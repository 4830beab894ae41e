"""The cash ledger's sums and the cage report's reconciliation (tournament/domain/ledger.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.domain.ledger import (
    PURCHASE_METHODS,
    REAL,
    LedgerError,
    Line,
    house_result,
    line_check,
    pool_of,
    report_of,
    unexplained,
    withheld,
)


def test_a_line_must_add_up_move_money_and_name_a_known_method():
    line_check(Line("buyin", "cash", 5500, 5000, 500))
    for bad, code in (
        (Line("buyin", "cash", 5500, 5000, 400), "parts"),
        (Line("buyin", "cash", 0, 0, 0), "zero"),
        (Line("buyin", "cheque", 5500, 5000, 500), "method"),
        (Line("payout", "cash", -5000, -4500, -500), "payout"),
        (Line("payout", "comp", -5000, -5000, 0), "payout"),
    ):
        with pytest.raises(LedgerError) as exc:
            line_check(bad)
        assert exc.value.code == code


def test_the_staff_fee_is_rounded_down_to_the_cent_and_bounded():
    assert withheld(100_000, 300) == 3_000
    assert withheld(33_333, 250) == 833  # 833.325 cents
    with pytest.raises(LedgerError):
        withheld(100, 5_001)
    with pytest.raises(LedgerError):
        withheld(-1, 0)


def test_the_pool_is_contributions_less_staff_fee_plus_house_then_the_overlay():
    pool = pool_of(100_000, withholding_bp=300, house=5_000, guarantee=0)
    assert (pool.withheld, pool.overlay, pool.total) == (3_000, 0, 102_000)
    short = pool_of(100_000, withholding_bp=300, house=5_000, guarantee=150_000)
    assert short.overlay == 48_000 and short.total == 150_000


@given(st.integers(0, 10**9), st.integers(0, 5_000), st.integers(0, 10**7), st.integers(0, 10**9))
def test_the_pool_never_falls_below_the_guarantee_and_its_parts_add_up(c, bp, house, g):
    pool = pool_of(c, withholding_bp=bp, house=house, guarantee=g)
    assert pool.total >= g
    assert pool.total == c - pool.withheld + house + pool.overlay
    assert 0 <= pool.withheld <= c // 2


def test_a_night_reconciles_to_the_cent():
    # Ten buy-ins of 50 + 5: seven cash, one card, one comp, one satellite seat; one cash
    # refund; 3 % staff fee; a guarantee of 500 (the pool falls short); two payouts in cash.
    lines = [Line("buyin", "cash", 5500, 5000, 500) for _ in range(7)]
    lines += [
        Line("buyin", "card", 5500, 5000, 500),
        Line("buyin", "comp", 5500, 5000, 500),
        Line("buyin", "satellite", 5500, 5000, 500),
        Line("refund", "cash", -5500, -5000, -500),
        Line("payout", "cash", -30000, -30000, 0),
        Line("payout", "cash", -10000, -10000, 0),
    ]
    report = report_of(lines)
    assert report.held == {
        "cash": 38500 - 5500 - 40000,
        "card": 5500,
        "transfer": 0,
        "unrecorded": 0,
    }
    pool = pool_of(45_000, withholding_bp=300, guarantee=50_000)
    assert (pool.withheld, pool.overlay, pool.total) == (1_350, 6_350, 50_000)
    house = house_result(report, [pool])
    # fees 4500 + withheld 1350 - overlay 6350 - comp 5500
    assert house.total == 4_500 + 1_350 - 6_350 - 5_500
    still_owed = pool.total - 40_000
    assert unexplained(report, house, still_owed) == 0
    # A miscount shows: one cash buy-in recorded that never came in.
    assert unexplained(report_of([*lines, Line("buyin", "cash", 5500, 5000, 500)]), house, 10_000)


purchases = st.lists(
    st.tuples(
        st.sampled_from(PURCHASE_METHODS),
        st.integers(0, 20_000),  # to the pool
        st.integers(0, 3_000),  # fee
        st.booleans(),  # refunded
    ),
    max_size=30,
)


@given(
    purchases,
    st.integers(0, 5_000),
    st.integers(0, 50_000),
    st.integers(0, 400_000),
    st.lists(st.tuples(st.sampled_from(["cash", "transfer", "satellite"]), st.integers(1, 10_000))),
    st.lists(st.tuples(st.sampled_from(sorted(REAL - {"unrecorded"})), st.integers(-5_000, 5_000))),
)
def test_the_money_held_is_always_explained(bought, bp, house_in, guarantee, payouts, differences):
    """Whatever was bought, refunded and paid, the real money held is what the house keeps plus
    what the players are still owed plus satellite seats given out less those taken in."""
    lines: list[Line] = []
    contributions = 0
    for method, price, fee, refunded in bought:
        if price + fee == 0:
            continue
        lines.append(Line("buyin", method, price + fee, price, fee))
        if refunded:
            lines.append(Line("refund", method, -(price + fee), -price, -fee))
        else:
            contributions += price
    pool = pool_of(contributions, withholding_bp=bp, house=house_in, guarantee=guarantee)
    paid = 0
    for method, amount in payouts:
        amount = min(amount, pool.total - paid)
        if amount <= 0:
            break
        lines.append(Line("payout", method, -amount, -amount, 0))
        paid += amount
    for method, amount in differences:
        if amount:
            lines.append(Line("correction", method, amount, 0, amount))
    report = report_of(lines)
    house = house_result(report, [pool])
    assert report.prizes_in == contributions
    assert report.paid_out == paid
    assert unexplained(report, house, pool.total - paid) == 0


@given(purchases, st.sampled_from(PURCHASE_METHODS))
def test_a_method_change_moves_money_between_methods_and_changes_no_total(bought, to):
    lines = [Line("buyin", m, p + f, p, f) for m, p, f, _r in bought if p + f]
    before = report_of(lines)
    for line in list(lines):
        if line.method != to:
            lines.append(Line("correction", line.method, -line.amount, -line.prizes, -line.fees))
            lines.append(Line("correction", to, line.amount, line.prizes, line.fees))
    after = report_of(lines)
    assert after.prizes_in == before.prizes_in
    assert after.cash_differences == 0
    total = sum(line.amount for line in lines if line.kind == "buyin")
    if to in REAL:
        assert after.held[to] == total
        assert after.house_paid_entries == 0 and after.seats_in == 0
