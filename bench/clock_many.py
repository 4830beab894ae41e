"""Many clocks at once: is every level announced on time?

    python -m bench.clock_many --tournaments 100 --minutes 3
    python -m bench.clock_many --stack full --tournaments 500 --minutes 3

Creates `tournaments` tournaments with one-minute levels and starts their clocks a few seconds
apart, so level ends are spread over each minute. The embedded ticker runs in this process (a
thread, as under `floor.py run`) against the database of `DATABASE_URL` (default: an SQLite
file under var/, the embedded default; set a PostgreSQL URL for that). Meanwhile the main
thread asks for each tournament's clock JSON once per second, as the big screens do at
reconnect, each tournament at its own phase within the second (`--lockstep`: all of them back
to back at the start of each second).

Lateness of an announcement is the `announced_at` the announcer stamped on the level's event
minus the instant the level began (the start plus the levels before it: no pause in the bench).
An idle pass is measured before the first level end: the queries of one ticker pass when
nothing is due.

Prints one JSON line: tournaments, level_ends, missed, duplicates, late_p50_ms, late_p99_ms,
late_max_ms, queries_per_idle_pass, json_p99_ms, server_cpu_pct (this process, % of one core,
the JSON polling included).

`--stack full` runs the full stack instead, as docker-compose.yml does (`--topology production`,
the default): nginx in front (when installed) sending /ws/ to two uvicorn processes and the rest
to two granian processes; `--topology asgi` has two uvicorn processes answer both, as the
figures before the standard servers were taken. Besides the web processes: a Celery
worker (two processes, as in docker-compose.yml) and beat, PostgreSQL on 127.0.0.1:5432 (a
scratch database `floor_bench_clockmany`) and Redis (`BENCH_REDIS_URL`, default
redis://127.0.0.1:6379/13, keys under an installation prefix of this run, removed at the end).
Level ends are announced by the Celery tasks the clock commands arm with an ETA (beat is the
safety net). Each tournament has a websocket screen (half on each ASGI process) and its clock
JSON is asked for over HTTP once per second (keep-alive connections of ten tournaments each,
both processes, each connection at its own phase within the second as screens that came up at
different moments; `--lockstep` sends one request of every connection at the same instant), and
the servers' trivial view ten times a second as the baseline (`baseline_p99_ms`, `ratio_p99` =
json_p99_ms / baseline_p99_ms); the
figures add `ws_late_*` (the level message's arrival on the screen minus the level's start)
and the CPU of each process (`cpu_pct`, % of one core; `server_cpu_pct` is their sum, the
bench's own client not included). `queries_per_idle_pass` is then beat's safety-net tick with
nothing due.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from bench import _calibrate, _django, _stack

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
DATABASE_URL = "postgres://postgres@127.0.0.1:5432/floor_bench_clockmany"
# json_warm_p99_ms leaves out the first seconds: screens connecting (50 a second) and every
# clock's screen data built for the first time.
WARM_UP_SECONDS = 15


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _create_clocks(n: int, spread: float) -> dict[int, datetime]:
    """n tournaments of one-minute levels, clocks started so that level ends spread over
    `spread` seconds, the first a little after the setup. Returns each one's start instant."""
    from django.utils import timezone

    from actions.registration import entry_register
    from clocks.services import clock_command
    from tournament.domain.structure import LevelSpec
    from tournament.events import Actor
    from tournament.models import ChipSet
    from tournament.services.registration import player_create
    from tournament.services.tournaments import (
        chip_set_create,
        structure_create,
        tournament_create,
        tournament_status_set,
    )

    actor = Actor.system("bench")
    chips = ChipSet.objects.first() or chip_set_create(
        name="Bench chips", denominations=[(25, "green", "#2e7d32"), (100, "black", "#111")]
    )
    levels = [
        LevelSpec(small_blind=25 * (i + 1), big_blind=50 * (i + 1), minutes=1) for i in range(30)
    ]
    structure = structure_create(name="One-minute levels", levels=levels)
    player = player_create(name="Bench Player", actor=actor)
    made = []
    for i in range(n):
        t = tournament_create(
            actor=actor,
            structure=structure,
            chip_set=chips,
            name=f"Satellite {i + 1}",
            starts_at=timezone.now(),
            buy_in=1000,
            starting_stack=5000,
        )
        tournament_status_set(tournament=t, status="registering", actor=actor)
        entry_register(tournament=t, player=player, actor=actor)
        made.append(t)
    # Starting takes about 10 ms a clock: the first level end comes after it, and after an
    # idle pass has been measured.
    first_end = timezone.now() + timedelta(seconds=10 + 0.03 * n)
    started: dict[int, datetime] = {}
    for i, t in enumerate(made):
        # Level 1 of clock i ends at first_end + i * spread / n: starts a few seconds apart.
        end = first_end + timedelta(seconds=spread * i / max(1, n))
        start = end - timedelta(minutes=1)
        clock_command(tournament=t, kind="start", actor=actor, now=start)
        started[t.pk] = start
    return started


