"""Sign-ups opening in one burst: a festival's sheet opens and everyone signs up at once.

    python -m bench.signup --places 1000 --signups 2000 --clients 200

Runs the full stack on loopback as docker-compose.yml arranges it (PostgreSQL, Redis, granian
processes for HTTP, nginx in front when `nginx` is installed; `--stack asgi`: one uvicorn process
instead) against its own scratch database `floor_bench_signup`, with one tournament whose sheet
offers `places` places. Behind a pretend proxy (FLOOR_TRUSTED_PROXIES=127.0.0.1) every simulated
client sends its own address in X-Forwarded-For, so the per-address limit on sign-ups (10 in
10 minutes) holds for each client as for a phone; the bench's rate-limit counters are cleared
first, so runs within the limit's window do not count against each other.

A separate client process (at a higher scheduling priority where allowed) opens `clients`
keep-alive connections; each loads the public sign-up page (its CSRF cookie and form token, as a
phone would), untimed. Then, all clients at once:

1. baseline: each client asks a trivial view of the same server (/api/time, through Django's
   middleware) `--baseline` times back to back → baseline_p50_ms, baseline_p99_ms;
2. the burst: each client posts its share of the `signups` sign-ups back to back
   (POST /t/<id>/signup/, a new nonce each, the honeypot empty; answered by a 302 to the
   sign-up's private page) → signup_p50_ms, signup_p99_ms, from the request sent to the answer
   read. ratio_p99 = signup_p99_ms / baseline_p99_ms.

Then the sheet is read back from the database and checked:

- lost: sign-ups posted that have no row (by their nonce), or whose 302 named another token;
- over_capacity: confirmed sign-ups beyond `places`;
- order_violations: arrival numbers (`sequence`) not exactly 1..N; a confirmed sign-up that is
  not among the first `places` arrivals or a waiting one that is; the waiting list not in arrival
  order (signups.domain.places.waiting_positions); `created_at` decreasing along the arrival
  numbers; and a sign-up answered before another was sent that still got the later number (the
  server's order must agree with what the clients saw).

Prints one JSON line: signups, confirmed, waiting, over_capacity, lost, order_violations (and
order_checks, each check's count), errors, error_statuses, signup_p50_ms, signup_p99_ms,
signup_max_ms, baseline_p50_ms, baseline_p99_ms, ratio_p99, burst_seconds, signups_per_second,
server_cpu_ms_per_signup; with `--in-process N` also in_process_signup_cpu_ms,
in_process_trivial_cpu_ms and in_process_ratio (N of each through Django's test client in this
process, after the burst). `--profile N` then times N sign-ups through the service in this process
on the full sheet (no contention), and N more under the profiler: their costliest statements and
functions go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import multiprocessing as mp
import os
import pstats
import re
import sys
import time
import uuid
from collections import Counter
from datetime import timedelta
from itertools import pairwise
from typing import Any
from urllib.parse import urlencode

from bench import _calibrate, _django, _stack

DATABASE_URL = "postgres://postgres@127.0.0.1:5432/floor_bench_signup"
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/15")
SIGNUPS_PER_ADDRESS = 10  # signups/views.py SIGNUPS_PER_WINDOW
TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"')
COOKIE = re.compile(r"csrftoken=([^;]+)")
STATUS_PAGE = re.compile(r"/signup/([^/]+)/$")


# --- the phones (client process) -----------------------------------------------------------


class _Phone:
    """One client: its own address, one keep-alive HTTP/1.1 connection, its CSRF cookie."""

    def __init__(self, port: int, address: str) -> None:
        self.port = port
        self.address = address
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.cookie = ""
        self.form_token = ""

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, list[str]], bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        lines = [
            f"{method} {path} HTTP/1.1",
            "Host: 127.0.0.1",
            f"X-Forwarded-For: {self.address}",
            "Connection: keep-alive",
        ]
        if self.cookie:
            lines.append(f"Cookie: csrftoken={self.cookie}")
        if body:
            lines += [
                "Content-Type: application/x-www-form-urlencoded",
                f"Content-Length: {len(body)}",
            ]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        try:
            self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + body)
            await self.writer.drain()
            return await self._response()
        except (OSError, asyncio.IncompleteReadError, ValueError):
            self.writer.close()
            self.reader = self.writer = None
            raise

    async def _response(self) -> tuple[int, dict[str, list[str]], bytes]:
        assert self.reader is not None
        head = await self.reader.readuntil(b"\r\n\r\n")
        first, *rest = head.decode("latin-1").split("\r\n")
        status = int(first.split(" ", 2)[1])
        headers: dict[str, list[str]] = {}
        for line in rest:
            if ":" in line:
                name, value = line.split(":", 1)
                headers.setdefault(name.strip().lower(), []).append(value.strip())
        if "chunked" in ",".join(headers.get("transfer-encoding", [])).lower():
            body = b""
            while True:
                size = int((await self.reader.readuntil(b"\r\n")).split(b";")[0], 16)
                chunk = await self.reader.readexactly(size + 2)
                if size == 0:
                    break
                body += chunk[:-2]
        else:
            body = await self.reader.readexactly(int(headers.get("content-length", ["0"])[0]))
        if "close" in ",".join(headers.get("connection", [])).lower():
            assert self.writer is not None
            self.writer.close()
            self.reader = self.writer = None
        return status, headers, body

    async def load_page(self, path: str) -> None:
        """The sign-up page, as a phone opens it: the CSRF cookie and the form's token."""
        for attempt in range(10):
            try:
                status, headers, body = await self.request("GET", path)
            except (OSError, asyncio.IncompleteReadError, ValueError):
                await asyncio.sleep(0.2 * (attempt + 1))
                continue
            cookie = next(
                (m.group(1) for c in headers.get("set-cookie", []) if (m := COOKIE.search(c))), ""
            )
            token = TOKEN.search(body)
            if status == 200 and cookie and token:
                self.cookie, self.form_token = cookie, token.group(1).decode()
                return
            await asyncio.sleep(0.2 * (attempt + 1))
        raise RuntimeError(f"no sign-up form at {path} for {self.address}")


