"""The night's story read from the database: entries, busts and chips counted per row of the
clock, the payout ladder."""

from __future__ import annotations

from datetime import timedelta

import pytest

from clocks.models import Clock, ClockEvent
from tournament.domain.story import Tally, entries_story, field_story
from tournament.models import Entry, EntryStatus, Purchase, Status, Structure, Tournament
from tournament.story_selectors import story_counts, story_prizes

pytestmark = pytest.mark.django_db


def _night(make_tournament, register, n=4):
    t = make_tournament(status="running")
    entries = [register(t, f"Spieler Nummer{i}") for i in range(n)]
    return t, entries


def _at(t, minutes):
    return t.starts_at + timedelta(minutes=minutes)


def _entered(entry, at):
    Entry.objects.filter(pk=entry.pk).update(created_at=at)
    Purchase.objects.filter(entry=entry).update(created_at=at)


def _busted(entry, at):
    Entry.objects.filter(pk=entry.pk).update(status=EntryStatus.BUSTED, busted_at=at)


def _clock(t, *events):
    clock = Clock.objects.create(tournament=t)
    for kind, at in events:
        ClockEvent.objects.create(clock=clock, kind=kind, at=at)


def test_no_entries_nothing_to_draw(make_tournament):
    t = make_tournament(status="registering")
    counts = story_counts(t)
    assert counts.tallies == {}
    assert field_story(counts.breaks, counts.tallies, counts.last_row) == []


def test_entries_before_the_start_count_in_level_one(make_tournament, register):
    t, _entries = _night(make_tournament, register, 3)
    counts = story_counts(t)
    assert counts.last_row == 0
    assert counts.tallies == {0: Tally(entries=3, chips=3 * t.starting_stack)}
    (point,) = field_story(counts.breaks, counts.tallies, counts.last_row)
    assert point.players_left == 3
    assert point.average_stack == t.starting_stack


def test_entries_and_busts_fall_in_the_row_the_clock_showed(make_tournament, register):
    # the test structure: levels 1-2 (20'), a break (10'), levels 3-6 (20')
    t, entries = _night(make_tournament, register, 4)
    for e in entries:
        _entered(e, _at(t, -5))
    _clock(t, ("start", _at(t, 0)))
    _entered(entries[3], _at(t, 25))  # a late entry in level 2
    _busted(entries[0], _at(t, 5))  # level 1
    _busted(entries[1], _at(t, 45))  # the break
    counts = story_counts(t, now=_at(t, 49))
    assert counts.last_row == 2
    field = field_story(counts.breaks, counts.tallies, counts.last_row)
    assert [p.players_left for p in field] == [2, 3, 2]
    assert [p.busts for p in field] == [1, 1, 2]
    assert field[-1].label.is_break
    entries_rows = entries_story(counts.breaks, counts.tallies, counts.last_row)
    assert [p.entries for p in entries_rows] == [3, 1, 0]


def test_a_night_without_the_clock_counts_its_entries_from_the_start(make_tournament, register):
    t, entries = _night(make_tournament, register, 3)
    for e in entries:
        _entered(e, _at(t, 600))  # recorded long after the night (an import)
    _busted(entries[0], _at(t, 30))  # level 2 by the planned times
    _busted(entries[1], _at(t, 45))  # the break
    Tournament.objects.filter(pk=t.pk).update(status=Status.FINISHED)
    t.refresh_from_db()
    counts = story_counts(t)
    assert counts.last_row == 2
    field = field_story(counts.breaks, counts.tallies, counts.last_row)
    assert [p.players_left for p in field] == [3, 2, 1]


def test_refunds_and_alternates_are_not_in_the_field(make_tournament, register):
    t, entries = _night(make_tournament, register, 3)
    Entry.objects.filter(pk=entries[2].pk).update(status=EntryStatus.UNREGISTERED)
    counts = story_counts(t)
    assert counts.tallies[0].entries == 2
    assert counts.tallies[0].chips == 2 * t.starting_stack


def test_a_tournament_without_levels(make_tournament, register):
    t, _entries = _night(make_tournament, register, 2)
    Tournament.objects.filter(pk=t.pk).update(structure=Structure.objects.create(name="Empty"))
    t.refresh_from_db()
    counts = story_counts(t)
    assert counts.breaks == []
    assert field_story(counts.breaks, counts.tallies, counts.last_row) == []


def test_the_prizes_ladder(make_tournament, register):
    t, _entries = _night(make_tournament, register, 10)
    prizes = story_prizes(t)
    assert prizes.prize_pool == 10 * t.buy_in
    assert sum(r.places * r.amount for r in prizes.ladder) == prizes.prize_pool
    assert prizes.ladder[0].first == 1


def test_no_prizes_before_the_first_entry(make_tournament):
    prizes = story_prizes(make_tournament(status="registering"))
    assert prizes.ladder == []


def test_every_row_of_a_long_clock_gets_its_busts(make_tournament, register):
    # rows: L1 0-20', L2 20-40', break 40-50', L3 50-70', L4 70-90', L5 90-110', L6 from 110'
    t, entries = _night(make_tournament, register, 8)
    for e in entries:
        _entered(e, _at(t, -5))
    _clock(t, ("start", _at(t, 0)))
    for e, minute in zip(entries, (5, 25, 45, 65, 85, 105, 125), strict=False):
        _busted(e, _at(t, minute))
    counts = story_counts(t, now=_at(t, 126))
    assert counts.last_row == 6
    assert [counts.tallies.get(r, Tally()).busts for r in range(7)] == [1] * 7
    field = field_story(counts.breaks, counts.tallies, counts.last_row)
    assert [p.players_left for p in field] == [7, 6, 5, 4, 3, 2, 1]
