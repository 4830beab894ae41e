"""The deal calculator and the payout desk through the console pages."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import timezone

from actions.bust import BustReport, entries_bust
from tournament.models import Deal, Status, Tournament
from tournament.selectors import tournament_numbers
from tournament.services import deals as svc

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_client(client, floor_user):
    client.force_login(floor_user)
    return client


@pytest.fixture
def heads_up(make_tournament, register, actor):
    t = make_tournament(status="registering")
    entries = [register(t) for _ in range(10)]
    Tournament.objects.filter(pk=t.pk).update(
        status=Status.RUNNING,
        registration_closed_at=timezone.now(),  # the field is final
    )
    t.refresh_from_db()
    for e in entries[:-2]:
        entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)
    return t, svc.players_left(t)


def form(t, left, **extra):
    chips = tournament_numbers(t).chips_in_play
    data = {
        f"stack_{left[0].pk}": str(chips * 3 // 4),
        f"stack_{left[1].pk}": str(chips - chips * 3 // 4),
        "chips_in_play": str(chips),
        "unit": "1",
        "play_for": "0",
    }
    data.update(extra)
    return data


def test_compare_shows_both_methods_side_by_side(floor_client, heads_up):
    t, left = heads_up
    url = reverse("deal", args=[t.pk])
    page = floor_client.get(url).content.decode()
    assert "Deal calculator" in page and f"stack_{left[0].pk}" in page
    page = floor_client.post(url, form(t, left, action="compare")).content.decode()
    assert "Chip chop" in page and "Record the deal" in page and "75.0 %" in page


def test_bad_stack_is_a_clear_error(floor_client, heads_up):
    t, left = heads_up
    url = reverse("deal", args=[t.pk])
    data = form(t, left, action="compare")
    data[f"stack_{left[0].pk}"] = "lots"
    page = floor_client.post(url, data).content.decode()
    assert "whole number of chips" in page
    data = form(t, left, action="compare")
    data[f"stack_{left[0].pk}"] = "1"
    page = floor_client.post(url, data).content.decode()
    assert "stacks add up to" in page


def test_record_needs_every_consent_then_pays_at_the_desk(floor_client, heads_up, actor):
    t, left = heads_up
    url = reverse("deal", args=[t.pk])
    page = floor_client.post(
        url, form(t, left, action="record", method="icm", **{f"agree_{left[0].pk}": "on"})
    ).content.decode()
    assert "Every player must agree" in page and not Deal.objects.exists()
    agree = {f"agree_{e.pk}": "on" for e in left}
    response = floor_client.post(url, form(t, left, action="record", method="icm", **agree))
    assert response.status_code == 302
    deal = Deal.objects.get()
    assert "Deal recorded" in floor_client.get(url).content.decode()
    # The deal is done: the short stack busts, the leader wins; both are paid at the desk.
    entries_bust(tournament=t, busts=[BustReport(entry=left[1])], actor=actor)
    desk = reverse("payout-desk", args=[t.pk])
    page = floor_client.get(desk).content.decode()
    assert "Pay " in page
    for e in left:
        share = deal.shares.get(entry=e)
        e.refresh_from_db()
        assert e.prize == share.amount
        assert (
            floor_client.post(
                reverse("payout-paid", args=[t.pk, e.pk]), {"method": "cash"}
            ).status_code
            == 302
        )
        e.refresh_from_db()
        assert e.paid_at is not None
        receipt = floor_client.get(reverse("payout-receipt", args=[t.pk, e.pk])).content.decode()
        assert "Payout receipt" in receipt and f"#{e.number}" in receipt
    csv = floor_client.get(desk + "?format=csv")
    assert csv["Content-Type"].startswith("text/csv")
    lines = csv.content.decode().strip().splitlines()
    assert lines[0].startswith("place,number,name,prize_cents,bounties_cents,owed_cents")
    assert len(lines) == 1 + len(svc.owed(t))


def test_receipt_only_for_someone_owed(floor_client, heads_up):
    t, left = heads_up
    url = reverse("payout-receipt", args=[t.pk, left[0].pk])
    assert floor_client.get(url).status_code == 404


def test_money_pages_need_the_floor_role(client, heads_up):
    t, left = heads_up
    for url in (
        reverse("deal", args=[t.pk]),
        reverse("payout-desk", args=[t.pk]),
        reverse("payout-receipt", args=[t.pk, left[0].pk]),
    ):
        assert client.get(url).status_code == 302
    assert client.post(reverse("payout-paid", args=[t.pk, left[0].pk])).status_code == 302


def test_bust_page_pays_the_bounty_to_who_is_typed(floor_client, make_tournament, register):
    t = make_tournament(status="registering", bounty_kind="fixed", bounty=2000)
    a, b, _c = (register(t) for _ in range(3))
    Tournament.objects.filter(pk=t.pk).update(
        status=Status.RUNNING,
        registration_closed_at=timezone.now(),  # the field is final
    )
    url = reverse("bust", args=[t.pk])
    page = floor_client.post(url, {"entry": [a.pk], f"by_{a.pk}": "x"}, follow=True)
    assert "entry numbers" in page.content.decode()
    floor_client.post(url, {"entry": [a.pk], f"by_{a.pk}": f"#{b.number}"})
    b.refresh_from_db()
    assert b.bounties_won == 2000
    desk = floor_client.get(reverse("payout-desk", args=[t.pk])).content.decode()
    assert "bounties" in desk and f"#{b.number}" in desk


def test_the_deal_page_does_not_list_a_field_too_large_for_a_deal(
    floor_client, make_tournament, register
):
    t = make_tournament(status="registering")
    for _ in range(12):
        register(t)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    page = floor_client.get(reverse("deal", args=[t.pk])).content.decode()
    assert "12 players are left now." in page
    assert "stack_" not in page and "Prizes still open" not in page
    response = floor_client.post(reverse("deal", args=[t.pk]), {"action": "record"})
    assert response.status_code == 200 and not Deal.objects.exists()