async def _burst(
    phones: list[_Phone], shares: list[int], tournament: int, baseline: int
) -> dict[str, Any]:
    path = f"/t/{tournament}/signup/"
    await asyncio.gather(*(p.load_page(path) for p in phones))

    base_ms: list[float] = []
    base_errors: list[int] = []

    async def trivial(phone: _Phone) -> None:
        for _ in range(baseline):
            t0 = time.perf_counter()
            try:
                status, _h, _b = await phone.request("GET", "/api/time")
            except (OSError, asyncio.IncompleteReadError, ValueError):
                base_errors.append(0)
                continue
            base_ms.append((time.perf_counter() - t0) * 1000)
            if status != 200:
                base_errors.append(status)

    await asyncio.gather(*(trivial(p) for p in phones))

    # (client, k, nonce, sent, answered (wall clock), ms, status, token)
    sent: list[tuple[int, int, str, float, float, float, int, str]] = []

    async def sign_up(i: int, phone: _Phone) -> None:
        for k in range(shares[i]):
            nonce = uuid.uuid4().hex
            body = urlencode(
                {
                    "csrfmiddlewaretoken": phone.form_token,
                    "nonce": nonce,
                    "website": "",
                    "display_name": f"Player {i:03d}-{k:02d}",
                    "email": f"p{i}-{k}@example.org" if k % 2 else "",
                    "phone": f"+49 170 {i:04d}{k:03d}" if k % 3 == 0 else "",
                    "consent": "on",
                }
            ).encode()
            at, t0 = time.time(), time.perf_counter()
            try:
                status, headers, _b = await phone.request("POST", path, body)
            except (OSError, asyncio.IncompleteReadError, ValueError):
                status, headers = 0, {}
            ms = (time.perf_counter() - t0) * 1000
            match = STATUS_PAGE.search(headers.get("location", [""])[0])
            sent.append(
                (i, k, nonce, at, at + ms / 1000, ms, status, match.group(1) if match else "")
            )

    started = time.perf_counter()
    await asyncio.gather(*(sign_up(i, p) for i, p in enumerate(phones)))
    seconds = time.perf_counter() - started
    for p in phones:
        if p.writer is not None:
            p.writer.close()
    return {"base_ms": base_ms, "base_errors": base_errors, "sent": sent, "seconds": seconds}


