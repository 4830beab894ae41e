"""The head counts the database keeps (tournament/counters.py) match the rows after every kind
of change: registration, alternates, unregistering, the draw and redraw, late seats, balancing,
breaking, the final table, busts and their undo, an import, and a random mix of all of them."""

import random

import pytest
from django.db.models import Count, Q, Sum

from actions.archive import tournament_export, tournament_import
from actions.bust import BustReport, bust_undo_last, entries_bust
from actions.registration import entry_register, entry_unregister
from actions.tables import balance_apply, final_table_draw, hand_done, table_break
from tables import services as svc
from tables.models import SeatAssignment, Table
from tournament import counters
from tournament.models import EntryStatus, Purchase, Tournament
from tournament.services.registration import entry_purchase

# After each test, `floor_recount --check` agrees too (tournament/counters.py `check`).
pytestmark = pytest.mark.usefixtures("counters_agree")


def assert_counts_true(t: Tournament) -> None:
    t.refresh_from_db()
    alive = t.entries.filter(status=EntryStatus.ACTIVE).count()
    counted = t.entries.exclude(
        status__in=[EntryStatus.UNREGISTERED, EntryStatus.ALTERNATE]
    ).count()
    waiting = t.entries.filter(status=EntryStatus.ALTERNATE).count()
    assert (t.players_left, t.entries_counted, t.alternates_waiting) == (alive, counted, waiting)
    bought = Purchase.objects.filter(entry__tournament=t, refunded=False)
    sums = bought.aggregate(p=Sum("price"), f=Sum("fee"), c=Sum("chips"))
    kinds = {k: bought.filter(kind=k).count() for k in ("buyin", "reentry", "rebuy", "addon")}
    assert (t.paid_in, t.fees_in, t.chips_in) == (sums["p"] or 0, sums["f"] or 0, sums["c"] or 0)
    assert (t.bought_buyins, t.bought_reentries, t.bought_rebuys, t.bought_addons) == (
        kinds["buyin"],
        kinds["reentry"],
        kinds["rebuy"],
        kinds["addon"],
    )
    real = dict(
        Table.objects.filter(tournament=t)
        .annotate(n=Count("assignments"))
        .values_list("number", "n")
    )
    kept = dict(Table.objects.filter(tournament=t).values_list("number", "players"))
    assert kept == real
    assert t.tables_open == Table.objects.filter(tournament=t, is_open=True).count()


@pytest.fixture
def running(make_tournament, register):
    def make(n, **options):
        t = make_tournament(status="running", late_registration_until_level=6, **options)
        for _ in range(n):
            register(t)
        return t

    return make


def test_registration_alternates_and_unregistering(make_tournament, register, actor):
    t = make_tournament(capacity=3, status="registering")
    entries = [register(t) for _ in range(5)]
    assert_counts_true(t)
    assert (t.players_left, t.entries_counted, t.alternates_waiting) == (3, 3, 2)
    entry_unregister(entry=entries[0], actor=actor)  # an alternate moves up
    assert_counts_true(t)
    assert (t.players_left, t.entries_counted, t.alternates_waiting) == (3, 3, 1)


def test_draw_balance_break_bust_undo_final(running, register, actor):
    t = running(30)
    svc.seats_draw(tournament=t, actor=actor)
    assert_counts_true(t)
    assert sum(Table.objects.filter(tournament=t).values_list("players", flat=True)) == 30
    svc.seats_draw(tournament=t, actor=actor, redraw=True)
    assert_counts_true(t)
    register(t)  # a late entry is seated
    assert_counts_true(t)
    for table in Table.objects.filter(tournament=t, is_open=True):
        hand_done(table=table, actor=actor)
    for _ in range(6):
        row = SeatAssignment.objects.filter(table__tournament=t).order_by("table__number").first()
        entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=actor)
        assert_counts_true(t)
        plan = svc.balance_plan(t)
        if plan.moves:
            balance_apply(tournament=t, signature=plan.signature, actor=actor)
            assert_counts_true(t)
    bust_undo_last(tournament=t, actor=actor)
    assert_counts_true(t)
    number = max(Table.objects.filter(tournament=t, is_open=True).values_list("number", flat=True))
    table_break(tournament=t, number=number, actor=actor)
    assert_counts_true(t)
    while t.players_left > t.final_table_size:
        row = SeatAssignment.objects.filter(table__tournament=t).first()
        entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=actor)
        t.refresh_from_db()
    final_table_draw(tournament=t, actor=actor)
    assert_counts_true(t)


