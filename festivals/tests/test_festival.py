"""An event with starting flights through its services: making it, who may enter which flight,
bag and tag with a second person's confirmation and its refusals, closing the day, the Day-2
draw (seeded and random), the pool and places across the event."""

from __future__ import annotations

from random import Random

import pytest

from actions import corrections as commands
from actions.bust import BustReport, entries_bust
from actions.registration import entry_register, entry_unregister
from actions.tournaments import tournament_reopen, tournament_status_set
from core.errors import FloorError
from counts.models import ChipCount
from festivals import services as fest
from festivals.domain.day2 import Seat, Survivor, draw_violations
from festivals.models import Advance, Bagging, Carried
from festivals.selectors import bagging_report, event_standings, event_state, latest_bags
from tables import services as seating
from tables.models import SeatAssignment, Table
from tournament import counters
from tournament.events import Actor
from tournament.models import Entry, EntryStatus, Event, Status, Tournament
from tournament.selectors import payout_amounts, tournament_numbers
from tournament.services import corrections
from tournament.services.registration import player_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def second(floor_user):
    return Actor(user=floor_user, label="flo", source="127.0.0.1")


@pytest.fixture
def event(make_tournament, actor):
    base = make_tournament(status="registering", seats_per_table=6, guarantee=1_000_000)
    return fest.event_create(template=base, name="Main Event", flights=3, actor=actor)


def flights(event):
    return [f.tournament for f in event.flights.order_by("position")]


def play(t, actor, players, *, busts):
    """Register `players`, draw, run and bust `busts` of them one by one."""
    Tournament.objects.filter(pk=t.pk).update(status=Status.REGISTERING)
    t.refresh_from_db()
    for p in players:
        entry_register(tournament=t, player=p, actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    out = list(t.entries.order_by("number"))[:busts]
    for e in out:
        entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)
    t.refresh_from_db()
    return t


def people(n, start=0):
    return [player_create(name=f"Gast Nummer{start + i}", actor=Actor.system()) for i in range(n)]


