"""Live messages carry what the screens show (live/catalogue.py, tournament/live.py,
tables/live.py): a bust, a move, a registration and a structure edit each send the new state,
checked against the catalogue, and nothing undeclared leaves."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.urls import reverse

from actions.bust import BustReport, entries_bust
from eventlog.catalogue import LOG_ACTIONS
from eventlog.catalogue import WORDS as SENTENCES
from live import catalogue, realtime
from live.catalogue import UndeclaredEvent
from tables import services as seating
from tables.models import SeatAssignment, Table
from tournament.events import event_record
from tournament.services.registration import registration_close

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_client(client, floor_user):
    client.force_login(floor_user)
    return client


@pytest.fixture
def seated(make_tournament, register, actor):
    t = make_tournament(status="running", late_registration_until_level=6)
    entries = [register(t, f"Zora Quist{n}" if n == 3 else None) for n in range(14)]
    seating.seats_draw(tournament=t, actor=actor)
    return t, entries


def _of(sent, group: str, event: str) -> list[dict[str, Any]]:
    return [data for g, e, data in sent if g == group and e == event]


def test_every_logged_action_is_declared_and_has_words():
    assert set(SENTENCES) - set(LOG_ACTIONS) == set()
    unspoken = set(LOG_ACTIONS) - set(SENTENCES)
    # Privacy records are shown on their own page, not in the tournament's history.
    assert unspoken == {"player.export", "player.erase", "players.contact_read"}


def test_an_undeclared_action_or_message_fails_the_change(make_tournament, actor):
    t = make_tournament()
    with pytest.raises(UndeclaredEvent):
        event_record(tournament=t, action="entry.teleport", actor=actor, payload={})
    with pytest.raises(UndeclaredEvent):
        realtime.broadcast_on_commit(realtime.tournament_group(t.pk), "teleport", {})
    with pytest.raises(UndeclaredEvent, match="undeclared"):
        realtime.broadcast_on_commit(
            realtime.tournament_group(t.pk), "seating", {"draw": True, "extra": 1}
        )
    with pytest.raises(UndeclaredEvent, match="missing"):
        realtime.broadcast_on_commit(realtime.tournament_group(t.pk), "h4h", {"on": True})


def test_a_bust_sends_the_board_the_player_and_the_table(
    seated, actor, sent, django_capture_on_commit_callbacks
):
    t, entries = seated
    victim = entries[3]
    row = SeatAssignment.objects.select_related("table").get(entry=victim)
    with django_capture_on_commit_callbacks(execute=True):
        entries_bust(tournament=t, busts=[BustReport(entry=victim)], actor=actor)

    (bust,) = _of(sent, realtime.tournament_group(t.pk), "bust")
    assert bust["busted"] == [{"entry": victim.pk, "place": 14}]
    board = bust["board"]
    assert board["players_left"] == 13 and board["entries"] == 14
    assert board["average_stack"] == t.starting_stack * 14 // 13
    assert board["version"] > 0 and board["payouts"]

    (mine,) = _of(sent, realtime.entry_group(victim.pk), "bust")
    assert mine["seat"]["status"] == "busted" and mine["seat"]["place"] == 14

    # The table, rendered once for the tablets of each language (here: a tablet in each).
    (english,) = _of(sent, realtime.table_group(row.table_id, "en"), "table")
    (german,) = _of(sent, realtime.table_group(row.table_id, "de"), "table")
    assert english["table"] == german["table"] == row.table.number
    assert set(english["html"]) == {"en"} and set(german["html"]) == {"de"}
    assert victim.player.display_name not in english["html"]["en"]
    assert "Hand done" in english["html"]["en"] and "Hand fertig" in german["html"]["de"]

    (console,) = _of(sent, realtime.console_group(t.pk), "seating")
    assert console == {"tables": [row.table.number], "all": False}


def test_a_move_tells_the_player_the_new_seat(
    seated, actor, sent, django_capture_on_commit_callbacks
):
    t, entries = seated
    mover = entries[0]
    row = SeatAssignment.objects.select_related("table").get(entry=mover)
    other = Table.objects.filter(tournament=t).exclude(pk=row.table_id).first()
    free = min(
        set(range(1, other.seats + 1)) - set(other.assignments.values_list("seat", flat=True))
    )
    with django_capture_on_commit_callbacks(execute=True):
        seating.seat_move(
            tournament=t, entry=mover, table_number=other.number, seat=free, actor=actor
        )
    (seat,) = _of(sent, realtime.entry_group(mover.pk), "seat")
    assert (seat["seat"]["table"], seat["seat"]["seat"]) == (other.number, free)
    changed = {g for g, e, _ in sent if e == "table"}
    assert changed == {
        realtime.table_group(table_id, language)
        for table_id in (row.table_id, other.pk)
        for language in ("en", "de")
    }


def test_a_break_asks_once_who_listens_and_reads_only_their_seats(
    seated, actor, sent, monkeypatch, django_capture_on_commit_callbacks
):
    """A break moves a table's players at once: one question for all their phones, and only the
    seats of those with their page open are read."""
    t, entries = seated
    broken = SeatAssignment.objects.select_related("table").get(entry=entries[0]).table
    # Room at the other table for the two left (busted players' seats freed).
    freed = broken.assignments.order_by("seat").values_list("pk", flat=True)[:5]
    SeatAssignment.objects.filter(pk__in=list(freed)).delete()
    players = list(broken.assignments.values_list("entry_id", flat=True))
    watched = realtime.entry_group(players[0])
    asked: list[list[str]] = []

    def listened_of(groups):
        groups = list(groups)
        if any(g.startswith("entry.") for g in groups):
            asked.append(groups)
        return {g for g in groups if g == watched or not g.startswith("entry.")}

    monkeypatch.setattr(realtime, "listened_of", listened_of)
    with django_capture_on_commit_callbacks(execute=True):
        seating.table_break(tournament=t, number=broken.number, actor=actor)
    seats = [(g, d) for g, e, d in sent if e == "seat"]
    assert [g for g, _d in seats] == [watched]
    assert seats[0][1]["seat"]["table"] != broken.number
    assert len(asked) == 1 and set(map(realtime.entry_group, players)) <= set(asked[0])


def test_a_registration_sends_the_new_figures(
    seated, register, sent, django_capture_on_commit_callbacks
):
    t, _entries = seated
    with django_capture_on_commit_callbacks(execute=True):
        register(t)
    boards = [d["board"] for d in _of(sent, realtime.tournament_group(t.pk), "entries")]
    assert boards and boards[-1]["entries"] == 15 and boards[-1]["players_left"] == 15
    # The late entry was seated: its phone and its table hear of it.
    assert any(e == "seat" for _g, e, _d in sent)


def test_boards_are_ordered_by_version(seated, register, sent, django_capture_on_commit_callbacks):
    t, _entries = seated
    with django_capture_on_commit_callbacks(execute=True):
        register(t)
    with django_capture_on_commit_callbacks(execute=True):
        register(t)
    versions = [
        d["board"]["version"] for d in _of(sent, realtime.tournament_group(t.pk), "entries")
    ]
    assert versions == sorted(versions) and versions[0] < versions[-1]


def test_a_structure_edit_sends_the_levels(
    make_tournament, actor, sent, django_capture_on_commit_callbacks
):
    from actions.tournaments import structure_replace_levels
    from tournament.domain.structure import LevelSpec

    t = make_tournament()
    levels = [LevelSpec(minutes=15, small_blind=100 * n, big_blind=200 * n) for n in (1, 2, 3)]
    with django_capture_on_commit_callbacks(execute=True):
        structure_replace_levels(tournament=t, levels=levels, actor=actor)
    (edit,) = _of(sent, realtime.tournament_group(t.pk), "structure")
    assert [lv["big_blind"] for lv in edit["levels"]] == [200, 400, 600]
    assert [lv["number"] for lv in edit["levels"]] == [1, 2, 3]


def test_every_message_sent_in_a_night_is_declared(
    seated, actor, sent, django_capture_on_commit_callbacks
):
    """The catalogue check runs on every message: a few actions of a night, none refused."""
    t, entries = seated
    with django_capture_on_commit_callbacks(execute=True):
        for victim in entries[:6]:
            entries_bust(tournament=t, busts=[BustReport(entry=victim)], actor=actor)
    for group, event, data in sent:
        catalogue.check_message(group, event, data)
    assert {e for _g, e, _d in sent} >= {"bust", "table", "seating"}


def test_the_console_asks_for_the_changed_tables_only(floor_client, seated):
    t, _entries = seated
    first, second = Table.objects.filter(tournament=t).order_by("number")[:2]
    url = reverse("seating", args=[t.pk])
    html = floor_client.get(f"{url}?tables={first.number}", HTTP_HX_REQUEST="true").content
    text = html.decode()
    assert f'id="table-{first.number}"' in text and f'id="table-{second.number}"' not in text
    assert 'id="chart-head"' in text


def test_the_architecture_page_lists_every_message():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "architecture.md").read_text()
    rows = [line.split("|") for line in text.splitlines() if line.startswith("| `")]
    for audience, name in catalogue.MESSAGES:
        row = next((r for r in rows if f"`{audience}." in r[1]), None)
        assert row is not None and f"`{name}`" in row[3], (audience, name)


# On PostgreSQL: the builder thread reads over its own connection while the test writes; the
# SQLite test database lives in memory with table locks that refuse such a read at once.
@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_payloads_are_built_off_the_request_in_order(make_tournament, register, actor, sent):
    """In production the payloads are built on the process's builder thread after the commit
    (the click does not wait for them), still in the order the changes were made."""
    from django.test import override_settings

    t = make_tournament(status="running", late_registration_until_level=6)
    entries = [register(t) for _ in range(14)]
    seating.seats_draw(tournament=t, actor=actor)
    with override_settings(FLOOR_LIVE_INLINE=False):
        for victim in entries[:4]:
            entries_bust(tournament=t, busts=[BustReport(entry=victim)], actor=actor)
            if connection.vendor == "sqlite":
                # The tests' in-memory SQLite shares one cache between connections: a read on the
                # builder thread locks the table against the next bust's write at once ("table
                # is locked"; the embedded mode's file database in WAL mode lets both go on).
                assert realtime.live_flush(10)
        assert realtime.live_flush(10)
    boards = [d["board"] for d in _of(sent, realtime.tournament_group(t.pk), "bust")]
    # Each board is the state when it was built (at or after its own commit): never older
    # than the one before it, and the last one is the final state. A board still waiting to be
    # built when a newer one queues behind it is left out (the newer shows all of it).
    left = [b["players_left"] for b in boards]
    assert 1 <= len(left) <= 4 and left == sorted(left, reverse=True) and left[-1] == 10
    assert [b["version"] for b in boards] == sorted(b["version"] for b in boards)
    assert any(e == "table" for _g, e, _d in sent)


def test_the_winner_hears_of_the_win_and_the_out_their_rank(
    make_tournament, register, actor, sent, django_capture_on_commit_callbacks
):
    t = make_tournament(status="running")
    a, b, c = (register(t) for _ in range(3))
    registration_close(tournament=t, actor=actor)
    entries_bust(tournament=t, busts=[BustReport(entry=c)], actor=actor)
    with django_capture_on_commit_callbacks(execute=True):
        entries_bust(tournament=t, busts=[BustReport(entry=b)], actor=actor)
    (won,) = _of(sent, realtime.entry_group(a.pk), "seat")
    assert won["seat"]["place"] == 1 and won["seat"]["status"] == "active"
    (out,) = _of(sent, realtime.entry_group(b.pk), "bust")
    # place = entries + 1 - rank: the phone follows late entries from the board.
    assert out["seat"]["place"] == 2 and out["seat"]["rank"] == 2


def test_an_alternate_who_takes_a_freed_place_gets_one_seat_message(
    make_tournament, register, actor, sent, django_capture_on_commit_callbacks
):
    from actions.corrections import entry_void

    t = make_tournament(status="registering", capacity=4)
    entries = [register(t) for _ in range(5)]
    seating.seats_draw(tournament=t, actor=actor)
    waiting = entries[4]
    waiting.refresh_from_db()
    assert waiting.status == "alternate"
    with django_capture_on_commit_callbacks(execute=True):
        entry_void(entry=entries[0], actor=actor)
    (seat,) = _of(sent, realtime.entry_group(waiting.pk), "seat")
    assert seat["seat"]["table"] is not None


def _signups(group: str, **data: Any) -> tuple[str, dict[str, Any]]:
    return group, {"event": "signups", "data": {"moved": [], "waiting_count": 1, **data}}


def test_a_burst_of_sign_ups_sends_the_last_counts_and_every_move():
    batch = [
        _signups("t.1", free=3),  # stale: t.1's counts come again later
        _signups("t.2", free=9),  # the last of t.2
        ("t.1", {"event": "clock", "data": {}}),
        _signups("t.1", free=2, moved=[7]),  # a move-up is never dropped
        _signups("t.1", free=2, waiting=[8, 9]),  # nor the waiting order
        None,
        _signups("t.1", free=1),  # the last counts of t.1
    ]
    assert realtime.superseded(batch) == {0}
    assert realtime.superseded(batch[:2]) == set()


def test_the_screens_board_takes_the_counts_from_the_row_it_reads(seated, actor):
    """The board sent on a change reads the tournament's row once: its counts (kept by the
    database) come with it, not in a second statement, and match a fresh read."""
    from django.test.utils import CaptureQueriesContext

    from tournament.live import _board_for_screens, tournament_board
    from tournament.models import Tournament

    t, entries = seated
    entries_bust(tournament=t, busts=[BustReport(entry=entries[5])], actor=actor)
    with CaptureQueriesContext(connection) as queries:
        board = _board_for_screens(t.pk)
    rows = [
        q["sql"] for q in queries.captured_queries if 'FROM "tournament_tournament"' in q["sql"]
    ]
    assert len(rows) == 1
    assert board == tournament_board(Tournament.objects.get(pk=t.pk), version=board["version"])
    assert board["players_left"] == 13 and board["entries"] == 14


def test_a_seat_read_that_fails_once_is_made_again(
    seated, sent, monkeypatch, django_capture_on_commit_callbacks
):
    """The builder's retry after a busy SQLite reads the seats again: every phone of the change
    gets its seat."""
    from django.db import OperationalError

    from tournament import live

    _t, entries = seated
    real = live.seat_view
    failures = [OperationalError("database is locked")]

    def busy_once(entry):
        if failures:
            raise failures.pop()
        return real(entry)

    monkeypatch.setattr(live, "seat_view", busy_once)
    monkeypatch.setattr(realtime.db.connection, "vendor", "sqlite")
    with django_capture_on_commit_callbacks(execute=True):
        live.notify_seats([e.pk for e in entries[:4]])
    assert not failures
    assert sorted(g for g, e, _d in sent if e == "seat") == sorted(
        realtime.entry_group(e.pk) for e in entries[:4]
    )
