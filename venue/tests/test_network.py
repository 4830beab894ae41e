"""The venue's addresses, names, listening socket, lock and secret key (venue/network.py,
venue/lock.py, config/secret.py)."""

from __future__ import annotations

import socket
import stat

import pytest

from config.secret import kept_secret_key
from venue.lock import VarDirLock
from venue.network import (
    ALL,
    VenueError,
    allowed_hosts,
    base_url,
    lan_address,
    listen,
    machine_addresses,
    mdns_label,
)


@pytest.mark.parametrize(
    ("given", "label"), [("floor", "floor"), ("Club-Floor", "club-floor"), ("bar.local", "bar")]
)
def test_the_mdns_name_is_one_label(given, label):
    assert mdns_label(given) == label


@pytest.mark.parametrize("given", ["", "-floor", "floor-", "flo or", "a.b", "ünter", "x" * 64])
def test_a_name_that_is_no_dns_label_is_refused_with_a_sentence(given):
    with pytest.raises(VenueError, match="letters, digits and hyphens"):
        mdns_label(given)


def test_the_hosts_are_the_machines_addresses_localhost_the_name_and_the_operators():
    hosts = allowed_hosts("floor", ["192.168.1.20", "127.0.0.1", "fd00::2"], ["tv.lan"])
    assert hosts == ["localhost", "floor.local", "192.168.1.20", "127.0.0.1", "[fd00::2]", "tv.lan"]
    assert "*" not in hosts


def test_base_urls_bracket_ipv6_and_leave_out_port_80():
    assert base_url("floor.local", 8000) == "http://floor.local:8000"
    assert base_url("fd00::2", 8000) == "http://[fd00::2]:8000"
    assert base_url("192.168.1.20", 80) == "http://192.168.1.20"


def test_the_lan_address_is_never_loopback_when_the_machine_has_another():
    assert lan_address(["127.0.0.1", "::1"]) is None
    address = lan_address(["127.0.0.1", "10.1.2.3", "fd00::9"])
    assert address in {"10.1.2.3"} | set(machine_addresses())
    assert address != "127.0.0.1"


def test_this_machines_addresses_include_loopback_and_no_link_local():
    addresses = machine_addresses()
    assert "127.0.0.1" in addresses
    assert not any(a.lower().startswith("fe80") for a in addresses)


def test_a_taken_port_is_one_sentence_naming_another_port():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with pytest.raises(VenueError, match=f"Port {port} is taken.*--port {port + 1}"):
            listen("127.0.0.1", port, ["127.0.0.1"])


def test_a_host_that_is_not_this_machines_is_refused_naming_its_addresses():
    with pytest.raises(VenueError, match=r"not an address of this machine.*127\.0\.0\.1"):
        listen("10.254.253.252", 8000, ["127.0.0.1"])
    with pytest.raises(VenueError, match="not an IP address"):
        listen("example.org", 8000, ["127.0.0.1"])
    with pytest.raises(VenueError, match="from 1 to 65535"):
        listen(ALL, 70000, ["127.0.0.1"])


def test_listening_on_every_interface_accepts_on_loopback():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    listener = listen(ALL, port, machine_addresses())
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2):
            pass
    finally:
        listener.sock.close()


def test_a_second_lock_on_one_var_directory_is_refused_naming_the_first(tmp_path):
    first = VarDirLock(tmp_path)
    first.acquire("http://floor.local:8000")
    try:
        with pytest.raises(VenueError, match=r"already running.*http://floor\.local:8000"):
            VarDirLock(tmp_path).acquire("second")
    finally:
        first.release()
    again = VarDirLock(tmp_path)
    again.acquire("after the first stopped")
    again.release()


def test_the_secret_key_is_made_once_and_readable_by_its_owner_only(tmp_path):
    key = kept_secret_key(tmp_path)
    assert len(key) >= 50
    assert kept_secret_key(tmp_path) == key
    mode = stat.S_IMODE((tmp_path / "secret_key").stat().st_mode)
    assert mode == 0o600
