"""With Redis (the full stack's channel layer), a broadcast made by a sync service after commit
reaches a socket: the path Celery's ticker and every web process use."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction

from config.asgi import application
from live.realtime import broadcast_on_commit, tournament_group
from tests.services import REDIS_URL, redis_available, require

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


@pytest.fixture
def redis_layer(settings):
    require(redis_available(), "Redis (127.0.0.1:6379)")
    import channels.layers

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
    channels.layers.channel_layers.backends = {}
    yield
    channels.layers.channel_layers.backends = {}


async def test_broadcast_after_commit_reaches_the_socket(redis_layer, make_tournament):
    t = await sync_to_async(make_tournament)()
    ws = WebsocketCommunicator(
        application, f"/ws/t/{t.pk}/", headers=[(b"origin", b"http://testserver")]
    )
    connected, _ = await ws.connect()
    assert connected

    def change() -> None:
        with transaction.atomic():
            broadcast_on_commit(tournament_group(t.pk), "seating", {"draw": True})

    await sync_to_async(change)()
    message = await ws.receive_json_from(timeout=5)
    assert message == {"type": "event", "event": "seating", "data": {"draw": True}}
    await ws.disconnect()


async def test_broadcast_from_a_worker_thread_reaches_the_socket(redis_layer, make_tournament):
    """Celery and the ticker are plain threads: they broadcast through the process's own loop."""
    import threading

    t = await sync_to_async(make_tournament)()
    ws = WebsocketCommunicator(
        application, f"/ws/t/{t.pk}/", headers=[(b"origin", b"http://testserver")]
    )
    connected, _ = await ws.connect()
    assert connected

    def change() -> None:
        with transaction.atomic():
            broadcast_on_commit(tournament_group(t.pk), "h4h", {"on": True, "round": 3})

    def in_plain_thread() -> None:
        worker = threading.Thread(target=change)
        worker.start()
        worker.join(10)

    await sync_to_async(in_plain_thread)()
    message = await ws.receive_json_from(timeout=5)
    assert message["data"] == {"on": True, "round": 3}
    await ws.disconnect()


async def test_broadcasts_leave_the_outbox_in_the_order_they_were_made(
    redis_layer, make_tournament
):
    """Messages to Redis go through one outbox per process: the action does not wait for them,
    and a socket sees them in the order the changes were made."""
    t = await sync_to_async(make_tournament)()
    ws = WebsocketCommunicator(
        application, f"/ws/t/{t.pk}/", headers=[(b"origin", b"http://testserver")]
    )
    connected, _ = await ws.connect()
    assert connected

    def changes() -> None:
        for i in range(20):
            with transaction.atomic():
                broadcast_on_commit(tournament_group(t.pk), "h4h", {"on": True, "round": i})

    await sync_to_async(changes)()
    seen = [(await ws.receive_json_from(timeout=5))["data"]["round"] for _ in range(20)]
    assert seen == list(range(20))
    await ws.disconnect()