def phones_main(
    ports: list[int],
    addresses: list[str],
    shares: list[int],
    tournament: int,
    baseline: int,
    out: Any,
) -> None:
    with contextlib.suppress(OSError):  # the phones are not on the server's machine
        os.nice(-10)
    phones = [_Phone(ports[i % len(ports)], a) for i, a in enumerate(addresses)]
    out.put(asyncio.run(_burst(phones, shares, tournament, baseline)))


# --- the checks ----------------------------------------------------------------------------


def order_checks(
    rows: list[tuple[int, str, Any, str]], places: int, sent: list[tuple[Any, ...]]
) -> dict[str, int]:
    """What is wrong with the sheet's order. `rows`: (sequence, status, created_at, nonce) in
    arrival order; `sent`: the clients' records (nonce at 2, sent at 3, answered at 4)."""
    from signups.domain.places import Slot, Status, waiting_positions

    sequences = [r[0] for r in rows]
    n = len(rows)
    confirmed = {r[0] for r in rows if r[1] == Status.CONFIRMED.value}
    waiting = [r[0] for r in rows if r[1] == Status.WAITING.value]
    first = set(sequences[:places])
    positions = waiting_positions(Slot(r[0], Status(r[1]), None) for r in rows)
    checks = {
        "sequence_not_1_to_n": int(sequences != list(range(1, n + 1))),
        "confirmed_not_first": len(confirmed ^ first),
        "waiting_out_of_order": int(sorted(waiting, key=lambda s: positions[s]) != sorted(waiting)),
        "created_at_decreasing": sum(1 for a, b in pairwise(rows) if b[2] < a[2]),
    }
    # A sign-up whose answer was read before another was sent must hold the smaller number.
    by_nonce = {r[3]: r[0] for r in rows}
    done = sorted((s[4], by_nonce[s[2]]) for s in sent if s[2] in by_nonce)
    later = 0
    highest, j = 0, 0
    for at, seq in sorted((s[3], by_nonce[s[2]]) for s in sent if s[2] in by_nonce):
        while j < len(done) and done[j][0] < at:
            highest = max(highest, done[j][1])
            j += 1
        later += seq < highest
    checks["numbered_before_an_earlier_answer"] = later
    return checks


# --- setting up ----------------------------------------------------------------------------


def _open_sheet(places: int) -> int:
    from django.utils import timezone

    from signups import services as su
    from tournament.domain.structure import LevelSpec
    from tournament.events import Actor
    from tournament.models import ChipSet
    from tournament.services.tournaments import structure_create, tournament_create

    actor = Actor.system("bench")
    t = tournament_create(
        actor=actor,
        name="Festival Main Event",
        starts_at=timezone.now() + timedelta(days=14),
        buy_in=1000,
        fee=0,
        starting_stack=20000,
        structure=structure_create(name="su", levels=[LevelSpec(100, 200)]),
        chip_set=ChipSet.objects.create(name="su"),
    )
    t.status = "registering"
    t.save(update_fields=["status"])
    su.sheet_update(
        tournament=t, actor=actor, is_open=True, places=places, reserved=0, check_in_deadline=None
    )
    return t.pk


