"""A property test over whole tournaments played through the services: late entries,
re-entries, busts one at a time and several in one hand (at one table and across tables, from
the desk and from dealer reports confirmed in any order), hand-for-hand, balancing and breaks,
undo. Whatever happens, the places at the end are 1..N once each (shared places taking their
range; never shared under bdpv), the prizes sum to the payout table, and no big blind is ever
on an empty seat."""

from __future__ import annotations

import math
import random

import pytest
from django.db.models import F
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actions.bust import BustReport, bust_undo_last, entries_bust, report_resolve
from actions.registration import entry_register
from actions.tables import balance_apply, hand_done, table_break
from core.errors import FloorError
from tables import services as seating
from tables.models import SeatAssignment, Table, TableReport
from tests.examples import examples
from tournament.domain.eliminations import places_are_complete
from tournament.models import EntryStatus, Status, Tournament
from tournament.selectors import payout_amounts
from tournament.services.registration import player_create, registration_close

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


def _seated(t):
    rows = SeatAssignment.objects.filter(table__tournament=t, table__is_open=True)
    return list(rows.select_related("table", "entry"))


def _hand_done(table, actor):
    """Deal the next hand and check it: its big blind is a player at the table, dealt in, and
    not one the dealer has reported out (tda-de 32-34, bdpv 3.2)."""
    table = hand_done(table=table, actor=actor, hand_number=table.hand_number)
    table.refresh_from_db()
    seats = dict(table.assignments.values_list("seat", "must_wait"))
    reported = set(
        TableReport.objects.filter(
            table=table,
            kind="bust",
            resolved_at__isnull=True,
            hand_number=table.hand_number - 1,
            entry__seat__table=table,
            entry__seat__seat=F("seat"),
        ).values_list("seat", flat=True)
    )
    if len(set(seats) - reported) < 2 or table.big_blind_seat is None:
        return  # no next hand at this table: the floor must move players first
    assert table.big_blind_seat in seats, (table.number, table.blinds(), seats)
    assert not seats[table.big_blind_seat], (table.number, table.blinds())
    assert table.big_blind_seat not in reported, (table.number, table.blinds(), reported)


def _keep_tables_playable(t, actor):
    """The floor's routine after busts: break a table when due, balance when needed."""
    number = seating.break_suggestion(t)
    if number is not None:
        table_break(tournament=t, number=number, actor=actor)
    plan = seating.balance_plan(t)
    if plan.moves:
        balance_apply(tournament=t, signature=plan.signature, actor=actor)
    for table in Table.objects.filter(tournament=t, is_open=True, button_seat__isnull=True):
        seats = sorted(table.assignments.values_list("seat", flat=True))
        if len(seats) >= 2:
            seating.button_set(table=table, seat=seats[0], actor=actor)


def _bust(t, rng, actor, closed):
    """Bust one to three players in one hand: from the desk or from dealer reports."""
    seated = _seated(t)
    alive = t.entries.filter(status=EntryStatus.ACTIVE).count()
    if alive < 2 or not seated:
        return
    by_table: dict[int, list] = {}
    for row in seated:
        by_table.setdefault(row.table_id, []).append(row)
    tables = list(by_table.values())
    rng.shuffle(tables)
    count = min(rng.choice([1, 1, 1, 2, 3]), alive - 1)
    chosen = []
    for rows in tables[: rng.choice([1, 2])]:
        rng.shuffle(rows)
        chosen.extend(rows[: max(1, count - len(chosen))])
        if len(chosen) >= count:
            break
    chosen = chosen[:count]
    stacks = {row.entry_id: rng.choice([500, 1000, 1000, 4000]) for row in chosen}
    if rng.random() < 0.5:
        entries_bust(
            tournament=t,
            busts=[
                BustReport(entry=r.entry, stack_at_hand_start=stacks[r.entry_id]) for r in chosen
            ],
            actor=actor,
        )
        return
    reports = []
    for row in chosen:
        left = row.table.assignments.count()
        if left - sum(1 for r in reports if r.table_id == row.table_id) <= 1:
            continue
        reports.append(
            seating.report_bust(
                table=row.table,
                seat=row.seat,
                stack_at_hand_start=stacks[row.entry_id],
                actor=actor,
            )
        )
    if rng.random() < 0.5:
        for table_id in {r.table_id for r in reports}:
            _hand_done(Table.objects.get(pk=table_id), actor)
    rng.shuffle(reports)
    for report in reports:
        report.refresh_from_db()
        if report.resolved_at is None:
            report_resolve(report=report, confirm=True, actor=actor)


