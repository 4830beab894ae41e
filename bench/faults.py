"""Fault injection on the full stack, on loopback, bounded in time.

    python -m bench.faults                 # every scenario
    python -m bench.faults --only redis    # one of: worker, beat, asgi, redis, postgres

Runs its own PostgreSQL cluster (initdb in a temporary directory, as the `postgres` user when
started as root) and its own Redis server on free ports, so stopping them touches nothing else
on the machine. On top: two ASGI processes (uvicorn), a Celery worker and Celery beat — the
production set-up of docker-compose.yml — and a big-screen page in Chromium.

Each scenario sets the level to end a few seconds ahead, injects one fault before the level
ends, repairs it after, and checks:

- worker / beat: the Celery worker or beat is killed (SIGKILL) and restarted;
- asgi: the ASGI process that serves the big screen is killed and restarted on its port;
- redis: Redis is stopped and started again (empty: it keeps nothing on disk); while it is
  down a registration is made through the API and the big screen falls back to polling;
- postgres: PostgreSQL is restarted (fast shutdown: open connections are cut).

After each: the level start is recorded exactly once (late is fine, lost or doubled is not),
the big screen is live again and shows the server's time within 1 s, the public clock answers,
and writes made during the fault are kept (the event log holds one event per write). Prints one
JSON line: scenarios, faults_injected, checks, violations (a list: empty when all held), and
per scenario the seconds until the screen was live again and the level start was recorded.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from bench import _calibrate, _stack

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ("worker", "beat", "asgi", "redis", "postgres")


def _pg_bin(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    for d in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (d / name).exists():
            return str(d / name)
    raise RuntimeError(f"PostgreSQL's {name} is not installed")


class PrivatePostgres:
    """A throw-away PostgreSQL cluster on a free port."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="floor-pg-"))
        self.data = self.dir / "data"
        self.port = _stack.free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            shutil.chown(self.dir, "postgres", "postgres")
        self._run(_pg_bin("initdb"), "-D", str(self.data), "-U", "postgres", "-A", "trust")

    def _run(self, *cmd: str) -> None:
        args = list(cmd)
        if self.as_root:
            args = ["runuser", "-u", "postgres", "--", *args]
        subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/floor"

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            _pg_bin("pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            opts,
            "-l",
            str(self.dir / "log"),
            "-w",
            "start",
        )

    def stop(self) -> None:
        self._run(_pg_bin("pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def create_database(self) -> None:
        import psycopg

        admin = f"postgres://postgres@127.0.0.1:{self.port}/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute("CREATE DATABASE floor")

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):
            self.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


class PrivateRedis:
    def __init__(self) -> None:
        self.port = _stack.free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [
                shutil.which("redis-server") or "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--loglevel",
                "warning",
            ],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 10
        import socket

        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), 0.5):
                    return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("redis did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(5)
            self.proc = None


class Stack:
    """Two ASGI processes, a Celery worker and beat against the private services."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.ports = [_stack.free_port(), _stack.free_port()]
        self.asgi: list[subprocess.Popen[bytes] | None] = [None, None]
        self.worker: subprocess.Popen[bytes] | None = None
        self.beat: subprocess.Popen[bytes] | None = None
        self.beat_dir = Path(tempfile.mkdtemp(prefix="floor-beat-"))

    def start_asgi(self, i: int) -> None:
        self.asgi[i] = _stack.start_asgi(self.ports[i], self.env)
        _stack.wait_http(self.ports[i])

    def start_worker(self) -> None:
        self.worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "worker",
                "--pool",
                "solo",
                "--loglevel",
                "error",
                "--without-gossip",
                "--without-mingle",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def start_beat(self) -> None:
        self.beat = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "config",
                "beat",
                "--loglevel",
                "error",
                "--schedule",
                str(self.beat_dir / "schedule"),
            ],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def start(self) -> None:
        self.start_asgi(0)
        self.start_asgi(1)
        self.start_worker()
        self.start_beat()

    @staticmethod
    def kill(proc: subprocess.Popen[bytes] | None) -> None:
        if proc is not None and proc.poll() is None:
            proc.send_signal(signal.SIGKILL)
            proc.wait(10)

    def stop(self) -> None:
        procs = [p for p in (*self.asgi, self.worker, self.beat) if p is not None]
        _stack.stop(procs)
        shutil.rmtree(self.beat_dir, ignore_errors=True)


def http_json(port: int, path: str, timeout: float = 3) -> Any:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=timeout) as r:
        return json.loads(r.read())


def wait_for(check: Any, timeout: float, step: float = 0.1) -> float | None:
    """Seconds until check() is true, or None on timeout."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < timeout:
        try:
            if check():
                return round(time.monotonic() - t0, 2)
        except Exception:  # noqa: S110 - the service may be down: ask until the deadline
            pass
        time.sleep(step)
    return None


class Floor:
    """The runner's own view of the database (for the truth) and one floor login (for writes)."""

    def __init__(self, stack: Stack) -> None:
        from django.utils import timezone

        from tournament.domain.structure import LevelSpec
        from tournament.events import Actor
        from tournament.models import ChipSet, Tournament
        from tournament.services.tournaments import structure_create, tournament_create

        self.stack = stack
        self.actor = Actor.system("faults")
        structure = structure_create(
            name="faults",
            levels=[LevelSpec(100 * (i + 1), 200 * (i + 1), minutes=5) for i in range(30)],
        )
        t = tournament_create(
            actor=self.actor,
            name="Faults",
            starts_at=timezone.now(),
            buy_in=1000,
            fee=0,
            starting_stack=10000,
            structure=structure,
            chip_set=ChipSet.objects.create(name="faults"),
            late_registration_until_level=30,
        )
        Tournament.objects.filter(pk=t.pk).update(status="registering")
        t.refresh_from_db()
        self.t = t
        from django.contrib.auth.models import Group, User

        user = User.objects.create_user("faultfloor", password="pw-faults-123")  # noqa: S106
        group, _ = Group.objects.get_or_create(name="floor")
        user.groups.add(group)

    def db(self, fn: Any) -> Any:
        """Run fn() with a fresh connection (PostgreSQL may have been restarted)."""
        from django.db import close_old_connections, connection

        for attempt in range(50):
            try:
                close_old_connections()
                return fn()
            except Exception:
                connection.close()
                if attempt == 49:
                    raise
                time.sleep(0.2)
        return None

    def command(self, kind: str, seconds: int = 0) -> None:
        from clocks.services import clock_command

        self.db(
            lambda: clock_command(tournament=self.t, kind=kind, seconds=seconds, actor=self.actor)
        )

    def level_events(self) -> dict[int, int]:
        from tournament.models import Event

        def count() -> dict[int, int]:
            out: dict[int, int] = {}
            for p in Event.objects.filter(
                tournament=self.t, action__in=["clock.level", "clock.break"]
            ).values_list("payload", flat=True):
                out[p["level_index"]] = out.get(p["level_index"], 0) + 1
            return out

        return self.db(count)  # type: ignore[no-any-return]

    def truth(self) -> tuple[int, float]:
        from clocks.selectors import clock_state_for

        state = self.db(lambda: clock_state_for(self.t))
        assert state.level_ends_at is not None
        return state.level_index, state.level_ends_at.timestamp() * 1000

    def register_over_http(self, port: int, name: str) -> int:
        """Log in as the floor and register a player through the API; returns the status of
        the first request that failed, or the registration's (0: no answer at all)."""
        import http.cookiejar

        jar = http.cookiejar.CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        base = f"http://127.0.0.1:{port}"
        try:
            opener.open(f"{base}/login/", timeout=5).read()
            token = next(c.value for c in jar if c.name == "csrftoken")
            data = f"username=faultfloor&password=pw-faults-123&csrfmiddlewaretoken={token}"
            req = urllib.request.Request(  # noqa: S310 - loopback http only
                f"{base}/login/", data=data.encode(), headers={"Referer": f"{base}/login/"}
            )
            opener.open(req, timeout=5).read()
            token = next(c.value for c in jar if c.name == "csrftoken")
            body = json.dumps({"name": name, "payment_method": "cash"}).encode()
            req = urllib.request.Request(  # noqa: S310 - loopback http only
                f"{base}/api/tournaments/{self.t.pk}/entries/",
                data=body,
                headers={
                    "Content-Type": "application/json",
                    "X-CSRFToken": token,
                    "Referer": f"{base}/",
                },
            )
            with opener.open(req, timeout=10) as r:
                return int(r.status)
        except urllib.error.HTTPError as exc:
            self.last_error = exc.read().decode(errors="replace")[:300]
            return int(exc.code)
        except (urllib.error.URLError, OSError, StopIteration) as exc:
            self.last_error = str(exc)
            return 0


def screen_state(page: Any) -> tuple[str, int, float, float]:
    """What the big screen shows: live or offline, the level's index, the time left in it as
    the page projects it (static/clocks/bigscreen.js `window.floorClock`), and when (the
    page's own clock, epoch ms)."""
    got = page.evaluate(
        "() => { const e = document.getElementById('bs-time');"
        " const s = document.getElementById('bs-status');"
        " return [s.classList.contains('offline') ? 'offline' : 'live',"
        " Number(e.dataset.levelIndex), window.floorClock.project().remainingMs,"
        " Date.now()]; }"
    )
    return got[0], int(got[1]), float(got[2]), float(got[3])


def run(only: str | None) -> dict[str, Any]:
    pg = PrivatePostgres()
    redis = PrivateRedis()
    pg.start()
    pg.create_database()
    redis.start()
    # Always the production settings against the private services, never the caller's.
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.base"
    os.environ["DATABASE_URL"] = pg.url
    os.environ["REDIS_URL"] = redis.url
    os.environ["FLOOR_TICKER"] = "celery"
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from bench import _django

    _django.setup()
    env = {**_stack.stack_env(pg.url, redis.url), "FLOOR_TICKER": "celery"}
    stack = Stack(env)
    results: dict[str, Any] = {}
    violations: list[str] = []
    checks = 0
    faults = 0
    try:
        stack.start()
        floor = Floor(stack)
        floor.command("start")
        from playwright.sync_api import sync_playwright

        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path="/usr/bin/chromium", args=["--no-sandbox", "--disable-gpu"]
            )
            page = browser.new_page(viewport={"width": 1280, "height": 720})
            page.goto(f"http://127.0.0.1:{stack.ports[0]}/t/{floor.t.pk}/clock/")
            page.wait_for_function(
                "() => document.getElementById('bs-status').textContent.trim().length > 1"
                " && !document.getElementById('bs-status').classList.contains('offline')",
                timeout=15000,
            )
            for name in SCENARIOS:
                if only and name != only:
                    continue
                before = floor.level_events()
                level_before, _end = floor.truth()
                floor.command("set_remaining", 4)
                time.sleep(1)
                faults += 1
                extra: dict[str, Any] = {}
                if name == "worker":
                    stack.kill(stack.worker)
                    time.sleep(5)  # the level ends while the worker is dead
                    stack.start_worker()
                elif name == "beat":
                    stack.kill(stack.beat)
                    time.sleep(5)
                    stack.start_beat()
                elif name == "asgi":
                    stack.kill(stack.asgi[0])
                    time.sleep(3)
                    stack.start_asgi(0)
                elif name == "redis":
                    redis.stop()
                    time.sleep(1)
                    status = floor.register_over_http(stack.ports[1], "Redis Outage")
                    checks += 1
                    extra["write_during_outage"] = status
                    if status != 201:
                        violations.append(
                            f"redis: a registration during the outage got {status}: "
                            f"{getattr(floor, 'last_error', '')}"
                        )
                    checks += 1
                    try:
                        http_json(stack.ports[1], f"/t/{floor.t.pk}/clock.json")
                    except Exception as exc:
                        violations.append(f"redis: clock.json failed during the outage: {exc}")
                    time.sleep(3)
                    polled = screen_state(page)
                    checks += 2
                    if polled[0] != "offline":
                        violations.append("redis: the screen did not notice the outage")
                    index, end_ms = floor.truth()
                    if polled[1] == index:
                        extra["screen_error_during_outage_ms"] = round(
                            abs(polled[2] - (end_ms - polled[3])), 1
                        )
                        if extra["screen_error_during_outage_ms"] > 1000:
                            violations.append("redis: the polling screen is more than 1 s off")
                    else:
                        violations.append("redis: the polling screen shows the wrong level")
                    redis.start()
                elif name == "postgres":
                    pg.stop()
                    status = floor.register_over_http(stack.ports[1], "During Restart")
                    checks += 1
                    extra["write_while_down"] = status
                    if status == 201:
                        violations.append("postgres: a write succeeded with the database down")
                    time.sleep(1)
                    pg.start()
                    status = wait_for(
                        lambda: floor.register_over_http(stack.ports[1], "After Restart") == 201,
                        15,
                        0.5,
                    )
                    checks += 1
                    extra["write_ok_again_s"] = status
                    if status is None:
                        violations.append("postgres: writes did not work again after the restart")
                # Recovery: the level start is recorded exactly once ...
                target = level_before + 1
                recorded = wait_for(
                    lambda target=target: floor.level_events().get(target, 0) >= 1, 20, 0.25
                )
                after = floor.level_events()
                checks += 2
                if recorded is None:
                    violations.append(f"{name}: level {target} was never recorded")
                for index, n in after.items():
                    if n - before.get(index, 0) > 1 or n > 1:
                        violations.append(f"{name}: level {index} recorded {n} times")
                # ... and the screen is live again and right.
                live = wait_for(lambda: screen_state(page)[0] == "live", 25, 0.2)
                checks += 1
                if live is None:
                    violations.append(f"{name}: the big screen did not reconnect")
                time.sleep(1.5)  # a few sync samples after reconnecting
                index, end_ms = floor.truth()
                _status, shown_index, remaining, at = screen_state(page)
                error = abs(remaining - (end_ms - at))
                checks += 1
                if shown_index != index or error > 1000:
                    violations.append(
                        f"{name}: screen shows level {shown_index} ({error:.0f} ms off), "
                        f"server level {index}"
                    )
                checks += 1
                ok = wait_for(
                    lambda: http_json(stack.ports[1], f"/t/{floor.t.pk}/clock.json") is not None,
                    10,
                )
                if ok is None:
                    violations.append(f"{name}: the public clock did not answer again")
                results[name] = {
                    "level_recorded_s": recorded,
                    "screen_live_again_s": live,
                    "screen_error_ms": round(error, 1),
                    **extra,
                }
            # Writes made during faults are kept, one event each.
            from tournament.models import Entry, Event

            def kept() -> tuple[int, int]:
                ids = list(
                    Entry.objects.filter(
                        tournament=floor.t, player__name="Redis Outage"
                    ).values_list("pk", flat=True)
                )
                return (
                    len(ids),
                    Event.objects.filter(
                        tournament=floor.t, action="entry.register", payload__entry__in=ids
                    ).count(),
                )

            def consistent() -> tuple[int, int]:
                return (
                    Entry.objects.filter(tournament=floor.t).count(),
                    Event.objects.filter(tournament=floor.t, action="entry.register").count(),
                )

            if not only or only == "redis":
                entries, events = floor.db(kept)
                checks += 1
                if entries != 1 or events != 1:
                    violations.append(f"write kept {entries} times with {events} events")
            entries, events = floor.db(consistent)
            checks += 1
            if entries != events:
                violations.append(f"{entries} entries but {events} registration events")
            if floor.db(
                lambda: Entry.objects.filter(
                    tournament=floor.t, player__name="During Restart"
                ).exists()
            ):
                violations.append("postgres: a write made while it was down was half-kept")
            browser.close()
    finally:
        stack.stop()
        redis.stop()
        pg.destroy()
    return {
        "scenarios": len(results),
        "faults_injected": faults,
        "checks": checks,
        "violations": violations,
        **results,
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--only", choices=SCENARIOS)
    args = parser.parse_args()
    print(_calibrate.line(run(args.only)))


if __name__ == "__main__":
    main()
