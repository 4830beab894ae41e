"""The venue on a network of its own: a phone that is not this machine.

The test makes a network namespace (the "phone") joined to this machine by a veth pair, with
addresses of its own from 10.213.x.y/30, starts the venue's server (tests/venue_server.py)
listening on every interface, and drives everything a night needs from inside the namespace:
its traffic crosses the veth to the venue's address, as a phone's crosses the club's Wi-Fi, and
the namespace has no way to the server's loopback. Each device (the player's phone, the
director's laptop) is a small Python client in the namespace with a cookie jar of its own
(`Device`), asked over a pipe.

Network namespaces need root and iproute2's `ip`: elsewhere the test is skipped with the reason;
under CI it fails (tests/services.py `require`)."""

from __future__ import annotations

import html
import json
import os
import queue
import random
import re
import shutil
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.services import require
from tests.venue_night import prepare
from tests.venue_server import DIRECTOR, start_venue

pytestmark = [pytest.mark.venue, pytest.mark.slow]

# A device in the namespace: one JSON request a line on stdin, one JSON answer a line on stdout.
# Its own cookie jar; no proxy from the environment (there is none in the namespace).
AGENT = r"""
import http.cookiejar, json, sys, urllib.error, urllib.parse, urllib.request
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

jar = http.cookiejar.CookieJar()
opener = urllib.request.build_opener(
    urllib.request.ProxyHandler({}), urllib.request.HTTPCookieProcessor(jar)
)


def http(url, form=None, headers=None):
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with opener.open(request, timeout=15) as answer:
            return {"status": answer.status, "url": answer.url, "body": answer.read().decode()}
    except urllib.error.HTTPError as refused:
        return {"status": refused.code, "url": refused.url, "body": refused.read().decode()}


def ws(url, origin):
    try:
        with connect(url, origin=origin, proxy=None, open_timeout=10, close_timeout=2) as sock:
            return {"opened": True, "message": sock.recv(timeout=10)}
    except InvalidStatus as refused:
        return {"opened": False, "status": refused.response.status_code}


def reach(url):
    try:
        with opener.open(url, timeout=3) as answer:
            return {"reached": True, "status": answer.status}
    except urllib.error.HTTPError as refused:
        return {"reached": True, "status": refused.code}
    except OSError as exc:
        return {"reached": False, "why": f"{type(exc).__name__}: {exc}"}


for line in sys.stdin:
    asked = json.loads(line)
    try:
        answer = {"http": http, "ws": ws, "reach": reach}[asked.pop("op")](**asked)
    except Exception as exc:
        answer = {"error": f"{type(exc).__name__}: {exc}"}
    print(json.dumps(answer), flush=True)
"""


@dataclass(frozen=True)
class Lan:
    ns: str
    host_if: str
    host_ip: str  # this machine's address on the veth: the venue's address for the phone
    phone_ip: str


def _ip(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, timeout=20, check=True)


def _free_subnet() -> tuple[str, str]:
    """A /30 in 10.213.0.0/16 that no interface of this machine uses: (host side, phone side)."""
    used = subprocess.run(
        ["ip", "-4", "-o", "addr"], capture_output=True, text=True, timeout=20, check=False
    ).stdout
    for _try in range(50):
        third, block = random.randrange(256), random.randrange(64) * 4
        if f"10.213.{third}." not in used:
            return f"10.213.{third}.{block + 1}", f"10.213.{third}.{block + 2}"
    raise AssertionError("No free /30 in 10.213.0.0/16 on this machine.")


@pytest.fixture
def lan() -> Iterator[Lan]:
    """A namespace joined to this machine by a veth pair, both ends up; removed afterwards,
    whatever the test did."""
    require(shutil.which("ip") is not None, "iproute2's `ip` (network namespaces)")
    require(os.geteuid() == 0, "Root (to make a network namespace)")
    tag = uuid.uuid4().hex[:8]
    ns, host_if, phone_if = f"floor-lan-{tag}", f"flh{tag}", f"flp{tag}"
    host_ip, phone_ip = _free_subnet()

    def clean() -> None:
        for args in (["link", "del", host_if], ["netns", "del", ns]):
            subprocess.run(["ip", *args], capture_output=True, timeout=20, check=False)

    try:
        try:
            _ip("netns", "add", ns)
            _ip("link", "add", host_if, "type", "veth", "peer", "name", phone_if)
            _ip("link", "set", phone_if, "netns", ns)
            _ip("addr", "add", f"{host_ip}/30", "dev", host_if)
            _ip("link", "set", host_if, "up")
            _ip("-n", ns, "addr", "add", f"{phone_ip}/30", "dev", phone_if)
            _ip("-n", ns, "link", "set", phone_if, "up")
            _ip("-n", ns, "link", "set", "lo", "up")
        except subprocess.CalledProcessError as exc:
            require(False, f"A network namespace with a veth pair ({exc.stderr.strip()})")
        yield Lan(ns=ns, host_if=host_if, host_ip=host_ip, phone_ip=phone_ip)
    finally:
        clean()
    assert ns not in _ip("netns", "list").stdout


