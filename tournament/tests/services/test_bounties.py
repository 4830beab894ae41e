"""Bounties with the bust: fixed and progressive knockouts, split bounties, undo, the desk."""

from __future__ import annotations

import pytest
from django.utils import timezone

from actions.bust import BustReport, bust_undo_last, entries_bust
from core.errors import FloorError
from tournament.models import Entry, Event, Status, Tournament
from tournament.selectors import payout_amounts, tournament_numbers
from tournament.services import deals

pytestmark = pytest.mark.django_db


@pytest.fixture
def pko(make_tournament, register):
    def make(n=6, kind="progressive"):
        t = make_tournament(status="registering", buy_in=10000, bounty_kind=kind, bounty=5000)
        entries = [register(t) for _ in range(n)]
        Tournament.objects.filter(pk=t.pk).update(
            status=Status.RUNNING,
            registration_closed_at=timezone.now(),  # the field is final
        )
        t.refresh_from_db()
        return t, entries

    return make


def fresh(e):
    return Entry.objects.get(pk=e.pk)


def test_bounties_come_out_of_the_buy_in(pko):
    t, entries = pko()
    assert all(e.bounty == 5000 for e in entries)
    numbers = tournament_numbers(t)
    assert numbers.bounty_pool == 6 * 5000
    assert numbers.prize_pool == 6 * 5000


def test_progressive_knockout_pays_half_and_grows_the_head(pko, actor):
    t, e = pko()
    entries_bust(
        tournament=t, busts=[BustReport(entry=e[0], eliminated_by=(e[1].number,))], actor=actor
    )
    hunter = fresh(e[1])
    assert (hunter.bounties_won, hunter.bounty) == (2500, 7500)
    # The hunter is knocked out next: 7,500 on the head, split by two players.
    entries_bust(
        tournament=t,
        busts=[BustReport(entry=e[1], eliminated_by=(e[2].number, e[3].number))],
        actor=actor,
    )
    a, b = fresh(e[2]), fresh(e[3])
    assert a.bounties_won + b.bounties_won == 3800  # 3,750 cash rounded to the payout unit
    assert a.bounty + b.bounty == 10000 + 3700


def test_fixed_bounty_and_the_winner_collects_their_own(pko, actor):
    t, e = pko(n=3, kind="fixed")
    entries_bust(
        tournament=t, busts=[BustReport(entry=e[0], eliminated_by=(e[2].number,))], actor=actor
    )
    entries_bust(
        tournament=t, busts=[BustReport(entry=e[1], eliminated_by=(e[2].number,))], actor=actor
    )
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    winner = fresh(e[2])
    assert winner.bounties_won == 3 * 5000  # two knock-outs and their own
    total_bounties = sum(Entry.objects.filter(tournament=t).values_list("bounties_won", flat=True))
    assert total_bounties == tournament_numbers(t).bounty_pool
    owed = {x.pk: x.owed for x in deals.owed(t)}
    assert owed[winner.pk] == payout_amounts(t)[0] + 15000


def test_every_bounty_paid_out_in_a_whole_event(pko, actor):
    import random

    t, e = pko(n=12)
    rng = random.Random(5)
    alive = list(e)
    while len(alive) > 1:
        out = alive.pop(rng.randrange(len(alive)))
        hunters = rng.sample(alive, k=min(len(alive), rng.choice([1, 1, 2])))
        entries_bust(
            tournament=t,
            busts=[BustReport(entry=out, eliminated_by=tuple(h.number for h in hunters))],
            actor=actor,
        )
    total = sum(Entry.objects.filter(tournament=t).values_list("bounties_won", flat=True))
    assert total == tournament_numbers(t).bounty_pool


def test_bounty_tournament_needs_the_eliminator(pko, actor):
    t, e = pko()
    with pytest.raises(FloorError, match="Who knocked"):
        entries_bust(tournament=t, busts=[BustReport(entry=e[0])], actor=actor)
    with pytest.raises(FloorError, match="not playing"):
        entries_bust(
            tournament=t, busts=[BustReport(entry=e[0], eliminated_by=(999,))], actor=actor
        )
    with pytest.raises(FloorError, match="out in this hand"):
        entries_bust(
            tournament=t,
            busts=[
                BustReport(entry=e[0], stack_at_hand_start=100, eliminated_by=(e[1].number,)),
                BustReport(entry=e[1], stack_at_hand_start=200, eliminated_by=(e[2].number,)),
            ],
            actor=actor,
        )
    assert fresh(e[0]).status == "active" and fresh(e[1]).bounties_won == 0


def test_undo_gives_the_bounty_back(pko, actor):
    t, e = pko()
    entries_bust(
        tournament=t, busts=[BustReport(entry=e[0], eliminated_by=(e[1].number,))], actor=actor
    )
    bust_undo_last(tournament=t, actor=actor)
    hunter = fresh(e[1])
    assert (hunter.bounties_won, hunter.bounty) == (0, 5000)
    payload = Event.objects.filter(action="entry.bust").last().payload
    assert payload["bounties"][0]["cash"] == 2500


def test_bounty_settings_are_checked(make_tournament):
    with pytest.raises(FloorError, match="cannot exceed"):
        make_tournament(buy_in=1000, bounty_kind="fixed", bounty=2000)
    with pytest.raises(FloorError, match="bounty per entry"):
        make_tournament(bounty_kind="progressive", bounty=0)
