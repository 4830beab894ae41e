"""The commands across apps (actions/registration.py, corrections.py, signups.py,
tournaments.py): what each tells the screens, that it sends none of the tournament's signals,
and that a refused command changes nothing."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from actions import corrections as correcting
from actions import registration as registering
from actions import signups as checking
from actions import tournaments as commands
from clocks.selectors import clock_state_for
from clocks.services import clock_command
from core.errors import FloorError
from live import realtime
from signups import services as su
from signups.models import SignUp, SignUpStatus
from tables import services as seating
from tables.models import SeatAssignment
from tournament.domain.structure import LevelSpec
from tournament.events import Actor
from tournament.models import Entry, EntryStatus, Event, Player, Purchase, Status, Tournament
from tournament.services.registration import player_create

pytestmark = pytest.mark.django_db


def _of(sent: list[tuple[str, str, dict[str, Any]]], group: str, event: str) -> list[dict]:
    return [data for g, e, data in sent if g == group and e == event]


def _table_told(sent: list[tuple[str, str, dict[str, Any]]], table_id: int) -> bool:
    """The table's tablets were sent its view (in any language)."""
    return any(e == "table" and g.startswith(realtime.table_group(table_id)) for g, e, _d in sent)


def _rows(t: Tournament) -> tuple[int, int, int, int]:
    """What a refused command must leave as it was: entries, purchases, events, seats."""
    return (
        Entry.objects.filter(tournament=t).count(),
        Purchase.objects.filter(entry__tournament=t, refunded=False).count(),
        Event.objects.filter(tournament=t).count(),
        SeatAssignment.objects.filter(table__tournament=t).count(),
    )


@pytest.fixture
def seated(make_tournament, register, actor):
    t = make_tournament(status="registering", capacity=6, late_registration_until_level=6)
    entries = [register(t) for _ in range(6)]
    seating.seats_draw(tournament=t, actor=actor)
    return t, entries


# --- The tournament's status and structure ---------------------------------------------------


@pytest.fixture
def playing(make_tournament, register, actor):
    t = make_tournament(status="registering")
    for _ in range(3):
        register(t)
    clock_command(
        tournament=t, kind="start", actor=actor, now=timezone.now() - timedelta(minutes=5)
    )
    t.refresh_from_db()
    return t


def test_finishing_stops_the_clock_and_tells_the_board(
    playing, actor, sent, django_capture_on_commit_callbacks
):
    t = playing
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    with django_capture_on_commit_callbacks(execute=True):
        commands.tournament_status_set(tournament=t, status="finished", actor=actor)
    assert clock_state_for(t).stopped
    group = realtime.tournament_group(t.pk)
    assert _of(sent, group, "clock")[-1]["stopped"] is True
    assert _of(sent, group, "status")[-1]["status"] == "finished"


def test_a_refused_status_change_changes_nothing(playing, actor):
    t = playing
    status, before = t.status, _rows(t)
    with pytest.raises(FloorError):
        commands.tournament_status_set(tournament=t, status="planned", actor=actor)
    t.refresh_from_db()
    assert t.status == status and _rows(t) == before
    assert clock_state_for(t).running


def test_reopening_brings_the_clock_back_paused(
    playing, actor, sent, django_capture_on_commit_callbacks
):
    t = playing
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    commands.tournament_status_set(tournament=t, status="finished", actor=actor)
    with django_capture_on_commit_callbacks(execute=True):
        t = commands.tournament_reopen(tournament=t, actor=actor, reason="undo the last bust")
    state = clock_state_for(t)
    assert not state.stopped and not state.running
    group = realtime.tournament_group(t.pk)
    assert _of(sent, group, "status")[-1]["status"] == t.status
    assert _of(sent, group, "clock")[-1]["stopped"] is False


def test_a_refused_structure_edit_changes_nothing(playing, actor):
    t = playing
    levels = list(t.structure.levels.all())
    before = _rows(t)
    with pytest.raises(FloorError):
        commands.structure_replace_levels(
            tournament=t, levels=[LevelSpec(1, 2, 0, False, 20)] * 0, actor=actor
        )
    assert list(t.structure.levels.all()) == levels and _rows(t) == before


