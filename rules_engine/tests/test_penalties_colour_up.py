"""Penalties with the hand countdown on the dealer tablet, colour-ups, the new situations."""

from __future__ import annotations

import pytest
from django.urls import reverse

from actions.penalties import penalty_give
from actions.tables import hand_done
from core.errors import FloorError
from rules_engine import services as svc
from rules_engine.domain.rulesets import citation
from rules_engine.models import ColourUp, Penalty
from tables import services as tables
from tables.models import SeatAssignment
from tournament.models import EntryStatus, Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(make_tournament, register, actor):
    def make(n=9, **options):
        t = make_tournament(status="running", late_registration_until_level=6, **options)
        entries = [register(t) for _ in range(n)]
        tables.seats_draw(tournament=t, actor=actor)
        return t, entries

    return make


@pytest.fixture
def floor_client(client, floor_user):
    client.force_login(floor_user)
    return client


def test_rounds_become_hands_and_count_down_with_each_hand(seated, actor):
    t, entries = seated(8)
    e = entries[0]
    p = penalty_give(
        tournament=t, number=e.number, kind="rounds", count=1, reason="cards thrown", actor=actor
    )
    assert (p.hands, p.hands_left, p.rule) == (8, 8, "tda-de 69")
    row = SeatAssignment.objects.select_related("table").get(entry=e)
    tables.button_set(table=row.table, seat=row.seat, actor=actor)
    for _ in range(3):
        hand_done(table=row.table, actor=actor)
    p.refresh_from_db()
    assert p.hands_left == 5
    assert svc.sitting_out(row.table) == {e.pk: 5}
    assert Event.objects.filter(tournament=t, action="penalty.give").count() == 1


def test_repeat_offences_get_a_harsher_suggestion(seated, actor):
    t, entries = seated(8)
    e = entries[1]
    assert svc.penalty_suggestion(t, e).kind == "warning"
    penalty_give(tournament=t, number=e.number, kind="warning", count=0, reason="x", actor=actor)
    assert svc.penalty_suggestion(t, e).kind == "hands"


def test_disqualification_takes_the_player_out(seated, actor):
    t, entries = seated(8)
    e = entries[2]
    penalty_give(
        tournament=t, number=e.number, kind="disqualification", count=5, reason="abuse", actor=actor
    )
    e.refresh_from_db()
    assert e.status == EntryStatus.BUSTED
    assert not SeatAssignment.objects.filter(entry=e).exists()
    assert Penalty.objects.get(entry=e).count == 0


def test_bad_penalties_change_nothing(seated, actor):
    t, entries = seated(8)
    for kwargs in (
        {"number": 999, "kind": "warning", "count": 0, "reason": "x"},
        {"number": entries[0].number, "kind": "fine", "count": 1, "reason": "x"},
        {"number": entries[0].number, "kind": "hands", "count": 0, "reason": "x"},
        {"number": entries[0].number, "kind": "warning", "count": 0, "reason": "  "},
    ):
        with pytest.raises(FloorError):
            penalty_give(tournament=t, actor=actor, **kwargs)
    assert not Penalty.objects.exists()
    assert not Event.objects.filter(action="penalty.give").exists()


def test_dealer_tablet_shows_hands_to_sit_out(seated, actor, client):
    t, entries = seated(6)
    e = entries[0]
    penalty_give(tournament=t, number=e.number, kind="hands", count=3, reason="x", actor=actor)
    table = SeatAssignment.objects.get(entry=e).table
    page = client.get(reverse("dealer", args=[table.dealer_token])).content.decode()
    assert "sits out: 3 hands" in page


def test_penalty_page_suggests_then_gives(seated, floor_client):
    t, entries = seated(8)
    url = reverse("penalties", args=[t.pk])
    n = entries[0].number
    page = floor_client.post(
        url, {"number": n, "reason": "soft play", "kind": "warning", "action": "look"}
    ).content.decode()
    assert "Suggested: Warning" in page
    r = floor_client.post(
        url, {"number": n, "reason": "soft play", "kind": "hands", "count": "2", "action": "give"}
    )
    assert r.status_code == 302
    assert Penalty.objects.get().hands == 2
    page = floor_client.post(
        url, {"number": n, "reason": "again", "kind": "warning", "action": "look"}
    ).content.decode()
    assert "Suggested: Sit out 1 round" in page


def test_colour_up_race_is_recorded_with_every_card(seated, actor):
    t, _ = seated(6, ruleset="bdpv")
    table = tables.open_tables(t)[0]
    seats = sorted(table.assignments.values_list("seat", flat=True))
    tables.button_set(table=table, seat=seats[0], actor=actor)
    counts = {s: (i + 1, 1000) for i, s in enumerate(seats)}
    record = svc.colour_up_run(
        tournament=t,
        table_number=table.number,
        removed=25,
        new_value=100,
        counts=counts,
        actor=actor,
    )
    assert record.method == "race" and record.result["rules"] == ["bdpv 6.8"]
    dealt = [c for s in record.result["seats"] for c in s["cards"]]
    assert len(dealt) == sum(c % 4 for c, _o in counts.values()) == len(set(dealt))
    assert record.result["winner"] in seats
    assert Event.objects.filter(tournament=t, action="chips.colour_up").count() == 1


