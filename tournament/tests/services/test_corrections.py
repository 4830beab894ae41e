"""Corrections at the desk: void (before and after the start, refunded or moved), another
person on an entry, a misspelt name, money moved between entries; every one undone exactly;
the prize pool always the sum of the purchases still counted."""

from __future__ import annotations

import random

import pytest
from django.db.models import Sum
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from actions import corrections as commands
from actions.bust import BustReport, entries_bust
from actions.registration import entry_register, player_register
from core.errors import FloorError
from eventlog.words import event_sentence
from tests.examples import examples
from tournament.models import EntryStatus, Player, Purchase, Status, Tournament
from tournament.selectors import payout_amounts, tournament_numbers
from tournament.services import corrections
from tournament.services.deals import prize_paid
from tournament.services.registration import entry_purchase, player_create, registration_close

# Every counter the database keeps agrees with a full recount after each test.
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("counters_agree")]


def _state(t: Tournament) -> dict:
    """Everything a correction may touch, to compare before and after an undo."""
    from tables.models import SeatAssignment

    t = Tournament.objects.get(pk=t.pk)
    return {
        "counts": Tournament.objects.values_list(*Tournament.counters).get(pk=t.pk),
        "entries": list(
            t.entries.order_by("pk").values_list(
                "pk", "player_id", "status", "alternate_position", "place", "prize"
            )
        ),
        "purchases": list(
            Purchase.objects.filter(entry__tournament=t)
            .order_by("pk")
            .values_list("pk", "entry_id", "refunded")
        ),
        "seats": list(
            SeatAssignment.objects.filter(table__tournament=t)
            .order_by("entry_id")
            .values_list("entry_id", "table_id", "seat")
        ),
        "players": list(
            Player.objects.filter(entries__tournament=t)
            .distinct()
            .order_by("pk")
            .values_list("pk", "name", "display_name", "search_key")
        ),
    }


def _pool_is_the_purchases(t: Tournament) -> None:
    counted = Purchase.objects.filter(entry__tournament=t, refunded=False).aggregate(
        s=Sum("price")
    )["s"]
    assert tournament_numbers(t).prize_pool == (counted or 0)