class Device:
    """A phone, tablet or laptop in the room: a Python process inside the namespace."""

    def __init__(self, lan: Lan, agent: Path, log: Path) -> None:
        self.log = log
        with open(log, "wb") as err:
            self.proc = subprocess.Popen(
                ["ip", "netns", "exec", lan.ns, sys.executable, "-u", str(agent)],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
                env={k: v for k, v in os.environ.items() if "proxy" not in k.lower()},
            )
        self._lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self._lines.put(line)

    def ask(self, op: str, **asked: Any) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"op": op, **asked}) + "\n")
        self.proc.stdin.flush()
        try:
            answer = json.loads(self._lines.get(timeout=40))
        except queue.Empty:
            raise AssertionError(
                f"The device did not answer {op} {asked}:\n{self.log.read_text()}"
            ) from None
        assert "error" not in answer, f"{op} {asked}: {answer['error']}"
        return answer

    def get(self, url: str, **headers: str) -> dict[str, Any]:
        return self.ask("http", url=url, headers=headers)

    def post(self, url: str, form: dict[str, str], **headers: str) -> dict[str, Any]:
        return self.ask("http", url=url, form=form, headers=headers)

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


def first(pattern: str, text: str) -> str:
    """The first group of `pattern`'s first match in `text` (it must be there)."""
    found = re.search(pattern, text, re.S)
    assert found, f"{pattern!r} is not there"
    return found[1]


def csrf(page: str) -> str:
    return first(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)


def svg_matrix_text(svg: str) -> str:
    """The text of a QR code as Floor draws it (core/qr.py: segno's one path of
    horizontal runs, `M x y.5`, `hN`, `m dx dy`), read back: the modules are drawn into an
    image and zxing-cpp decodes it as a phone's camera would."""
    import zxingcpp
    from PIL import Image

    scale = int(first(r"scale\((\d+)\)", svg))
    side = int(first(r'width="(\d+)"', svg)) // scale
    path = first(r' d="([^"]+)"', svg)
    quiet, pixels = 4, 6
    image = Image.new("L", (side + 2 * quiet, side + 2 * quiet), 255)
    x = y = 0.0
    for command, a, b in re.findall(r"([Mmh])(-?[\d.]+)(?:\s(-?[\d.]+))?", path):
        if command == "M":
            x, y = float(a), float(b)
        elif command == "m":
            x, y = x + float(a), y + float(b)
        else:
            for i in range(round(float(a))):
                image.putpixel((quiet + int(x) + i, quiet + int(y)), 0)
            x += float(a)
    image = image.resize((image.width * pixels, image.height * pixels), Image.Resampling.NEAREST)
    found = zxingcpp.read_barcodes(image)
    assert len(found) == 1, "the QR code did not decode"
    return str(found[0].text)


