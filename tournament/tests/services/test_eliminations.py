"""Busts: places, prizes, simultaneous busts by ruleset, the winner, undo."""

from __future__ import annotations

import pytest
from django.utils import timezone

from actions.bust import BustReport, bust_undo_last, entries_bust
from actions.tournaments import tournament_reopen, tournament_status_set
from core.errors import FloorError
from tournament.models import EntryStatus, Status
from tournament.selectors import payout_amounts

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(make_tournament, register):
    def make(n: int, **options):
        t = make_tournament(status="registering", **options)
        entries = [register(t) for _ in range(n)]
        from tournament.models import Tournament

        Tournament.objects.filter(pk=t.pk).update(
            status=Status.RUNNING,
            registration_closed_at=timezone.now(),  # the field is final
        )
        t.refresh_from_db()
        return t, entries

    return make


def test_single_bust_gets_the_last_place(running, actor):
    t, entries = running(10)
    out = entries_bust(tournament=t, busts=[BustReport(entry=entries[3])], actor=actor)
    assert out[0].place == 10
    assert out[0].status == EntryStatus.BUSTED
    with pytest.raises(FloorError):
        entries_bust(tournament=t, busts=[BustReport(entry=entries[3])], actor=actor)


def test_bdpv_larger_stack_finishes_higher(running, actor):
    t, entries = running(6, ruleset="bdpv")
    out = entries_bust(
        tournament=t,
        busts=[
            BustReport(entry=entries[0], stack_at_hand_start=5000),
            BustReport(entry=entries[1], stack_at_hand_start=9000),
        ],
        actor=actor,
    )
    places = {e.pk: e.place for e in out}
    assert places[entries[1].pk] == 5
    assert places[entries[0].pk] == 6


def test_several_busts_need_stacks(running, actor):
    t, entries = running(6)
    with pytest.raises(FloorError, match="stack"):
        entries_bust(
            tournament=t,
            busts=[BustReport(entry=entries[0]), BustReport(entry=entries[1])],
            actor=actor,
        )
    assert t.entries.filter(status=EntryStatus.BUSTED).count() == 0


def test_last_player_wins_and_prizes_sum_to_the_pool(running, actor):
    t, entries = running(12)
    for e in entries[:-1]:
        entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    winner = t.entries.get(place=1)
    assert winner.pk == entries[-1].pk
    total = sum(t.entries.values_list("prize", flat=True))
    assert total == sum(payout_amounts(t))


def test_undo_restores_the_last_bust(running, actor):
    t, entries = running(5)
    entries_bust(tournament=t, busts=[BustReport(entry=entries[0])], actor=actor)
    entries_bust(tournament=t, busts=[BustReport(entry=entries[1])], actor=actor)
    restored = bust_undo_last(tournament=t, actor=actor)
    assert [e.pk for e in restored] == [entries[1].pk]
    entries[1].refresh_from_db()
    assert entries[1].status == EntryStatus.ACTIVE and entries[1].place is None
    entries[0].refresh_from_db()
    assert entries[0].place == 5


def test_undo_after_the_end_needs_an_explicit_reopen(running, actor):
    # The winner is not put back in play by an undo alone: the director reopens first.
    t, entries = running(2)
    entries_bust(tournament=t, busts=[BustReport(entry=entries[0])], actor=actor)
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    with pytest.raises(FloorError) as refused:
        bust_undo_last(tournament=t, actor=actor)
    assert refused.value.code == "finished"
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    assert t.entries.filter(place__isnull=False).count() == 2
    tournament_reopen(tournament=t, actor=actor, reason="wrong player busted")
    t.refresh_from_db()
    assert t.status == Status.RUNNING  # the status it had when it finished
    reopen = t.events.get(action="tournament.reopen")
    assert reopen.payload == {"from": "finished", "to": "running", "reason": "wrong player busted"}
    bust_undo_last(tournament=t, actor=actor)
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    assert t.entries.filter(status=EntryStatus.ACTIVE).count() == 2
    assert not t.entries.filter(place__isnull=False).exists()


