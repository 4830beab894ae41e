"""The seating services read who is out in the hand being played (open bust reports of the
table's current hand) and the keep-apart pairs with the states they plan from."""

from __future__ import annotations

import pytest

from actions.bust import BustReport, entries_bust
from core.errors import FloorError
from tables import selectors
from tables import services as svc
from tables.domain.seating import next_hand_blinds
from tables.models import KeepApart, ReportKind, SeatAssignment, Table, TableReport
from tournament.models import Entry, EntryStatus, Event, Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def field(make_tournament, register):
    def make(n, **options):
        t = make_tournament(status="running", late_registration_until_level=6, **options)
        entries = [register(t) for _ in range(n)]
        return t, entries

    return make


def _buttons(t, actor):
    for table in Table.objects.filter(tournament=t, is_open=True):
        seats = sorted(table.assignments.values_list("seat", flat=True))
        svc.button_set(table=table, seat=seats[0], actor=actor)


def _report_out(table, seat):
    """A dealer's bust report of the hand being played, not settled yet."""
    row = SeatAssignment.objects.get(table=table, seat=seat)
    return TableReport.objects.create(
        table=table,
        kind=ReportKind.BUST,
        entry_id=row.entry_id,
        seat=seat,
        hand_number=table.hand_number,
    )


def test_a_player_reported_out_is_not_the_mover(field, actor):
    # tda-de 10: the player due the big blind next moves, unless he is out in this hand.
    t, _entries = field(18)
    svc.seats_draw(tournament=t, actor=actor)
    _buttons(t, actor)
    for row in list(SeatAssignment.objects.filter(table__tournament=t, table__number=1))[:2]:
        entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=actor)
    due = svc.balance_plan(t).moves[0]
    assert due.from_table == 2
    table = Table.objects.get(tournament=t, number=2)
    state = svc.table_state(table)
    assert state.leaving == frozenset()
    _report_out(table, due.from_seat)
    state = svc.table_state(table)
    assert state.leaving == {due.from_seat}
    plan = svc.balance_plan(t)
    assert plan.moves[0].from_seat == next_hand_blinds(state).big_blind != due.from_seat
    # A report of an earlier hand, or a settled one, does not count.
    TableReport.objects.filter(table=table).update(hand_number=table.hand_number + 1)
    assert svc.balance_plan(t).moves[0].from_seat == due.from_seat


def test_a_table_with_an_unsettled_bust_is_not_broken(field, actor):
    t, _entries = field(20, final_table_size=9)
    svc.seats_draw(tournament=t, actor=actor)
    for row in list(SeatAssignment.objects.filter(table__tournament=t, table__number=1))[:2]:
        entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=actor)
    table = Table.objects.get(tournament=t, number=3)
    report = _report_out(table, min(table.assignments.values_list("seat", flat=True)))
    with pytest.raises(FloorError, match="not settled"):
        svc.table_break(tournament=t, number=3, actor=actor)
    TableReport.objects.filter(pk=report.pk).update(resolution="dismissed", resolved_at=t.starts_at)
    assert svc.table_break(tournament=t, number=3, actor=actor)


def test_the_final_table_waits_for_unsettled_busts(field, actor):
    t, _entries = field(10, final_table_size=9)
    svc.tables_create(tournament=t, count=2, actor=actor)
    svc.seats_draw(tournament=t, actor=actor)
    table = Table.objects.filter(tournament=t, players__gt=0).first()
    _report_out(table, min(table.assignments.values_list("seat", flat=True)))
    with pytest.raises(FloorError, match="not settled"):
        svc.final_table_draw(tournament=t, actor=actor)


def test_keep_apart_pairs_at_balancing(field, actor):
    # bdpv seating rule 4: the mover goes to another table as short as the first choice when
    # his partner sits there; when no such table is free of partners, the plan says so.
    t, _entries = field(25)
    svc.seats_draw(tournament=t, actor=actor)  # 9, 8, 8
    _buttons(t, actor)
    for number in (2, 3):
        row = SeatAssignment.objects.filter(table__tournament=t, table__number=number).first()
        entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=actor)
    (move,) = svc.balance_plan(t).moves  # 9, 7, 7: table 1 gives one to table 2
    assert (move.from_table, move.to_table) == (1, 2)
    mover = Entry.objects.get(pk=move.entry)
    at = {
        n: SeatAssignment.objects.filter(table__tournament=t, table__number=n).first()
        for n in (2, 3)
    }
    KeepApart.objects.create(tournament=t, first=mover, second=at[2].entry)
    plan = svc.balance_plan(t)
    assert [(m.entry, m.to_table) for m in plan.moves] == [(mover.pk, 3)] and plan.together == ()
    KeepApart.objects.create(tournament=t, first=at[3].entry, second=mover)
    plan = svc.balance_plan(t)
    assert [m.to_table for m in plan.moves] == [2]
    assert plan.together == (tuple(sorted((mover.pk, at[2].entry_id))),)
    svc.balance_apply(tournament=t, signature=plan.signature, actor=actor)
    event = Event.objects.filter(tournament=t, action="seats.balance").latest("id")
    assert event.payload["together"] == [sorted([mover.pk, at[2].entry_id])]