@settings(
    # Each example is a whole tournament of up to 200 steps, on both databases: 10 a run (25
    # made it one of the suite's longest tests), 25 in the deep run (tests/examples.py).
    max_examples=examples(10, deep=25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32 - 1), ruleset=st.sampled_from(["tda-de", "bdpv"]))
def test_whole_tournaments_end_with_complete_places_and_exact_prizes(
    seed, ruleset, make_tournament, actor
):
    rng = random.Random(seed)
    t = make_tournament(
        status="registering", ruleset=ruleset, max_entries_per_player=2, seats_per_table=6
    )
    players = [
        player_create(name=f"Spieler Nummer{i}", actor=actor) for i in range(rng.randint(9, 16))
    ]
    for p in players:
        entry_register(tournament=t, player=p, actor=actor)
    seating.tables_create(tournament=t, count=math.ceil(len(players) / 6), actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    _keep_tables_playable(t, actor)
    closed = False
    undos = 0
    for _step in range(200):
        t.refresh_from_db()
        if t.status == Status.FINISHED:
            break
        roll = rng.random()
        try:
            if roll < 0.15 and not closed:
                busted = list(t.entries.filter(status=EntryStatus.BUSTED).select_related("player"))
                again = [
                    e.player
                    for e in busted
                    if not t.entries.filter(player=e.player, status=EntryStatus.ACTIVE).exists()
                    and t.entries.filter(player=e.player).count() < 2
                ]
                player = rng.choice(again) if again and rng.random() < 0.5 else None
                player = player or player_create(name=f"Nachzuegler Nummer{_step}", actor=actor)
                entry_register(tournament=t, player=player, actor=actor)
            elif roll < 0.2 and not closed:
                registration_close(tournament=t, actor=actor)
                closed = True
            elif roll < 0.25 and undos < 3:
                bust_undo_last(tournament=t, actor=actor, correct_payments=True)
                undos += 1
            elif roll < 0.3:
                seating.hand_for_hand_set(tournament=t, on=not t.hand_for_hand, actor=actor)
            elif roll < 0.45:
                table = rng.choice(list(Table.objects.filter(tournament=t, is_open=True)))
                if table.assignments.count() >= 2:
                    _hand_done(table, actor)
            else:
                _bust(t, rng, actor, closed)
        except FloorError as exc:
            if exc.code == "registration_open":
                registration_close(tournament=t, actor=actor)
                closed = True
                for report in TableReport.objects.filter(
                    table__tournament=t, resolved_at__isnull=True
                ):
                    report.refresh_from_db()
                    if report.resolved_at is None:
                        report_resolve(report=report, confirm=True, actor=actor)
            elif "There is no bust" not in str(exc) and "entered again" not in str(exc):
                raise
        _keep_tables_playable(t, actor)
    t.refresh_from_db()
    if t.status != Status.FINISHED:
        if not closed:
            registration_close(tournament=t, actor=actor)
        if t.hand_for_hand:
            seating.hand_for_hand_set(tournament=t, on=False, actor=actor)
        while t.status != Status.FINISHED:
            for report in TableReport.objects.filter(table__tournament=t, resolved_at__isnull=True):
                report_resolve(report=report, confirm=False, actor=actor)
            last = t.entries.filter(status=EntryStatus.ACTIVE).order_by("?").first()
            entries_bust(
                tournament=t, busts=[BustReport(entry=last, stack_at_hand_start=100)], actor=actor
            )
            t.refresh_from_db()
    rows = list(t.entries.exclude(status=EntryStatus.UNREGISTERED).values_list("place", "prize"))
    field = t.entries_counted
    places = [p for p, _ in rows]
    assert None not in places
    assert places_are_complete(places, field), sorted(places)
    if ruleset == "bdpv":
        assert len(set(places)) == len(places)
    assert sum(prize for _, prize in rows) == sum(payout_amounts(t))