def test_only_a_finished_tournament_is_reopened(running, actor):
    t, _ = running(3)
    with pytest.raises(FloorError):
        tournament_reopen(tournament=t, actor=actor)
    assert not t.events.filter(action="tournament.reopen").exists()


def test_a_tournament_ended_by_hand_reopens_to_where_it_was(running, actor):
    t, _ = running(3)
    tournament_status_set(tournament=t, status="final_table", actor=actor)
    tournament_status_set(tournament=t, status="finished", actor=actor)
    tournament_reopen(tournament=t, actor=actor)
    t.refresh_from_db()
    assert t.status == Status.FINAL_TABLE


def test_nothing_to_undo(running, actor):
    t, _ = running(3)
    with pytest.raises(FloorError):
        bust_undo_last(tournament=t, actor=actor)


def test_bust_needs_a_running_tournament(make_tournament, register, actor):
    t = make_tournament(status="registering")
    e = register(t)
    register(t)
    with pytest.raises(FloorError):
        entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)


def test_the_bust_lock_reads_the_tournament_as_the_orm_does(running, actor):
    # The lock builds the tournament from the statement's values (PostgreSQL) or through a raw
    # query set (SQLite): every field as the ORM reads it, times with their zone, and what a
    # bust needs to know besides.
    from django.db import transaction

    from tournament.models import Tournament
    from tournament.services.eliminations import _lock_for_bust

    t, entries = running(6)
    entries_bust(tournament=t, busts=[BustReport(entry=entries[0])], actor=actor)
    with transaction.atomic():
        locked = _lock_for_bust(t.pk)
    orm = Tournament.objects.get(pk=t.pk)
    for field in Tournament._meta.concrete_fields:
        assert getattr(locked, field.attname) == getattr(orm, field.attname), field.name
    assert timezone.is_aware(locked.registration_closed_at)
    assert not locked.has_manual_payouts and not locked.has_deal
    assert locked.last_sequence == 1
    with transaction.atomic(), pytest.raises(Tournament.DoesNotExist):
        _lock_for_bust(t.pk + 1000)


def test_the_bust_lock_reads_the_entries_as_the_orm_does(running, actor, make_tournament, register):
    # One statement locks the tournament and the entries with their players (PostgreSQL); an
    # entry it does not find (another tournament's) leaves the answer to the two reads it
    # replaces.
    from django.db import transaction

    from tournament.models import Entry, Tournament
    from tournament.services.eliminations import _lock_for_bust_with_entries

    t, entries = running(6)
    entries_bust(tournament=t, busts=[BustReport(entry=entries[0])], actor=actor)
    ids = sorted(e.pk for e in entries[1:3])
    with transaction.atomic():
        locked, found = _lock_for_bust_with_entries(t.pk, ids)
    assert locked.last_sequence == 1 and locked.players_left == 5
    assert list(found) == ids
    for pk, entry in found.items():
        orm = Entry.objects.select_related("player").get(pk=pk)
        for field in Entry._meta.concrete_fields:
            assert getattr(entry, field.attname) == getattr(orm, field.attname), field.name
        assert Entry.player.is_cached(entry)
        assert entry.player.name == orm.player.name
        assert entry.player.display_name == orm.player.display_name
    other = register(make_tournament(status="registering"))
    with transaction.atomic():
        locked, found = _lock_for_bust_with_entries(t.pk, sorted([ids[0], other.pk]))
    assert locked.pk == t.pk and list(found) == [ids[0]]
    with transaction.atomic():
        locked, found = _lock_for_bust_with_entries(t.pk, [other.pk])
    assert locked.pk == t.pk and found == {}
    with transaction.atomic(), pytest.raises(Tournament.DoesNotExist):
        _lock_for_bust_with_entries(t.pk + 1000, ids)
