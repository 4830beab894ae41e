"""Start `manage.py floor_venue` (the venue's own server, docs/venue.md) in a process of its own,
on a var directory of the test's: its own SQLite database, secret key and lock."""

from __future__ import annotations

import os
import random
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIRECTOR = ("tessa", "Karo-Dame-Sieben-7")


def free_port() -> int:
    """A port free on every address, from a range of this test worker's own: two workers
    starting venues at once each probed the kernel for a free port and could be handed the same
    one, and the first venue's /healthz then answered for the second (whose own start failed)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    index = int(worker[2:]) if worker[2:].isdigit() else 0
    first = 21000 + 2000 * (index % 8)
    for port in random.sample(range(first, first + 2000), 2000):
        with socket.socket() as s:
            try:
                s.bind(("0.0.0.0", port))  # noqa: S104 - only probing whether the port is free
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {first}..{first + 1999}")


def venue_env(var_dir: Path, **extra: str) -> dict[str, str]:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("FLOOR_", "DJANGO_", "DATABASE_URL", "REDIS_URL"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.venue",
        FLOOR_VAR_DIR=str(var_dir),
        PYTHONUNBUFFERED="1",
        # The terminal's language (the tests read the English sentences).
        LANG="C.UTF-8",
        LC_ALL="",
        LC_MESSAGES="",
    )
    env.update(extra)
    return env


@dataclass
class Venue:
    proc: subprocess.Popen[bytes]
    port: int
    var_dir: Path
    log: Path

    @property
    def output(self) -> str:
        return self.log.read_text(errors="replace")

    def get(self, path: str, host: str = "127.0.0.1", headers: dict[str, str] | None = None):
        request = urllib.request.Request(f"http://{host}:{self.port}{path}", headers=headers or {})
        return urllib.request.urlopen(request, timeout=10)  # noqa: S310 - the test's own server

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        return int(self.proc.returncode)


def answers(venue: Venue, timeout: float) -> bool:
    """Whether the venue's /healthz answers within `timeout` seconds (False at once when its
    process has ended: a refused start)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and venue.proc.poll() is None:
        try:
            with venue.get("/healthz") as response:
                if response.status == 200:
                    return True
        except OSError:
            time.sleep(0.2)
    return False


def start_venue(
    var_dir: Path,
    *args: str,
    port: int | None = None,
    env: dict[str, str] | None = None,
    director: bool = True,
    wait: bool = True,
    timeout: float = 90,
) -> Venue:
    """The venue server on `port` (a free one by default), unattended. With `wait`, returns
    once /healthz answers or the process has ended (a refused start: see `proc.returncode`)."""
    port = port or free_port()
    extra = dict(env or {})
    if director:
        extra.setdefault("FLOOR_DIRECTOR_USER", DIRECTOR[0])
        extra.setdefault("FLOOR_DIRECTOR_PASSWORD", DIRECTOR[1])
    log = var_dir.parent / f"{var_dir.name}-venue-{port}.log"
    with open(log, "ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "floor_venue", "--port", str(port), *args],
            cwd=ROOT,
            env=venue_env(var_dir, **extra),
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    venue = Venue(proc=proc, port=port, var_dir=var_dir, log=log)
    if wait:
        if answers(venue, timeout):
            return venue
        if proc.poll() is None:
            venue.stop()
            raise AssertionError(f"The venue did not answer in {timeout} s:\n{venue.output}")
    return venue
