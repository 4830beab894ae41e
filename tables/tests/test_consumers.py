"""Dealer and console websockets: token and role checks, live events, revocation."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from config.asgi import application
from tables import services as svc
from tables.models import Table
from tests.sockets import refusal_code

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ORIGIN = [(b"origin", b"http://testserver")]
WAIT = 10  # seconds; generous, since the suite runs these beside busy workers


@pytest.fixture
def table(make_tournament, register, actor):
    t = make_tournament(status="running", late_registration_until_level=6)
    for _ in range(4):
        register(t)
    svc.seats_draw(tournament=t, actor=actor)
    return Table.objects.get(tournament=t)


async def test_dealer_socket_gets_table_events_and_is_closed_on_revocation(table, actor):
    ws = WebsocketCommunicator(application, f"/ws/d/{table.dealer_token}/", headers=ORIGIN)
    connected, _ = await ws.connect()
    assert connected
    seats = await sync_to_async(lambda: sorted(table.assignments.values_list("seat", flat=True)))()
    await sync_to_async(svc.button_set)(table=table, seat=seats[0], actor=actor)
    message = await ws.receive_json_from(timeout=WAIT)
    # No `?lang=`: the default language's rendering.
    assert message["event"] == "table" and set(message["data"]["html"]) == {"en"}
    await sync_to_async(svc.dealer_token_renew)(table=table, actor=actor)
    output = await ws.receive_output(timeout=WAIT)
    assert output["type"] == "websocket.close" and output.get("code") == 4403


async def test_a_tablet_gets_its_table_in_its_pages_language(table, actor):
    german = WebsocketCommunicator(
        application, f"/ws/d/{table.dealer_token}/?lang=de", headers=ORIGIN
    )
    odd = WebsocketCommunicator(application, f"/ws/d/{table.dealer_token}/?lang=xx", headers=ORIGIN)
    assert (await german.connect())[0] and (await odd.connect())[0]
    seats = await sync_to_async(lambda: sorted(table.assignments.values_list("seat", flat=True)))()
    await sync_to_async(svc.button_set)(table=table, seat=seats[0], actor=actor)
    de = await german.receive_json_from(timeout=WAIT)
    assert de["event"] == "table" and list(de["data"]["html"]) == ["de"]
    assert "Hand fertig" in de["data"]["html"]["de"]
    other = await odd.receive_json_from(timeout=WAIT)  # a language not spoken: the default
    assert list(other["data"]["html"]) == ["en"]
    assert await german.receive_nothing(timeout=0.3)  # one rendering, not one per language
    await german.disconnect()
    await odd.disconnect()


async def test_dealer_socket_refuses_unknown_token_and_wrong_origin(table):
    ws = WebsocketCommunicator(application, "/ws/d/not-a-token/", headers=ORIGIN)
    assert await refusal_code(ws) == 4404  # accepted and closed: the tablet reads the code
    ws = WebsocketCommunicator(
        application, f"/ws/d/{table.dealer_token}/", headers=[(b"origin", b"http://evil.test")]
    )
    connected, _ = await ws.connect()
    assert not connected


async def test_console_socket_needs_the_floor_role(table, floor_user):
    ws = WebsocketCommunicator(application, f"/ws/console/{table.tournament_id}/", headers=ORIGIN)
    connected, _ = await ws.connect()
    assert not connected  # anonymous

    from channels.auth import AuthMiddlewareStack  # noqa: F401  (the stack used in config.asgi)

    viewer = await sync_to_async(get_user_model().objects.create_user)(
        "viewer", password="x-1234567"
    )
    for user, allowed in ((viewer, False), (floor_user, True)):
        communicator = WebsocketCommunicator(
            _with_user(user), f"/ws/console/{table.tournament_id}/", headers=ORIGIN
        )
        connected, _ = await communicator.connect()
        assert connected is allowed
        if connected:
            await communicator.disconnect()


def _with_user(user):
    from channels.routing import URLRouter

    from config.routing import websocket_urlpatterns

    router = URLRouter(websocket_urlpatterns)

    async def app(scope, receive, send):
        return await router({**scope, "user": user}, receive, send)

    return app


async def test_a_console_is_told_the_version_it_must_have_seen(table, floor_user, actor):
    # The chart page says the version it was rendered at; a change made before its socket
    # joined comes on no message, and the socket's hello names a newer version.
    from tournament.live import board_version

    rendered_at = await sync_to_async(board_version)(table.tournament_id)

    def move_one() -> None:
        taken = set(table.assignments.values_list("seat", flat=True))
        free = next(n for n in range(1, table.seats + 1) if n not in taken)
        entry = table.assignments.order_by("seat").first().entry
        svc.seat_move(
            tournament=table.tournament,
            entry=entry,
            table_number=table.number,
            seat=free,
            actor=actor,
        )

    await sync_to_async(move_one)()
    ws = WebsocketCommunicator(
        _with_user(floor_user), f"/ws/console/{table.tournament_id}/", headers=ORIGIN
    )
    connected, _ = await ws.connect()
    assert connected
    hello = await ws.receive_json_from(timeout=WAIT)
    assert hello["type"] == "hello"
    assert hello["version"] == await sync_to_async(board_version)(table.tournament_id)
    assert hello["version"] > rendered_at
    await ws.disconnect()


async def test_disabled_account_loses_its_open_console_socket(table, floor_user):
    ws = WebsocketCommunicator(
        _with_user(floor_user), f"/ws/console/{table.tournament_id}/", headers=ORIGIN
    )
    connected, _ = await ws.connect()
    assert connected
    assert (await ws.receive_json_from(timeout=WAIT))["type"] == "hello"

    def disable():
        floor_user.is_active = False
        floor_user.save()

    await sync_to_async(disable)()
    output = await ws.receive_output(timeout=WAIT)
    assert output["type"] == "websocket.close" and output.get("code") == 4403


async def test_account_without_its_role_loses_its_open_console_socket(table, floor_user):
    ws = WebsocketCommunicator(
        _with_user(floor_user), f"/ws/console/{table.tournament_id}/", headers=ORIGIN
    )
    connected, _ = await ws.connect()
    assert connected
    assert (await ws.receive_json_from(timeout=WAIT))["type"] == "hello"
    await sync_to_async(floor_user.groups.clear)()
    output = await ws.receive_output(timeout=WAIT)
    assert output["type"] == "websocket.close" and output.get("code") == 4403


def _changed_after_first(monkeypatch, name: str, change) -> None:
    """`change` (a sync function) is made right after the first call of the consumer's read
    `name`: the window between a socket's first look and its joining the groups."""
    from tables import consumers

    read = getattr(consumers, name)
    calls = 0

    async def then_changed(*args):
        nonlocal calls
        calls += 1
        result = await read(*args)
        if calls == 1:
            await sync_to_async(change)()
        return result

    monkeypatch.setattr(consumers, name, then_changed)