def _shares(signups: int, clients: int) -> list[int]:
    return [signups // clients + (1 if i < signups % clients else 0) for i in range(clients)]


def _addresses(clients: int) -> list[str]:
    """One address per client, their rate-limit counters cleared (an earlier run within the
    limit's window counted them; the cache is the bench's own, under its own key prefix)."""
    from django.core.cache import cache

    cache.delete_pattern("rl:*")
    return [f"10.77.{i // 250}.{i % 250 + 1}" for i in range(clients)]


def _profile(tournament: int, n: int) -> None:
    """The sign-up service `n` times in this process on the full sheet: its time per call, the
    costliest functions and the statements (to stderr)."""
    from django.db import connection

    from signups import services as su
    from tournament.events import Actor
    from tournament.models import Tournament

    t = Tournament.objects.get(pk=tournament)
    statements: Counter[str] = Counter()
    seconds: Counter[str] = Counter()

    def wrapper(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        t0 = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            key = re.sub(r"\s+", " ", sql)[:110]
            statements[key] += 1
            seconds[key] += time.perf_counter() - t0

    def sign_up(k: int) -> None:
        su.signup_create(tournament=t, display_name=f"Profiled {k}", actor=Actor.system("phone"))

    started = time.perf_counter()
    for k in range(n):
        sign_up(k)
    per_call = (time.perf_counter() - started) * 1000 / n
    print(f"signup_create on the full sheet: {per_call:.1f} ms a call", file=sys.stderr)
    profiler = cProfile.Profile()
    with connection.execute_wrapper(wrapper):
        profiler.enable()
        for k in range(n, 2 * n):
            sign_up(k)
        profiler.disable()
    for key, s in seconds.most_common(12):
        print(f"  {s * 1000 / n:7.2f} ms/call  {statements[key] / n:4.1f}x  {key}", file=sys.stderr)
    pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(25)


def _in_process(tournament: int, n: int) -> dict[str, float]:
    """CPU ms of a posted sign-up and of the trivial view through Django's whole middleware in
    this process (Django's test client, a new address and nonce each, on the full sheet), and
    their ratio: what the web process spends, without the proxy, the server or the network."""
    from django.test import Client

    client = Client()

    def post(k: int) -> None:
        answer = client.post(
            f"/t/{tournament}/signup/",
            {"display_name": f"In process {k}", "nonce": uuid.uuid4().hex, "website": ""},
            REMOTE_ADDR=f"10.88.{k // 250}.{k % 250 + 1}",
        )
        assert answer.status_code == 302, answer.status_code

    def trivial(k: int) -> None:
        assert client.get("/api/time", REMOTE_ADDR="10.89.0.1").status_code == 200

    def cpu_ms(work: Any, first: int) -> float:
        started = time.process_time()
        for k in range(first, first + n):
            work(k)
        return (time.process_time() - started) * 1000 / n

    for k in range(20):  # warm: the first requests import and compile
        post(100_000 + k)
        trivial(k)
    signup, bare = cpu_ms(post, 0), cpu_ms(trivial, 0)
    return {
        "in_process_signup_cpu_ms": round(signup, 2),
        "in_process_trivial_cpu_ms": round(bare, 2),
        "in_process_ratio": round(signup / bare, 2),
    }


# --- main ----------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--places", type=int, default=1000)
    parser.add_argument("--signups", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--baseline", type=int, default=5, help="trivial requests per client")
    parser.add_argument("--stack", choices=["full", "asgi"], default="full")
    parser.add_argument("--web", type=int, default=2, help="granian processes (`web` replicas)")
    parser.add_argument("--threads", type=int, default=4, help="threads per granian process")
    parser.add_argument("--no-proxy", action="store_true", help="no nginx in front")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="N sign-ups profiled")
    parser.add_argument(
        "--in-process",
        type=int,
        default=0,
        metavar="N",
        help="after the burst: N sign-ups and N trivial requests through Django's test client",
    )
    args = parser.parse_args()
    shares = _shares(args.signups, args.clients)
    if max(shares) > SIGNUPS_PER_ADDRESS:
        parser.error(f"at most {SIGNUPS_PER_ADDRESS} sign-ups a client (the per-address limit)")

    os.environ.setdefault("DATABASE_URL", DATABASE_URL)
    os.environ["REDIS_URL"] = REDIS_URL
    url = _django.setup(fresh=True)
    tournament = _open_sheet(args.places)

    env = {**_stack.stack_env(url, REDIS_URL), "FLOOR_TRUSTED_PROXIES": "127.0.0.1"}
    if args.stack == "full":
        stack = _stack.FullStack(
            env, web=args.web, ws=0, threads=args.threads, proxy=not args.no_proxy
        )
        stack.start()
        procs, ports, shape = stack.procs, stack.http_ports, f"{args.web}x1x{args.threads}"
    else:
        port = _stack.free_port()
        procs, ports, shape = [_stack.start_asgi(port, env)], [port], "asgi"
        _stack.wait_http(port)
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    try:
        phones = ctx.Process(
            target=phones_main,
            args=(ports, _addresses(args.clients), shares, tournament, args.baseline, out),
        )
        cpu0 = _stack.cpu_seconds(procs)
        phones.start()
        got = out.get(timeout=600)
        cpu = _stack.cpu_seconds(procs) - cpu0
        phones.join(30)
    finally:
        if args.stack == "full":
            stack.stop()
        else:
            _stack.stop(procs)

    from signups.models import SignUp

    sent = got["sent"]
    rows = list(
        SignUp.objects.filter(sheet__tournament_id=tournament)
        .order_by("sequence")
        .values_list("sequence", "status", "created_at", "nonce", "token")
    )
    tokens = {r[3]: r[4] for r in rows}
    lost = sum(1 for s in sent if s[2] not in tokens or (s[7] and s[7] != tokens[s[2]]))
    errors = [s[6] for s in sent if s[6] != 302]
    checks = order_checks([r[:4] for r in rows], args.places, sent)
    confirmed = sum(1 for r in rows if r[1] == "confirmed")
    ms = [s[5] for s in sent if s[6] == 302]
    p = _stack.percentile
    base_p99 = p(got["base_ms"], 99)
    result = {
        "stack": args.stack,
        "web": shape,
        "proxy": stack.proxy if args.stack == "full" else None,
        "database": url.split(":", 1)[0],
        "places": args.places,
        "clients": args.clients,
        "posted": len(sent),
        "signups": len(rows),
        "confirmed": confirmed,
        "waiting": sum(1 for r in rows if r[1] == "waiting"),
        "over_capacity": max(0, confirmed - args.places),
        "lost": lost,
        "order_violations": sum(checks.values()),
        "order_checks": checks,
        "errors": len(errors),
        "error_statuses": dict(sorted(Counter(errors).items())),
        "signup_p50_ms": round(p(ms, 50), 1),
        "signup_p99_ms": round(p(ms, 99), 1),
        "signup_max_ms": round(max(ms), 1) if ms else None,
        "baseline_p50_ms": round(p(got["base_ms"], 50), 1),
        "baseline_p99_ms": round(base_p99, 1),
        "baseline_errors": len(got["base_errors"]),
        "ratio_p99": round(p(ms, 99) / base_p99, 2) if base_p99 else None,
        "burst_seconds": round(got["seconds"], 2),
        "signups_per_second": round(len(sent) / got["seconds"], 1),
        # The servers' (and the proxy's) CPU over the page loads, the baseline and the burst.
        "server_cpu_ms_per_signup": round(cpu * 1000 / max(1, len(sent)), 2),
    }
    if args.in_process:
        result.update(_in_process(tournament, args.in_process))
    print(_calibrate.line(result))
    if args.profile:
        _profile(tournament, args.profile)


if __name__ == "__main__":
    main()