def bag_all(t, actor, second, *, chips=None):
    """Bag every table of `t` (director) and confirm it (floor): stacks share the chips."""
    bagging = fest.bagging_open(tournament=t, actor=actor)
    alive = list(t.entries.filter(status=EntryStatus.ACTIVE).select_related("seat__table"))
    total = tournament_numbers(t).chips_in_play
    each = chips or [total // len(alive) // 25 * 25] * len(alive)
    if chips is None:
        each[0] += total - sum(each)
    by_table: dict[int, dict[int, tuple[int, str]]] = {}
    for e, c in zip(alive, each, strict=True):
        by_table.setdefault(e.seat.table.number, {})[e.pk] = (c, f"{t.pk}-{e.number}")
    for number, bags in by_table.items():
        fest.bags_record(bagging=bagging, table_number=number, bags=bags, actor=actor)
        fest.bags_confirm(bagging=bagging, table_number=number, entry_ids=None, actor=second)
    return bagging


def test_an_event_makes_flights_that_pay_into_one_day2(event, actor):
    a, b, c = flights(event)
    assert [f.label for f in event.flights.order_by("position")] == ["1A", "1B", "1C"]
    assert a.name == "Main Event – Day 1A" and c.starts_at > b.starts_at > a.starts_at
    assert {t.pool_to_id for t in (a, b, c)} == {event.day2_id}
    assert event.day2.pooled and event.day2.guarantee == 1_000_000 and a.guarantee == 0
    play(a, actor, people(12), busts=3)
    play(b, actor, people(8, 100), busts=0)
    numbers = tournament_numbers(event.day2)
    assert numbers.entries == 20
    assert numbers.contributions == 20 * a.buy_in
    assert numbers.prize_pool == 1_000_000  # the guarantee, over the event's pool
    assert payout_amounts(a) == []  # a flight pays nothing itself
    assert Event.objects.filter(action="festival.create", tournament=event.day2).exists()


def test_a_survivor_plays_one_flight_when_every_bag_advances(event, actor, second):
    a, b, _c = flights(event)
    gang = people(12)
    play(a, actor, gang, busts=4)
    Tournament.objects.filter(pk=b.pk).update(status=Status.REGISTERING)
    with pytest.raises(FloorError, match="still playing"):
        entry_register(tournament=Tournament.objects.get(pk=b.pk), player=gang[-1], actor=actor)
    bag_all(Tournament.objects.get(pk=a.pk), actor, second)
    fest.bagging_close(bagging=Bagging.objects.get(tournament=a), actor=actor)
    b = Tournament.objects.get(pk=b.pk)
    Tournament.objects.filter(pk=b.pk).update(status=Status.REGISTERING)
    with pytest.raises(FloorError, match="bagged chips in Day 1A"):
        entry_register(tournament=b, player=gang[-1], actor=actor)
    # Busted in 1A: re-entry across flights is allowed by default.
    entry_register(tournament=b, player=gang[0], actor=actor)


def test_no_reentry_across_flights_by_policy(event, actor):
    event.reentry_across_flights = False
    event.save()
    a, b, _c = flights(event)
    gang = people(6)
    play(a, actor, gang, busts=2)
    Tournament.objects.filter(pk=b.pk).update(status=Status.REGISTERING)
    with pytest.raises(FloorError, match="no re-entry"):
        entry_register(tournament=Tournament.objects.get(pk=b.pk), player=gang[0], actor=actor)


def test_bags_need_a_second_person_and_refuse_a_bag_used_twice(event, actor, second):
    a = play(flights(event)[0], actor, people(12), busts=2)
    bagging = fest.bagging_open(tournament=a, actor=actor)
    table1 = list(Entry.objects.filter(tournament=a, seat__table__number=1).order_by("seat__seat"))
    x, y = table1[0], table1[1]
    fest.bags_record(
        bagging=bagging, table_number=1, bags={x.pk: (20_000, "a-1"), y.pk: (None, "")}, actor=actor
    )
    before = ChipCount.objects.count()
    with pytest.raises(FloorError, match="bag A-1 is used already"):
        fest.bags_record(bagging=bagging, table_number=1, bags={y.pk: (9_000, "A-1")}, actor=actor)
    assert ChipCount.objects.count() == before
    # The same person cannot confirm their own count; re-entering it alone confirms nothing.
    with pytest.raises(FloorError, match="another person"):
        fest.bags_confirm(bagging=bagging, table_number=1, entry_ids=None, actor=actor)
    fest.bags_record(bagging=bagging, table_number=1, bags={x.pk: (20_000, "A-1")}, actor=actor)
    assert not ChipCount.objects.filter(entry=x).order_by("-id").first().verified_at
    # Another person re-entering a different count: disputed, flagged for a recount.
    fest.bags_record(bagging=bagging, table_number=1, bags={x.pk: (2_000, "A-1")}, actor=second)
    report = bagging_report(bagging)
    assert any(f.flag.value == "disputed" and f.entry_id == x.pk for f in report.findings)
    # A disputed count is counted again, not waved through.
    with pytest.raises(FloorError, match="disagree: count again"):
        fest.bags_confirm(bagging=bagging, table_number=1, entry_ids=[x.pk], actor=actor)
    # The same count again by the other person confirms it.
    fest.bags_record(bagging=bagging, table_number=1, bags={x.pk: (2_000, "A-1")}, actor=actor)
    assert ChipCount.objects.filter(entry=x).order_by("-id").first().verified_at
    assert not any(f.flag.value == "disputed" for f in bagging_report(bagging).findings)


def test_a_count_for_a_busted_player_is_refused(event, actor):
    a = play(flights(event)[0], actor, people(8), busts=2)
    bagging = fest.bagging_open(tournament=a, actor=actor)
    out = a.entries.filter(status=EntryStatus.BUSTED).first()
    with pytest.raises(FloorError, match=f"#{out.number} .* busted after this form was drawn"):
        fest.bags_record(bagging=bagging, table_number=1, bags={out.pk: (1000, "X1")}, actor=actor)


def test_closing_the_day_names_the_tables_missing_and_waits_for_flags(event, actor, second):
    a = play(flights(event)[0], actor, people(12), busts=2)
    bagging = fest.bagging_open(tournament=a, actor=actor)
    with pytest.raises(FloorError, match=r"10 players have no bag yet \(tables 1, 2\)"):
        fest.bagging_close(bagging=bagging, actor=actor)
    Bagging.objects.filter(pk=bagging.pk).delete()
    # Counts that miss chips: the room's sum is off, closing waits for the director's word.
    alive = a.entries.filter(status=EntryStatus.ACTIVE).count()
    bagging = bag_all(a, actor, second, chips=[1_000] * alive)
    with pytest.raises(FloorError, match="flagged"):
        fest.bagging_close(bagging=bagging, actor=actor)
    assert a.__class__.objects.get(pk=a.pk).status == Status.RUNNING
    closed = fest.bagging_close(bagging=bagging, actor=actor, despite_flags=True)
    assert closed.closed_with_flags and closed.survivors == 10
    assert Tournament.objects.get(pk=a.pk).status == Status.FINISHED


def test_the_day2_draw_waits_for_every_flight_then_carries_the_bags(event, actor, second):
    a, b, c = flights(event)
    play(a, actor, people(18), busts=10)
    play(b, actor, people(12, 100), busts=6)
    play(c, actor, people(12, 200), busts=8)
    for t in (a, b):
        fest.bagging_close(bagging=bag_all(t, actor, second), actor=actor)
    with pytest.raises(FloorError, match="1C"):
        fest.day2_draw_run(event=event, seeded=True, actor=actor)
    alive = c.entries.filter(status=EntryStatus.ACTIVE).count()
    chips = [1_000 * (i + 1) for i in range(alive)]
    chips[-1] += tournament_numbers(c).chips_in_play - sum(chips)
    fest.bagging_close(bagging=bag_all(c, actor, second, chips=chips), actor=actor)
    # Before the draw the bagged players share the top places, above every Day-1 bust.
    before = event_standings(event)
    assert [r.still_in for r in before] == [True] * 18 + [False] * 24
    assert (before[0].place, before[0].shared_to, before[18].place) == (1, 18, 19)
    drawn = fest.day2_draw_run(event=event, seeded=True, actor=actor, rng=Random(7))
    assert (drawn.players, drawn.tables) == (18, 3)
    day2 = Tournament.objects.get(pk=event.day2_id)
    assert day2.players_left == 18 and day2.entries_counted == 18
    # The tables opened with their head counts: every kept counter agrees with a recount.
    report = counters.check(day2.pk)
    assert report.ok and report.counters > 0, report.differences
    assert sorted(Table.objects.filter(tournament=day2).values_list("players", flat=True)) == [
        6,
        6,
        6,
    ]
    numbers = tournament_numbers(day2)
    assert numbers.entries == 42 and numbers.chips_in_play == sum(
        tournament_numbers(t).chips_in_play for t in (a, b, c)
    )
    seats = list(SeatAssignment.objects.filter(table__tournament=day2).select_related("entry"))
    assert len({(s.table_id, s.seat) for s in seats}) == 18
    assert all(s.stack == s.entry.chip_counts.get().count for s in seats)
    survivors = [
        Survivor(player_id=s.entry.player_id, entry_id=s.entry_id, flight=0, chips=s.stack, bag="")
        for s in seats
    ]
    placed = {s.entry_id: Seat(table=s.table.number, seat=s.seat) for s in seats}
    assert draw_violations(placed, survivors, tables=[(1, 6), (2, 6), (3, 6)], seeded=True) == []
    with pytest.raises(FloorError, match="drawn already"):
        fest.day2_draw_run(event=event, seeded=False, actor=actor)
    event.refresh_from_db()
    state = event_state(event)
    assert state.survivors == 18 and not state.ready_to_draw
    standings = event_standings(event)
    assert len(standings) == 42
    assert [s.reached for s in standings[:18]] == ["2"] * 18
    assert standings[18].place == 19


def test_best_stack_forward_keeps_the_biggest_bag(event, actor, second):
    event.advance = Advance.BEST
    event.save()
    a, b, c = flights(event)
    gang = people(6)
    play(a, actor, gang, busts=3)
    fest.bagging_close(bagging=bag_all(a, actor, second), actor=actor)
    Tournament.objects.filter(pk=b.pk).update(status=Status.REGISTERING)
    play(b, actor, [*gang[3:], *people(3, 50)], busts=2)
    fest.bagging_close(bagging=bag_all(b, actor, second), actor=actor)
    play(c, actor, people(4, 70), busts=1)
    fest.bagging_close(bagging=bag_all(c, actor, second), actor=actor)
    drawn = fest.day2_draw_run(event=event, seeded=False, actor=actor, rng=Random(1))
    twice = {p.pk for p in gang[3:]} & set(
        Entry.objects.filter(tournament=b, status=EntryStatus.ACTIVE).values_list(
            "player_id", flat=True
        )
    )
    assert drawn.forfeited == len(twice)
    day2 = Entry.objects.filter(tournament_id=event.day2_id)
    assert day2.count() == len(set(day2.values_list("player_id", flat=True)))


def day2_field(event):
    """The Day 2's entries before the draw: player id -> (chips carried, counted, bag number)."""
    rows = Entry.objects.filter(tournament_id=event.day2_id)
    return {
        e.player_id: (
            sum(p.chips for p in e.purchases.all()),
            e.chip_counts.get().count,
            e.chip_counts.get().bag_number,
        )
        for e in rows.prefetch_related("purchases")
    }


def test_closing_a_day_carries_its_bags_into_the_day2_and_reopening_takes_them_back(
    event, actor, second
):
    a, b, _c = flights(event)
    play(a, actor, people(8), busts=3)
    play(b, actor, people(6, 100), busts=2)
    bagging = bag_all(Tournament.objects.get(pk=a.pk), actor, second)
    fest.bagging_close(bagging=bagging, actor=actor)
    alive = {e.player_id: e for e in a.entries.filter(status=EntryStatus.ACTIVE)}
    field = day2_field(event)
    assert set(field) == set(alive)
    bags = {r.entry_id: r for r in latest_bags(bagging).values()}
    for player, entry in alive.items():
        assert field[player] == (bags[entry.pk].chips,) * 2 + (bags[entry.pk].bag,)
    day2 = Tournament.objects.get(pk=event.day2_id)
    # Waiting for the draw: in the Day 2, bagged, not seated, no money paid.
    assert day2.players_left == 5 and day2.status == Status.PLANNED
    assert not SeatAssignment.objects.filter(entry__tournament=day2).exists()
    assert tournament_numbers(day2).chips_in_play == sum(c for c, _n, _b in field.values())
    closed = Event.objects.filter(action="festival.bagging_close", tournament=a).get()
    assert (closed.payload["carried"], closed.payload["taken_back"]) == (5, 0)
    # Reopened: its bags leave the Day 2; a bag corrected and the day closed again comes back
    # with the new count.
    fest.bagging_reopen(bagging=bagging, actor=actor, reason="bag 3 miscounted")
    assert day2_field(event) == {}
    entry = next(iter(alive.values()))
    row = latest_bags(bagging)[entry.pk]
    other = next(e for e in alive.values() if e.pk != entry.pk)
    other_row = latest_bags(bagging)[other.pk]
    table = entry.seat.table.number
    moved = {entry.pk: (row.chips + 100, row.bag)}
    if other.seat.table.number == table:
        moved[other.pk] = (other_row.chips - 100, other_row.bag)
    fest.bags_record(bagging=bagging, table_number=table, bags=moved, actor=actor)
    fest.bags_confirm(bagging=bagging, table_number=table, entry_ids=None, actor=second)
    fest.bagging_close(bagging=bagging, actor=actor, despite_flags=True)
    field = day2_field(event)
    assert len(field) == 5 and field[entry.player_id][0] == row.chips + 100
    assert Tournament.objects.get(pk=event.day2_id).players_left == 5
    assert Entry.objects.filter(tournament_id=event.day2_id).count() == 5
    # The carried field is seated by the event's draw only: the console's draw refuses it, even
    # with the Day 2's registration open.
    day2 = Tournament.objects.get(pk=event.day2_id)
    tournament_status_set(tournament=day2, status=Status.REGISTERING, actor=actor)
    for redraw in (False, True):
        with pytest.raises(FloorError) as refused:
            seating.seats_draw(tournament=day2, actor=actor, redraw=redraw)
        assert refused.value.code == "pooled"
    assert not SeatAssignment.objects.filter(entry__tournament=day2).exists()
    # Nor does anybody register into the Day 2: its players are the bags.
    newcomer = player_create(name="Late Comer", display_name="Late C.", actor=actor)
    with pytest.raises(FloorError) as refused:
        entry_register(tournament=day2, player=newcomer, actor=actor)
    assert refused.value.code == "day2_entry"
    # Nor is a carried entry refunded: it is a bag, not a buy-in (its flight's day reopens).
    carried = Entry.objects.filter(tournament_id=event.day2_id).first()
    with pytest.raises(FloorError) as refused:
        entry_unregister(entry=carried, actor=actor)
    assert refused.value.code == "day2_entry"
    # Nor voided, given to another person or its money moved: that is done in its flight.
    other = Entry.objects.filter(tournament_id=event.day2_id).exclude(pk=carried.pk).first()
    for correct in (
        lambda: commands.entry_void(entry=carried, actor=actor),
        lambda: corrections.entry_change_player(entry=carried, actor=actor, name="Someone Else"),
        lambda: corrections.purchase_move(
            purchase=carried.purchases.first(), to_number=other.number, actor=actor
        ),
    ):
        with pytest.raises(FloorError) as refused:
            correct()
        assert refused.value.code == "day2_entry"
    assert Entry.objects.filter(tournament_id=event.day2_id, status=EntryStatus.ACTIVE).count() == 5
    assert Entry.objects.get(pk=carried.pk).player_id == carried.player_id


def test_best_stack_forward_is_settled_as_each_day_closes(event, actor, second):
    event.advance = Advance.BEST
    event.save()
    a, b, _c = flights(event)
    gang = people(4)
    play(a, actor, gang, busts=0)
    fest.bagging_close(
        bagging=bag_all(a, actor, second, chips=[1_000, 2_000, 3_000, 74_000]), actor=actor
    )
    Tournament.objects.filter(pk=b.pk).update(status=Status.REGISTERING)
    # Two of them play 1B as well: one ends with more than in 1A, one with less.
    play(b, actor, [gang[0], gang[1], *people(2, 50)], busts=0)
    order = list(b.entries.order_by("number").values_list("player_id", flat=True))
    chips = {gang[0].pk: 40_000, gang[1].pk: 500}
    rest = [c for c in (19_500, 20_000)]
    each = [chips[p] if p in chips else rest.pop() for p in order]
    bagging_b = bag_all(Tournament.objects.get(pk=b.pk), actor, second, chips=each)
    fest.bagging_close(bagging=bagging_b, actor=actor)
    field = day2_field(event)
    assert len(field) == 6  # four from 1A, two newcomers from 1B
    assert field[gang[0].pk][0] == 40_000  # the bigger bag of 1B replaced 1A's
    assert field[gang[1].pk][0] == 2_000  # 1A's bag stays the bigger
    forfeited = Carried.objects.filter(event=event, entry__isnull=True)
    assert {c.bag_entry.player_id for c in forfeited} == {gang[0].pk, gang[1].pk}
    # 1B reopened: its bags leave, and 1A's bag of the player is the one carried again.
    fest.bagging_reopen(bagging=bagging_b, actor=actor, reason="recount")
    field = day2_field(event)
    assert set(field) == {p.pk for p in gang} and field[gang[0].pk][0] == 1_000
    assert not Carried.objects.filter(event=event, entry__isnull=True).exists()


def test_the_draw_refuses_a_flight_changed_after_its_day_closed(event, actor, second):
    a, b, c = flights(event)
    for i, t in enumerate((a, b, c)):
        play(t, actor, people(4, i * 10), busts=1)
        fest.bagging_close(
            bagging=bag_all(Tournament.objects.get(pk=t.pk), actor, second), actor=actor
        )
    a = tournament_reopen(tournament=Tournament.objects.get(pk=a.pk), actor=actor)
    out = a.entries.filter(status=EntryStatus.ACTIVE).first()
    entries_bust(tournament=a, busts=[BustReport(entry=out)], actor=actor)
    with pytest.raises(FloorError, match="changed after their day closed: 1A"):
        fest.day2_draw_run(event=event, seeded=True, actor=actor)
    assert not SeatAssignment.objects.filter(entry__tournament_id=event.day2_id).exists()


def test_day2_pays_the_places_of_the_whole_event(event, actor, second):
    """Day 2's busts in the money are paid from the event's pool, by the event's entries."""
    a, b, c = flights(event)
    for i, t in enumerate((a, b, c)):
        play(t, actor, people(20, i * 100), busts=16)
        fest.bagging_close(
            bagging=bag_all(Tournament.objects.get(pk=t.pk), actor, second), actor=actor
        )
    fest.day2_draw_run(event=event, seeded=True, actor=actor, rng=Random(3))
    day2 = Tournament.objects.get(pk=event.day2_id)
    Tournament.objects.filter(pk=day2.pk).update(status=Status.RUNNING)
    day2.refresh_from_db()
    amounts = payout_amounts(day2)
    numbers = tournament_numbers(day2)
    assert numbers.entries == 60 and sum(amounts) == numbers.prize_pool
    assert 1 <= len(amounts) <= 12
    alive = list(day2.entries.filter(status=EntryStatus.ACTIVE).order_by("number"))
    for e in alive[: 12 - len(amounts)]:
        entries_bust(tournament=day2, busts=[BustReport(entry=e)], actor=actor)
    last = alive[12 - len(amounts)]
    entries_bust(tournament=day2, busts=[BustReport(entry=last)], actor=actor)
    last.refresh_from_db()
    assert last.place == len(amounts) and last.prize == amounts[-1] > 0


def test_a_person_correcting_their_own_count_is_no_dispute(event, actor):
    a = play(flights(event)[0], actor, people(6), busts=1)
    bagging = fest.bagging_open(tournament=a, actor=actor)
    x = Entry.objects.filter(tournament=a, seat__table__number=1).first()
    tablet = Actor(user=None, label="dealer, table 1", source="10.0.0.9")
    for chips in (76_337, 76_325):  # a typo, then the right count, on the same tablet
        fest.bags_record(
            bagging=bagging,
            table_number=1,
            bags={x.pk: (chips, "T1")},
            actor=tablet,
            source="dealer",
        )
    assert not any(f.flag.value == "disputed" for f in bagging_report(bagging).findings)
    assert fest.bags_confirm(bagging=bagging, table_number=1, entry_ids=None, actor=actor) == 1
