"""Public pages: find my seat, my seat link, privacy and friendly refusals."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated(make_tournament, actor):
    from actions.registration import entry_register
    from tables.models import SeatAssignment, Table
    from tournament.services.registration import player_create

    t = make_tournament(status="registering")
    table = Table.objects.create(tournament=t, number=12, seats=9, area="Saal 2")
    p = player_create(
        name="Rosa Zimmermann", display_name="Rosa Z.", email="rosa@example.org", actor=actor
    )
    entry = entry_register(tournament=t, player=p, actor=actor)
    SeatAssignment.objects.create(entry=entry, table=table, seat=7)
    return t, entry


def test_find_by_number_and_name(client, seated):
    t, entry = seated
    body = client.get(reverse("find-seat", args=[t.pk]), {"q": str(entry.number)}).content.decode()
    assert "Rosa Z." in body and "Saal 2" in body and "Seat" in body
    body = client.get(reverse("find-seat", args=[t.pk]), {"q": "rosa"}).content.decode()
    assert "Rosa Z." in body
    assert "Zimmermann" not in body and "rosa@example.org" not in body


@pytest.mark.parametrize(
    "q", ["Schäfer", "schafer", "Schaefer", "SCHAEFER", "anna schäfer", "Schäfer Anna", "Anna S"]
)
def test_find_by_surname_with_and_without_umlauts_in_any_order(client, seated, actor, q):
    from actions.registration import entry_register
    from tournament.services.registration import player_create

    t, _ = seated
    anna = player_create(name="Anna Schäfer", display_name="Anna S.", actor=actor)
    entry_register(tournament=t, player=anna, actor=actor)
    other = player_create(name="Anna Müller", display_name="Anna M.", actor=actor)
    entry_register(tournament=t, player=other, actor=actor)
    body = client.get(reverse("find-seat", args=[t.pk]), {"q": q}).content.decode()
    assert "Anna S." in body
    assert "Anna M." not in body
    assert "Schäfer" not in body.replace(f'value="{q}"', "")  # the full name stays private


def test_a_renamed_player_is_found_by_the_new_name(client, seated):
    t, entry = seated
    player = entry.player
    player.name = "Rosa Weiß"
    player.save()
    body = client.get(reverse("find-seat", args=[t.pk]), {"q": "weiss"}).content.decode()
    assert "Rosa Z." in body


@pytest.mark.parametrize("q", ["", "r", "9999", "nobody here"])
def test_friendly_messages_for_bad_queries(client, seated, q):
    t, _ = seated
    response = client.get(reverse("find-seat", args=[t.pk]), {"q": q})
    assert response.status_code == 200
    assert "Rosa" not in response.content.decode()


def test_my_seat_link(client, seated):
    _t, entry = seated
    response = client.get(reverse("my-seat", args=[entry.public_token]))
    body = response.content.decode()
    assert response.status_code == 200
    assert "<svg" in body and "Rosa Z." in body and "Zimmermann" not in body
    data = client.get(reverse("my-seat-json", args=[entry.public_token])).json()
    assert data["table"] == 12 and data["seat"] == 7 and data["area"] == "Saal 2"
    assert "email" not in data and "name" not in data


@pytest.mark.parametrize("token", ["nope", "x" * 60, "AAAAAAAAAAAAAAAAAAAAAAAA"])
def test_unknown_links_give_no_hint(client, seated, token):
    response = client.get(reverse("my-seat", args=[token]))
    assert response.status_code == 404
    assert "Rosa" not in response.content.decode()


def test_tokens_are_long_and_distinct(seated, register):
    t, entry = seated
    other = register(t)
    assert len(entry.public_token) >= 24
    assert entry.public_token != other.public_token


def test_lookups_are_rate_limited(client, seated, settings, one_rate_window):
    t, _ = seated
    from tournament import public_views

    for _ in range(public_views.LOOKUPS_PER_MINUTE):
        client.get(reverse("find-seat", args=[t.pk]), {"q": "rosa"})
    body = client.get(reverse("find-seat", args=[t.pk]), {"q": "rosa"}).content.decode()
    assert "Too many" in body


def test_rate_limit_cannot_be_dodged_with_a_forged_header(client, settings):
    from django.test import RequestFactory

    from core.ratelimit import client_address

    settings.FLOOR_TRUSTED_PROXIES = []
    request = RequestFactory().get("/", HTTP_X_FORWARDED_FOR="1.2.3.4", REMOTE_ADDR="10.0.0.9")
    assert client_address(request) == "10.0.0.9"
    settings.FLOOR_TRUSTED_PROXIES = ["10.0.0.0/24"]
    request = RequestFactory().get(
        "/", HTTP_X_FORWARDED_FOR="6.6.6.6, 1.2.3.4", REMOTE_ADDR="10.0.0.9"
    )
    assert client_address(request) == "1.2.3.4"


def test_find_by_number_never_shows_a_stale_seat(client, seated, actor):
    from tables import services as seating
    from tables.models import Table

    t, entry = seated
    Table.objects.create(tournament=t, number=3, seats=9, area="Saal 1")
    url = reverse("find-seat", args=[t.pk])
    assert "Saal 2" in client.get(url, {"q": str(entry.number)}).content.decode()
    seating.seat_move(tournament=t, entry=entry, table_number=3, seat=4, actor=actor)
    body = client.get(url, {"q": str(entry.number)}, HTTP_HX_REQUEST="true").content.decode()
    assert "Saal 1" in body and "Saal 2" not in body


def test_a_phone_lookup_is_one_statement(client, seated, django_assert_max_num_queries):
    t, entry = seated
    url = reverse("find-seat", args=[t.pk])
    client.get(url, {"q": str(entry.number)}, HTTP_HX_REQUEST="true")  # warm the connection
    with django_assert_max_num_queries(1):
        body = client.get(url, {"q": str(entry.number)}, HTTP_HX_REQUEST="true")
    assert "Rosa Z." in body.content.decode()


def test_find_by_number_in_every_state(client, seated, register, actor):
    from tournament.models import Entry, EntryStatus

    t, entry = seated
    t.currency = "CHF"
    t.save(update_fields=["currency"])
    waiting = register(t)
    Entry.objects.filter(pk=waiting.pk).update(status=EntryStatus.ALTERNATE, alternate_position=4)
    out = register(t)
    Entry.objects.filter(pk=out.pk).update(status=EntryStatus.BUSTED, place=37, prize=12000)
    gone = register(t)
    Entry.objects.filter(pk=gone.pk).update(status=EntryStatus.UNREGISTERED)
    url = reverse("find-seat", args=[t.pk])

    def ask(number: int) -> str:
        return client.get(url, {"q": str(number)}, HTTP_HX_REQUEST="true").content.decode()

    assert "Table 12" in ask(entry.number) and "Seat 7" in ask(entry.number)
    assert "Waiting list no. 4" in ask(waiting.number)
    busted = ask(out.number)
    assert "Finished 37." in busted and "CHF" in busted
    assert "Nobody found" in ask(gone.number)
    assert "Nobody found" in ask(10**12)  # beyond any stored number: no database error


def test_lookup_in_an_unknown_tournament_is_not_found(client, seated):
    url = reverse("find-seat", args=[987654])
    assert client.get(url, {"q": "1"}, HTTP_HX_REQUEST="true").status_code == 404
    assert client.get(url, {"q": "1"}).status_code == 404


def _redis_cache(settings, location: str):
    """The production cache backend (config/settings/base.py) at `location`, as `cache`."""
    from django.core.cache import caches

    settings.CACHES = {
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": location,
            "OPTIONS": {
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 0.5,
                "SOCKET_TIMEOUT": 0.5,
            },
        }
    }
    return caches["default"]


@pytest.mark.redis
def test_the_redis_rate_limit_counts_per_client_and_window(settings, rf):
    from core.ratelimit import allow
    from tests.services import REDIS_URL, redis_available, require

    require(redis_available(), "Redis (127.0.0.1:6379)")
    cache = _redis_cache(settings, REDIS_URL)
    cache.delete_pattern("rl:test:*")
    request = rf.get("/", REMOTE_ADDR="10.9.8.7")
    assert [allow(request, "test", 2) for _ in range(3)] == [True, True, False]
    assert allow(rf.get("/", REMOTE_ADDR="10.9.8.6"), "test", 2)  # another client
    (key,) = cache.keys("rl:test:10.9.8.7:*")
    assert 0 < cache.ttl(key) <= 65
    cache.delete_pattern("rl:test:*")


def test_a_redis_outage_does_not_stop_the_floor(settings, rf):
    from core.ratelimit import allow

    # Nothing listens on port 1: every call fails at once, and the cache carries on without it.
    cache = _redis_cache(settings, "redis://127.0.0.1:1/0")
    assert cache.get("anything") is None
    cache.set("anything", 1, 30)  # dropped, no error
    request = rf.get("/", REMOTE_ADDR="10.9.8.7")
    assert all(allow(request, "test", 2) for _ in range(5))  # rate limits let requests through