def test_a_phone_on_the_network_signs_up_gets_seated_and_follows_the_night(lan, tmp_path):
    var = tmp_path / "var"
    night = prepare(var, name="LAN Cup", players=6)
    # After the veth: the server takes this machine's addresses (ALLOWED_HOSTS) at its start.
    venue = start_venue(
        var, "--public-address", lan.host_ip, "--no-mdns", "--name", f"lan-{lan.ns[-8:]}"
    )
    agent = tmp_path / "device.py"
    agent.write_text(AGENT)
    phone = Device(lan, agent, tmp_path / "phone.log")
    laptop = Device(lan, agent, tmp_path / "laptop.log")
    base = f"http://{lan.host_ip}:{venue.port}"
    pk = night.tournament
    try:
        # The phone is not on this machine: the server's loopback is out of its reach, the
        # venue's address on the network is not.
        assert not phone.ask("reach", url=f"http://127.0.0.1:{venue.port}/healthz")["reached"]
        assert phone.ask("reach", url=f"{base}/healthz") == {"reached": True, "status": 200}

        # a) The players' home.
        home = phone.get(f"{base}/")
        assert home["status"] == 200 and "LAN Cup" in home["body"]

        # b) The public sign-up, as a phone sends it (its Origin is the venue's address).
        form = phone.get(f"{base}/t/{pk}/signup/")
        assert form["status"] == 200 and 'id="signup-form"' in form["body"]
        nonce = first(r'name="nonce" value="([0-9a-f]+)"', form["body"])
        signed = phone.post(
            f"{base}/t/{pk}/signup/",
            {
                "csrfmiddlewaretoken": csrf(form["body"]),
                "nonce": nonce,
                "display_name": "Wanda Wifi",
                "email": "",
                "phone": "",
                "website": "",
            },
            Origin=base,
        )
        assert signed["status"] == 200, signed["body"][-2000:]
        assert re.fullmatch(rf"{re.escape(base)}/signup/[A-Za-z0-9_-]+/", signed["url"])
        assert "You have a place!" in signed["body"]
        poster = phone.get(f"{base}/t/{pk}/signup/poster/")
        assert poster["status"] == 200
        assert f"{lan.host_ip}:{venue.port}/t/{pk}/signup/" in poster["body"]

        # The director, on a laptop in the room, logs in and checks the sign-up in at the door:
        # the seats are drawn, so the new entry gets a seat at once.
        login = laptop.get(f"{base}/login/")
        assert login["status"] == 200
        console = laptop.post(
            f"{base}/login/",
            {
                "csrfmiddlewaretoken": csrf(login["body"]),
                "username": DIRECTOR[0],
                "password": DIRECTOR[1],
            },
            Origin=base,
        )
        assert console["status"] == 200 and console["url"] == f"{base}/console/", console["url"]
        listed = laptop.get(f"{base}/console/t/{pk}/signups/")
        card = re.search(
            r'<article class="card su-card confirmed" id="su-(\d+)">.*?</article>',
            listed["body"],
            re.S,
        )
        assert card and "Wanda Wifi" in card[0]
        checked = laptop.post(
            f"{base}/console/t/{pk}/signups/",
            {
                "csrfmiddlewaretoken": csrf(listed["body"]),
                "action": "check_in",
                "signup": card[1],
                "method": "cash",
                "q": "",
            },
            Origin=base,
        )
        assert checked["status"] == 200, checked["body"][-2000:]
        seated = re.search(
            r"Wanda Wifi is checked in as #(\d+): table (\d+), seat (\d+)\.",
            html.unescape(checked["body"]),
        )
        assert seated, "no seat in the check-in's message"
        number, table, seat = seated.groups()
        assert phone.get(signed["url"])["body"].count("You are checked in") == 1

        # c) The desk's receipt: its QR code carries the seat link at the venue's address.
        desk = laptop.get(f"{base}/console/t/{pk}/desk/?q=Wanda")
        entry_id = first(rf"/console/t/{pk}/entry/(\d+)/receipt", desk["body"])
        receipt = laptop.get(f"{base}/console/t/{pk}/entry/{entry_id}/receipt")
        assert receipt["status"] == 200 and f"#{number}" in receipt["body"]
        assert f"Table {table} · Seat {seat}" in html.unescape(receipt["body"])
        svg = first(r'<div class="qr">(<svg.*?</svg>)', receipt["body"])
        url = svg_matrix_text(svg)
        assert re.fullmatch(rf"{re.escape(base)}/s/[A-Za-z0-9_-]+/", url), url
        assert "127.0.0.1" not in url and "localhost" not in url
        from core.qr import qr_svg

        assert qr_svg(url).strip() == svg  # segno draws the same code for the same text
        my_seat = phone.get(url)
        assert my_seat["status"] == 200
        assert f'id="seat-table">{table}<' in my_seat["body"]
        assert f'id="seat-seat">{seat}<' in my_seat["body"]

        # d) The big screen's feed from the network: its first message; a page of another
        # origin is refused its socket.
        feed = f"ws://{lan.host_ip}:{venue.port}/ws/t/{pk}/?hello=1"
        opened = phone.ask("ws", url=feed, origin=base)
        assert opened["opened"], opened
        assert json.loads(opened["message"])["type"] == "hello"
        foreign = phone.ask("ws", url=feed, origin="http://evil.example")
        assert foreign == {"opened": False, "status": 403}

        # e) The dealer tablet's link, as the table's page shows it, opens on the network.
        table_page = laptop.get(f"{base}/console/t/{pk}/tables/{table}/")
        dealer = re.search(rf"{re.escape(base)}/d/([A-Za-z0-9_-]+)/", table_page["body"])
        assert dealer and dealer[1] == night.tables[int(table)]
        tablet = phone.get(dealer[0])
        assert tablet["status"] == 200

        # f) A name the venue does not answer to: 400, no debug page.
        evil = phone.get(f"{base}/", Host="evil.example")
        assert evil["status"] == 400
        for leak in ("Traceback", "DisallowedHost", "ALLOWED_HOSTS", "SECRET_KEY", "settings"):
            assert leak not in evil["body"], leak
        # The director's terminal has the reason in one line (no traceback; see below).
        assert "Invalid HTTP_HOST header: 'evil.example'" in venue.output

        # g) The console's Other devices page names the venue's address.
        devices = laptop.get(f"{base}/console/devices/")
        assert devices["status"] == 200
        assert f'href="{base}/console/"' in devices["body"]
        assert f'href="{base}/"' in devices["body"]
        assert 'id="local-only"' not in devices["body"]
        assert ".local</strong>" not in devices["body"]  # --no-mdns: no name is announced
        assert "Traceback" not in venue.output, venue.output
    finally:
        phone.close()
        laptop.close()
        venue.stop()