def _level_figures(
    started: dict[int, datetime], run_from: datetime, run_to: datetime
) -> dict[str, Any]:
    """Lateness (the announcer's stamp minus the level's start), misses and duplicates of the
    level starts that fell in the run, from the event log."""
    from tournament.models import Event

    late: list[float] = []
    announced: dict[tuple[int, int], int] = {}
    for e in Event.objects.filter(action__in=["clock.level", "clock.break"]).values(
        "tournament_id", "payload"
    ):
        key = (e["tournament_id"], int(e["payload"]["level_index"]))
        announced[key] = announced.get(key, 0) + 1
        begun = started[key[0]] + timedelta(minutes=key[1])
        at = datetime.fromisoformat(e["payload"]["announced_at"])
        if run_from <= begun <= run_to:
            late.append((at - begun).total_seconds() * 1000)
    expected = missed = 0
    for pk, start in started.items():
        index = 1
        while start + timedelta(minutes=index) <= run_to - timedelta(seconds=1):
            if start + timedelta(minutes=index) >= run_from:
                expected += 1
                if (pk, index) not in announced:
                    missed += 1
            index += 1
    return {
        "level_ends": expected,
        "missed": missed,
        "duplicates": sum(1 for n in announced.values() if n > 1),
        "late_p50_ms": round(statistics.median(late), 1) if late else None,
        "late_p99_ms": round(_percentile(late, 0.99), 1),
        "late_max_ms": round(max(late), 1) if late else None,
    }


def run_embedded(args: argparse.Namespace) -> dict[str, Any]:
    root = _django.ROOT
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{root / 'var' / 'bench_clocks.sqlite3'}")
    if os.environ["DATABASE_URL"].startswith("sqlite"):
        (root / "var").mkdir(exist_ok=True)
        path = os.environ["DATABASE_URL"].removeprefix("sqlite:///")
        if os.path.exists(path):
            os.remove(path)
    os.environ["REDIS_URL"] = ""
    os.environ["FLOOR_TICKER"] = "off"  # this bench starts the ticker itself
    url = _django.setup(fresh=True)

    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from clocks import ticker, wakeup

    started = _create_clocks(args.tournaments, args.spread)

    # One ticker pass with nothing due: how many queries?
    with CaptureQueriesContext(connection) as idle:
        ticker.tick_once()
    idle_queries = len(idle.captured_queries)

    stop = threading.Event()
    ticker.share_the_interpreter()  # as start_background_ticker does under floor_serve
    thread = threading.Thread(target=ticker.run_forever, kwargs={"stop": stop}, daemon=True)
    cpu0, wall0 = time.process_time(), time.monotonic()
    run_from = timezone.now()
    thread.start()
    client = Client()
    json_ms: list[float] = []
    deadline = time.monotonic() + args.minutes * 60
    pks = list(started)
    while time.monotonic() < deadline:
        second = time.monotonic()
        for i, pk in enumerate(pks):
            # Each screen at its own phase within the second, as screens that came up at
            # different moments poll; --lockstep asks them all back to back at the second's start.
            if not args.lockstep:
                time.sleep(max(0.0, second + i / len(pks) - time.monotonic()))
            t0 = time.perf_counter()
            client.get(f"/t/{pk}/clock.json")
            json_ms.append((time.perf_counter() - t0) * 1000)
            if time.monotonic() >= deadline:
                break
        time.sleep(max(0.0, 1.0 - (time.monotonic() - second)))
    run_to = timezone.now()
    cpu = time.process_time() - cpu0
    wall = time.monotonic() - wall0
    time.sleep(1.5)  # let an announcement in flight finish
    stop.set()
    wakeup.wake()
    thread.join(timeout=10)

    return {
        "bench": "clock_many",
        "stack": "embedded",
        "database": url.split(":", 1)[0],
        "tournaments": args.tournaments,
        "minutes": args.minutes,
        **_level_figures(started, run_from, run_to),
        "queries_per_idle_pass": idle_queries,
        "json_p99_ms": round(_percentile(json_ms, 0.99), 1),
        "lockstep": args.lockstep,
        "server_cpu_pct": round(100 * cpu / wall, 1),
    }


