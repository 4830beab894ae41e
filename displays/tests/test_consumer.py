"""The screen's socket: origin checked, unknown tokens refused, the assignment sent at once
and every new one after it."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from config.asgi import application
from displays.domain.views import Kind, Step
from displays.services import assignment_payload, display_assign, display_open, display_pair
from live.realtime import build_message as _message
from live.realtime import display_group
from tests.sockets import refusal_code

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ORIGIN = (b"origin", b"http://testserver")


def _communicator(token: str, origin=ORIGIN):
    headers = [origin, (b"cookie", f"floor_display={token}".encode())]
    return WebsocketCommunicator(application, "/ws/display/", headers=headers)


async def connect(token: str, origin=ORIGIN):
    ws = _communicator(token, origin)
    connected, code = await ws.connect()
    return ws, connected, code


@pytest.fixture
def token(actor):
    display, token = display_open()
    display_pair(code=display.code, name="Bar", actor=actor)
    return token


async def test_a_known_screen_gets_its_view_at_once_and_every_change(token, actor):
    ws, connected, _ = await connect(token)
    assert connected
    first = await ws.receive_json_from(timeout=2)
    assert first["event"] == "assignment" and first["data"]["name"] == "Bar"
    display_id = first["data"]["display"]
    display = await sync_to_async(display_assign)(
        display_id=display_id, steps=[Step(Kind.SLIDE, title="Welcome")], actor=actor
    )
    data = dict(assignment_payload(display))
    await get_channel_layer().group_send(
        display_group(display_id), _message(display_group(display_id), "assignment", data)
    )
    message = await ws.receive_json_from(timeout=2)
    assert message["data"]["views"][0]["kind"] == "slide"
    await ws.disconnect()


async def test_an_assignment_made_while_the_screen_connects_reaches_it(token, actor, monkeypatch):
    # The director assigns a view just after the socket read what the screen shows: the screen
    # must still get it (it joined its group before reading), not keep the older state.
    from displays import consumers

    read = consumers._state_for

    async def then_assigned(token: str):
        state = await read(token)
        await sync_to_async(display_assign)(
            display_id=state["display"], steps=[Step(Kind.SLIDE, title="Welcome")], actor=actor
        )
        return state

    monkeypatch.setattr(consumers, "_state_for", then_assigned)
    ws, connected, _ = await connect(token)
    assert connected
    first = await ws.receive_json_from(timeout=2)
    assert first["data"]["views"] == []
    latest = await ws.receive_json_from(timeout=2)
    assert latest["event"] == "assignment" and latest["data"]["version"] > first["data"]["version"]
    assert latest["data"]["views"][0]["kind"] == "slide"
    await ws.disconnect()


async def test_a_screen_removed_while_it_connects_is_refused(token, actor, monkeypatch):
    # Removed by the director just as the socket joined: refused, not left waiting.
    from displays import consumers
    from displays.selectors import display_by_token
    from displays.services import display_remove

    async def removed_meanwhile(token: str):
        display = await sync_to_async(display_by_token)(token)
        assert display is not None
        await sync_to_async(display_remove)(display_id=display.pk, actor=actor)
        return await read(token)

    read = consumers._state_for

    monkeypatch.setattr(consumers, "_state_for", removed_meanwhile)
    assert await refusal_code(_communicator(token)) == 4404


async def test_an_unknown_token_is_refused(db):
    assert await refusal_code(_communicator("not-a-screen")) == 4404


async def test_another_origin_is_refused(token):
    _ws, connected, _ = await connect(token, (b"origin", b"http://evil.test"))
    assert not connected


async def test_a_screen_sends_nothing(token):
    ws, connected, _ = await connect(token)
    assert connected
    await ws.receive_json_from(timeout=2)
    await ws.send_to(text_data="{}")
    assert (await ws.receive_output(timeout=2))["type"] == "websocket.close"
