"""Players' phones under load: seat look-ups and live move notices.

    python -m bench.player_lookup --entries 10000 --seconds 20 --pages 1000
    python -m bench.player_lookup --rate 1000 --connections 256 --pages 0   # an open loop

Runs the full stack on loopback as docker-compose.yml arranges it (PostgreSQL, Redis, two
granian processes for HTTP (the `web` service's command), two uvicorn processes for websockets,
nginx in front routing by path when `nginx` is installed, else the clients route by path
themselves; production-like settings: DEBUG off, Redis cache and channel layer) with a seated
tournament of `entries`. A separate process (at a higher scheduling priority where allowed: the
phones are not on the server's machine) sends "find my seat" look-ups by player number (the htmx
request a phone makes) over keep-alive connections for `seconds`, each from its own client
address (as a proxy would report it):

- by default a closed loop, like wrk: `connections` connections, each sending its next look-up
  as soon as the last is answered; latency is request sent → answer read;
- with `--rate R` an open loop: R look-ups per second on schedule whatever the answers take
  (phones arriving independently), over at most `connections` connections; latency counts from
  when the look-up was due, so a stall shows in every look-up it delays, and `send_lag_p99_ms`
  says how late the generator itself was.

While the look-ups run, the floor keeps working: every 200 ms (`--console-every`) a floor
account alternately registers a player through the API (a write through the same services as
the desk) and reads the balancing plan; `console_*` are those actions' latencies under load.
Then `pages` "my seat" websockets connect, the floor moves their players in batches of 100 (the
same service as the console's moves), and the bench measures move applied → notice received on
each page.

First, the same look-up load against a bare baseline: the same servers and proxy serving a
fixed small answer (bench/_stack.py bare_wsgi) for `--baseline-seconds`; `ratio_to_baseline` is
Floor's look-ups a second over the baseline's.

Prints one JSON line: entries, proxy, web (granian processes x workers x threads), offered_rps,
connections, requests, rps, p50_ms, p99_ms, errors, error_statuses, server_cpu_ms_per_request
(the servers' and the proxy's CPU time over the look-ups answered), client_cpu_ms_per_request
(the load generator's own, which on one machine comes out of the same cores), machine_busy (the
share of all cores busy during the look-ups), send_lag_p99_ms (open loop),
baseline_rps, baseline_p99_ms, baseline_cpu_ms_per_request, ratio_to_baseline, console_actions, console_p50_ms,
console_p99_ms, console_register_p50_ms, console_plan_p50_ms, pages, move_notice_p50_ms,
move_notice_p99_ms, notices_lost.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import random
import time
from collections import Counter
from typing import Any

from bench import _calibrate, _django, _stack

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/12")


# --- load generator ------------------------------------------------------------------------


class _Connection:
    """One keep-alive HTTP/1.1 connection sending look-ups as a phone's htmx request would."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str, ip: str) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        try:
            self.writer.write(
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nHX-Request: true\r\n"
                f"X-Forwarded-For: {ip}\r\nConnection: keep-alive\r\n\r\n".encode()
            )
            await self.writer.drain()
            head = await self.reader.readuntil(b"\r\n\r\n")
            status = int(head.split(b" ", 2)[1])
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            return status, await self.reader.readexactly(length)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            self.writer.close()
            self.reader = self.writer = None
            raise


class _Load:
    def __init__(self, ports: list[int], tournament: int, entries: int) -> None:
        self.ports = ports
        self.tournament = tournament
        self.entries = entries
        self.rng = random.Random(7)
        self.lat: list[float] = []
        self.errs: list[int] = []
        self.lag: list[float] = []  # how late each request left (open loop)

    async def one(self, conn: _Connection, t0: float) -> None:
        """One look-up of a random player from a random client address; the latency counts
        from `t0` (when the request was due, so time spent waiting to be sent counts too)."""
        rng = self.rng
        path = f"/t/{self.tournament}/find/?q={rng.randint(1, self.entries)}"
        ip = f"10.{rng.randrange(256)}.{rng.randrange(256)}.{rng.randrange(1, 255)}"
        self.lag.append((time.perf_counter() - t0) * 1000)
        try:
            status, body = await conn.get(path, ip)
        except (OSError, asyncio.IncompleteReadError, ValueError):
            self.errs.append(0)
            return
        self.lat.append((time.perf_counter() - t0) * 1000)
        if status != 200 or (b"Table" not in body and b"Tisch" not in body):
            self.errs.append(status)

    async def closed(self, conns: int, seconds: float) -> None:
        """`conns` connections, each sending its next look-up as soon as the last is answered."""
        deadline = time.monotonic() + seconds

        async def loop(conn: _Connection) -> None:
            while time.monotonic() < deadline:
                await self.one(conn, time.perf_counter())

        await asyncio.gather(
            *(loop(_Connection(self.ports[i % len(self.ports)])) for i in range(conns))
        )

    async def open(self, rate: float, seconds: float, max_conns: int) -> None:
        """Look-ups sent at a fixed `rate` per second whatever the answers take (an open loop,
        like phones arriving independently), over up to `max_conns` keep-alive connections."""
        idle: asyncio.Queue[_Connection] = asyncio.Queue()
        opened = 0
        tasks: set[asyncio.Task[None]] = set()
        start = time.perf_counter()

        async def send(conn: _Connection, due: float) -> None:
            await self.one(conn, due)
            idle.put_nowait(conn)

        for i in range(int(rate * seconds)):
            due = start + i / rate
            delay = due - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            if idle.empty() and opened < max_conns:
                idle.put_nowait(_Connection(self.ports[opened % len(self.ports)]))
                opened += 1
            conn = await idle.get()
            task = asyncio.create_task(send(conn, due))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
        await asyncio.gather(*tasks)