# --- the full stack ------------------------------------------------------------------------


def _cpu_seconds(pid: int) -> float:
    """CPU time of a process and its children (a Celery worker's pool), from /proc."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    family = {pid}
    stats: dict[int, list[str]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    stats[int(entry)] = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
    grew = True
    while grew:
        grew = False
        for other, fields in stats.items():
            if other not in family and int(fields[1]) in family:
                family.add(other)
                grew = True
    for member in family:
        if member in stats:
            total += (int(stats[member][11]) + int(stats[member][12])) / tick
    return total


def _celery(env: dict[str, str], *command: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", *command, "--loglevel", "warning"],
        cwd=_stack.ROOT,
        env=env,
    )


async def _screen(
    port: int,
    pk: int,
    stop_at: float,
    got: list[tuple[int, int, float]],
    errors: list[str],
    delay: float = 0.0,
) -> None:
    """One tournament's websocket screen: the arrival of each level message. Screens connect
    `delay` seconds in, a few at a time, as a floor's screens come up."""
    import websockets

    await asyncio.sleep(delay)
    url = f"ws://127.0.0.1:{port}/ws/t/{pk}/"
    while time.monotonic() < stop_at:
        try:
            async with websockets.connect(
                url,
                origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
                open_timeout=30,
                ping_interval=None,
            ) as ws:
                while time.monotonic() < stop_at:
                    try:
                        text = await asyncio.wait_for(ws.recv(), stop_at - time.monotonic())
                    except TimeoutError:
                        return
                    arrived = time.time()
                    message = json.loads(text)
                    if message.get("event") == "level":
                        got.append((pk, int(message["data"]["level"]["index"]), arrived))
        except (OSError, websockets.exceptions.WebSocketException) as exc:
            errors.append(f"ws {pk}: {exc!r}")
            await asyncio.sleep(0.5)


async def _poller(
    port: int,
    pks: list[int],
    stop_at: float,
    json_ms: list[tuple[float, float]],
    errors: list[str],
    phase: float = 0.0,
    path: str = "/t/{pk}/clock.json",
) -> None:
    """Keep-alive HTTP/1.1: each tournament's clock JSON once per second, spread evenly over the
    second; `phase` (0..1 of the gap between two requests) offsets this connection's requests
    from the other connections'. A failed request is counted and the connection opened again."""
    gap = 1.0 / max(1, len(pks))
    await asyncio.sleep(phase * gap)
    due = time.monotonic()
    reader: asyncio.StreamReader | None = None
    writer: asyncio.StreamWriter | None = None
    while time.monotonic() < stop_at:
        for pk in pks:
            due += gap
            t0 = time.perf_counter()
            try:
                if reader is None or writer is None:
                    reader, writer = await asyncio.open_connection("127.0.0.1", port)
                writer.write(
                    f"GET {path.format(pk=pk)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
                )
                head = await reader.readuntil(b"\r\n\r\n")
                length = re.search(rb"content-length: *(\d+)", head, re.IGNORECASE)
                if length is not None:
                    await reader.readexactly(int(length[1]))
                if not head.startswith(b"HTTP/1.1 200") or length is None:
                    raise OSError(f"answered {head[:40]!r}")
                json_ms.append((t0, (time.perf_counter() - t0) * 1000))
            except (OSError, asyncio.IncompleteReadError) as exc:
                errors.append(f"{path.format(pk=pk)}: {exc!r}")
                if writer is not None:
                    writer.close()
                reader = writer = None
            await asyncio.sleep(max(0.0, due - time.monotonic()))
    if writer is not None:
        writer.close()


