"""An event's money in the cage (docs/ledger.md, docs/festivals.md): taken in the flight where
it was paid, carried into the one prize pool, paid out from the Day 2, counted once. The
flights' reports, the Day 2's, the day reports and the event's add up to the cent."""

from __future__ import annotations

import csv
import io
import re
from random import Random

import pytest
from django.urls import reverse
from django.utils import timezone

from actions.bust import BustReport, entries_bust
from core.domain.money import format_money
from festivals import services as fest
from festivals.models import Bagging
from festivals.tests.test_festival import bag_all, people, play
from tournament.events import Actor
from tournament.ledger_selectors import day_cages, event_cage, tournament_cage
from tournament.models import EntryStatus, Status, Tournament
from tournament.services import deals

pytestmark = pytest.mark.django_db

BUY_IN, FEE, GUARANTEE = 10_000, 1_000, 300_000  # 100 € + 10 €, 3,000 € guaranteed


@pytest.fixture
def event(make_tournament, actor):
    base = make_tournament(
        status="registering", seats_per_table=6, buy_in=BUY_IN, fee=FEE, guarantee=GUARANTEE
    )
    return fest.event_create(template=base, name="Main Event", flights=2, actor=actor)


@pytest.fixture
def second(floor_user):
    return Actor(user=floor_user, label="flo", source="127.0.0.1")


def parts(event):
    flights = [f.tournament for f in event.flights.order_by("position")]
    return flights, Tournament.objects.get(pk=event.day2_id)


def _flights_played(event, actor, second=None):
    """Day 1A takes 7 buy-ins (700 €), Day 1B 5 (500 €): 1,200 € for a 3,000 € guarantee."""
    (a, b), _day2 = parts(event)
    play(a, actor, people(7), busts=3)
    play(b, actor, people(5, 100), busts=2)
    if second is not None:
        for t in (a, b):
            bagging = bag_all(Tournament.objects.get(pk=t.pk), actor, second)
            fest.bagging_close(bagging=Bagging.objects.get(pk=bagging.pk), actor=actor)
    return parts(event)


def test_a_flight_holds_its_buy_ins_and_carries_them_to_the_day2_pool(event, actor):
    (a, b), day2 = _flights_played(event, actor)
    ca, cb, c2 = tournament_cage(a), tournament_cage(b), tournament_cage(day2)
    # The flights hold what they took and owe no prizes of their own.
    assert (ca.report.held_total, cb.report.held_total) == (7 * 11_000, 5 * 11_000)
    assert (ca.still_owed, cb.still_owed) == (0, 0)
    assert (ca.carried_out, cb.carried_out) == (70_000, 50_000)
    assert (ca.house.total, cb.house.total) == (7_000, 5_000)
    assert ca.balanced and cb.balanced
    # The Day 2 holds nothing yet and owes the pool: 1,200 € carried in, 1,800 € overlay.
    assert c2.carried_in == 120_000
    assert (c2.pool.contributions, c2.pool.overlay, c2.pool.total) == (120_000, 180_000, 300_000)
    assert c2.report.held_total == 0 and c2.still_owed == 300_000
    assert c2.house.overlay == 180_000 and c2.house.total == -180_000
    assert c2.balanced, (c2.unexplained, [(k.label, k.ledger, k.records) for k in c2.checks])
    # Counted once: over the event's reports 3,000 € is owed and 1,320 € held.
    cages = [ca, cb, c2]
    assert sum(c.still_owed for c in cages) == GUARANTEE
    assert sum(c.report.held_total for c in cages) == 12 * 11_000
    whole = event_cage(day2)
    assert [c.tournament.pk for c in whole.parts] == [a.pk, b.pk, day2.pk]
    assert whole.still_owed == GUARANTEE and whole.report.held_total == 132_000
    assert whole.house.total == 12_000 - 180_000 and whole.balanced
    # The day reports count the same way: each flight's day, and the Day 2's.
    for t, owed in ((a, 0), (b, 0), (day2, GUARANTEE)):
        [day] = day_cages(timezone.localtime(t.starts_at).date())
        assert [c.tournament.pk for c in day.tournaments] == [t.pk]
        assert day.still_owed == owed and day.balanced


def test_the_day2_pays_from_the_pool_and_the_event_reconciles_to_the_cent(event, actor, second):
    (a, b), day2 = _flights_played(event, actor, second)
    fest.day2_draw_run(event=event, seeded=True, actor=actor, rng=Random(5))
    Tournament.objects.filter(pk=day2.pk).update(status=Status.RUNNING)
    day2.refresh_from_db()
    alive = list(day2.entries.filter(status=EntryStatus.ACTIVE).order_by("number"))
    for e in alive[:-1]:
        entries_bust(tournament=day2, busts=[BustReport(entry=e)], actor=actor)
    day2.refresh_from_db()
    owed = [e for e in deals.owed(day2) if e.owed > 0]
    assert owed and sum(e.owed for e in owed) == GUARANTEE
    paid = 0
    for e in owed[:2]:
        deals.prize_paid(tournament=day2, entry_id=e.pk, actor=actor, method="cash")
        paid += e.owed
    c2 = tournament_cage(day2)
    assert c2.report.paid_out == c2.paid_records == paid
    assert c2.still_owed == GUARANTEE - paid and c2.report.held_total == -paid
    assert c2.balanced, (c2.unexplained, [(k.label, k.ledger, k.records) for k in c2.checks])
    assert deals.desk_totals(day2)["open"] == c2.still_owed
    whole = event_cage(day2)
    assert whole.still_owed == GUARANTEE - paid
    assert whole.report.held_total == 132_000 - paid
    assert whole.report.held_total == whole.house.total + whole.still_owed
    assert whole.balanced
    assert all(tournament_cage(t).balanced for t in (a, b))