async def test_a_role_removed_while_the_console_connects_refuses_its_socket(
    table, floor_user, monkeypatch
):
    # The account loses its role just after the socket's first check, before it joined the
    # account's group: the socket must not keep the floor's feed.
    _changed_after_first(monkeypatch, "_may_run_floor", floor_user.groups.clear)
    ws = WebsocketCommunicator(
        _with_user(floor_user), f"/ws/console/{table.tournament_id}/", headers=ORIGIN
    )
    connected, code = await ws.connect(timeout=WAIT)
    assert not connected and code == 4403


@pytest.fixture
def two_tables(make_tournament, register, actor):
    """Eight players at two tables of six (four each), and an empty third table of ten."""
    t = make_tournament(
        status="running", late_registration_until_level=6, seats_per_table=6, final_table_size=9
    )
    for _ in range(8):
        register(t)
    svc.seats_draw(tournament=t, actor=actor)
    svc.tables_create(tournament=t, count=1, actor=actor, seats=10)
    return t, {table.number: table for table in Table.objects.filter(tournament=t)}


async def _dealer_socket(table):
    ws = WebsocketCommunicator(application, f"/ws/d/{table.dealer_token}/", headers=ORIGIN)
    connected, _ = await ws.connect()
    assert connected
    return ws


async def _close_code(ws):
    """The close code the socket ends with (events sent before the close are skipped)."""
    while True:
        output = await ws.receive_output(timeout=WAIT)
        if output["type"] == "websocket.close":
            return output.get("code")


