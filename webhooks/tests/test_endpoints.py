"""Registering an endpoint: what is refused (SSRF on registration and again on each attempt,
after the name is resolved), with a message and nothing written; the secret's format."""

from __future__ import annotations

import pytest

from core.errors import FloorError
from webhooks import services
from webhooks.domain.rules import Kind
from webhooks.models import Delivery, Endpoint

pytestmark = pytest.mark.django_db


@pytest.fixture
def dns(monkeypatch):
    """Names resolve to what the test says."""
    answers: dict[str, list[str]] = {}
    monkeypatch.setattr("webhooks.sending.resolve", lambda host, port: answers.get(host, []))
    return answers


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("", "Enter the receiver"),
        ("http://hooks.example.org/x", "https://"),
        ("https://127.0.0.1/x", "this machine itself"),
        ("https://[::1]/x", "this machine itself"),
        ("https://169.254.169.254/latest/meta-data", "link-local"),
        ("https://10.0.0.8/x", "private network"),
        ("https://user:pw@hooks.example.org/", "user name"),
        ("https://localhost.example/x", "this machine itself"),
        ("https://nowhere.example/x", "could not be found"),
        ("ftp://hooks.example.org/", "https://"),
    ],
)
def test_refused_on_registration_with_a_message(dns, url, words):
    dns["localhost.example"] = ["127.0.0.1"]
    dns["hooks.example.org"] = ["93.184.215.14"]
    with pytest.raises(FloorError, match=words) as refused:
        services.endpoint_create(url=url, kinds=[Kind.PLAYER_OUT])
    assert refused.value.field == "url"
    assert not Endpoint.objects.exists()


@pytest.mark.parametrize(
    ("kinds", "words"), [([], "at least one"), (["player.out", "rm -rf"], "Unknown event")]
)
def test_refused_events(dns, kinds, words):
    dns["hooks.example.org"] = ["93.184.215.14"]
    with pytest.raises(FloorError, match=words):
        services.endpoint_create(url="https://hooks.example.org/x", kinds=kinds)
    assert not Endpoint.objects.exists()


def test_venue_mode_takes_the_lan_over_http_but_never_loopback(dns, settings):
    settings.FLOOR_VENUE = True
    endpoint, _secret = services.endpoint_create(
        url="http://192.168.1.40:8080/hook", kinds=[Kind.LEVEL_STARTED]
    )
    assert endpoint.pk
    for url in ("http://127.0.0.1:8080/hook", "http://169.254.0.9/"):
        with pytest.raises(FloorError):
            services.endpoint_create(url=url, kinds=[Kind.LEVEL_STARTED])
    assert Endpoint.objects.count() == 1


def test_a_name_that_turns_to_loopback_is_refused_on_the_attempt(dns):
    dns["hooks.example.org"] = ["93.184.215.14"]
    endpoint, _secret = services.endpoint_create(
        url="https://hooks.example.org/x", kinds=[Kind.PLAYER_OUT]
    )
    dns["hooks.example.org"] = ["127.0.0.1"]  # DNS rebinding
    services.ping(pk=endpoint.pk)
    assert services.deliveries_send() == 0
    delivery = Delivery.objects.get()
    assert delivery.attempts == 1 and delivery.last_status is None
    assert delivery.last_error.startswith("refused: loopback")
    assert delivery.state == Delivery.PENDING  # tried again later, checked again then


def test_the_secret_is_standard_and_each_endpoint_has_its_own(dns):
    dns["hooks.example.org"] = ["93.184.215.14"]
    a, secret_a = services.endpoint_create(url="https://hooks.example.org/a", kinds=["player.out"])
    _b, secret_b = services.endpoint_create(url="https://hooks.example.org/b", kinds=["player.out"])
    assert secret_a.startswith("whsec_") and secret_a != secret_b
    assert a.secret == secret_a and a.kinds == ["player.out"]


def test_a_long_description_is_refused(dns):
    dns["hooks.example.org"] = ["93.184.215.14"]
    with pytest.raises(FloorError, match="too long"):
        services.endpoint_create(
            url="https://hooks.example.org/a", kinds=["player.out"], description="x" * 121
        )
