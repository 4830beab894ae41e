"""Final-table deals recorded against the tournament, and the payout desk."""

from __future__ import annotations

import pytest
from django.utils import timezone

from actions.bust import BustReport, entries_bust
from core.errors import FloorError
from tournament.models import Deal, Event, Status, Tournament
from tournament.selectors import payout_amounts, tournament_numbers
from tournament.services import deals as svc

pytestmark = pytest.mark.django_db


@pytest.fixture
def final_three(make_tournament, register, actor):
    """A 20-entry event down to its last three players (all three in the money)."""
    t = make_tournament(status="registering")
    entries = [register(t) for _ in range(20)]
    Tournament.objects.filter(pk=t.pk).update(
        status=Status.RUNNING,
        registration_closed_at=timezone.now(),  # the field is final
    )
    t.refresh_from_db()
    for e in entries[:-3]:
        entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)
    t.refresh_from_db()
    left = svc.players_left(t)
    assert len(left) == 3
    return t, left


def stacks_for(t, left, split=(0.5, 0.3, 0.2)):
    chips = tournament_numbers(t).chips_in_play
    stacks = [int(chips * f) for f in split]
    stacks[0] += chips - sum(stacks)
    return {e.pk: s for e, s in zip(left, stacks, strict=True)}, chips


def test_proposals_distribute_exactly_the_open_prizes(final_three):
    t, left = final_three
    stacks, chips = stacks_for(t, left)
    open_prizes = svc.open_prizes(t)
    assert len(open_prizes) == 3 and sum(open_prizes) > 0
    _, proposals = svc.deal_proposals(
        t, svc.DealInput(stacks=stacks, unit=100, chips_in_play=chips)
    )
    for method in ("icm", "chip_chop"):
        assert sum(proposals[method].amounts) == sum(open_prizes)
        assert all(a % 100 == 0 for a in proposals[method].amounts[1:])
    icm = proposals["icm"].amounts
    assert icm[0] > icm[1] > icm[2]  # more chips, more equity
    assert icm[0] < open_prizes[0]  # but never the whole first prize


def test_stacks_must_match_the_chips_in_play(final_three):
    t, left = final_three
    stacks, chips = stacks_for(t, left)
    with pytest.raises(FloorError, match="stacks add up to"):
        svc.deal_proposals(t, svc.DealInput(stacks=stacks, chips_in_play=chips + 1))
    with pytest.raises(FloorError, match="every player left"):
        svc.deal_proposals(t, svc.DealInput(stacks={left[0].pk: chips}))


def test_every_player_must_agree_and_a_refusal_writes_nothing(final_three, actor):
    t, left = final_three
    stacks, chips = stacks_for(t, left)
    data = svc.DealInput(stacks=stacks, chips_in_play=chips)
    with pytest.raises(FloorError, match=f"#{left[2].number}"):
        svc.deal_record(
            tournament=t, data=data, method="icm", consents=[left[0].pk, left[1].pk], actor=actor
        )
    with pytest.raises(FloorError, match="Choose"):
        svc.deal_record(
            tournament=t, data=data, method="magic", consents=[e.pk for e in left], actor=actor
        )
    assert not Deal.objects.exists()
    assert not Event.objects.filter(action="deal.record").exists()


def test_recorded_deal_sets_the_prizes_and_the_winner_takes_what_was_left(final_three, actor):
    t, left = final_three
    stacks, chips = stacks_for(t, left)
    pool_left = sum(svc.open_prizes(t))
    data = svc.DealInput(stacks=stacks, unit=100, play_for=5000, chips_in_play=chips)
    deal = svc.deal_record(
        tournament=t, data=data, method="chip_chop", consents=[e.pk for e in left], actor=actor
    )
    shares = dict(deal.shares.values_list("entry_id", "amount"))
    assert sum(shares.values()) + deal.play_for == pool_left
    with pytest.raises(FloorError, match="already"):
        svc.deal_record(
            tournament=t, data=data, method="icm", consents=[e.pk for e in left], actor=actor
        )
    # Play on: the third and second place get their share, the winner share + play-for.
    entries_bust(tournament=t, busts=[BustReport(entry=left[2])], actor=actor)
    entries_bust(tournament=t, busts=[BustReport(entry=left[1])], actor=actor)
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    prizes = {e.pk: e.prize for e in t.entries.filter(pk__in=[e.pk for e in left])}
    assert prizes[left[2].pk] == shares[left[2].pk]
    assert prizes[left[1].pk] == shares[left[1].pk]
    assert prizes[left[0].pk] == shares[left[0].pk] + 5000
    assert sum(t.entries.values_list("prize", flat=True)) == sum(payout_amounts(t))
    event = Event.objects.get(action="deal.record")
    assert event.payload["method"] == "chip_chop" and len(event.payload["shares"]) == 3


def test_prize_paid_once_and_only_when_owed(final_three, actor):
    t, left = final_three
    assert svc.owed(t) == []
    entries_bust(tournament=t, busts=[BustReport(entry=left[2])], actor=actor)
    owed = svc.owed(t)
    assert owed and all(e.prize > 0 for e in owed)
    paid = svc.prize_paid(tournament=t, entry_id=owed[0].pk, actor=actor)
    assert paid.paid_at is not None and paid.paid_by == "dir"
    assert paid.paid_amount == owed[0].prize
    with pytest.raises(FloorError, match="already"):
        svc.prize_paid(tournament=t, entry_id=owed[0].pk, actor=actor)
    with pytest.raises(FloorError, match="Nothing is owed"):
        svc.prize_paid(tournament=t, entry_id=left[0].pk, actor=actor)  # still playing
    totals = svc.desk_totals(t)
    assert totals["paid"] == owed[0].prize
    assert totals["open"] == totals["owed"] - owed[0].prize
    assert Event.objects.filter(action="payout.paid").count() == 1


def test_deal_share_is_paid_in_play_and_the_winner_gets_the_rest_later(final_three, actor):
    t, left = final_three
    stacks, chips = stacks_for(t, left)
    data = svc.DealInput(stacks=stacks, unit=100, play_for=3000, chips_in_play=chips)
    deal = svc.deal_record(
        tournament=t, data=data, method="icm", consents=[e.pk for e in left], actor=actor
    )
    share = deal.shares.get(entry=left[0]).amount
    rows = {e.pk: e for e in svc.owed(t)}
    assert set(rows) == {e.pk for e in left}  # all three are owed their share already
    assert rows[left[0].pk].open == share
    svc.prize_paid(tournament=t, entry_id=left[0].pk, actor=actor)
    with pytest.raises(FloorError, match="already"):
        svc.prize_paid(tournament=t, entry_id=left[0].pk, actor=actor)
    entries_bust(tournament=t, busts=[BustReport(entry=left[2])], actor=actor)
    entries_bust(tournament=t, busts=[BustReport(entry=left[1])], actor=actor)
    rows = {e.pk: e for e in svc.owed(t)}
    assert rows[left[0].pk].owed == share + 3000
    assert rows[left[0].pk].open == 3000
    paid = svc.prize_paid(tournament=t, entry_id=left[0].pk, actor=actor)
    assert paid.paid_amount == share + 3000
    amounts = [e.payload["amount"] for e in Event.objects.filter(action="payout.paid")]
    assert amounts == [share, 3000]  # the correction is a new event, never an edit
