"""The webhooks' rules, pure: the retry schedule covers more than a day, which addresses and
URLs are refused (SSRF), the secret's format."""

from __future__ import annotations

import base64
import contextlib
import ipaddress
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from webhooks.domain.rules import (
    MAX_ATTEMPTS,
    Refused,
    address_check,
    addresses_check,
    next_attempt,
    schedule_span,
    secret_hint,
    secret_new,
    success,
    url_check,
)

T0 = datetime(2026, 12, 7, 20, 0, tzinfo=UTC)


def test_the_schedule_lasts_more_than_a_day():
    assert schedule_span() >= timedelta(hours=24)
    at, attempts = T0, 1
    while (following := next_attempt(attempts, at)) is not None:
        at, attempts = following, attempts + 1
    assert attempts == MAX_ATTEMPTS
    assert at - T0 == schedule_span()


@given(st.integers(min_value=1, max_value=MAX_ATTEMPTS - 2))
def test_each_wait_is_longer_than_the_one_before(attempts):
    first = next_attempt(attempts, T0)
    second = next_attempt(attempts + 1, T0)
    assert first is not None and second is not None and T0 < first <= second


def test_no_attempt_after_the_last():
    assert next_attempt(MAX_ATTEMPTS, T0) is None
    with pytest.raises(ValueError):
        next_attempt(0, T0)


@pytest.mark.parametrize(
    ("address", "reason"),
    [
        ("127.0.0.1", "loopback"),
        ("127.8.9.10", "loopback"),
        ("::1", "loopback"),
        ("::ffff:127.0.0.1", "loopback"),
        ("169.254.169.254", "link-local"),
        ("fe80::1", "link-local"),
        ("0.0.0.0", "not-global"),  # noqa: S104
        ("224.0.0.1", "not-global"),
        ("10.1.2.3", "private"),
        ("192.168.1.20", "private"),
        ("172.16.0.5", "private"),
        ("fd00::5", "private"),
        ("100.64.0.1", "private"),
    ],
)
def test_refused_addresses_on_the_full_stack(address, reason):
    with pytest.raises(Refused) as refused:
        address_check(address, venue=False)
    assert refused.value.reason == reason


@pytest.mark.parametrize("address", ["10.1.2.3", "192.168.1.20", "fd00::5"])
def test_the_venue_reaches_its_lan(address):
    address_check(address, venue=True)


@pytest.mark.parametrize("address", ["127.0.0.1", "::1", "169.254.1.1", "fe80::1"])
def test_the_venue_still_refuses_loopback_and_link_local(address):
    with pytest.raises(Refused):
        address_check(address, venue=True)


def test_public_addresses_pass_and_one_bad_answer_refuses_the_name():
    address_check("93.184.215.14", venue=False)
    address_check("2606:4700::1111", venue=False)
    with pytest.raises(Refused):
        addresses_check(["93.184.215.14", "127.0.0.1"], venue=False)
    with pytest.raises(Refused) as refused:
        addresses_check([], venue=False)
    assert refused.value.reason == "unresolved"


@given(st.ip_addresses())
def test_every_address_is_decided_without_other_errors(ip):
    plain = getattr(ip, "ipv4_mapped", None) or ip
    try:
        address_check(str(ip), venue=False)
    except Refused:
        # Refused: never a plainly public address (reserved ones are refused too).
        assert not plain.is_global or plain.is_reserved or plain.is_multicast
        return
    assert ipaddress.ip_address(str(plain)).is_global


@pytest.mark.parametrize(
    ("url", "venue", "reason"),
    [
        ("http://example.org/hook", False, "http"),
        ("ftp://example.org/hook", False, "scheme"),
        ("https://user:pw@example.org/", False, "credentials"),
        ("https:///nohost", False, "host"),
        ("https://example.org:99999/", False, "port"),
        ("https://exa mple.org/", False, "characters"),
        ("https://example.org/\x00", False, "characters"),
        ("https://example.org/" + "a" * 600, False, "length"),
        ("javascript:alert(1)", True, "scheme"),
    ],
)
def test_refused_urls(url, venue, reason):
    with pytest.raises(Refused) as refused:
        url_check(url, venue=venue)
    assert refused.value.reason == reason


def test_accepted_urls():
    assert url_check("https://example.org/hook", venue=False).port == 443
    assert url_check("http://192.168.1.5:8080/x", venue=True).port == 8080
    assert url_check("https://[2606:4700::1111]/x", venue=False).host == "2606:4700::1111"


@given(st.text(max_size=80))
def test_any_text_is_a_url_or_refused(text):
    with contextlib.suppress(Refused):
        url_check(text, venue=False)


def test_secret_format_and_hint():
    secret = secret_new()
    assert secret.startswith("whsec_")
    assert 24 <= len(base64.b64decode(secret.removeprefix("whsec_"))) <= 64
    assert secret_new() != secret
    assert secret_hint(secret).endswith(secret[-4:]) and secret[6:-4] not in secret_hint(secret)


def test_only_2xx_is_success():
    assert success(200) and success(204)
    assert not success(301) and not success(302) and not success(500) and not success(404)