def test_a_structure_edit_is_sent_with_its_levels(
    playing, actor, sent, django_capture_on_commit_callbacks
):
    from tournament.services.tournaments import level_specs

    t = playing
    specs = level_specs(t.structure)
    specs[-1] = LevelSpec(900, 1800, 0, True, 20)
    with django_capture_on_commit_callbacks(execute=True):
        commands.structure_replace_levels(tournament=t, levels=specs, actor=actor)
    (message,) = _of(sent, realtime.tournament_group(t.pk), "structure")
    assert message["levels"]


# --- Registration ------------------------------------------------------------------------


def test_a_late_entry_is_seated_and_told_without_a_signal(
    seated, actor, sent, django_capture_on_commit_callbacks
):
    t, _entries = seated
    Tournament.objects.filter(pk=t.pk).update(capacity=None)
    player = player_create(name="Late Comer", actor=actor)
    with django_capture_on_commit_callbacks(execute=True):
        entry = registering.entry_register(tournament=t, player=player, actor=actor)
    row = SeatAssignment.objects.get(entry=entry)
    assert _of(sent, realtime.entry_group(entry.pk), "seat")
    assert _of(sent, realtime.tournament_group(t.pk), "entries")
    assert t.events.filter(action="seat.assign", payload__entry=entry.pk).exists()
    assert row.table.tournament_id == t.pk


def test_a_registration_the_flight_policy_refuses_writes_nothing(make_tournament, actor):
    from festivals import services as fest

    base = make_tournament(status="registering")
    event = fest.event_create(template=base, name="Main Event", flights=2, actor=actor)
    one, two = (f.tournament for f in event.flights.order_by("position"))
    Tournament.objects.filter(pk__in=[one.pk, two.pk]).update(status=Status.REGISTERING)
    player = player_create(name="Flight Hopper", actor=actor)
    registering.entry_register(tournament=one, player=player, actor=actor)
    before = _rows(two)
    with pytest.raises(FloorError) as refused:
        registering.entry_register(tournament=two, player=player, actor=actor)
    assert refused.value.code == "flight_playing"
    assert _rows(two) == before


def test_a_walk_in_on_a_seat_held_for_a_sign_up_writes_nothing(make_tournament, actor):
    t = make_tournament(status="registering", capacity=1)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=None, reserved=0, check_in_deadline=None
    )
    su.signup_create(tournament=t, display_name="Anna Voraus", actor=Actor.system("t"))
    player = player_create(name="Walk In", actor=actor)
    before = _rows(t)
    with pytest.raises(FloorError) as refused:
        registering.entry_register(tournament=t, player=player, actor=actor)
    assert refused.value.code == "held_for_signups"
    assert _rows(t) == before


def test_unregistering_frees_the_seat_and_seats_the_first_alternate(
    seated, register, actor, sent, django_capture_on_commit_callbacks
):
    t, entries = seated
    alternate = register(t)
    assert alternate.status == EntryStatus.ALTERNATE
    table_id = SeatAssignment.objects.get(entry=entries[0]).table_id
    with django_capture_on_commit_callbacks(execute=True):
        registering.entry_unregister(entry=entries[0], actor=actor)
    alternate.refresh_from_db()
    assert alternate.status == EntryStatus.ACTIVE
    assert not SeatAssignment.objects.filter(entry=entries[0]).exists()
    assert SeatAssignment.objects.filter(entry=alternate).exists()
    assert _table_told(sent, table_id)
    assert _of(sent, realtime.entry_group(alternate.pk), "seat")


def test_a_refused_unregistration_changes_nothing(seated, actor):
    t, entries = seated
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    before = _rows(t)
    with pytest.raises(FloorError):
        registering.entry_unregister(entry=entries[0], actor=actor)
    assert _rows(t) == before


# --- Void and its undo -------------------------------------------------------------------


