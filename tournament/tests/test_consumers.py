"""Websocket consumer: joins the tournament group, answers pings, refuses bad messages."""

from __future__ import annotations

import pytest
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from config.asgi import application
from live.realtime import tournament_group
from tests.sockets import refusal_code

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ORIGIN = [(b"origin", b"http://testserver")]


async def connect(path: str, headers=ORIGIN) -> tuple[WebsocketCommunicator, bool]:
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    return communicator, connected


@pytest.fixture
def tournament(make_tournament):
    return make_tournament()


async def test_receives_group_events_and_answers_pings(tournament):
    ws, connected = await connect(f"/ws/t/{tournament.pk}/")
    assert connected
    await get_channel_layer().group_send(
        tournament_group(tournament.pk),
        {"type": "floor.event", "event": "clock", "data": {"running": True}},
    )
    message = await ws.receive_json_from(timeout=2)
    assert message == {"type": "event", "event": "clock", "data": {"running": True}}
    await ws.send_json_to({"type": "ping", "t0": 123})
    pong = await ws.receive_json_from(timeout=2)
    assert pong["type"] == "pong" and pong["t0"] == 123 and pong["server_ms"] > 0
    await ws.disconnect()


async def test_the_hello_names_a_change_made_while_the_socket_joined(tournament, monkeypatch):
    """A page rendered before a change and its socket opened after it: the hello, asked for
    with `?hello=1`, names the change even when it lands right after the socket joined the
    tournament's feed, so the page knows to fetch itself once (static/counts/live.js)."""
    from asgiref.sync import sync_to_async

    from tournament.consumers import TournamentConsumer
    from tournament.events import Actor, event_record

    logged = []
    join = TournamentConsumer._join_tournament

    async def join_then_change(self, tournament_id):
        await join(self, tournament_id)
        logged.append(
            await sync_to_async(event_record)(
                tournament=tournament, action="clock.pause", actor=Actor.system("t"), payload={}
            )
        )

    monkeypatch.setattr(TournamentConsumer, "_join_tournament", join_then_change)
    ws, connected = await connect(f"/ws/t/{tournament.pk}/?hello=1")
    assert connected
    assert await ws.receive_json_from(timeout=2) == {"type": "hello", "version": logged[0].pk}
    await ws.disconnect()


async def test_a_screen_that_asks_for_no_hello_gets_none(tournament):
    # The big screen and the lobby take a snapshot on every connection: no read, no hello.
    ws, connected = await connect(f"/ws/t/{tournament.pk}/")
    assert connected
    assert await ws.receive_nothing(timeout=0.3)
    await ws.disconnect()


async def test_wrong_origin_is_rejected(tournament):
    _ws, connected = await connect(f"/ws/t/{tournament.pk}/", [(b"origin", b"http://evil.test")])
    assert not connected


async def test_unknown_tournament_is_closed(db):
    ws = WebsocketCommunicator(application, "/ws/t/999999/", headers=ORIGIN)
    assert await refusal_code(ws) == 4404


@pytest.mark.parametrize("payload", ["not json", '{"type": "shout"}', "x" * 5000, "[]"])
async def test_bad_messages_close_the_socket(tournament, payload):
    ws, connected = await connect(f"/ws/t/{tournament.pk}/")
    assert connected
    await ws.send_to(text_data=payload)
    output = await ws.receive_output(timeout=2)
    assert output["type"] == "websocket.close"


async def test_screens_of_a_process_share_one_listener(tournament):
    from live import hub

    screens = [(await connect(f"/ws/t/{tournament.pk}/"))[0] for _ in range(3)]
    group = tournament_group(tournament.pk)
    listeners = [h for (loop, g), h in hub._hubs.items() if g == group]
    assert len(listeners) == 1 and len(listeners[0].members) == 3
    await get_channel_layer().group_send(
        group, {"type": "floor.event", "event": "clock", "data": {"n": 1}, "text": '{"n": 1}'}
    )
    for ws in screens:
        assert await ws.receive_json_from(timeout=2) == {"n": 1}
    await screens[0].disconnect()
    assert len(listeners[0].members) == 2
    for ws in screens[1:]:
        await ws.disconnect()
    assert not [g for (_loop, g) in hub._hubs if g == group]  # the last one out closes it


