"""`python3 floor.py venue`: the venue's own server started as a club starts it (docs/venue.md).

Each test runs `manage.py floor_venue` in a process of its own on a var directory of its own,
unattended (FLOOR_DIRECTOR_USER / FLOOR_DIRECTOR_PASSWORD)."""

from __future__ import annotations

import os
import re
import socket
import sqlite3
import stat
import subprocess
import sys
import urllib.error
import uuid

import pytest

from tests.venue_server import DIRECTOR, ROOT, free_port, start_venue, venue_env

pytestmark = [pytest.mark.venue, pytest.mark.slow]


def _rows(venue, sql: str) -> list[tuple]:
    with sqlite3.connect(venue.var_dir / "floor.sqlite3") as db:
        return db.execute(sql).fetchall()


def test_first_start_makes_the_director_and_no_demo_then_a_restart_keeps_the_data(tmp_path):
    var = tmp_path / "var"
    venue = start_venue(var)
    try:
        assert f"the director {DIRECTOR[0]!r} was created" in venue.output
        assert "/console/" in venue.output and "▀" in venue.output  # the address and its QR
        users = _rows(venue, "select username, is_superuser from auth_user")
        assert users == [(DIRECTOR[0], 1)]
        assert _rows(venue, "select count(*) from tournament_tournament") == [(0,)]
        # What the night needs at once: a chip set and the structure templates.
        assert _rows(venue, "select count(*) from tournament_chipset")[0][0] == 1
        assert (
            _rows(venue, "select count(*) from tournament_structure where is_template")[0][0] >= 3
        )
        # Production settings: no debug page for a path that does not exist.
        with pytest.raises(urllib.error.HTTPError) as missing:
            venue.get("/no-such-page/")
        assert missing.value.code == 404
        body = missing.value.read().decode()
        assert "Traceback" not in body and "DEBUG" not in body and "urlpatterns" not in body
        with venue.get("/") as home:
            assert home.status == 200
        with venue.get("/static/floor/floor.css") as css:  # served by the venue itself
            assert css.status == 200
    finally:
        assert venue.stop() == 0
    key = var / "secret_key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert stat.S_IMODE(var.stat().st_mode) == 0o700
    first_key = key.read_text()

    again = start_venue(var, env={"FLOOR_DIRECTOR_USER": "other", "FLOOR_DIRECTOR_PASSWORD": "x"})
    try:
        assert "was created" not in again.output
        assert _rows(again, "select username from auth_user") == [(DIRECTOR[0],)]
        assert key.read_text() == first_key
    finally:
        again.stop()


def test_a_second_start_on_the_same_data_is_refused_while_the_first_runs(tmp_path):
    var = tmp_path / "var"
    first = start_venue(var, "--no-mdns")
    try:
        second = start_venue(var, "--no-mdns", wait=False)
        assert second.proc.wait(60) != 0
        assert "already running on this data" in second.output
        assert f"process {first.proc.pid}" in second.output
        assert "Traceback" not in second.output
        with first.get("/healthz") as ok:  # the first goes on
            assert ok.status == 200
    finally:
        first.stop()


def test_a_taken_port_and_a_foreign_host_are_one_sentence_each(tmp_path):
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))  # noqa: S104 - the venue listens on every interface
        taken.listen()
        port = taken.getsockname()[1]
        busy = start_venue(tmp_path / "a", "--no-mdns", port=port, wait=False)
        assert busy.proc.wait(60) != 0
    assert f"Port {port} is taken" in busy.output and "Traceback" not in busy.output
    foreign = start_venue(tmp_path / "b", "--no-mdns", "--host", "10.254.253.252", wait=False)
    assert foreign.proc.wait(60) != 0
    assert "is not an address of this machine" in foreign.output
    assert "Traceback" not in foreign.output


def test_the_first_start_without_a_terminal_or_a_director_says_what_to_set(tmp_path):
    venue = start_venue(tmp_path / "var", "--no-mdns", director=False, wait=False)
    assert venue.proc.wait(60) != 0
    assert "FLOOR_DIRECTOR_USER and FLOOR_DIRECTOR_PASSWORD" in venue.output
    weak = start_venue(
        tmp_path / "weak",
        "--no-mdns",
        env={"FLOOR_DIRECTOR_USER": "boss", "FLOOR_DIRECTOR_PASSWORD": "1234"},
        wait=False,
    )
    assert weak.proc.wait(60) != 0
    assert "cannot be the director's account" in weak.output and "too short" in weak.output
    assert "Traceback" not in venue.output + weak.output


def test_a_foreign_host_name_is_a_400_and_the_public_address_is_in_every_link(tmp_path):
    venue = start_venue(tmp_path / "var", "--no-mdns", "--public-address", "192.0.2.77")
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            venue.get("/", headers={"Host": "evil.example"})
        assert refused.value.code == 400
        assert "Traceback" not in refused.value.read().decode()
        with venue.get("/", headers={"Host": f"localhost:{venue.port}"}) as home:
            assert home.status == 200
        assert f"http://192.0.2.77:{venue.port}/console/" in venue.output
        with venue.get("/healthz", host="localhost") as ok:
            assert ok.status == 200
    finally:
        venue.stop()


def test_the_demo_adds_tournaments_but_never_the_demo_accounts(tmp_path):
    venue = start_venue(tmp_path / "var", "--no-mdns", "--demo", timeout=180)
    try:
        assert _rows(venue, "select count(*) from tournament_tournament")[0][0] >= 2
        # No account with the published demo password: the director, and a colleague who
        # cannot log in (the demo's counts are confirmed by a second person).
        users = dict(_rows(venue, "select username, password from auth_user"))
        assert set(users) == {DIRECTOR[0], "demo-colleague"}
        assert users["demo-colleague"].startswith("!")  # unusable
        assert "director" not in users and "floor" not in users
    finally:
        venue.stop()


def test_the_name_is_announced_and_resolvable_by_mdns(tmp_path):
    from zeroconf import AddressResolver, InterfaceChoice, IPVersion, Zeroconf

    name = f"floor-test-{uuid.uuid4().hex[:8]}"
    venue = start_venue(tmp_path / "var", "--name", name)
    zc = Zeroconf(interfaces=InterfaceChoice.All, ip_version=IPVersion.V4Only)
    try:
        assert f"Announced as {name}.local" in venue.output
        info = zc.get_service_info("_http._tcp.local.", f"Floor {name}._http._tcp.local.", 5000)
        assert info is not None and info.port == venue.port
        assert info.server == f"{name}.local."
        resolver = AddressResolver(f"{name}.local.")
        assert resolver.request(zc, 5000)
        addresses = {str(a) for a in resolver.ip_addresses_by_version(IPVersion.V4Only)}
        assert addresses
        # Each resolved address is this machine's, and the venue answers there.
        for address in addresses:
            with venue.get("/healthz", host=address) as ok:
                assert ok.status == 200
    finally:
        zc.close()
        venue.stop()


def test_check_deploy_names_only_the_https_checks_a_lan_cannot_meet(tmp_path):
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=venue_env(tmp_path / "var"),
        capture_output=True,
        text=True,
        check=False,
    )
    found = set(re.findall(r"\((\w+\.[EW]\d+)\)", result.stdout + result.stderr))
    assert found == {"security.W004", "security.W008", "security.W012", "security.W016"}


def test_floor_py_starts_the_venue_command_with_the_venue_settings():
    source = (ROOT / "floor.py").read_text()
    assert '"venue": venue' in source and "config.settings.venue" in source
    assert os.access(ROOT / "floor.py", os.R_OK)
    assert free_port() > 0
