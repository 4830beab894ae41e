"""The venue's name on the local network: `floor.local` announced by multicast DNS with
python-zeroconf, so a phone opens http://floor.local:8000 without knowing the IP address
(where the phone resolves mDNS: docs/venue.md). The HTTP service is announced as well
(`_http._tcp`), which browsers of the network see as "Floor"."""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import socket

from zeroconf import AddressResolver, InterfaceChoice, IPVersion, ServiceInfo, Zeroconf

SERVICE = "_http._tcp.local."
log = logging.getLogger(__name__)


class Announcement:
    """`label`.local → `addresses` and the Floor service on `port`, until close()."""

    def __init__(self, label: str, port: int, addresses: list[str]) -> None:
        self.label = label
        self.host = f"{label}.local"
        packed = [
            socket.inet_pton(
                socket.AF_INET6 if ipaddress.ip_address(a).version == 6 else socket.AF_INET, a
            )
            for a in addresses
            if not ipaddress.ip_address(a).is_loopback
        ]
        # Over IPv4 multicast (what phones ask on); the answers carry every address.
        self.zeroconf = Zeroconf(interfaces=InterfaceChoice.All, ip_version=IPVersion.V4Only)
        self.info = ServiceInfo(
            SERVICE,
            f"Floor {label}.{SERVICE}",
            addresses=packed,
            port=port,
            server=f"{self.host}.",
            properties={"path": "/", "console": "/console/"},
        )
        try:
            self.zeroconf.register_service(self.info, allow_name_change=True)
        except Exception:
            self.zeroconf.close()
            raise

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.zeroconf.unregister_service(self.info)
        with contextlib.suppress(Exception):
            self.zeroconf.close()


def name_taken_elsewhere(label: str, mine: list[str], timeout: float = 1.5) -> list[str]:
    """Addresses another machine answers for `label`.local (another Floor in the room): the
    name then belongs to it, and this venue announces another."""
    zc = Zeroconf(interfaces=InterfaceChoice.All, ip_version=IPVersion.V4Only)
    try:
        resolver = AddressResolver(f"{label}.local.")
        if not resolver.request(zc, timeout * 1000):
            return []
        theirs = [str(a) for a in resolver.ip_addresses_by_version(IPVersion.All)]
        return [a for a in theirs if a not in mine]
    finally:
        zc.close()
