"""One attempt to send one message: signed by the Standard Webhooks scheme, to an address
checked after the name was resolved, with short timeouts and no redirect followed.

The connection goes to the address that was checked (the URL's name is resolved once, here,
every address it gives must pass `addresses_check`, and the first is connected to), so a name
that answers differently the second time (DNS rebinding) cannot lead the request elsewhere.
HTTPS still checks the certificate against the URL's name (SNI and hostname verification use
the name, the socket the checked address). urllib3, requests' own transport, does this with a
pool per attempt; requests itself would resolve the name again.
"""

from __future__ import annotations

import ipaddress
import json
import socket
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import urllib3
from django.conf import settings
from standardwebhooks.webhooks import Webhook

from webhooks.domain.rules import Refused, Target, addresses_check, url_check

ANSWER_BYTES = 1024  # read of an answer at most; the page shows its start
EXCERPT = 200
USER_AGENT = "Floor-Webhooks/1"


@dataclass(frozen=True)
class Outcome:
    """What an attempt came to: the answer's status (None when none came), the start of its
    body, or what went wrong before an answer."""

    status: int | None
    answer: str = ""
    error: str = ""


def body_of(payload: dict[str, Any]) -> str:
    """The exact text that is signed and sent."""
    return json.dumps(payload, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


def signed_headers(*, secret: str, message_id: str, at: datetime, body: str) -> dict[str, str]:
    """The Standard Webhooks headers for one attempt (the timestamp is the attempt's)."""
    return {
        "webhook-id": message_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": Webhook(secret).sign(msg_id=message_id, timestamp=at, data=body),
    }


def venue_mode() -> bool:
    return bool(getattr(settings, "FLOOR_VENUE", False))


def loopback_allowed() -> bool:
    """Only the tests' own receiver on 127.0.0.1 (docs/webhooks.md); never in production."""
    return bool(getattr(settings, "FLOOR_WEBHOOKS_ALLOW_LOOPBACK", False))


def resolve(host: str, port: int) -> list[str]:
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError):  # UnicodeError (a label too long) is a ValueError
        return []
    return [str(info[4][0]) for info in infos]


def target_check(url: str) -> tuple[Target, list[str]]:
    """The URL checked and its name resolved, every address checked (on registration and on
    each attempt). Raises `Refused`."""
    # The tests' receiver speaks plain HTTP on 127.0.0.1, as a receiver on the venue's LAN may.
    target = url_check(url, venue=venue_mode() or loopback_allowed())
    try:
        named = [str(ipaddress.ip_address(target.host))]  # an address in the URL itself
    except ValueError:
        named = resolve(target.host, target.port)
    found = addresses_check(named, venue=venue_mode(), allow_loopback=loopback_allowed())
    return target, found


def _excerpt(raw: bytes) -> str:
    text = raw.decode("utf-8", errors="replace")
    text = "".join(c if c.isprintable() else " " for c in text)
    return " ".join(text.split())[:EXCERPT]


def _path(url: str) -> str:
    parts = urllib3.util.parse_url(url.strip())
    path = parts.path or "/"
    return f"{path}?{parts.query}" if parts.query is not None else path


def _pool(target: Target, address: str, timeout: urllib3.Timeout) -> urllib3.HTTPConnectionPool:
    if target.scheme == "https":
        return urllib3.HTTPSConnectionPool(
            address,
            target.port,
            timeout=timeout,
            retries=False,
            maxsize=1,
            cert_reqs="CERT_REQUIRED",
            server_hostname=target.host,
            assert_hostname=target.host,
        )
    return urllib3.HTTPConnectionPool(
        address, target.port, timeout=timeout, retries=False, maxsize=1
    )


def attempt(
    *, url: str, secret: str, message_id: str, payload: dict[str, Any], at: datetime
) -> Outcome:
    """Send once. Never raises for what the endpoint or the network does."""
    try:
        target, found = target_check(url)
    except Refused as exc:
        return Outcome(status=None, error=f"refused: {exc}"[:EXCERPT])
    body = body_of(payload)
    default_port = 443 if target.scheme == "https" else 80
    host_header = target.host if target.port == default_port else f"{target.host}:{target.port}"
    if ":" in target.host and target.port != default_port:
        host_header = f"[{target.host}]:{target.port}"
    headers = {
        "Host": host_header,
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        **signed_headers(secret=secret, message_id=message_id, at=at, body=body),
    }
    seconds = float(getattr(settings, "FLOOR_WEBHOOKS_TIMEOUT", 5.0))
    timeout = urllib3.Timeout(connect=seconds, read=seconds)
    pool = _pool(target, found[0], timeout)
    try:
        answer = pool.urlopen(
            "POST",
            _path(url),
            body=body.encode("utf-8"),
            headers=headers,
            redirect=False,
            retries=False,
            preload_content=False,
            assert_same_host=False,
        )
        try:
            raw = answer.read(ANSWER_BYTES)
        finally:
            answer.release_conn()
            answer.close()
        return Outcome(status=answer.status, answer=_excerpt(raw))
    except urllib3.exceptions.NewConnectionError as exc:
        return Outcome(status=None, error=f"no connection: {exc}"[:EXCERPT])
    except urllib3.exceptions.TimeoutError:
        return Outcome(status=None, error="timeout")
    except (urllib3.exceptions.HTTPError, OSError) as exc:
        return Outcome(status=None, error=f"{type(exc).__name__}: {exc}"[:EXCERPT])
    finally:
        pool.close()
