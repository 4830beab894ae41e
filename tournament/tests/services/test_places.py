"""Places are a permutation of 1..N whatever the order of late entries, re-entries and busts;
prizes only from final places; undo never loses money."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from actions.bust import BustReport, bust_undo_last, entries_bust
from actions.registration import entry_register
from core.errors import FloorError
from tournament.domain.eliminations import places_are_complete
from tournament.models import EntryStatus, Status, Tournament
from tournament.selectors import payout_amounts
from tournament.services.deals import desk_totals, owed, prize_paid
from tournament.services.registration import player_create, registration_close, registration_reopen

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(make_tournament, register):
    """A running tournament whose late registration is open (no level limit: it closes when
    the clock starts, and the clock has not started)."""
    t = make_tournament(status="registering", max_entries_per_player=2)
    entries = [register(t) for _ in range(10)]
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    return t, entries


def _bust(t, entry, actor, **kw):
    return entries_bust(tournament=t, busts=[BustReport(entry=entry, **kw)], actor=actor)[0]


def test_late_entries_and_a_re_entry_move_earlier_places_down(night, register, actor):
    t, entries = night
    first = _bust(t, entries[0], actor)
    assert first.place == 10
    _bust(t, entries[1], actor)
    register(t)
    register(t)
    again = entry_register(tournament=t, player=entries[0].player, actor=actor)
    assert again.is_reentry
    places = dict(t.entries.filter(status=EntryStatus.BUSTED).values_list("pk", "place"))
    # 13 entries now: the first out is 13th, the second 12th; nobody shares or skips a place.
    assert places == {entries[0].pk: 13, entries[1].pk: 12}


def test_a_bust_into_the_money_waits_for_registration_to_close(night, actor):
    t, entries = night
    for e in entries[:7]:
        _bust(t, e, actor)
    assert all(e.prize == 0 for e in t.entries.filter(status=EntryStatus.BUSTED))
    with pytest.raises(FloorError, match="Close registration first") as refused:
        _bust(t, entries[7], actor)  # 3rd of 10 is paid
    assert refused.value.code == "registration_open"
    assert t.entries.get(pk=entries[7].pk).status == EntryStatus.ACTIVE
    registration_close(tournament=t, actor=actor)
    with pytest.raises(FloorError):
        register_closed = player_create(name="Too Late", actor=actor)
        entry_register(tournament=t, player=register_closed, actor=actor)
    _bust(t, entries[7], actor)
    _bust(t, entries[8], actor)
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    rows = list(t.entries.values_list("place", "prize"))
    assert places_are_complete([p for p, _ in rows], 10)
    assert sum(prize for _, prize in rows) == sum(payout_amounts(t))


def test_closing_refunds_waiting_alternates_and_reopen_is_refused_after_prizes(
    make_tournament, register, actor
):
    t = make_tournament(status="registering", capacity=4)
    entries = [register(t) for _ in range(6)]
    assert entries[-1].status == EntryStatus.ALTERNATE
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    registration_close(tournament=t, actor=actor)
    t.refresh_from_db()
    assert t.alternates_waiting == 0
    assert t.entries.filter(status=EntryStatus.UNREGISTERED).count() == 2
    assert t.events.filter(action="registration.close").exists()
    with pytest.raises(FloorError):
        registration_close(tournament=t, actor=actor)
    registration_reopen(tournament=t, actor=actor)
    registration_close(tournament=t, actor=actor)
    for e in entries[:3]:
        _bust(t, e, actor)  # 4 entries: the last of these is 2nd, in the money
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    with pytest.raises(FloorError):
        registration_reopen(tournament=t, actor=actor)


def test_undo_of_a_paid_bust_needs_a_correction_and_keeps_the_payment(night, actor):
    t, entries = night
    registration_close(tournament=t, actor=actor)
    for e in entries[:7]:
        _bust(t, e, actor)
    third = _bust(t, entries[7], actor)
    assert third.prize > 0
    prize_paid(tournament=t, entry_id=third.pk, actor=actor)
    with pytest.raises(FloorError, match="correction") as refused:
        bust_undo_last(tournament=t, actor=actor)
    assert refused.value.code == "paid"
    assert t.entries.get(pk=third.pk).status == EntryStatus.BUSTED
    bust_undo_last(tournament=t, actor=actor, correct_payments=True)
    back = t.entries.get(pk=third.pk)
    assert back.status == EntryStatus.ACTIVE and back.paid_amount == third.prize
    row = next(e for e in owed(t) if e.pk == third.pk)
    assert row.open == -third.prize
    assert desk_totals(t)["to_collect"] == third.prize
    assert t.events.filter(action="payout.correction").exists()


def test_a_stack_beyond_the_chips_in_play_is_refused(night, actor):
    t, entries = night
    with pytest.raises(FloorError, match="more than the chips in play"):
        entries_bust(
            tournament=t,
            busts=[
                BustReport(entry=entries[0], stack_at_hand_start=10**9),
                BustReport(entry=entries[1], stack_at_hand_start=100),
            ],
            actor=actor,
        )
    assert t.entries.filter(status=EntryStatus.BUSTED).count() == 0


def test_registration_closed_by_the_clock_makes_places_final(make_tournament, register, actor):
    from clocks.services import clock_command

    t = make_tournament(status="registering", late_registration_until_level=1)
    entries = [register(t) for _ in range(6)]
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    clock_command(tournament=t, kind="start", actor=actor, now=timezone.now())
    from tournament.field import field_is_final

    # Level 1 lasts 20 minutes: late registration is open in it and closed after it.
    assert not field_is_final(t, timezone.now())
    assert field_is_final(t, timezone.now() + timedelta(minutes=25))
    _bust(t, entries[0], actor)
    assert t.entries.get(pk=entries[0].pk).place == 6


def test_public_pages_say_a_finish_is_provisional_until_registration_closes(night, client, actor):
    t, entries = night
    out = _bust(t, entries[0], actor)
    look = client.get(f"/t/{t.pk}/find/", {"q": str(out.number)}, HTTP_HX_REQUEST="true")
    assert "for now" in look.content.decode()
    mine = client.get(f"/s/{out.public_token}/").content.decode()
    assert "for now" in mine
    registration_close(tournament=t, actor=actor)
    look = client.get(f"/t/{t.pk}/find/", {"q": str(out.number)}, HTTP_HX_REQUEST="true")
    assert "Finished 10" in look.content.decode()
    assert "You finished 10" in client.get(f"/s/{out.public_token}/").content.decode()


def test_a_look_up_of_a_player_out_is_one_statement_once_registration_is_closed(
    night, client, actor, django_assert_num_queries
):
    t, entries = night
    out = _bust(t, entries[0], actor)
    url = f"/t/{t.pk}/find/"
    # Late registration open: the clock decides, so the tournament is read for the wording.
    look = client.get(url, {"q": str(out.number)}, HTTP_HX_REQUEST="true")
    assert "for now" in look.content.decode()
    registration_close(tournament=t, actor=actor)
    with django_assert_num_queries(1):  # the look-up's own statement says the places are final
        look = client.get(url, {"q": str(out.number)}, HTTP_HX_REQUEST="true")
    assert "Finished 10" in look.content.decode()
    # An alternate waiting for a seat makes the places provisional again, from the same row.
    Tournament.objects.filter(pk=t.pk).update(alternates_waiting=1)
    with django_assert_num_queries(1):
        look = client.get(url, {"q": str(out.number)}, HTTP_HX_REQUEST="true")
    assert "for now" in look.content.decode()
