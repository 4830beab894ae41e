"""What an endpoint may be and when a failed delivery is tried again (pure Python).

- Kinds: the events a director can subscribe an endpoint to.
- The retry schedule: the delays after each failed attempt (the Standard Webhooks
  recommendation, as Svix sends it: at once, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h), so the
  last attempt comes 27 h 35 min 5 s after the first: more than a day.
- Addresses (SSRF): loopback, link-local, unspecified, multicast and reserved addresses are
  never reached; private (RFC 1918, unique local, shared CGNAT) addresses only in venue mode,
  where the receiver sits on the room's LAN.
- URLs: HTTPS, or plain HTTP in venue mode; no user or password in the URL, no fragment.
"""

from __future__ import annotations

import base64
import ipaddress
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from urllib.parse import urlsplit


class Kind(StrEnum):
    LEVEL_STARTED = "level.started"
    PLAYER_OUT = "player.out"
    PLAYER_OUT_UNDONE = "player.out.undone"
    TOURNAMENT_FINISHED = "tournament.finished"
    CHIPS_PUBLISHED = "chips.published"
    TEST = "webhook.test"


# What a director picks; the test event goes to any endpoint when a director asks for it.
SUBSCRIBABLE: tuple[Kind, ...] = (
    Kind.LEVEL_STARTED,
    Kind.PLAYER_OUT,
    Kind.TOURNAMENT_FINISHED,
    Kind.CHIPS_PUBLISHED,
)


def subscription(kind: Kind) -> Kind:
    """The choice an event comes with: an undone bust goes wherever busts go."""
    return Kind.PLAYER_OUT if kind == Kind.PLAYER_OUT_UNDONE else kind


# Seconds to wait after attempt n (1-based) failed, before attempt n + 1.
RETRY_DELAYS: tuple[int, ...] = (5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600)
MAX_ATTEMPTS = len(RETRY_DELAYS) + 1
URL_MAX = 500


def next_attempt(attempts: int, failed_at: datetime) -> datetime | None:
    """When to try again after `attempts` attempts, the last of which failed at `failed_at`;
    None once every attempt is spent (the delivery has failed for good)."""
    if attempts < 1:
        raise ValueError("attempts counts from 1")
    if attempts >= MAX_ATTEMPTS:
        return None
    return failed_at + timedelta(seconds=RETRY_DELAYS[attempts - 1])


def schedule_span() -> timedelta:
    """From the first attempt to the last, if every attempt fails at once."""
    return timedelta(seconds=sum(RETRY_DELAYS))


# --- The secret ------------------------------------------------------------------------------

SECRET_PREFIX = "whsec_"  # noqa: S105 (the format's prefix, not a secret)
SECRET_BYTES = 32  # Standard Webhooks: between 24 and 64 bytes


def secret_new() -> str:
    """A new signing secret in the Standard Webhooks format: `whsec_` and base64 bytes."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode("ascii")


def secret_hint(secret: str) -> str:
    """What a page may show of a secret once it was handed out: the prefix and four characters."""
    return f"{SECRET_PREFIX}…{secret[-4:]}" if secret.startswith(SECRET_PREFIX) else "…"


# --- Addresses and URLs ------------------------------------------------------------------------


class Refused(ValueError):
    """An endpoint's URL or address that Floor does not send to; `reason` names why."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


# Reasons (the pages put them into words).
SCHEME = "scheme"
HTTP_OUTSIDE_VENUE = "http"
CREDENTIALS = "credentials"
NO_HOST = "host"
TOO_LONG = "length"
PORT = "port"
LOOPBACK = "loopback"
LINK_LOCAL = "link-local"
PRIVATE = "private"
NOT_GLOBAL = "not-global"
UNRESOLVED = "unresolved"
CHARACTERS = "characters"

_SHARED = ipaddress.ip_network("100.64.0.0/10")  # carrier-grade NAT: not global, not private


@dataclass(frozen=True)
class Target:
    """A URL taken apart: the scheme, the host as written, the port."""

    scheme: str
    host: str
    port: int


def url_check(url: str, *, venue: bool) -> Target:
    """Refuse a URL Floor would not send to, before any address is looked up."""
    if len(url) > URL_MAX:
        raise Refused(TOO_LONG)
    if any(not c.isprintable() or c.isspace() for c in url.strip()):
        raise Refused(CHARACTERS)
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise Refused(PORT) from exc
    scheme = parts.scheme.lower()
    if scheme not in ("https", "http"):
        raise Refused(SCHEME)
    if scheme == "http" and not venue:
        raise Refused(HTTP_OUTSIDE_VENUE)
    if parts.username is not None or parts.password is not None:
        raise Refused(CREDENTIALS)
    host = (parts.hostname or "").rstrip(".")
    if not host:
        raise Refused(NO_HOST)
    if port is not None and not 0 < port < 65536:
        raise Refused(PORT)
    return Target(scheme=scheme, host=host, port=port or (443 if scheme == "https" else 80))


def address_check(address: str, *, venue: bool, allow_loopback: bool = False) -> None:
    """Refuse an address Floor would not connect to (SSRF). `allow_loopback` is for the tests'
    own receiver on 127.0.0.1 only."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    if ip.is_loopback:
        if allow_loopback:
            return
        raise Refused(LOOPBACK, str(ip))
    if ip.is_link_local:
        raise Refused(LINK_LOCAL, str(ip))
    if ip.is_unspecified or ip.is_multicast or ip.is_reserved:
        raise Refused(NOT_GLOBAL, str(ip))
    private = ip.is_private or (isinstance(ip, ipaddress.IPv4Address) and ip in _SHARED)
    if private:
        if venue:
            return
        raise Refused(PRIVATE, str(ip))
    if not ip.is_global:
        raise Refused(NOT_GLOBAL, str(ip))


def addresses_check(
    addresses: Iterable[str], *, venue: bool, allow_loopback: bool = False
) -> list[str]:
    """Every address a name resolves to must pass (one bad answer refuses the name: DNS may
    hand out either); returns them, none if the name resolved to nothing."""
    found = list(dict.fromkeys(addresses))
    if not found:
        raise Refused(UNRESOLVED)
    for address in found:
        address_check(address, venue=venue, allow_loopback=allow_loopback)
    return found


def success(status: int) -> bool:
    """Standard Webhooks: a 2xx answer is a delivery; a redirect is a failure, never followed."""
    return 200 <= status < 300
