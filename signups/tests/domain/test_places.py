"""The waiting list's arithmetic: never more holders than places, first come first served, a
free place goes to exactly one waiting sign-up, names refused."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from signups.domain.places import (
    NameRefused,
    Slot,
    Status,
    admitted,
    apply,
    free_of,
    free_places,
    moving_up,
    moving_up_in,
    name_refusal,
    no_shows,
    waiting_positions,
)


def arrive(n: int, places: int) -> list[Slot]:
    slots: list[Slot] = []
    for seq in range(1, n + 1):
        held = sum(1 for s in slots if s.status is Status.CONFIRMED)
        slots.append(Slot(seq, admitted(held, places)))
    return slots


@given(st.integers(0, 60), st.integers(1, 40))
def test_never_more_holders_than_places_and_the_first_come_hold(n, places):
    slots = arrive(n, places)
    confirmed = [s.sequence for s in slots if s.status is Status.CONFIRMED]
    assert confirmed == list(range(1, min(n, places) + 1))
    assert list(waiting_positions(slots)) == list(range(places + 1, n + 1))


@given(st.integers(1, 60), st.integers(1, 40), st.data())
def test_each_cancellation_moves_exactly_one_up_in_arrival_order(n, places, data):
    slots = arrive(n, places)
    holders = [s.sequence for s in slots if s.status is Status.CONFIRMED]
    gone = data.draw(st.sampled_from(holders))
    waiting_before = list(waiting_positions(slots))
    slots = [Slot(s.sequence, Status.CANCELLED) if s.sequence == gone else s for s in slots]
    up = moving_up(slots, places)
    assert up == waiting_before[:1]
    after = apply(slots, places)
    assert sum(1 for s in after if s.status is Status.CONFIRMED) == min(places, n - 1)
    assert free_places(after, places) == max(0, places - (n - 1))


def test_a_director_moves_one_to_the_top():
    slots = [Slot(1, Status.CONFIRMED), Slot(2, Status.WAITING), Slot(3, Status.WAITING, rank=0)]
    assert waiting_positions(slots) == {3: 1, 2: 2}
    assert moving_up([Slot(1, Status.CANCELLED), *slots[1:]], 1) == [3]


def test_no_shows_are_the_confirmed_not_checked_in():
    slots = [Slot(1, Status.CHECKED_IN), Slot(2, Status.CONFIRMED), Slot(3, Status.WAITING)]
    assert no_shows(slots) == [2]


def test_fewer_places_move_nobody_and_free_is_never_negative():
    slots = arrive(5, 5)
    assert free_places(slots, 3) == 0 and moving_up(slots, 3) == []


def test_names():
    assert name_refusal("  Anna  ") is None
    assert name_refusal(" ") is NameRefused.EMPTY
    assert name_refusal("A") is NameRefused.TOO_SHORT
    assert name_refusal("x" * 61) is NameRefused.TOO_LONG
    assert name_refusal("An\tna") is NameRefused.CONTROL
    assert name_refusal("An\u200bna") is NameRefused.CONTROL


@given(st.integers(0, 60), st.integers(1, 40), st.data())
def test_the_counted_form_agrees_with_the_slots(n, places, data):
    """What the services compute from a count and the waiting order (free_of, moving_up_in) is
    what the slots say."""
    slots = arrive(n, places)
    gone = set(data.draw(st.lists(st.sampled_from(range(1, n + 1)), max_size=5))) if n else set()
    slots = [Slot(s.sequence, Status.CANCELLED) if s.sequence in gone else s for s in slots]
    held = sum(1 for s in slots if s.status is Status.CONFIRMED)
    order = sorted(waiting_positions(slots), key=lambda q: waiting_positions(slots)[q])
    assert free_of(held, places) == free_places(slots, places)
    assert moving_up_in(order, free_of(held, places)) == moving_up(slots, places)


# --- The seats shared with the desk, the same person (issue 55) -------------------------------


def test_walk_ins_count_and_the_places_held_back_stay_the_desks():
    from signups.domain.places import Room, walk_in_refused

    # Capacity 6, places blank, nobody held back: 2 sign-ups and 4 walk-ins fill the room.
    full = Room(places=6, reserved=0, seats=6, entries=4, promised=2, holding=2)
    assert full.free == 0 and walk_in_refused(full, waiting=0)
    # Capacity 6, 2 held back: 4 with a place, 1 waiting; the waiting one holds nothing.
    room = Room(places=4, reserved=2, seats=6, entries=0, promised=4, holding=4)
    assert room.free == 0 and not walk_in_refused(room, waiting=1)
    two_in = Room(places=4, reserved=2, seats=6, entries=2, promised=4, holding=4)
    assert walk_in_refused(two_in, waiting=1)
    # Places beyond the seats are never offered; no capacity: the sheet's places and held back.
    assert Room(places=9, reserved=2, seats=6, entries=0, promised=0, holding=0).free == 4
    assert Room(places=3, reserved=1, seats=None, entries=0, promised=0, holding=0).free == 3
    # A full room with nobody promised or waiting makes an alternate (not refused).
    room_full = Room(places=6, reserved=0, seats=6, entries=6, promised=0, holding=6)
    assert not walk_in_refused(room_full, waiting=0)


@given(
    seats=st.integers(0, 30),
    reserved=st.integers(0, 10),
    entries=st.integers(0, 40),
    promised=st.integers(0, 30),
    checked_in=st.integers(0, 30),
)
def test_a_free_place_never_oversells_the_room(seats, reserved, entries, promised, checked_in):
    from signups.domain.places import Room

    room = Room(
        places=max(0, seats - reserved),
        reserved=reserved,
        seats=seats,
        entries=entries,
        promised=promised,
        holding=promised + checked_in,
    )
    assert room.free <= max(0, seats - entries - promised)
    assert room.free <= max(0, seats - reserved - promised - checked_in)


def test_contact_keys_tell_the_same_person():
    from signups.domain.places import email_key, phone_key

    assert email_key(" Anna@Example.ORG ") == email_key("anna@example.org") != ""
    same = {phone_key(p) for p in ("0171 1234567", "+49 171 1234567", "0049 (171) 123-4567")}
    assert same == {"491711234567"}
    assert phone_key("+43 660 1234567") == "436601234567"
    assert phone_key("12") == phone_key("") == ""
