"""The cash ledger written by registration, refunds, payouts and corrections, and the cage
report against the tournament's records (docs/ledger.md)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from actions import registration as registering
from actions.bust import BustReport, bust_undo_last, entries_bust
from actions.corrections import correction_undo, entry_void
from actions.registration import entry_unregister
from core.errors import FloorError
from tournament.ledger_selectors import day_cages, tournament_cage
from tournament.models import Event, LedgerLine
from tournament.services import deals, ledger, registration

pytestmark = pytest.mark.usefixtures("counters_agree")


def _player(actor, name):
    return registration.player_create(name=name, actor=actor)


def test_every_purchase_refund_and_payout_is_a_line_with_its_method(make_tournament, actor):
    t = make_tournament(status="registering", rebuys_max=1, rebuy_price=5000, rebuy_fee=500)
    card = registering.entry_register(
        tournament=t, player=_player(actor, "Karl Karte"), actor=actor, method="card"
    )
    cash = registering.entry_register(
        tournament=t, player=_player(actor, "Bea Bar"), actor=actor, method="cash"
    )
    registration.entry_purchase(entry=cash, kind="rebuy", actor=actor, method="transfer")
    entry_unregister(entry=card, actor=actor)
    rows = list(t.ledger.order_by("id").values_list("kind", "method", "amount", "prizes", "fees"))
    assert rows == [
        ("buyin", "card", 11000, 10000, 1000),
        ("buyin", "cash", 11000, 10000, 1000),
        ("rebuy", "transfer", 5500, 5000, 500),
        ("refund", "card", -11000, -10000, -1000),
    ]
    report = tournament_cage(t)
    assert report.report.held == {"cash": 11000, "card": 0, "transfer": 5500, "unrecorded": 0}
    assert report.balanced


def test_a_missing_or_unknown_method_is_refused_and_nothing_is_written(make_tournament, actor):
    t = make_tournament(status="registering")
    for bad in ("", "cheque", None):
        with pytest.raises(FloorError):
            registering.player_register(tournament=t, name="Ida Ohne", actor=actor, method=bad)
    assert t.entries.count() == 0 and LedgerLine.objects.count() == 0


def test_the_ledger_is_append_only_and_the_database_refuses_a_line_that_does_not_add_up(
    make_tournament, register
):
    t = make_tournament(status="registering")
    register(t)
    line = t.ledger.get()
    line.amount = 1
    with pytest.raises(PermissionError):
        line.save()
    with pytest.raises(PermissionError):
        t.ledger.update(amount=1)
    with pytest.raises(PermissionError):
        line.delete()
    with pytest.raises(IntegrityError), transaction.atomic():
        LedgerLine.objects.create(
            tournament=t, kind="buyin", method="cash", amount=100, prizes=50, fees=40
        )


def _running_with_a_paid_winner(make_tournament, actor, register, **options):
    t = make_tournament(status="running", **options)
    entries = [register(t) for _ in range(4)]
    registration.registration_close(tournament=t, actor=actor)
    for e in entries[:3]:
        entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)
    return t, entries


def test_payouts_go_through_the_ledger(make_tournament, actor, register):
    t, _entries = _running_with_a_paid_winner(make_tournament, actor, register)
    t.refresh_from_db()
    owed = deals.owed(t)
    assert owed, "someone is in the money"
    for e in owed:
        deals.prize_paid(tournament=t, entry_id=e.pk, actor=actor, method="cash")
    cage = tournament_cage(t)
    assert cage.report.paid_out == sum(e.owed for e in owed) == cage.paid_records
    assert cage.still_owed == 0 and cage.balanced
    with pytest.raises(FloorError):
        deals.prize_paid(tournament=t, entry_id=owed[0].pk, actor=actor, method="voucher")


def test_money_paid_too_much_is_collected_back_by_a_line(make_tournament, actor, register):
    t = make_tournament(status="running")
    entries = [register(t) for _ in range(10)]
    registration.registration_close(tournament=t, actor=actor)
    for e in entries[:8]:
        entries_bust(tournament=t, busts=[BustReport(entry=e)], actor=actor)
    t.refresh_from_db()
    third = next(e for e in deals.owed(t) if e.place == 3)
    deals.prize_paid(tournament=t, entry_id=third.pk, actor=actor, method="cash")
    bust_undo_last(tournament=t, actor=actor, correct_payments=True)
    back = next(e for e in deals.owed(t) if e.pk == third.pk)
    assert back.collect > 0
    assert deals.desk_totals(t)["to_collect"] == back.collect
    deals.payment_collected(tournament=t, entry_id=third.pk, actor=actor, method="cash")
    cage = tournament_cage(t)
    assert cage.balanced and cage.report.paid_out == cage.paid_records
    assert Event.objects.filter(action="payout.collected").count() == 1
    with pytest.raises(FloorError):
        deals.payment_collected(tournament=t, entry_id=third.pk, actor=actor, method="cash")


def test_a_method_change_is_two_new_lines_and_an_event(make_tournament, actor, register):
    t = make_tournament(status="registering")
    register(t)
    line = t.ledger.get()
    pair = ledger.method_change(
        tournament=t, line_id=line.pk, method="card", reason="paid by card", actor=actor
    )
    assert [(x.method, x.amount, x.corrects_id) for x in pair] == [
        ("cash", -11000, line.pk),
        ("card", 11000, line.pk),
    ]
    cage = tournament_cage(t)
    assert cage.report.held["cash"] == 0 and cage.report.held["card"] == 11000
    assert cage.balanced
    assert Event.objects.filter(action="ledger.method_change").count() == 1
    for bad in (
        {"method": "card", "reason": ""},
        {"method": "cash", "reason": "x"},
        {"method": "cheque", "reason": "x"},
    ):
        with pytest.raises(FloorError):
            ledger.method_change(tournament=t, line_id=line.pk, actor=actor, **bad)
    assert t.ledger.count() == 3


def test_a_counted_difference_is_the_house_s_and_keeps_the_ledger_reconciled(
    make_tournament, actor, register
):
    t = make_tournament(status="registering")
    register(t)
    before = tournament_cage(t).house.total
    ledger.cash_difference(
        tournament=t, amount=-500, method="cash", reason="drawer short", actor=actor
    )
    cage = tournament_cage(t)
    assert cage.house.total == before - 500 and cage.report.held["cash"] == 10500
    assert cage.balanced
    for bad in ({"amount": 0, "method": "cash"}, {"amount": 5, "method": "comp"}):
        with pytest.raises(FloorError):
            ledger.cash_difference(tournament=t, reason="x", actor=actor, **bad)


def test_staff_fee_house_money_overlay_comps_and_seats_reconcile_to_the_cent(
    make_tournament, actor
):
    # 3 % withheld, 20 from the house, a guarantee of 500; buy-in 100 + 10.
    t = make_tournament(
        status="registering", withholding_bp=300, house_contribution=2000, guarantee=50000
    )
    methods = ["cash", "cash", "card", "comp", "voucher", "satellite"]
    for n, method in enumerate(methods):
        registering.entry_register(
            tournament=t, player=_player(actor, f"Gast Nummer{n}"), actor=actor, method=method
        )
    cage = tournament_cage(t)
    assert cage.pool.contributions == 60000
    assert cage.pool.withheld == 1800 and cage.pool.house == 2000
    assert cage.pool.overlay == 0 and cage.pool.total == 60200
    # fees 6 x 10 + withheld 18 - house 20 - comp and voucher entries 2 x 110
    assert cage.house.total == 6000 + 1800 - 2000 - 22000
    assert cage.report.held_total == 3 * 11000
    assert cage.report.seats_in == 11000
    assert cage.balanced


def test_a_void_refunds_through_the_ledger_and_its_undo_takes_the_money_back(
    make_tournament, actor
):
    t = make_tournament(status="registering")
    e = registering.entry_register(
        tournament=t, player=_player(actor, "Vera Void"), actor=actor, method="card"
    )
    event = entry_void(entry=e, actor=actor)
    assert list(t.ledger.values_list("kind", "method", "amount")) == [
        ("buyin", "card", 11000),
        ("refund", "card", -11000),
    ]
    correction_undo(tournament=t, event_id=event.pk, actor=actor)
    assert list(t.ledger.order_by("id").values_list("kind", "method", "amount"))[-1] == (
        "buyin",
        "card",
        11000,
    )
    assert tournament_cage(t).balanced


def test_the_day_report_sums_the_tournaments_of_its_day(make_tournament, actor, register):
    today = timezone.localtime().replace(hour=19, minute=0, second=0, microsecond=0)
    a = make_tournament(status="registering", starts_at=today)
    b = make_tournament(status="registering", starts_at=today + timedelta(hours=2))
    other = make_tournament(status="registering", starts_at=today + timedelta(days=1))
    for t in (a, b, b, other):
        register(t)
    [day] = day_cages(today.date())
    assert [c.tournament.pk for c in day.tournaments] == [a.pk, b.pk]
    assert day.report.held_total == 3 * 11000 and day.balanced


def test_the_cage_pages_and_their_csv(client, floor_user, director, make_tournament, register):
    t = make_tournament(status="registering")
    register(t, "Paula Pay")
    client.force_login(floor_user)
    page = client.get(reverse("cage", args=[t.pk])).content.decode()
    assert "Paula Pay" in page and "✓" in page
    assert "Record the difference" not in page  # corrections are the director's
    csv = client.get(reverse("cage", args=[t.pk]), {"format": "csv"}).content.decode()
    assert csv.splitlines()[0].startswith("line,at,tournament,entry,player,kind,method,amount")
    assert ",buyin,cash,11000,10000,1000," in csv
    summary = client.get(reverse("cage", args=[t.pk]), {"format": "summary"}).content.decode()
    assert "held_real_money_cents" in summary.splitlines()[0]
    day = timezone.localtime(t.starts_at).date().isoformat()
    assert t.name in client.get(reverse("cage-day"), {"day": day}).content.decode()
    assert client.get(reverse("cage-day"), {"day": "not-a-day"}).status_code == 404
    line = t.ledger.get()
    url = reverse("cage-method", args=[t.pk])
    assert client.post(url, {"line": line.pk, "method": "card", "reason": "x"}).status_code == 403
    client.force_login(director)
    client.post(url, {"line": line.pk, "method": "card", "reason": "card, not cash"})
    assert t.ledger.count() == 3
    client.post(reverse("cage-difference", args=[t.pk]), {"amount": "-2,50", "method": "cash"})
    assert t.ledger.count() == 3  # no reason: refused
    client.post(
        reverse("cage-difference", args=[t.pk]),
        {"amount": "-2.50", "method": "cash", "reason": "short"},
    )
    assert t.ledger.last().amount == -250


def test_the_api_needs_the_payment_method(floor_user, make_tournament):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(floor_user)
    t = make_tournament(status="registering")
    url = f"/api/tournaments/{t.pk}/entries/"
    missing = api.post(url, {"name": "Greta Lange"}, format="json")
    assert missing.status_code == 400 and "payment_method" in missing.json()
    assert t.entries.count() == 0 and LedgerLine.objects.count() == 0
    made = api.post(url, {"name": "Greta Lange", "payment_method": "card"}, format="json")
    assert made.status_code == 201
    assert t.ledger.get().method == "card"


def test_the_cage_writes_every_amount_below_zero_one_way(client, director, make_tournament, actor):
    """A counted difference of −36,25 € and the house's 100 € contribution taken off what it
    keeps are written alike: the minus sign against the amount, in English and German."""
    import re

    t = make_tournament(status="registering", house_contribution=10_000)
    registering.entry_register(
        tournament=t, player=_player(actor, "Mia Minus"), actor=actor, method="cash"
    )
    ledger.cash_difference(
        tournament=t, amount=-3625, method="cash", reason="drawer short", actor=actor
    )
    client.force_login(director)
    for language, short, house in (
        ("de", "\u221236,25\u00a0€", "\u2212100\u00a0€"),
        ("en", "\u2212€36.25", "\u2212€100"),
    ):
        page = client.get(reverse("cage", args=[t.pk]), HTTP_ACCEPT_LANGUAGE=language)
        text = page.content.decode()
        assert short in text and house in text
        assert not re.search(r"\u2212\s+[€\d]", text), "a minus sign set apart from its amount"
        assert not re.search(r"-(€|\d[\d.,]*\u00a0€)", text), "a hyphen for a minus"
        day = timezone.localtime(t.starts_at).date().isoformat()
        text = client.get(
            reverse("cage-day"), {"day": day}, HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        assert short in text and house in text
        assert not re.search(r"\u2212\s+[€\d]", text)
        assert not re.search(r"-(€|\d[\d.,]*\u00a0€)", text)