async def test_broken_table_closes_its_dealer_socket_and_refuses_new_ones(two_tables, actor):
    t, tables = two_tables
    broken, staying = await _dealer_socket(tables[2]), await _dealer_socket(tables[1])
    moves = await sync_to_async(svc.table_break)(tournament=t, number=2, actor=actor)
    assert moves  # the players moved to the open seats
    assert await _close_code(broken) == 4410
    # Another table's tablet stays connected.
    await staying.send_json_to({"type": "ping", "t0": 1})
    while (output := await staying.receive_output(timeout=WAIT))["type"] == "websocket.send":
        if '"pong"' in output["text"]:
            break
    assert output["type"] == "websocket.send"
    await staying.disconnect()
    # A tablet that reconnects to the broken table is told the same, not "unknown link".
    again = WebsocketCommunicator(application, f"/ws/d/{tables[2].dealer_token}/", headers=ORIGIN)
    assert await refusal_code(again) == 4410


async def test_a_table_broken_while_its_tablet_connects_closes_the_tablet(
    two_tables, actor, monkeypatch
):
    # The floor breaks the table just after the socket looked the table up, before it joined
    # the table's groups: the tablet must still be told the table is closed.
    t, tables = two_tables
    _changed_after_first(
        monkeypatch, "_table_ids", lambda: svc.table_break(tournament=t, number=2, actor=actor)
    )
    ws = WebsocketCommunicator(application, f"/ws/d/{tables[2].dealer_token}/", headers=ORIGIN)
    assert await refusal_code(ws) == 4410


async def test_a_link_renewed_while_its_tablet_connects_closes_the_tablet(
    table, actor, monkeypatch
):
    _changed_after_first(
        monkeypatch, "_table_ids", lambda: svc.dealer_token_renew(table=table, actor=actor)
    )
    ws = WebsocketCommunicator(application, f"/ws/d/{table.dealer_token}/", headers=ORIGIN)
    assert await refusal_code(ws) == 4403


async def test_empty_table_closed_by_a_break_closes_its_dealer_socket(two_tables, actor):
    t, tables = two_tables
    ws = await _dealer_socket(tables[3])
    await sync_to_async(svc.table_break)(tournament=t, number=3, actor=actor)
    assert await _close_code(ws) == 4410


async def test_final_table_draw_closes_the_other_tables_dealer_sockets(two_tables, actor):
    t, tables = two_tables
    final, other = await _dealer_socket(tables[1]), await _dealer_socket(tables[2])
    await sync_to_async(svc.final_table_draw)(tournament=t, actor=actor, table_number=1)
    assert await _close_code(other) == 4410
    message = await final.receive_json_from(timeout=WAIT)
    assert message["type"] == "event"  # the final table is told of its players, not closed
    await final.disconnect()


async def test_redraw_closes_the_dealer_sockets_of_tables_left_empty(two_tables, actor):
    t, tables = two_tables
    # The empty third table opened after the draw; a redraw fills two tables of six again.
    ws = await _dealer_socket(tables[3])
    await sync_to_async(svc.seats_draw)(tournament=t, actor=actor, redraw=True)
    closed = await sync_to_async(
        lambda: set(
            Table.objects.filter(tournament=t, is_open=False).values_list("number", flat=True)
        )
    )()
    assert closed == {3}  # eight players fill the first two tables in opening order
    assert await _close_code(ws) == 4410


async def test_the_public_table_page_gets_its_seats_as_they_change(table, actor):
    """The page of the QR on the table card takes who sits there from its socket: a bust and a
    move each bring the table's seats (names, empty seats), nothing of the clock or the board."""
    from actions.bust import BustReport, entries_bust
    from tournament.models import Entry

    t = await sync_to_async(lambda: table.tournament)()
    ws = WebsocketCommunicator(application, f"/ws/t/{t.pk}/table/{table.number}/", headers=ORIGIN)
    assert (await ws.connect(timeout=WAIT))[0]
    rows = await sync_to_async(
        lambda: list(table.assignments.select_related("entry__player").order_by("seat"))
    )()
    victim, mover = rows[0], rows[1]
    await sync_to_async(entries_bust)(
        tournament=t, busts=[BustReport(entry=victim.entry)], actor=actor
    )
    message = await ws.receive_json_from(timeout=WAIT)
    assert message["event"] == "seats" and message["data"]["table"] == table.number
    seats = {s["n"]: s["name"] for s in message["data"]["seats"]}
    assert seats[victim.seat] is None and seats[mover.seat] == mover.entry.player.display_name
    assert message["data"]["open"] is True and message["data"]["version"] > 0
    free = next(n for n in range(1, table.seats + 1) if seats[n] is None and n != victim.seat)
    entry = await sync_to_async(Entry.objects.get)(pk=mover.entry_id)
    await sync_to_async(svc.seat_move)(
        tournament=t, entry=entry, table_number=table.number, seat=free, actor=actor
    )
    moved = await ws.receive_json_from(timeout=WAIT)
    seats = {s["n"]: s["name"] for s in moved["data"]["seats"]}
    assert seats[mover.seat] is None and seats[free] == mover.entry.player.display_name
    assert moved["data"]["version"] > message["data"]["version"]
    assert await ws.receive_nothing(timeout=0.3)  # no board, no clock
    await ws.disconnect()