def load_main(
    ports: list[int],
    tournament: int,
    entries: int,
    seconds: float,
    conns: int,
    rate: float,
    out: Any,
) -> None:
    with contextlib.suppress(OSError):  # the phones are not on the server's machine
        os.nice(-10)
    load = _Load(ports, tournament, entries)
    started, cpu0 = time.monotonic(), time.process_time()
    if rate > 0:
        asyncio.run(load.open(rate, seconds, conns))
    else:
        asyncio.run(load.closed(conns, seconds))
    cpu = time.process_time() - cpu0
    out.put((load.lat, load.errs, time.monotonic() - started, load.lag, cpu))


# --- my-seat pages -------------------------------------------------------------------------


def pages_main(
    ports: list[int], tokens: list[tuple[int, str, int]], ready: Any, done: Any, out: Any
) -> None:
    import websockets

    arrivals: dict[int, float] = {}
    connected = 0

    async def one(i: int, entry: int, token: str, table: int) -> None:
        nonlocal connected
        port = ports[i % len(ports)]
        for attempt in range(20):
            try:
                async with websockets.connect(
                    f"ws://127.0.0.1:{port}/ws/s/{token}/",
                    origin=f"http://127.0.0.1:{port}",
                    open_timeout=30,
                    ping_interval=None,
                    max_queue=None,
                ) as ws:
                    connected += 1
                    async for raw in ws:
                        msg = json.loads(raw)
                        # The player's own "seat" message carries the new seat.
                        seat = (msg.get("data") or {}).get("seat") or {}
                        if msg.get("event") == "moved" or seat.get("table") not in (None, table):
                            arrivals.setdefault(entry, time.time())
                            return
                    return
            except (OSError, websockets.exceptions.WebSocketException):
                await asyncio.sleep(0.2 * (attempt + 1))

    async def run() -> None:
        tasks = []
        for i, (entry, token, table) in enumerate(tokens):
            tasks.append(asyncio.create_task(one(i, entry, token, table)))
            if i % 100 == 99:
                await asyncio.sleep(0.05)
        deadline = time.time() + 120
        while connected < len(tokens) and time.time() < deadline:
            await asyncio.sleep(0.1)
        ready.put(connected)
        while not done.is_set() and len(arrivals) < len(tokens):
            await asyncio.sleep(0.1)
        await asyncio.sleep(1)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())
    out.put(arrivals)


def _floor_token() -> str:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from rest_framework.authtoken.models import Token

    from core.roles import FLOOR, ensure_role_groups

    ensure_role_groups()
    user = get_user_model().objects.create_user("bench-floor")
    user.groups.add(Group.objects.get(name=FLOOR))
    return Token.objects.create(user=user).key