def test_late_seat_keeps_away_from_a_partner(field, actor):
    t, _entries = field(16)
    svc.seats_draw(tournament=t, actor=actor)  # 8 and 8
    near = SeatAssignment.objects.filter(table__tournament=t, table__number=1).first()
    player = Player.objects.create(name="Late Comer")
    late = Entry.objects.create(tournament=t, player=player, number=99, status=EntryStatus.ACTIVE)
    KeepApart.objects.create(tournament=t, first=late, second=near.entry)
    row = svc.entry_seat(tournament=t, entry=late, actor=actor)
    assert row.table.number == 2
    event = Event.objects.filter(tournament=t, action="seat.assign").latest("id")
    assert "together" not in event.payload


def test_balance_rules_by_ruleset_and_table_size(make_tournament):
    # tda-de 10: full tables hold three short; six-max two. bdpv 3.7: the position is kept
    # and blind posters stay.
    rules = svc.balance_rules(make_tournament(seats_per_table=9))
    assert (rules.hold_short_by, rules.keep_position, rules.never_move_blind_posters) == (
        3,
        False,
        False,
    )
    rules = svc.balance_rules(make_tournament(seats_per_table=6, ruleset="bdpv"))
    assert (rules.hold_short_by, rules.keep_position, rules.never_move_blind_posters) == (
        2,
        True,
        True,
    )
    assert svc.balance_rules(make_tournament(balance_tolerance=3)).hold_short_by == 4


def test_final_table_size_follows_the_seats_per_table(make_tournament):
    # tda-de 11: one full table of the event, at most ten.
    assert make_tournament(seats_per_table=6).final_table_size == 6
    assert make_tournament(seats_per_table=10).final_table_size == 10
    assert make_tournament().final_table_size == 9
    assert make_tournament(seats_per_table=6, final_table_size=8).final_table_size == 8
    with pytest.raises(FloorError):
        make_tournament(final_table_size=11)


def test_the_chart_tells_the_floor_when_a_move_seats_a_keep_apart_pair_together(
    field, actor, client, floor_user
):
    # tda-de 10 names the mover; when the only short table holds his keep-apart partner, the
    # move still has to be made (bdpv seating rule 4: "where possible") and the floor is told.
    t, _entries = field(18)
    svc.seats_draw(tournament=t, actor=actor)
    _buttons(t, actor)
    for row in list(SeatAssignment.objects.filter(table__tournament=t, table__number=1))[:2]:
        entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=actor)
    move = svc.balance_plan(t).moves[0]
    partner = SeatAssignment.objects.filter(
        table__tournament=t, table__number=move.to_table
    ).first()
    KeepApart.objects.create(tournament=t, first_id=move.entry, second_id=partner.entry_id)
    plan = svc.balance_plan(t)
    assert plan.together
    client.force_login(floor_user)
    page = client.get(f"/console/t/{t.pk}/seating/").content.decode()
    mover = Entry.objects.get(pk=plan.moves[0].entry)
    assert "should be kept apart" in page
    assert f"#{mover.number}" in page


def test_a_plan_read_while_a_table_is_broken_plans_again(field, actor, monkeypatch):
    # A page reads the plan without the lock: a break committed between the head counts and
    # the seats must not fail the page; the plan is made again on the room after the break.
    t, _entries = field(20, seats_per_table=9)
    svc.seats_draw(tournament=t, actor=actor)
    for row in list(SeatAssignment.objects.filter(table__tournament=t, table__number=1))[:3]:
        entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=actor)
    real = selectors._head_counts
    calls = []

    def counts_then_break(tournament, fullest, emptiest, upto=None):
        head = real(tournament, fullest, emptiest, upto)
        if not calls:
            calls.append(head)
            svc.table_break(tournament=t, number=1, actor=actor)
        return head

    monkeypatch.setattr(selectors, "_head_counts", counts_then_break)
    plan = svc.balance_plan(t)
    assert calls and not Table.objects.get(tournament=t, number=1).is_open
    assert all(1 not in (m.from_table, m.to_table) for m in plan.moves)
