"""The cash ledger's sums and the cage report's reconciliation (tournament/domain/ledger.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.domain.ledger import (
    PURCHASE_METHODS,
    REAL,
    LedgerError,
    Line,
    event_reckoning,
    house_result,
    line_check,
    pool_of,
    reckon,
    reckonings_sum,
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


# No deadline: on a busy two-core machine one example may take longer than 200 ms to run.
@settings(deadline=None)
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


def test_an_event_counts_its_money_once():
    # Two flights take 7 and 5 buy-ins of 100 + 10; the guarantee is 3,000: 1,800 overlay.
    flight_a = [Line("buyin", "cash", 11_000, 10_000, 1_000)] * 7
    flight_b = [Line("buyin", "card", 11_000, 10_000, 1_000)] * 5
    a, b, day2 = event_reckoning([flight_a, flight_b], [], guarantee=300_000)
    # A flight holds its buy-ins and owes nothing: its players' money is carried to the pool.
    assert (a.report.held_total, a.still_owed, a.carried_out, a.unexplained) == (
        77_000,
        0,
        70_000,
        0,
    )
    assert (b.report.held_total, b.still_owed, b.carried_out, b.unexplained) == (
        55_000,
        0,
        50_000,
        0,
    )
    # The Day 2 holds none of it, owes the whole pool and the house pays the overlay.
    assert (day2.report.held_total, day2.carried_in, day2.still_owed) == (0, 120_000, 300_000)
    assert (day2.house.overlay, day2.house.total, day2.unexplained) == (180_000, -180_000, 0)
    whole = reckonings_sum([a, b, day2])
    assert whole.still_owed == 300_000 and whole.carried_out == whole.carried_in
    assert whole.report.held_total == 132_000 == whole.house.total + whole.still_owed
    # A tournament of its own owes its own pool.
    alone = reckon(report_of(flight_a), pool_of(70_000))
    assert (alone.still_owed, alone.unexplained) == (70_000, 0)


@settings(deadline=None)
@given(
    st.lists(purchases, min_size=1, max_size=4),
    st.integers(0, 5_000),
    st.integers(0, 50_000),
    st.integers(0, 2_000_000),
    st.lists(st.tuples(st.sampled_from(["cash", "transfer", "satellite"]), st.integers(1, 90_000))),
    st.lists(st.tuples(st.sampled_from(sorted(REAL - {"unrecorded"})), st.integers(-5_000, 5_000))),
)
def test_over_an_event_s_reports_the_money_is_counted_once(
    flights, bp, house_in, guarantee, payouts, differences
):
    """Whatever the flights took and the Day 2 paid: over the event's reports what is owed is
    the pool less what was paid, what is held is what was taken less what was paid out, each
    report reconciles on its own, and so do the flights and the Day 2 together."""
    flight_lines: list[list[Line]] = []
    taken = contributions = 0
    for bought in flights:
        lines: list[Line] = []
        for method, price, fee, refunded in bought:
            if price + fee == 0:
                continue
            lines.append(Line("buyin", method, price + fee, price, fee))
            if refunded:
                lines.append(Line("refund", method, -(price + fee), -price, -fee))
            else:
                contributions += price
                taken += price + fee if method in REAL else 0
        flight_lines.append(lines)
    pool = pool_of(contributions, withholding_bp=bp, house=house_in, guarantee=guarantee)
    day2: list[Line] = []
    paid = paid_real = 0
    for method, amount in payouts:
        amount = min(amount, pool.total - paid)
        if amount <= 0:
            break
        day2.append(Line("payout", method, -amount, -amount, 0))
        paid += amount
        paid_real += amount if method in REAL else 0
    counted = 0
    for method, amount in differences:
        if amount:
            day2.append(Line("correction", method, amount, 0, amount))
            counted += amount
    parts = event_reckoning(
        flight_lines, day2, withholding_bp=bp, house=house_in, guarantee=guarantee, paid=paid
    )
    assert [p.unexplained for p in parts] == [0] * len(parts)
    assert all(p.still_owed == 0 for p in parts[:-1])
    whole = reckonings_sum(parts)
    assert whole.still_owed == sum(p.still_owed for p in parts) == pool.total - paid
    assert whole.report.held_total == sum(p.report.held_total for p in parts)
    assert whole.report.held_total == taken - paid_real + counted
    assert whole.carried_out == whole.carried_in == contributions
    assert whole.house.overlay == pool.overlay and whole.house.withheld == pool.withheld
    assert whole.unexplained == 0