def _console_while(
    ports: list[int], pk: int, token: str, out: Any, timeout: float, every: float
) -> dict:
    """Console actions every `every` seconds until the look-up process reports back (none
    when `every` is 0)."""
    import http.client
    import queue

    ms: list[float] = []
    by_kind: dict[str, list[float]] = {"register": [], "plan": []}
    errors = 0
    deadline = time.monotonic() + timeout
    n = 0
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    while time.monotonic() < deadline:
        try:
            got = out.get(timeout=every or timeout)
            return {"result": got, "ms": ms, "errors": errors, "by_kind": by_kind}
        except queue.Empty:
            pass
        n += 1
        port = ports[n % len(ports)]
        if n % 2:
            method, path, body = (
                "POST",
                f"/api/tournaments/{pk}/entries/",
                json.dumps({"name": f"Late Player {n}", "payment_method": "cash"}),
            )
        else:
            method, path, body = "GET", f"/api/tournaments/{pk}/seating/plan/", None
        t0 = time.perf_counter()
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request(method, path, body=body, headers=headers)
            status = conn.getresponse().status
            conn.close()
            if status >= 400:
                errors += 1
        except OSError:
            errors += 1
        ms.append((time.perf_counter() - t0) * 1000)
        by_kind["register" if method == "POST" else "plan"].append(ms[-1])
    raise TimeoutError("the look-up process did not report")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=10000)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument(
        "--rate",
        type=float,
        default=0,
        help="look-ups sent per second (an open loop); 0: as fast as --connections answer",
    )
    parser.add_argument(
        "--connections",
        type=int,
        default=32,
        help="most connections open at once (--rate), or connections in the closed loop",
    )
    parser.add_argument("--pages", type=int, default=1000)
    parser.add_argument(
        "--console-every", type=float, default=0.2, help="seconds between console actions; 0: none"
    )
    parser.add_argument("--web", type=int, default=2, help="granian processes (`web` replicas)")
    parser.add_argument(
        "--workers", type=int, default=1, help="worker processes per granian process"
    )
    parser.add_argument("--threads", type=int, default=4, help="threads per granian worker")
    parser.add_argument("--no-proxy", action="store_true", help="no nginx: route by path")
    parser.add_argument(
        "--baseline-seconds", type=float, default=10, help="the bare baseline's load; 0: none"
    )
    args = parser.parse_args()

    os.environ["REDIS_URL"] = REDIS_URL  # this process broadcasts through the same Redis
    url = _django.setup(fresh=True)
    from django.utils import timezone

    from tables import services as svc
    from tournament.domain.structure import LevelSpec
    from tournament.events import Actor
    from tournament.models import ChipSet, Entry, EntryStatus, Player, Tournament
    from tournament.services.tournaments import structure_create, tournament_create

    actor = Actor.system("bench")
    t = tournament_create(
        actor=actor,
        name="Lookup",
        starts_at=timezone.now(),
        buy_in=1000,
        fee=0,
        starting_stack=10000,
        structure=structure_create(name="lk", levels=[LevelSpec(100, 200)]),
        chip_set=ChipSet.objects.create(name="lk"),
    )
    Tournament.objects.filter(pk=t.pk).update(status="running")
    t.refresh_from_db()
    players = Player.objects.bulk_create(
        Player(name=f"Player {i}", display_name=f"Player {i % 997}") for i in range(args.entries)
    )
    Entry.objects.bulk_create(
        Entry(tournament=t, player=p, number=i + 1, status=EntryStatus.ACTIVE)
        for i, p in enumerate(players)
    )
    svc.seats_draw(tournament=t, actor=actor)
    token = _floor_token()

    env = {**_stack.stack_env(url, REDIS_URL), "FLOOR_TRUSTED_PROXIES": "127.0.0.1"}
    ctx = mp.get_context("spawn")
    shape = {"web": args.web, "workers": args.workers, "threads": args.threads}
    baseline = _baseline(env, shape, not args.no_proxy, t.pk, args, ctx)
    stack = _stack.FullStack(env, ws=2, proxy=not args.no_proxy, **shape)
    result: dict[str, Any] = {
        "entries": args.entries,
        "database": url.split(":", 1)[0],
        "proxy": stack.proxy,
        "web": f"{args.web}x{args.workers}x{args.threads}",
        "offered_rps": args.rate or None,
        "connections": args.connections,
    }
    try:
        stack.start()
        ports = stack.http_ports
        out = ctx.Queue()
        loader = ctx.Process(
            target=load_main,
            args=(ports, t.pk, args.entries, args.seconds, args.connections, args.rate, out),
        )
        cpu0, machine0 = _stack.cpu_seconds(stack.procs), _stack.machine_cpu()
        loader.start()
        console_lat = _console_while(
            ports, t.pk, token, out, args.seconds + 120, args.console_every
        )
        lat, errs, elapsed, lag, client_cpu = console_lat.pop("result")
        cpu = _stack.cpu_seconds(stack.procs) - cpu0
        machine_busy = _stack.busy_share(machine0, _stack.machine_cpu())
        loader.join()
        result.update(
            console_actions=len(console_lat["ms"]),
            console_p50_ms=round(_stack.percentile(console_lat["ms"], 50), 1),
            console_p99_ms=round(_stack.percentile(console_lat["ms"], 99), 1),
            console_errors=console_lat["errors"],
        )
        for kind, values in console_lat["by_kind"].items():
            result[f"console_{kind}_p50_ms"] = round(_stack.percentile(values, 50), 1)
        result.update(
            requests=len(lat),
            rps=round(len(lat) / elapsed, 1),
            p50_ms=round(_stack.percentile(lat, 50), 1),
            p99_ms=round(_stack.percentile(lat, 99), 1),
            errors=len(errs),
            error_statuses=dict(sorted(Counter(errs).items())),
            # The servers' and the proxy's CPU per look-up (console actions included): less
            # sensitive than rps to what else the machine runs.
            server_cpu_ms_per_request=round(cpu * 1000 / max(1, len(lat)), 2),
            # The phones' own CPU per look-up: on this machine it comes out of the same cores.
            client_cpu_ms_per_request=round(client_cpu * 1000 / max(1, len(lat)), 2),
            # Everything on the machine (PostgreSQL and Redis too): near 1, the cores are the limit.
            machine_busy=machine_busy,
        )
        if args.rate > 0:  # in the closed loop a look-up leaves the moment it is made
            result["send_lag_p99_ms"] = round(_stack.percentile(lag, 99), 1)
        if baseline:
            result.update(
                baseline_rps=baseline["rps"],
                baseline_p99_ms=baseline["p99_ms"],
                baseline_errors=baseline["errors"],
                baseline_cpu_ms_per_request=baseline["cpu_ms"],
                ratio_to_baseline=round(result["rps"] / baseline["rps"], 2),
            )

        if args.pages > 0:
            result.update(_move_notices(t, stack.ws_ports, args.pages, ctx))
    finally:
        stack.stop()
    print(_calibrate.line(result))