def test_colour_up_round_up_and_bad_input(seated, actor, floor_client):
    t, _ = seated(6)
    table = tables.open_tables(t)[0]
    seats = sorted(table.assignments.values_list("seat", flat=True))
    with pytest.raises(FloorError):  # no button yet
        svc.colour_up_run(
            tournament=t,
            table_number=table.number,
            removed=25,
            new_value=100,
            counts={seats[0]: (3, 0)},
            actor=actor,
        )
    tables.button_set(table=table, seat=seats[0], actor=actor)
    with pytest.raises(FloorError):
        svc.colour_up_run(
            tournament=t,
            table_number=table.number,
            removed=25,
            new_value=100,
            counts={10: (3, 0)},
            actor=actor,
        )
    with pytest.raises(FloorError):
        svc.colour_up_run(
            tournament=t,
            table_number=table.number,
            removed=100,
            new_value=25,
            counts={seats[0]: (3, 0)},
            actor=actor,
        )
    assert not ColourUp.objects.exists()
    url = reverse("colour-up", args=[t.pk])
    data = {"table": table.number, "removed": 25, "new_value": 100}
    data.update({f"chips_{s}": 3 for s in seats})
    r = floor_client.post(url, data)
    assert r.status_code == 302
    record = ColourUp.objects.get()
    assert record.method == "round_up"
    assert all(s["new_chips"] == 1 and s["cards"] == [] for s in record.result["seats"])
    page = floor_client.get(r.url).content.decode()
    assert "tda-de 1.0 · 24" in page


SITUATION_CASES = [
    (
        "misdeal",
        {"cause": "first_card_wrong_seat", "so_far": "two_no_chips"},
        "Misdeal: deal the hand again.",
        "tda-de 36",
    ),
    (
        "misdeal",
        {"cause": "first_card_wrong_seat", "so_far": "two_chips"},
        "Too late for a misdeal",
        "tda-de 38",
    ),
    ("wrong_card_count", {"acted": "on"}, "The hand is dead", "tda-de 35"),
    ("burn_error", {}, "Put it right now", "tda-de 38"),
    ("premature_card", {"street": "river"}, "A new river", "tda-de 39"),
]


@pytest.mark.parametrize(("situation", "facts", "text", "rule"), SITUATION_CASES)
def test_new_situations_in_the_console(floor_client, make_tournament, situation, facts, text, rule):
    t = make_tournament()
    page = floor_client.post(
        reverse("rulings", args=[t.pk]), {"situation": situation, "action": "suggest", **facts}
    ).content.decode()
    assert text in page and citation(rule, "1.0") in page


def test_bdpv_tournament_gets_bdpv_rulings(floor_client, make_tournament):
    t = make_tournament(ruleset="bdpv")
    page = floor_client.post(
        reverse("rulings", args=[t.pk]),
        {
            "situation": "misdeal",
            "cause": "first_card_wrong_seat",
            "so_far": "two_no_chips",
            "action": "suggest",
        },
    ).content.decode()
    assert "Too late for a misdeal" in page and "bdpv 1.1 · 2.1" in page


def test_showdown_in_the_console_and_bad_cards(floor_client, make_tournament):
    t = make_tournament()
    url = reverse("rulings", args=[t.pk])
    facts = {
        "situation": "showdown",
        "board": "2c 7d 9h Js 3s",
        "hands": "1: As Ad\n2: Kc Kd\n3: Qc Qd",
        "contributions": "1: 1000\n2: 5000\n3: 5000\n4: 200",
        "button": "3",
        "table_seats": "9",
        "smallest_chip": "25",
    }
    page = floor_client.post(url, {**facts, "action": "suggest"}).content.decode()
    assert "Main pot (3,200): seat 1 3,200" in page
    assert "Side pot 1 (8,000): seat 2 8,000" in page and "one pair" in page
    r = floor_client.post(url, {**facts, "action": "record"})
    assert r.status_code == 302
    bad = floor_client.post(
        url, {**facts, "hands": "1: As As", "action": "suggest"}
    ).content.decode()
    assert "do not make a showdown" in bad


def test_skipped_player_in_the_console(floor_client, make_tournament):
    t = make_tournament()
    page = floor_client.post(
        reverse("rulings", args=[t.pk]),
        {"situation": "skipped_player", "skipped_so_far": "two_chips", "action": "suggest"},
    ).content.decode()
    assert "Too late" in page and "tda-de 1.0 · 44" in page
