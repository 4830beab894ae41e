"""Dealer and console websockets: token and role checks, live events, revocation."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model

from config.asgi import application
from tables import services as svc
from tables.models import Table

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

ORIGIN = [(b"origin", b"http://testserver")]


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
    message = await ws.receive_json_from(timeout=3)
    assert message["event"] == "table"
    await sync_to_async(svc.dealer_token_renew)(table=table, actor=actor)
    output = await ws.receive_output(timeout=3)
    assert output["type"] == "websocket.close" and output.get("code") == 4403


async def test_dealer_socket_refuses_unknown_token_and_wrong_origin(table):
    ws = WebsocketCommunicator(application, "/ws/d/not-a-token/", headers=ORIGIN)
    connected, _ = await ws.connect()
    assert not connected
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


async def test_disabled_account_loses_its_open_console_socket(table, floor_user):
    ws = WebsocketCommunicator(
        _with_user(floor_user), f"/ws/console/{table.tournament_id}/", headers=ORIGIN
    )
    connected, _ = await ws.connect()
    assert connected

    def disable():
        floor_user.is_active = False
        floor_user.save()

    await sync_to_async(disable)()
    output = await ws.receive_output(timeout=3)
    assert output["type"] == "websocket.close" and output.get("code") == 4403


async def test_account_without_its_role_loses_its_open_console_socket(table, floor_user):
    ws = WebsocketCommunicator(
        _with_user(floor_user), f"/ws/console/{table.tournament_id}/", headers=ORIGIN
    )
    connected, _ = await ws.connect()
    assert connected
    await sync_to_async(floor_user.groups.clear)()
    output = await ws.receive_output(timeout=3)
    assert output["type"] == "websocket.close" and output.get("code") == 4403