async def test_a_screen_the_hub_drops_is_closed_so_the_page_reconnects(tournament):
    from live import hub

    slow, fast = [(await connect(f"/ws/t/{tournament.pk}/"))[0] for _ in range(2)]
    group = tournament_group(tournament.pk)
    (listener,) = [h for (loop, g), h in hub._hubs.items() if g == group]
    next(iter(listener.members.values())).drop(hub.CLOSE_TOO_SLOW)  # as on an overflow
    closed = [ws for ws in (slow, fast) if not await ws.receive_nothing(timeout=0.5)]
    assert len(closed) == 1
    output = await closed[0].receive_output(timeout=2)
    assert output["type"] == "websocket.close" and output["code"] == hub.CLOSE_TOO_SLOW
    (other,) = [ws for ws in (slow, fast) if ws is not closed[0]]
    await get_channel_layer().group_send(
        group, {"type": "floor.event", "event": "clock", "data": {"n": 2}, "text": '{"n": 2}'}
    )
    assert await other.receive_json_from(timeout=2) == {"n": 2}
    assert len(listener.members) == 1
    await closed[0].disconnect()
    await other.disconnect()
    assert not [g for (_loop, g) in hub._hubs if g == group]


async def test_a_players_phone_gets_the_board_only_once_the_player_is_out(make_tournament):
    from asgiref.sync import sync_to_async

    from actions.registration import entry_register
    from live.realtime import entry_group
    from tournament.events import Actor
    from tournament.models import Entry, EntryStatus
    from tournament.services.registration import player_create

    @sync_to_async
    def an_entry() -> Entry:
        t = make_tournament(status="registering")
        actor = Actor.system("test")
        player = player_create(name="Anna Berg", actor=actor)
        return entry_register(tournament=t, player=player, actor=actor)

    entry = await an_entry()
    ws, connected = await connect(f"/ws/s/{entry.public_token}/")
    assert connected
    layer, group = get_channel_layer(), tournament_group(entry.tournament_id)

    async def send(event: str, data: dict, to: str = group) -> None:
        await layer.group_send(to, {"type": "floor.event", "event": event, "data": data})

    # In play: the page reads neither board nor clock, so neither is sent; a draw is.
    await send("bust", {"board": {"version": 5}, "busted": []})
    await send("clock", {"running": True})
    await send("seating", {"draw": True})
    assert (await ws.receive_json_from(timeout=2))["event"] == "seating"
    # Out (the player's own message says so): the board comes, a late entry moves the place.
    seat = {"status": EntryStatus.BUSTED.value, "place": 9, "rank": 1}
    await send("bust", {"seat": seat}, to=entry_group(entry.pk))
    assert (await ws.receive_json_from(timeout=2))["data"] == {"seat": seat}
    await send("entries", {"board": {"version": 6}})
    assert (await ws.receive_json_from(timeout=2))["event"] == "entries"
    # The bust undone: in play again.
    await send("seat", {"seat": {"status": "active"}}, to=entry_group(entry.pk))
    assert (await ws.receive_json_from(timeout=2))["event"] == "seat"
    await send("entries", {"board": {"version": 7}})
    await send("seating", {"draw": True})
    assert (await ws.receive_json_from(timeout=2))["event"] == "seating"
    await ws.disconnect()
    # A phone opened after the bust gets the board from the start.
    await sync_to_async(Entry.objects.filter(pk=entry.pk).update)(status=EntryStatus.BUSTED)
    ws, connected = await connect(f"/ws/s/{entry.public_token}/")
    assert connected
    await send("entries", {"board": {"version": 8}})
    assert (await ws.receive_json_from(timeout=2))["event"] == "entries"
    await ws.disconnect()
