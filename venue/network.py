"""This machine on the venue's network: its addresses, the host names Floor answers, the public
base address every link carries, and the listening socket (docs/venue.md).

No Django here: config/settings/venue.py imports it before the apps are loaded.
"""

from __future__ import annotations

import contextlib
import errno
import ipaddress
import re
import socket
from dataclasses import dataclass

import ifaddr
from django.apps import apps
from django.utils.translation import gettext

# An mDNS host name is one DNS label: letters, digits and hyphens, not at either end.
_LABEL = re.compile(r"^(?!-)[a-z0-9-]{1,63}(?<!-)$")
ALL = "all"  # --host: every interface (both address families where the machine has IPv6)


def _(message: str) -> str:
    """`message` in the terminal's language once Django's translations are ready (the venue's
    command); as written while the settings are still being read."""
    if not apps.ready:
        return message

    return gettext(message)


class VenueError(Exception):
    """A start that cannot go on, with the sentence the terminal prints (no traceback)."""


def mdns_label(name: str) -> str:
    """The venue's mDNS name without `.local` (`--name`), lower-case, checked."""
    label = name.strip().lower().removesuffix(".local")
    if not _LABEL.match(label):
        raise VenueError(
            _(
                "--name %(name)s: use letters, digits and hyphens only (such as floor or "
                "club-floor), up to 63; Floor adds .local itself."
            )
            % {"name": repr(name)}
        )
    return label


def machine_addresses() -> list[str]:
    """Every IP address of this machine's interfaces (loopback included), IPv4 first; IPv6
    link-local addresses are left out (a browser cannot put one in a URL without its zone)."""
    found: list[ipaddress.IPv4Address | ipaddress.IPv6Address] = []
    for adapter in ifaddr.get_adapters():
        for ip in adapter.ips:
            raw = ip.ip[0] if isinstance(ip.ip, tuple) else ip.ip
            with contextlib.suppress(ValueError):
                address = ipaddress.ip_address(raw)
                if address.version == 6 and address.is_link_local:
                    continue
                if address not in found:
                    found.append(address)
    found.sort(key=lambda a: (a.version, a.is_loopback, int(a)))
    return [str(a) for a in found]


def lan_address(addresses: list[str] | None = None) -> str | None:
    """The address other devices in the room reach this machine at: the one the default route
    leaves from, else the first private IPv4 address, else the first that is not loopback."""
    addresses = machine_addresses() if addresses is None else addresses
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # no packet is sent: this only asks for the route
        routed = probe.getsockname()[0]
        if routed in addresses and not ipaddress.ip_address(routed).is_loopback:
            return str(routed)
    candidates = [ipaddress.ip_address(a) for a in addresses]
    v4 = [a for a in candidates if a.version == 4 and not a.is_loopback]
    for address in v4:
        if address.is_private:
            return str(address)
    others = v4 + [a for a in candidates if a.version == 6 and not a.is_loopback]
    return str(others[0]) if others else None


def url_host(address: str) -> str:
    """An address as it stands in a URL or a Host header ([...] around IPv6)."""
    with contextlib.suppress(ValueError):
        if ipaddress.ip_address(address).version == 6:
            return f"[{address}]"
    return address


def base_url(host: str, port: int) -> str:
    return f"http://{url_host(host)}" + ("" if port == 80 else f":{port}")


def allowed_hosts(label: str, addresses: list[str], extra: list[str]) -> list[str]:
    """The Host headers the venue answers (and the websocket origins it accepts): its own
    addresses, localhost, its mDNS name and the operator's FLOOR_HOSTS. Anything else is a 400."""
    hosts = ["localhost", f"{label}.local", *(url_host(a) for a in addresses), *extra]
    return list(dict.fromkeys(h for h in hosts if h))


@dataclass(frozen=True)
class Listener:
    sock: socket.socket
    host: str  # as asked: ALL or an address
    port: int


def listen(host: str, port: int, addresses: list[str]) -> Listener:
    """The server's listening socket, opened here so a taken port or a foreign --host is one
    clear sentence (the server is then handed the open socket: nothing can take it between)."""
    if not 1 <= port <= 65535:
        raise VenueError(_("--port %(port)s: a port is a number from 1 to 65535.") % {"port": port})
    if host == ALL:
        family, bind_to = (socket.AF_INET6, "::") if socket.has_ipv6 else (socket.AF_INET, "")
    else:
        try:
            address = ipaddress.ip_address(host.strip("[]"))
        except ValueError:
            raise VenueError(
                _(
                    "--host %(host)s is not an IP address. Leave it out to listen on every "
                    "interface, or give one of this machine's addresses: %(addresses)s."
                )
                % {"host": repr(host), "addresses": ", ".join(addresses)}
            ) from None
        if str(address) not in addresses:
            raise VenueError(
                _(
                    "--host %(host)s is not an address of this machine. Its addresses are: "
                    "%(addresses)s. Leave --host out to listen on all of them."
                )
                % {"host": host, "addresses": ", ".join(addresses)}
            )
        family = socket.AF_INET6 if address.version == 6 else socket.AF_INET
        bind_to = str(address)
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6 and host == ALL:
            with contextlib.suppress(OSError):  # dual stack: IPv4 clients on the same socket
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
        try:
            sock.bind((bind_to, port))
        except OSError as exc:
            if family == socket.AF_INET6 and host == ALL and exc.errno == errno.EAFNOSUPPORT:
                sock.close()
                sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                sock.bind(("", port))
            else:
                raise
        sock.listen(2048)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            raise VenueError(
                _(
                    "Port %(port)s is taken: another program (perhaps another Floor) listens on "
                    "it. Stop that program, or start with --port %(other)s."
                )
                % {"port": port, "other": port + 1 if port < 65535 else 8000}
            ) from None
        if exc.errno == errno.EACCES:
            raise VenueError(
                _(
                    "Port %(port)s needs administrator rights on this machine; "
                    "use a port above 1023, such as --port 8000."
                )
                % {"port": port}
            ) from None
        if exc.errno == errno.EADDRNOTAVAIL:
            raise VenueError(
                _(
                    "--host %(host)s is not an address of this machine. Its addresses are: "
                    "%(addresses)s. Leave --host out to listen on all of them."
                )
                % {"host": host, "addresses": ", ".join(addresses)}
            ) from None
        raise VenueError(
            _("Cannot listen on %(host)s port %(port)s: %(reason)s.")
            % {"host": host, "port": port, "reason": exc.strerror}
        ) from None
    sock.set_inheritable(True)
    return Listener(sock=sock, host=host, port=port)