@pytest.fixture
def running(make_tournament, register, actor):
    """Twelve players seated at two tables, the clock not limiting late registration."""
    from tables import services as seating

    t = make_tournament(
        status="registering",
        max_entries_per_player=2,
        rebuys_max=2,
        rebuy_price=5000,
        rebuy_chips=10000,
    )
    entries = [register(t, f"Spieler Nummer{i}") for i in range(12)]
    seating.tables_create(tournament=t, count=2, actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    return t, entries


def test_void_before_the_start_refunds_and_is_undone_exactly(make_tournament, register, actor):
    t = make_tournament(status="registering")
    a = register(t, "Anna Schäfer")
    register(t, "Ben Weber")
    before = _state(t)
    event = commands.entry_void(entry=a, actor=actor)
    a.refresh_from_db()
    assert a.status == EntryStatus.UNREGISTERED
    numbers = tournament_numbers(t)
    assert (numbers.entries, numbers.players_left, numbers.prize_pool) == (1, 1, 10000)
    _pool_is_the_purchases(t)
    assert event_sentence(event) == (
        "Correction: registration of Anna Schäfer (#1) voided, buy-in refunded"
    )
    undo = commands.correction_undo(tournament=t, event_id=event.pk, actor=actor)
    assert _state(t) == before
    assert "Correction undone" in event_sentence(undo)
    with pytest.raises(FloorError, match="undone already"):
        commands.correction_undo(tournament=t, event_id=event.pk, actor=actor)


def test_void_after_the_start_frees_the_seat_and_moves_places(running, actor):
    from tables.models import SeatAssignment

    t, entries = running
    entries_bust(tournament=t, busts=[BustReport(entry=entries[0])], actor=actor)
    assert t.entries.get(pk=entries[0].pk).place == 12
    wrong = entries[5]
    seat = SeatAssignment.objects.get(entry=wrong)
    table = seat.table
    seated = table.players
    before = _state(t)
    event = commands.entry_void(entry=wrong, actor=actor)
    numbers = tournament_numbers(t)
    assert numbers.entries == 11 and numbers.players_left == 10
    assert numbers.prize_pool == 11 * 10000
    assert numbers.average_stack == 11 * 20000 // 10
    assert t.entries.get(pk=entries[0].pk).place == 11  # as if the wrong entry never played
    assert not SeatAssignment.objects.filter(entry=wrong).exists()
    table.refresh_from_db()
    assert table.players == seated - 1
    assert sum(payout_amounts(t)) == numbers.prize_pool
    assert event.payload["seat"]["seat"] == seat.seat
    commands.correction_undo(tournament=t, event_id=event.pk, actor=actor)
    assert _state(t) == before


def test_void_with_the_money_moved_keeps_the_pool(running, actor):
    t, entries = running
    pool = tournament_numbers(t).prize_pool
    before = _state(t)
    event = commands.entry_void(entry=entries[3], actor=actor, move_to=entries[4].number)
    assert tournament_numbers(t).prize_pool == pool
    assert entries[4].purchases.count() == 2
    assert "money moved to #5" in event_sentence(event)
    _pool_is_the_purchases(t)
    commands.correction_undo(tournament=t, event_id=event.pk, actor=actor)
    assert _state(t) == before


def test_void_refusals(running, actor):
    t, entries = running
    entries_bust(tournament=t, busts=[BustReport(entry=entries[0])], actor=actor)
    with pytest.raises(FloorError, match="undo that bust first"):
        commands.entry_void(entry=entries[0], actor=actor)
    with pytest.raises(FloorError, match="another entry"):
        commands.entry_void(entry=entries[1], actor=actor, move_to=entries[1].number)
    with pytest.raises(FloorError, match="no entry #999"):
        commands.entry_void(entry=entries[1], actor=actor, move_to=999)


def test_undo_of_a_void_is_refused_when_the_seat_was_given_away(running, actor, register):
    from tables.models import SeatAssignment

    t, entries = running
    event = commands.entry_void(entry=entries[2], actor=actor)
    seat = event.payload["seat"]
    late = register(t, "Spät Kommer")
    SeatAssignment.objects.filter(entry=late).update(table_id=seat["table"], seat=seat["seat"])
    with pytest.raises(FloorError, match="has been given to #13"):
        commands.correction_undo(tournament=t, event_id=event.pk, actor=actor)
    assert t.entries.get(pk=entries[2].pk).status == EntryStatus.UNREGISTERED


def test_void_of_a_paid_place_is_corrected_like_a_bust_undo(make_tournament, register, actor):
    t = make_tournament(status="registering", places_paid=4)
    entries = [register(t) for _ in range(9)]
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    registration_close(tournament=t, actor=actor)
    t.refresh_from_db()
    for e in entries[:6]:
        entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)
    third = t.entries.get(pk=entries[5].pk)
    assert third.place == 4 and third.prize > 0
    prize_paid(tournament=t, entry_id=third.pk, actor=actor)
    # Voiding one of the three still in makes the fourth place the third (another prize).
    with pytest.raises(FloorError, match="paid already") as refused:
        commands.entry_void(entry=entries[6], actor=actor)
    assert refused.value.code == "paid"
    event = commands.entry_void(entry=entries[6], actor=actor, correct_payments=True)
    third.refresh_from_db()
    assert third.place == 3 and third.paid_amount > 0
    assert t.events.filter(action="payout.correction").exists()
    assert event.payload["payments_corrected"][0]["number"] == third.number
    _pool_is_the_purchases(t)


def test_a_voided_alternate_place_goes_back_on_undo(make_tournament, register, actor):
    t = make_tournament(status="registering", capacity=2)
    a, b, c = register(t), register(t), register(t)
    assert c.status == EntryStatus.ALTERNATE
    before = _state(t)
    event = commands.entry_void(entry=a, actor=actor)
    c.refresh_from_db()
    assert c.status == EntryStatus.ACTIVE
    assert event.payload["promoted"]["number"] == c.number
    commands.correction_undo(tournament=t, event_id=event.pk, actor=actor)
    assert _state(t) == before
    assert b.pk


def test_another_person_takes_the_entry_and_back(running, actor):
    t, entries = running
    entry = entries[1]
    before = _state(t)
    event = corrections.entry_change_player(entry=entry, actor=actor, name="Anna Schäfer")
    entry.refresh_from_db()
    assert entry.player.name == "Anna Schäfer" and entry.number == 2
    assert entry.purchases.count() == 1 and hasattr(entry, "seat")
    assert event_sentence(event) == ("Correction: #2 belongs to Anna Schäfer, not Spieler Nummer1")
    commands.correction_undo(tournament=t, event_id=event.pk, actor=actor)
    assert _state(t) == before
    assert not Player.objects.filter(name="Anna Schäfer").exists()


def test_a_person_with_a_live_entry_cannot_take_a_second(running, actor):
    _t, entries = running
    with pytest.raises(FloorError, match="plays already with #3"):
        corrections.entry_change_player(entry=entries[1], actor=actor, player=entries[2].player)


def test_a_misspelt_name_is_fixed_and_the_search_follows(running, actor):
    from tournament.selectors import entry_search

    t, entries = running
    player = entries[0].player
    before = _state(t)
    event = corrections.player_rename(
        player=player, name="Anna Schäfer", actor=actor, tournament=t, number=1
    )
    player.refresh_from_db()
    assert player.display_name == "Anna S."  # the display name made from the name follows
    assert list(entry_search(t, "schaefer")) == [entries[0]]
    assert "“Anna Schäfer”, not “Spieler Nummer0”" in event_sentence(event)
    commands.correction_undo(tournament=t, event_id=event.pk, actor=actor)
    assert _state(t) == before
    player.refresh_from_db()
    with pytest.raises(FloorError, match="unchanged"):
        corrections.player_rename(player=player, name=player.name, actor=actor, tournament=t)


