"""A table's view is rendered for its tablet only while a tablet listens, a player's seat view
only while their phone is open (live/realtime.py `listened`): with 3,334 tables and forty
tablets, rendering every changed table in two languages kept the builder thread of the floor's
process busy for the whole of a bust storm (bench/event_storm.py). A screen that connects later
loads the current state, so it misses nothing. The same holds for the tournament's board (its
screens) and the console's changed tables (an open console): a night nobody watches builds
neither."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from config.asgi import application
from live import realtime
from live.realtime import entry_group, group_channel, listened, table_group
from tables import services as svc
from tables.models import Table
from tests.services import REDIS_URL, redis_available, require

ORIGIN = [(b"origin", b"http://testserver")]


@pytest.fixture
def tables(make_tournament, register, actor):
    t = make_tournament(status="running", late_registration_until_level=6, seats_per_table=4)
    for _ in range(8):
        register(t)
    svc.seats_draw(tournament=t, actor=actor)
    return list(Table.objects.filter(tournament=t, is_open=True).order_by("number"))


@pytest.fixture
def built(monkeypatch):
    """The groups whose payload was built and sent, with the event."""
    out: list[tuple[str, str]] = []
    monkeypatch.setattr(
        realtime, "_send", lambda group, message: out.append((group, message["event"]))
    )
    return out


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_only_the_table_with_a_tablet_is_rendered(tables, actor, built):
    watched, unwatched = tables[0], tables[1]
    ws = WebsocketCommunicator(
        application, f"/ws/d/{watched.dealer_token}/?lang=de", headers=ORIGIN
    )
    connected, _ = await ws.connect()
    assert connected
    # The page's language: the table is rendered in German only.
    assert await sync_to_async(listened)(table_group(watched.pk, "de"))
    assert not await sync_to_async(listened)(table_group(watched.pk, "en"))
    assert not await sync_to_async(listened)(table_group(unwatched.pk, "de"))

    for table in (watched, unwatched):
        seats = await sync_to_async(
            lambda t=table: sorted(t.assignments.values_list("seat", flat=True))
        )()
        await sync_to_async(svc.button_set)(table=table, seat=seats[0], actor=actor)
    tables_sent = [g for g, event in built if event == "table"]
    assert tables_sent == [table_group(watched.pk, "de")]
    await ws.disconnect()
    assert not await sync_to_async(listened)(table_group(watched.pk, "de"))


@pytest.mark.django_db
def test_nobody_listens_without_a_screen_and_the_in_memory_layer_knows_its_groups():
    from asgiref.sync import async_to_sync

    layer = get_channel_layer()
    assert not listened(entry_group(1))
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(entry_group(1), channel)
    assert listened(entry_group(1))
    assert not listened(entry_group(2))
    async_to_sync(layer.group_discard)(entry_group(1), channel)
    assert not listened(entry_group(1))


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_with_redis_a_listener_in_any_process_counts(settings, monkeypatch):
    """The full stack asks Redis who is subscribed to the group's channel: the same name the
    pub/sub layer subscribes (its private `_get_group_channel_name`, checked here)."""
    require(redis_available(), "Redis (127.0.0.1:6379)")
    import channels.layers
    from channels_redis.pubsub import RedisPubSubLoopLayer

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": "floor.test-listened."},
        }
    }
    channels.layers.channel_layers.backends = {}
    monkeypatch.setattr(realtime, "_numsub", None)
    try:
        layer = get_channel_layer()
        loop_layer = layer._get_layer()
        assert isinstance(loop_layer, RedisPubSubLoopLayer)
        group = table_group(424242)
        assert group_channel(group) == loop_layer._get_group_channel_name(group)
        assert not await sync_to_async(listened)(group)
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        assert await sync_to_async(listened)(group)
        await layer.group_discard(group, channel)
        assert not await sync_to_async(listened)(group)
        await layer.flush()
    finally:
        channels.layers.channel_layers.backends = {}
        monkeypatch.setattr(realtime, "_numsub", None)


@pytest.mark.django_db
def test_a_redis_that_does_not_answer_counts_as_listening(settings, monkeypatch):
    """Better a payload built for nobody than a tablet left without its table."""
    import channels.layers

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
        }
    }
    channels.layers.channel_layers.backends = {}
    monkeypatch.setattr(realtime, "_numsub", None)
    try:
        assert listened(table_group(1))
    finally:
        channels.layers.channel_layers.backends = {}
        monkeypatch.setattr(realtime, "_numsub", None)


@pytest.mark.django_db
def test_the_board_and_the_console_are_built_only_while_someone_watches(
    tables, actor, built, django_capture_on_commit_callbacks
):
    from asgiref.sync import async_to_sync

    from actions.bust import BustReport, entries_bust
    from live.realtime import console_group, tournament_group
    from tournament.models import EntryStatus

    t = tables[0].tournament
    group, console = tournament_group(t.pk), console_group(t.pk)

    def bust_one() -> None:
        entry = t.entries.filter(status=EntryStatus.ACTIVE).order_by("number").first()
        with django_capture_on_commit_callbacks(execute=True) as callbacks:
            entries_bust(tournament=t, busts=[BustReport(entry=entry)], actor=actor)
        assert callbacks  # the messages were queued; whether they are built is the question

    bust_one()
    assert not [g for g, _e in built if g in (group, console)]
    layer = get_channel_layer()
    screen, floor = async_to_sync(layer.new_channel)(), async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(group, screen)
    async_to_sync(layer.group_add)(console, floor)
    bust_one()
    assert (group, "bust") in built and (console, "seating") in built