def test_a_stale_copy_of_the_row_does_not_overwrite_the_counts(running, register):
    t = running(4)
    stale = Tournament.objects.get(pk=t.pk)
    register(t)
    stale.name = "Renamed"
    stale.save()
    t.refresh_from_db()
    assert (t.name, t.players_left) == ("Renamed", 5)


def test_import_counts_once(running, actor):
    t = running(12)
    svc.seats_draw(tournament=t, actor=actor)
    data = tournament_export(t)
    t.delete()
    back = tournament_import(data)
    assert_counts_true(back)
    assert back.players_left == 12


def test_recount_repairs(running, actor):
    t = running(9)
    svc.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(players_left=0)
    Table.objects.filter(tournament=t).update(players=0)
    counters.recount(t.pk)
    assert_counts_true(t)


def test_random_mix_keeps_the_counts(running, register, actor):
    rng = random.Random(7)
    t = running(40)
    svc.seats_draw(tournament=t, actor=actor)
    for table in Table.objects.filter(tournament=t, is_open=True):
        hand_done(table=table, actor=actor)
    for _ in range(40):
        t.refresh_from_db()
        choice = rng.random()
        seated = list(SeatAssignment.objects.filter(table__tournament=t).select_related("entry"))
        if choice < 0.45 and t.players_left > 3:
            entries_bust(
                tournament=t, busts=[BustReport(entry=rng.choice(seated).entry)], actor=actor
            )
        elif choice < 0.6:
            register(t)
        elif choice < 0.7 and t.entries.filter(Q(bust_sequence__isnull=False)).exists():
            bust_undo_last(tournament=t, actor=actor)
        elif choice < 0.85:
            plan = svc.balance_plan(t)
            if plan.moves:
                balance_apply(tournament=t, signature=plan.signature, actor=actor)
        else:
            table = rng.choice(list(Table.objects.filter(tournament=t, is_open=True)))
            hand_done(table=table, actor=actor)
        assert_counts_true(t)


def test_purchases_rebuys_addons_reentries_and_refunds(make_tournament, register, actor):
    t = make_tournament(
        status="registering",
        rebuys_max=2,
        rebuy_price=5000,
        rebuy_fee=500,
        rebuy_chips=10000,
        addons_max=1,
        addon_price=3000,
        addon_chips=8000,
        max_entries_per_player=2,
        late_registration_until_level=6,
        reentry_until_level=6,
    )
    entries = [register(t) for _ in range(4)]
    assert_counts_true(t)
    assert (t.paid_in, t.bought_buyins) == (4 * 10000, 4)
    entry_unregister(entry=entries[3], actor=actor)  # refunded
    assert_counts_true(t)
    assert (t.paid_in, t.bought_buyins) == (3 * 10000, 3)
    Tournament.objects.filter(pk=t.pk).update(status="running")
    t.refresh_from_db()
    entry_purchase(entry=entries[0], kind="rebuy", actor=actor)
    entry_purchase(entry=entries[0], kind="addon", actor=actor)
    assert_counts_true(t)
    assert (t.bought_rebuys, t.bought_addons, t.chips_in) == (1, 1, 3 * 20000 + 18000)
    entries_bust(tournament=t, busts=[BustReport(entry=entries[1])], actor=actor)
    entry_register(tournament=t, player=entries[1].player, actor=actor)  # a re-entry
    assert_counts_true(t)
    assert t.bought_reentries == 1