def test_a_rebuy_on_the_wrong_entry_moves_and_back(running, actor):
    t, entries = running
    rebuy = entry_purchase(entry=entries[0], kind="rebuy", actor=actor)
    before = _state(t)
    pool = tournament_numbers(t).prize_pool
    event = corrections.purchase_move(purchase=rebuy, to_number=entries[1].number, actor=actor)
    assert entries[1].purchases.filter(kind="rebuy").count() == 1
    assert tournament_numbers(t).prize_pool == pool
    assert event_sentence(event) == "Correction: rebuy moved from #1 to #2"
    commands.correction_undo(tournament=t, event_id=event.pk, actor=actor)
    assert _state(t) == before


def test_undo_is_refused_after_a_later_change(running, actor):
    t, entries = running
    rebuy = entry_purchase(entry=entries[0], kind="rebuy", actor=actor)
    event = corrections.purchase_move(purchase=rebuy, to_number=2, actor=actor)
    corrections.purchase_move(purchase=rebuy, to_number=3, actor=actor)
    with pytest.raises(FloorError, match="moved or refunded again"):
        commands.correction_undo(tournament=t, event_id=event.pk, actor=actor)


def test_the_same_registration_key_registers_once(make_tournament, actor):
    t = make_tournament(status="registering")
    first = player_register(tournament=t, name="Anna Schäfer", actor=actor, idempotency_key="k1")
    again = player_register(tournament=t, name="Anna Schäfer", actor=actor, idempotency_key="k1")
    assert again.pk == first.pk and getattr(again, "replayed", False)
    assert t.entries.count() == 1 and Player.objects.filter(name="Anna Schäfer").count() == 1
    other = player_register(tournament=t, name="Ben Weber", actor=actor, idempotency_key="k2")
    assert other.pk != first.pk
    with pytest.raises(FloorError, match="another registration"):
        player_register(tournament=t, name="Clara Braun", actor=actor, idempotency_key="k1")
    player = player_create(name="Dora Lange", actor=actor)
    one = entry_register(tournament=t, player=player, actor=actor, idempotency_key="k3")
    two = entry_register(tournament=t, player=player, actor=actor, idempotency_key="k3")
    assert one.pk == two.pk and t.entries.count() == 3


@settings(
    # Each example is 25 random registrations, rebuys, voids, moves and undos through the
    # services, on both databases: 8 a run, 20 in the deep run (tests/examples.py).
    max_examples=examples(8, deep=20),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_prize_pool_is_the_purchases_still_counted(seed, make_tournament, actor):
    """Whatever mix of registrations, rebuys, voids (refunded or moved), moves of money and
    undos: the prize pool is the sum of the purchases still counted, and every undo is
    possible or refused without changing anything."""
    rng = random.Random(seed)
    t = make_tournament(status="registering", rebuys_max=3, rebuy_price=5000, rebuy_chips=5000)
    for i in range(4):
        player_register(tournament=t, name=f"Spieler Nummer{i}", actor=actor)
    if rng.random() < 0.5:
        Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
        t.refresh_from_db()
    done = []
    for step in range(25):
        live = list(t.entries.filter(status=EntryStatus.ACTIVE).order_by("number"))
        counted = list(t.entries.exclude(status=EntryStatus.UNREGISTERED).order_by("number"))
        roll = rng.random()
        try:
            if roll < 0.2:
                player_register(tournament=t, name=f"Spaet Nummer{step}", actor=actor)
            elif roll < 0.35 and live:
                entry_purchase(entry=rng.choice(live), kind="rebuy", actor=actor)
            elif roll < 0.55 and live:
                move = rng.choice(counted).number if rng.random() < 0.4 else None
                done.append(commands.entry_void(entry=rng.choice(live), actor=actor, move_to=move))
            elif roll < 0.7:
                bought = list(Purchase.objects.filter(entry__tournament=t, refunded=False))
                if bought and counted:
                    done.append(
                        corrections.purchase_move(
                            purchase=rng.choice(bought),
                            to_number=rng.choice(counted).number,
                            actor=actor,
                        )
                    )
            elif done:
                event = rng.choice(done)
                before = _state(t)
                try:
                    commands.correction_undo(tournament=t, event_id=event.pk, actor=actor)
                except FloorError:
                    assert _state(t) == before
        except FloorError:
            pass
        _pool_is_the_purchases(t)
        numbers = tournament_numbers(t)
        assert (
            numbers.entries
            == t.entries.exclude(
                status__in=[EntryStatus.UNREGISTERED, EntryStatus.ALTERNATE]
            ).count()
        )