def _baseline(
    env: dict[str, str],
    shape: dict[str, int],
    proxy: bool,
    tournament: int,
    args: argparse.Namespace,
    ctx: Any,
) -> dict[str, Any] | None:
    """The look-up load against the same servers and proxy serving a fixed answer."""
    if args.baseline_seconds <= 0:
        return None
    stack = _stack.FullStack(env, ws=0, proxy=proxy, app="bench._stack:bare_wsgi", **shape)
    try:
        stack.start()
        out = ctx.Queue()
        args_ = (stack.http_ports, tournament, args.entries, args.baseline_seconds)
        loader = ctx.Process(target=load_main, args=(*args_, args.connections, args.rate, out))
        cpu0 = _stack.cpu_seconds(stack.procs)
        loader.start()
        lat, errs, elapsed, _, _ = out.get(timeout=args.baseline_seconds + 120)
        cpu = _stack.cpu_seconds(stack.procs) - cpu0
        loader.join()
    finally:
        stack.stop()
    return {
        "rps": round(len(lat) / elapsed, 1),
        "p99_ms": round(_stack.percentile(lat, 99), 1),
        "errors": len(errs),
        "cpu_ms": round(cpu * 1000 / max(1, len(lat)), 2),
    }


def _move_notices(t: Any, ports: list[int], pages: int, ctx: Any) -> dict[str, Any]:
    """`pages` players' "my seat" pages connected, their players moved in batches of 100 to
    new tables; move applied → notice received on each page."""
    from django.db import transaction

    from tables import services as svc
    from tables.domain.seating import Move
    from tables.models import SeatAssignment, Table
    from tables.services.moves import _apply
    from tournament.events import Actor

    actor = Actor.system("bench")
    rows = list(
        SeatAssignment.objects.filter(table__tournament=t)
        .select_related("entry", "table")
        .order_by("table__number", "seat")[:pages]
    )
    tokens = [(r.entry_id, r.entry.public_token, r.table.number) for r in rows]
    ready, done, got = ctx.Queue(), ctx.Event(), ctx.Queue()
    pager = ctx.Process(target=pages_main, args=(ports, tokens, ready, done, got))
    pager.start()
    connected = ready.get(timeout=300)
    time.sleep(1)
    needed = -(-len(rows) // 9)
    new_tables = svc.tables_create(tournament=t, count=needed, actor=actor)
    started: dict[int, float] = {}
    for b in range(0, len(rows), 100):
        moves = [
            Move(
                r.entry_id,
                r.table.number,
                r.seat,
                new_tables[k // 9].number,
                k % 9 + 1,
                False,
                "floor",
            )
            for k, r in enumerate(rows[b : b + 100], start=b)
        ]
        t0 = time.time()
        with transaction.atomic():
            _apply(t, moves, actor, action="seats.move")
        for m in moves:
            started[m.entry] = t0
        time.sleep(0.3)
    time.sleep(3)
    done.set()
    arrivals = got.get(timeout=120)
    pager.join(30)
    notice = [(arrivals[e] - started[e]) * 1000 for e in started if e in arrivals]
    assert Table.objects.filter(tournament=t).count() >= needed
    return {
        "pages": connected,
        "move_notice_p50_ms": round(_stack.percentile(notice, 50), 1),
        "move_notice_p99_ms": round(_stack.percentile(notice, 99), 1),
        "notices_lost": len(started) - len(notice),
    }


if __name__ == "__main__":
    main()