async def _clients(
    ports: list[int],
    pks: list[int],
    seconds: float,
    http_ports: list[int] | None = None,
    lockstep: bool = False,
) -> tuple[
    list[tuple[int, int, float]], list[tuple[float, float]], list[tuple[float, float]], list[str]
]:
    """Screens on the websocket `ports`; the JSON polled from `http_ports` (the same by default),
    and the baseline: the same servers' trivial view (/api/time, through Django's middleware)
    ten times a second on a connection of its own. The JSON connections' requests interleave
    (each its own phase within the second, as screens that came up at different moments);
    `lockstep` sends them in bursts instead, one request of every connection at the same
    instant."""
    http_ports = http_ports or ports
    stop_at = time.monotonic() + seconds
    got: list[tuple[int, int, float]] = []
    json_ms: list[tuple[float, float]] = []
    baseline_ms: list[tuple[float, float]] = []
    errors: list[str] = []
    # Screens come up 50 a second (a burst of hundreds of connects at once is another test).
    tasks = [
        _screen(ports[i % len(ports)], pk, stop_at, got, errors, delay=i / 50)
        for i, pk in enumerate(pks)
    ]
    # About ten tournaments per connection, both processes.
    connections = max(len(ports), (len(pks) + 9) // 10)
    for c in range(connections):
        share = pks[c::connections]
        if share:
            phase = 0.0 if lockstep else c / connections
            port = http_ports[c % len(http_ports)]
            tasks.append(_poller(port, share, stop_at, json_ms, errors, phase))
    baseline = [0] * 10  # ten requests a second
    tasks.append(_poller(http_ports[0], baseline, stop_at, baseline_ms, errors, 0.5, "/api/time"))
    await asyncio.gather(*tasks)
    return got, json_ms, baseline_ms, errors


def run_full(args: argparse.Namespace) -> dict[str, Any]:
    installation = f"clockmany-{os.getpid()}"
    os.environ.update(
        {
            "DATABASE_URL": DATABASE_URL,
            "REDIS_URL": REDIS_URL,
            "FLOOR_TICKER": "celery",
            "FLOOR_INSTALLATION": installation,
            "DJANGO_SETTINGS_MODULE": "config.settings.base",
        }
    )
    url = _django.setup(fresh=True)
    env = {**_stack.stack_env(url, REDIS_URL), "FLOOR_TICKER": "celery"}
    env["FLOOR_INSTALLATION"] = installation

    from django.conf import settings
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from django.utils import timezone

    from clocks import tasks

    beat_dir = Path(tempfile.mkdtemp(prefix="floor-beat-"))
    stack: _stack.FullStack | None = None
    if args.topology == "production":
        # As docker-compose.yml: the proxy sends /ws/ to two uvicorn processes and the JSON
        # to two granian processes.
        stack = _stack.FullStack(env).start()
        ports, http_ports = stack.ws_ports, stack.http_ports
        web = list(stack.procs)
        names = [f"web_{i + 1}" for i in range(2)] + [f"ws_{i + 1}" for i in range(2)]
        names += ["proxy"] if stack.proxy else []
    else:  # two uvicorn processes answer both (the figures before the standard servers)
        ports = http_ports = [_stack.free_port(), _stack.free_port()]
        web = [_stack.start_asgi(port, env) for port in ports]
        names = ["web_1", "web_2"]
        for port in ports:
            _stack.wait_http(port)
    worker = _celery(env, "worker", "--concurrency", "2", "--without-gossip", "--without-mingle")
    beat = _celery(env, "beat", "--schedule", str(beat_dir / "schedule"))
    procs = [*web, worker, beat]
    names += ["worker", "beat"]
    try:
        started = _create_clocks(args.tournaments, args.spread)
        # Beat's safety-net tick with nothing due: how many queries?
        with CaptureQueriesContext(connection) as idle:
            tasks.clocks_tick()
        idle_queries = len(idle.captured_queries)
        connection.close()

        cpu0 = [_cpu_seconds(p.pid) for p in procs]
        own0, wall0 = time.process_time(), time.monotonic()
        run_from = timezone.now()
        timed_from = time.perf_counter()
        got, json_timed, baseline_timed, errors = asyncio.run(
            _clients(ports, list(started), args.minutes * 60, http_ports, args.lockstep)
        )
        json_ms = [ms for _at, ms in json_timed]
        baseline_ms = [ms for _at, ms in baseline_timed]
        # After the warm-up: every screen connected and every clock's screen data built once.
        warm_from = timed_from + WARM_UP_SECONDS + len(started) / 50
        json_warm = [ms for at, ms in json_timed if at >= warm_from]
        run_to = timezone.now()
        wall = time.monotonic() - wall0
        cpu = [_cpu_seconds(p.pid) - c for p, c in zip(procs, cpu0, strict=True)]
        own = time.process_time() - own0
        time.sleep(1.5)  # let an announcement in flight finish
    finally:
        _stack.stop([worker, beat])
        if stack is not None:
            stack.stop()
        else:
            _stack.stop(web)
        shutil.rmtree(beat_dir, ignore_errors=True)

    ws_late = [
        (arrived - (started[pk] + timedelta(minutes=index)).timestamp()) * 1000
        for pk, index, arrived in got
        if run_from <= started[pk] + timedelta(minutes=index) <= run_to
    ]
    figures = _level_figures(started, run_from, run_to)
    import redis

    r = redis.Redis.from_url(REDIS_URL)
    for key in r.scan_iter(match=f"{settings.FLOOR_REDIS_PREFIX}*", count=1000):
        r.delete(key)
    return {
        "bench": "clock_many",
        "stack": "full",
        "topology": args.topology,
        "proxy": stack.proxy if stack is not None else None,
        "database": url.split(":", 1)[0],
        "tournaments": args.tournaments,
        "minutes": args.minutes,
        **figures,
        "ws_messages": len(ws_late),
        "ws_late_p50_ms": round(statistics.median(ws_late), 1) if ws_late else None,
        "ws_late_p99_ms": round(_percentile(ws_late, 0.99), 1),
        "ws_late_max_ms": round(max(ws_late), 1) if ws_late else None,
        "queries_per_idle_pass": idle_queries,
        "json_requests": len(json_ms),
        "json_p50_ms": round(statistics.median(json_ms), 1) if json_ms else None,
        "json_p99_ms": round(_percentile(json_ms, 0.99), 1),
        "json_max_ms": round(max(json_ms), 1) if json_ms else None,
        "json_warm_p99_ms": round(_percentile(json_warm, 0.99), 1),
        "baseline_p50_ms": round(statistics.median(baseline_ms), 1) if baseline_ms else None,
        "baseline_p99_ms": round(_percentile(baseline_ms, 0.99), 1),
        "ratio_p99": round(
            _percentile(json_ms, 0.99) / max(0.1, _percentile(baseline_ms, 0.99)), 2
        ),
        "lockstep": args.lockstep,
        "server_cpu_pct": round(100 * sum(cpu) / wall, 1),
        "cpu_pct": {n: round(100 * c / wall, 1) for n, c in zip(names, cpu, strict=True)},
        "client_cpu_pct": round(100 * own / wall, 1),
        "errors": len(errors),
        "first_errors": errors[:3],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stack", choices=["embedded", "full"], default="embedded")
    parser.add_argument(
        "--topology",
        choices=["production", "asgi"],
        default="production",
        help="full stack: the proxy, granian for HTTP and uvicorn for /ws/ (production), or "
        "two uvicorn processes answering both (asgi)",
    )
    parser.add_argument(
        "--lockstep",
        action="store_true",
        help="every poller sends at the start of each second (full stack: bursts of one "
        "request per ten tournaments; embedded: all back to back) instead of each at its own "
        "phase",
    )
    parser.add_argument("--tournaments", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=3)
    parser.add_argument("--spread", type=float, default=60, help="seconds the starts spread")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    result = run_full(args) if args.stack == "full" else run_embedded(args)
    # The machine's load (1-minute average) before and after: other work skews every figure.
    result["load_avg"] = [round(load, 1), round(os.getloadavg()[0], 1)]
    print(_calibrate.line(result))


if __name__ == "__main__":
    main()