def _summary(client, url, **params):
    text = client.get(url, {"format": "summary", **params}).content.decode()
    return {row["tournament"]: row for row in csv.DictReader(io.StringIO(text))}


def test_every_cage_page_and_csv_agrees_to_the_cent(client, floor_user, event, actor, second):
    (a, b), day2 = _flights_played(event, actor, second)
    fest.day2_draw_run(event=event, seeded=True, actor=actor, rng=Random(5))
    Tournament.objects.filter(pk=day2.pk).update(status=Status.RUNNING)
    alive = list(day2.entries.filter(status=EntryStatus.ACTIVE).order_by("number"))
    for e in alive[:-1]:
        entries_bust(tournament=day2, busts=[BustReport(entry=e)], actor=actor)
    day2.refresh_from_db()
    first = [e for e in deals.owed(day2) if e.owed > 0][-1]
    deals.prize_paid(tournament=day2, entry_id=first.pk, actor=actor, method="transfer")
    paid = first.owed
    client.force_login(floor_user)
    # Each flight: its money held, nothing owed, its players' money carried to the Day 2.
    for t, n in ((a, 7), (b, 5)):
        row = _summary(client, reverse("cage", args=[t.pk]))[t.name]
        assert row["held_real_money_cents"] == str(n * 11_000)
        assert (row["still_owed_cents"], row["prize_pool_cents"]) == ("0", "0")
        assert row["carried_to_day2_cents"] == str(n * 10_000)
        assert row["unexplained_cents"] == "0"
    # The Day 2's summary is the event's: its flights, itself and the event's total.
    rows = _summary(client, reverse("cage", args=[day2.pk]))
    assert list(rows) == [a.name, b.name, day2.name, "Event total"]
    own, total = rows[day2.name], rows["Event total"]
    assert own["carried_in_from_flights_cents"] == "120000"
    assert own["prize_pool_cents"] == total["prize_pool_cents"] == str(GUARANTEE)
    assert own["overlay_cents"] == total["overlay_cents"] == "180000"
    assert own["still_owed_cents"] == total["still_owed_cents"] == str(GUARANTEE - paid)
    assert own["held_real_money_cents"] == str(-paid)
    assert total["held_real_money_cents"] == str(132_000 - paid)
    assert total["house_keeps_cents"] == str(12_000 - 180_000)
    assert {r["unexplained_cents"] for r in rows.values()} == {"0"}
    # The day reports: each day's total as its tournaments' rows, nothing unexplained.
    owed_by_day = 0
    for t in (a, b, day2):
        day = timezone.localtime(t.starts_at).date().isoformat()
        rows = _summary(client, reverse("cage-day"), day=day)
        assert rows["Day total"]["unexplained_cents"] == "0"
        assert rows["Day total"]["still_owed_cents"] == rows[t.name]["still_owed_cents"]
        owed_by_day += int(rows["Day total"]["still_owed_cents"])
        page = client.get(reverse("cage-day"), {"day": day}).content.decode()
        assert "✗" not in page and "✓" in page
    assert owed_by_day == GUARANTEE - paid
    # The pages, in English and German, say the same and write negative amounts one way.
    for language, owed_text, overlay_text in (
        ("en", format_money(GUARANTEE - paid, "EUR", "en"), "\u2212€1,800"),
        ("de", format_money(GUARANTEE - paid, "EUR", "de"), "\u22121.800\u00a0€"),
    ):
        page = client.get(
            reverse("cage", args=[day2.pk]), HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        assert owed_text in page and overlay_text in page and "✗" not in page
        assert 'id="event-money"' in page
        assert not re.search(r"\u2212\s+[€\d]", page), "a minus sign set apart from its amount"
        assert not re.search(r"-(€|\d[\d.,]*\u00a0€)", page), "a hyphen for a minus"
        flight = client.get(
            reverse("cage", args=[a.pk]), HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        assert day2.name in flight and "✗" not in flight
    festival = client.get(reverse("festival", args=[event.pk])).content.decode()
    assert reverse("cage", args=[day2.pk]) in festival
    assert format_money(GUARANTEE, "EUR", "en") in festival
    # The payout tables: a flight's pool is the Day 2's, which shows the whole of it.
    flight = client.get(reverse("payouts", args=[a.pk])).content.decode()
    assert "€700 prize money carried to the Day 2" in flight and "pays no prizes" in flight
    assert (
        format_money(GUARANTEE, "EUR", "en")
        in client.get(reverse("payouts", args=[day2.pk])).content.decode()
    )