def test_a_void_frees_the_seat_and_its_undo_gives_it_back(
    seated, actor, sent, django_capture_on_commit_callbacks
):
    t, entries = seated
    row = SeatAssignment.objects.get(entry=entries[1])
    with django_capture_on_commit_callbacks(execute=True):
        event = correcting.entry_void(entry=entries[1], actor=actor)
    assert not SeatAssignment.objects.filter(entry=entries[1]).exists()
    assert _table_told(sent, row.table_id)
    assert _of(sent, realtime.entry_group(entries[1].pk), "seat")
    assert event.payload["seat"]["seat"] == row.seat
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        correcting.correction_undo(tournament=t, event_id=event.pk, actor=actor)
    back = SeatAssignment.objects.get(entry=entries[1])
    assert (back.table_id, back.seat) == (row.table_id, row.seat)
    assert _table_told(sent, row.table_id)


def test_a_refused_void_changes_nothing(seated, actor):
    t, entries = seated
    before = _rows(t)
    with pytest.raises(FloorError):
        correcting.entry_void(entry=entries[0], actor=actor, move_to=999)
    assert _rows(t) == before
    assert SeatAssignment.objects.filter(entry=entries[0]).exists()


def test_a_refused_undo_changes_nothing(seated, register, actor):
    """The void's seat was given to a late entry since: the undo is refused, and the alternate
    seated meanwhile keeps its seat."""
    t, entries = seated
    event = correcting.entry_void(entry=entries[2], actor=actor)
    row = event.payload["seat"]
    Tournament.objects.filter(pk=t.pk).update(capacity=None)
    late = register(t)
    SeatAssignment.objects.filter(entry=late).update(table_id=row["table"], seat=row["seat"])
    before = _rows(t)
    with pytest.raises(FloorError):
        correcting.correction_undo(tournament=t, event_id=event.pk, actor=actor)
    assert _rows(t) == before
    assert Entry.objects.get(pk=entries[2].pk).status == EntryStatus.UNREGISTERED


# --- Sign-ups ----------------------------------------------------------------------------


def test_a_check_in_is_seated_and_the_sign_up_pages_are_told(
    make_tournament, actor, sent, django_capture_on_commit_callbacks
):
    t = make_tournament(status="registering", capacity=4)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=None, reserved=0, check_in_deadline=None
    )
    for name in ("Anna Eins", "Bert Zwei", "Carl Drei"):
        su.signup_create(tournament=t, display_name=name, actor=Actor.system("t"))
    first = SignUp.objects.get(display_name="Anna Eins")
    checking.signup_check_in(signup=first, actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    second = SignUp.objects.get(display_name="Bert Zwei")
    with django_capture_on_commit_callbacks(execute=True):
        done = checking.signup_check_in(signup=second, actor=actor)
    assert done.status == SignUpStatus.CHECKED_IN
    assert SeatAssignment.objects.filter(entry=done.entry).exists()
    assert _of(sent, realtime.tournament_group(t.pk), "signups")
    assert _of(sent, realtime.entry_group(done.entry_id), "seat")


def test_a_refused_check_in_writes_nothing(make_tournament, actor):
    t = make_tournament(status="registering", capacity=4)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=None, reserved=0, check_in_deadline=None
    )
    barred = Player.objects.create(name="Bart Gesperrt", display_name="Bart G.", barred=True)
    signup = su.signup_create(
        tournament=t, display_name="Bart G.", actor=Actor.system("t"), player=barred
    )
    before = _rows(t)
    with pytest.raises(FloorError) as refused:
        checking.signup_check_in(signup=signup, actor=actor)
    assert refused.value.code == "barred"
    assert _rows(t) == before
    assert SignUp.objects.get(pk=signup.pk).status == SignUpStatus.CONFIRMED


def test_a_void_before_the_start_moves_the_waiting_list_up(make_tournament, actor):
    t = make_tournament(status="registering", capacity=2)
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=None, reserved=0, check_in_deadline=None
    )
    su.signup_create(tournament=t, display_name="Anna Eins", actor=Actor.system("t"))
    checking.signup_check_in(signup=SignUp.objects.get(display_name="Anna Eins"), actor=actor)
    walk = registering.entry_register(
        tournament=t, player=player_create(name="Walk In", actor=actor), actor=actor
    )
    waiting = su.signup_create(tournament=t, display_name="Bert Zwei", actor=Actor.system("t"))
    assert waiting.status == SignUpStatus.WAITING
    correcting.entry_void(entry=walk, actor=actor)
    assert SignUp.objects.get(pk=waiting.pk).status == SignUpStatus.CONFIRMED