async def test_the_public_table_socket_refuses_an_unknown_table(table):
    t = await sync_to_async(lambda: table.tournament)()
    for path in (f"/ws/t/{t.pk}/table/99/", f"/ws/t/{t.pk + 1000}/table/1/"):
        ws = WebsocketCommunicator(application, path, headers=ORIGIN)
        assert await refusal_code(ws) == 4404


def _console_message(event: str, data: dict) -> dict:
    import json

    text = json.dumps({"type": "event", "event": event, "data": data})
    return {"type": "floor.event", "event": event, "data": data, "text": text}


def test_waiting_console_messages_are_folded_without_losing_a_table():
    import json
    from collections import deque

    from tables.consumers import gather

    pending: deque = deque()
    gather(pending, _console_message("seating", {"tables": [3], "all": False}))
    gather(pending, _console_message("report", {"table": 3}))
    gather(pending, _console_message("seating", {"tables": [7, 3], "all": False}))
    gather(
        pending,
        _console_message("shot_clock", {"table": 2, "ends_ms": 1, "seconds": 30, "version": 1}),
    )
    gather(
        pending,
        _console_message("shot_clock", {"table": 4, "ends_ms": 1, "seconds": 30, "version": 1}),
    )
    gather(
        pending,
        _console_message("shot_clock", {"table": 2, "ends_ms": None, "seconds": 30, "version": 2}),
    )
    behind = {"seconds": 3.0, "waiting": 9, "where": "builder", "process": "1"}
    gather(pending, _console_message("behind", behind))
    gather(pending, _console_message("behind", {**behind, "seconds": 0.0}))
    gather(pending, _console_message("seating", {"tables": [], "all": True}))
    events = [(m["event"], m["data"]) for m in pending]
    assert events == [
        ("seating", {"tables": [3, 7], "all": True}),
        ("report", {"table": 3}),
        ("shot_clock", {"table": 4, "ends_ms": 1, "seconds": 30, "version": 1}),
        ("shot_clock", {"table": 2, "ends_ms": None, "seconds": 30, "version": 2}),
        ("behind", {**behind, "seconds": 0.0}),
    ]
    # The text the socket sends says the same as the data.
    assert all(json.loads(m["text"])["data"] == m["data"] for m in pending)


async def test_a_console_gets_what_waited_on_its_group_in_one_message(table, floor_user):
    # A backlog on the console's group (a storm on a loaded server) reaches the socket folded:
    # one `seating` message naming every table, after the hello.
    from channels.layers import get_channel_layer

    from live.realtime import console_group

    ws = WebsocketCommunicator(
        _with_user(floor_user), f"/ws/console/{table.tournament_id}/", headers=ORIGIN
    )
    connected, _ = await ws.connect()
    assert connected
    assert (await ws.receive_json_from(timeout=WAIT))["type"] == "hello"
    layer = get_channel_layer()
    group = console_group(table.tournament_id)
    # Sent at once, as a backlog that waited on the server's busy event loop.
    await asyncio.gather(
        *(
            layer.group_send(group, _console_message("seating", {"tables": [n], "all": False}))
            for n in range(1, 41)
        )
    )
    named: set[int] = set()
    messages = 0
    while len(named) < 40:
        message = await ws.receive_json_from(timeout=WAIT)
        assert message["event"] == "seating"
        named |= set(message["data"]["tables"])
        messages += 1
    assert named == set(range(1, 41))
    assert messages < 40  # folded, not one by one
    await ws.disconnect()
