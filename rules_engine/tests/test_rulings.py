"""The ruling assistant in the console: suggestion with cited rules, recorded decisions."""

from __future__ import annotations

import pytest
from django.urls import reverse

from rules_engine.models import Ruling
from tournament.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_client(client, floor_user):
    client.force_login(floor_user)
    return client


FACTS = {
    "current_bet": "400",
    "in_front": "0",
    "last_raise": "400",
    "stack": "20000",
    "big_blind": "200",
    "verbal": "none",
    "chips": "5000",
    "verbal_first": "1",
    "table": "7",
    "players": "#12",
}


def test_oversized_chip_is_a_call_with_the_rule_cited(floor_client, make_tournament):
    t = make_tournament()
    url = reverse("rulings", args=[t.pk])
    assert floor_client.get(url).status_code == 200
    page = floor_client.post(url, {**FACTS, "action": "suggest"}).content.decode()
    assert "Call: 400 in front." in page and "tda-de 1.0 · 49" in page and "Oversized chip" in page
    assert not Ruling.objects.exists()


def test_the_suggestion_in_german(floor_client, make_tournament):
    t = make_tournament()
    page = floor_client.post(
        reverse("rulings", args=[t.pk]),
        {**FACTS, "action": "suggest"},
        HTTP_ACCEPT_LANGUAGE="de",
    ).content.decode()
    assert "Zu großer Chip" in page


def test_record_as_suggested_or_differently_with_a_reason(floor_client, make_tournament):
    t = make_tournament()
    url = reverse("rulings", args=[t.pk])
    assert floor_client.post(url, {**FACTS, "action": "record", "follows": "1"}).status_code == 302
    r = Ruling.objects.get()
    assert r.decision == "Call: 400 in front." and r.rules == ["tda-de 49"] and r.table == 7
    page = floor_client.post(
        url, {**FACTS, "action": "record", "follows": "0", "decision": "Raise"}
    )
    assert "needs a reason" in page.content.decode() and Ruling.objects.count() == 1
    floor_client.post(
        url,
        {
            **FACTS,
            "action": "record",
            "follows": "0",
            "decision": "Raise to 5000",
            "reason": "raise said before the chip crossed the line",
        },
    )
    assert Ruling.objects.count() == 2
    assert Event.objects.filter(action="ruling.record").count() == 2
    csv = floor_client.get(reverse("rulings-csv", args=[t.pk])).content.decode()
    assert "Raise to 5000" in csv and "tda-de 49" in csv


def test_bad_facts_are_refused(floor_client, make_tournament):
    t = make_tournament()
    page = floor_client.post(
        reverse("rulings", args=[t.pk]), {**FACTS, "in_front": "900", "action": "suggest"}
    ).content.decode()
    assert "do not make a bet" in page
    page = floor_client.post(
        reverse("rulings", args=[t.pk]), {**FACTS, "chips": "lots", "action": "suggest"}
    ).content.decode()
    assert "as values" in page


def test_rulings_need_the_floor_role(client, make_tournament):
    t = make_tournament()
    assert client.get(reverse("rulings", args=[t.pk])).status_code == 302
    assert client.post(reverse("rulings", args=[t.pk]), FACTS).status_code == 302


def test_four_card_flop_and_out_of_turn_rulings(floor_client, make_tournament):
    t = make_tournament()
    url = reverse("rulings", args=[t.pk])
    page = floor_client.get(url, {"situation": "four_card_flop"}).content.decode()
    assert "Four cards on the flop" in page
    page = floor_client.post(
        url, {"situation": "four_card_flop", "action": "suggest", "table": "4"}
    ).content.decode()
    assert "next burn card" in page and "tda-de 1.0 · 39" in page
    oot = {"situation": "out_of_turn", "oot_action": "bet", "action_changed": "on", "table": "4"}
    page = floor_client.post(url, {**oot, "action": "suggest"}).content.decode()
    assert "not binding" in page and "tda-de 1.0 · 44" in page
    floor_client.post(url, {**oot, "action": "record", "follows": "1"})
    ruling = Ruling.objects.get(situation="out_of_turn")
    assert ruling.rules == ["tda-de 44"] and "not binding" in ruling.decision
    page = floor_client.post(
        url,
        {"situation": "premature_card", "street": "turn", "action": "suggest"},
        HTTP_ACCEPT_LANGUAGE="de",
    ).content.decode()
    assert "neuer Turn" in page


def test_undercall_and_string_bet_in_the_console(floor_client, make_tournament):
    t = make_tournament()
    url = reverse("rulings", args=[t.pk])
    page = floor_client.post(url, {**FACTS, "chips": "100", "action": "suggest"}).content.decode()
    assert "Undercall" in page and "tda-de 1.0 · 42" in page
    page = floor_client.post(
        url, {**FACTS, "chips": "400, 400", "first_motion": "400", "action": "suggest"}
    ).content.decode()
    assert "Call: 400 in front." in page and "tda-de 1.0 · 55" in page
    page = floor_client.post(
        url,
        {
            **FACTS,
            "chips": "",
            "verbal": "amount",
            "amount": "5",
            "unclear_amount": "on",
            "current_bet": "0",
            "pot": "4000",
            "action": "suggest",
        },
    ).content.decode()
    assert "Bet / raise to 500." in page and "tda-de 1.0 · 56" in page


def test_the_log_is_searchable(floor_client, make_tournament):
    t = make_tournament()
    url = reverse("rulings", args=[t.pk])
    floor_client.post(url, {**FACTS, "action": "record", "follows": "1"})
    floor_client.post(
        url, {"situation": "four_card_flop", "table": "3", "action": "record", "follows": "1"}
    )
    assert Ruling.objects.count() == 2
    log = floor_client.get(url, {"q": "49"}).context["log"]
    assert [r.rules for r in log] == [["tda-de 49"]]
    assert [r.table for r in floor_client.get(url, {"q": "3"}).context["log"]] == [3]
    assert len(floor_client.get(url, {"q": ""}).context["log"]) == 2
