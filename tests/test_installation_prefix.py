"""One installation per prefix: two Floors on one Redis server never see each other's events,
cache keys or Celery tasks (config/installation.py, settings FLOOR_REDIS_PREFIX)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from queue import Empty
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from config.installation import installation_name
from tests.services import REDIS_URL, redis_available, require

ROOT = Path(__file__).resolve().parents[1]


def run(coro: Any) -> Any:
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result(30)


def test_the_default_name_follows_the_database_and_where_it_lives():
    a = {"ENGINE": "django.db.backends.postgresql", "NAME": "floor", "HOST": "db1", "PORT": 5432}
    b = {**a, "HOST": "db2"}
    assert installation_name(configured="", database=a).startswith("floor-")
    assert installation_name(configured="", database=a) == installation_name(
        configured="", database=dict(a)
    )
    assert installation_name(configured="", database=a) != installation_name(
        configured="", database=b
    )
    sqlite = {"ENGINE": "django.db.backends.sqlite3", "NAME": "/srv/x/var/club night.sqlite3"}
    assert installation_name(configured="", database=sqlite).startswith("club-night-")
    assert installation_name(configured="casino_2", database=a) == "casino_2"
    with pytest.raises(ImproperlyConfigured):
        installation_name(configured="a.b", database=a)


def test_settings_give_the_prefix_to_the_channel_layer_the_cache_and_celery():
    code = (
        "import json, django; django.setup(); from django.conf import settings as s;"
        "print(json.dumps([s.FLOOR_REDIS_PREFIX, s.CHANNEL_LAYERS['default']['CONFIG']['prefix'],"
        "s.CACHES['default']['KEY_PREFIX'], s.CELERY_BROKER_TRANSPORT_OPTIONS['global_keyprefix']]))"
    )
    env = {
        "PATH": "/usr/bin:/bin",
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DATABASE_URL": "postgres://floor@db.example:5432/club",
        "REDIS_URL": "redis://127.0.0.1:6379/0",
        "FLOOR_INSTALLATION": "club-a",
    }
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    prefix, layer, cache, celery = json.loads(out.stdout.strip().splitlines()[-1])
    assert prefix == "floor.club-a."
    assert layer == cache == celery == prefix


def _layer(prefix: str) -> Any:
    from channels_redis.pubsub import RedisPubSubChannelLayer

    return RedisPubSubChannelLayer(hosts=[REDIS_URL], prefix=prefix)


def test_two_prefixes_on_one_redis_never_receive_each_others_group_messages():
    require(redis_available(), "Redis (127.0.0.1:6379)")
    run_id = uuid.uuid4().hex[:8]

    async def scenario() -> list[str]:
        mine, other, twin = _layer(f"a{run_id}."), _layer(f"b{run_id}."), _layer(f"a{run_id}.")
        try:
            channel = await mine.new_channel()
            await mine.group_add("tournament.1", channel)
            # Redis delivers a subscriber's messages in the order the server took the
            # publishes: once the last one arrives, any earlier crossing would have too.
            await other.group_send("tournament.1", {"type": "floor.event", "from": "other"})
            await twin.group_send("tournament.1", {"type": "floor.event", "from": "twin"})
            await mine.group_send("tournament.1", {"type": "floor.event", "from": "last"})
            received: list[str] = []
            while not received or received[-1] != "last":
                message = await asyncio.wait_for(mine.receive(channel), 5)
                received.append(message["from"])
            return received
        finally:
            for layer in (mine, other, twin):
                await layer.flush()

    assert run(scenario()) == ["twin", "last"]


def test_two_prefixes_keep_their_own_cache_keys_and_celery_queues():
    require(redis_available(), "Redis (127.0.0.1:6379)")
    import redis
    from celery import Celery
    from django_redis.cache import RedisCache

    run_id = uuid.uuid4().hex[:8]
    a, b = f"floor.a{run_id}.", f"floor.b{run_id}."
    cache_a: RedisCache = RedisCache(REDIS_URL, {"KEY_PREFIX": a})
    cache_b: RedisCache = RedisCache(REDIS_URL, {"KEY_PREFIX": b})
    cache_a.set("rl:find:10.0.0.1", 7, 30)
    assert cache_a.get("rl:find:10.0.0.1") == 7 and cache_b.get("rl:find:10.0.0.1") is None

    def app(prefix: str) -> Celery:
        return Celery(
            broker=REDIS_URL,
            broker_transport_options={"global_keyprefix": prefix},
            task_default_queue="celery",
        )

    app_a, app_b = app(a), app(b)
    raw = redis.Redis.from_url(REDIS_URL)
    try:
        app_a.send_task("clocks.tasks.clocks_tick")
        assert raw.llen(f"{a}celery") == 1
        assert not raw.exists("celery") and not raw.exists(f"{b}celery")
        with (
            app_b.connection_for_read() as conn,
            conn.SimpleQueue("celery") as queue,
            pytest.raises(Empty),
        ):
            queue.get(block=False)
        with app_a.connection_for_read() as conn, conn.SimpleQueue("celery") as queue:
            message = queue.get(block=True, timeout=5)
            assert message.headers["task"] == "clocks.tasks.clocks_tick"
            message.ack()
    finally:
        for key in raw.scan_iter(f"floor.?{run_id}.*"):
            raw.delete(key)
        raw.close()
