"""The floor's moves as commands (actions/tables.py): each notifies the phones, the tablets and
the console, and the room hears it once; a refused one changes nothing and sends nothing."""

from __future__ import annotations

from typing import Any

import pytest

from actions.bust import BustReport, entries_bust
from actions.tables import balance_apply, final_table_draw, table_break
from core.errors import Conflict, FloorError
from live import realtime
from tables import services as seating
from tables.models import SeatAssignment, Table
from tables.selectors import balance_plan
from tournament.models import Event

pytestmark = pytest.mark.django_db


def announced(sent: list[tuple[str, str, dict[str, Any]]], t: Any) -> list[dict[str, Any]]:
    group = realtime.tournament_group(t.pk)
    return [d for g, e, d in sent if g == group and e == "announce"]


def to_console(sent: list[tuple[str, str, dict[str, Any]]], t: Any) -> list[str]:
    group = realtime.console_group(t.pk)
    return [e for g, e, _d in sent if g == group]


def seats_sent(sent: list[tuple[str, str, dict[str, Any]]], entries: set[int]) -> set[int]:
    groups = {realtime.entry_group(pk): pk for pk in entries}
    return {groups[g] for g, e, _d in sent if g in groups and e == "seat"}


def snapshot(t: Any) -> tuple[list[tuple[int, int, int]], list[tuple[int, bool]], int, str]:
    t.refresh_from_db()
    seats = sorted(
        SeatAssignment.objects.filter(table__tournament=t).values_list(
            "entry_id", "table__number", "seat"
        )
    )
    tables = sorted(Table.objects.filter(tournament=t).values_list("number", "is_open"))
    return seats, tables, Event.objects.filter(tournament=t).count(), t.status


@pytest.fixture
def seated(make_tournament, register, actor):
    t = make_tournament(status="running", seats_per_table=6, final_table_size=6)
    entries = [register(t) for _ in range(14)]
    seating.seats_draw(tournament=t, actor=actor)  # three tables of 5, 5 and 4
    return t, entries


def test_a_balance_tells_the_moved_players_and_the_console_and_announces_each_pair_once(
    seated, actor, sent, django_capture_on_commit_callbacks
):
    t, _entries = seated
    first = Table.objects.filter(tournament=t, is_open=True).order_by("number")[0]
    for row in list(SeatAssignment.objects.filter(table=first))[:3]:  # 5 → 2 players
        entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=actor)
    plan = balance_plan(t)
    assert plan.moves
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        moves = balance_apply(tournament=t, signature=plan.signature, actor=actor)
    assert moves == list(plan.moves)
    pairs = sorted({(m.from_table, m.to_table) for m in moves})
    spoken = announced(sent, t)
    assert [m["kind"] for m in spoken] == ["players_move"] * len(pairs)
    assert [(m["params"]["table"], m["params"]["to_table"]) for m in spoken] == pairs
    assert seats_sent(sent, {m.entry for m in moves}) == {m.entry for m in moves}
    assert "seating" in to_console(sent, t)
    assert Event.objects.filter(tournament=t, action="seats.balance").count() == 1


def test_a_table_break_is_announced_once_with_its_players_told(
    seated, actor, sent, django_capture_on_commit_callbacks
):
    t, _entries = seated
    others = SeatAssignment.objects.filter(table__tournament=t).exclude(table__number=3)
    for row in list(others.order_by("table__number", "seat"))[:2]:  # room for table 3's four
        entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=actor)
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        moves = table_break(tournament=t, number=3, actor=actor)
    assert moves
    spoken = announced(sent, t)
    assert [(m["kind"], m["params"]) for m in spoken] == [("table_break", {"table": 3})]
    assert seats_sent(sent, {m.entry for m in moves}) == {m.entry for m in moves}
    assert "seating" in to_console(sent, t)
    assert not Table.objects.get(tournament=t, number=3).is_open


def test_an_empty_table_closes_without_an_announcement(
    make_tournament, actor, sent, django_capture_on_commit_callbacks
):
    t = make_tournament(status="running")
    seating.tables_create(tournament=t, count=2, actor=actor)
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert table_break(tournament=t, number=2, actor=actor) == []
    assert announced(sent, t) == []
    assert Event.objects.filter(tournament=t, action="table.close").count() == 1


def test_the_final_table_is_announced_once_at_its_table(
    seated, actor, sent, django_capture_on_commit_callbacks
):
    t, entries = seated
    for victim in entries[:8]:  # 6 left
        entries_bust(tournament=t, busts=[BustReport(entry=victim)], actor=actor)
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        moves = final_table_draw(tournament=t, actor=actor, table_number=2)
    spoken = announced(sent, t)
    assert [(m["kind"], m["params"]) for m in spoken] == [
        ("final_table", {"table": 2, "players": len(moves)})
    ]
    assert len(moves) == 6
    assert "seating" in to_console(sent, t)
    t.refresh_from_db()
    assert t.status == "final_table"


def test_hand_for_hand_is_still_announced_once_by_the_log(
    seated, actor, sent, django_capture_on_commit_callbacks
):
    t, _entries = seated
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        seating.hand_for_hand_set(tournament=t, on=True, actor=actor)
    assert [m["kind"] for m in announced(sent, t)] == ["hand_for_hand"]


def test_refused_moves_change_nothing_and_send_nothing(
    seated, actor, sent, django_capture_on_commit_callbacks
):
    t, _entries = seated
    before = snapshot(t)
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(Conflict):  # a plan the tables no longer match
            balance_apply(tournament=t, signature="stale", actor=actor)
        with pytest.raises(FloorError):  # balanced already: nothing to move
            balance_apply(tournament=t, signature=balance_plan(t).signature, actor=actor)
        with pytest.raises(FloorError):  # no such table
            table_break(tournament=t, number=99, actor=actor)
        with pytest.raises(FloorError):  # 14 players left; the final table seats 6
            final_table_draw(tournament=t, actor=actor)
    assert callbacks == []
    assert sent == []
    assert snapshot(t) == before
