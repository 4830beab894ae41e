"""Venue mode: one server process on the embedded stack holding a big club event's room.

    python -m bench.venue --phones 500 --tablets 50 --screens 10 --busts-per-minute 30 --minutes 3

The venue command's own server (`manage.py floor_venue`: SQLite in WAL mode, the in-memory
channel layer, the in-process clock ticker, uvicorn for HTTP and websockets, DEBUG off; without
announcing a name by mDNS) with a running tournament whose late registration is open: about
`phones` + 10 % players seated at tables of 9, the clock started. The field is written through
the services before the server starts (bench/event_storm.py `seed`); everything after that goes
through the running server, as the in-memory channel layer lives in its process: the director
logs in on the login page and starts the clock from the console's clock command.

Then the room connects, as real websockets from separate processes (bench/event_storm.py
`clients_main`, each doing with each message what its page does): every phone on its my-seat
socket (`/ws/s/<token>/`: the players who will be busted first, then others), a dealer tablet
at each of `tablets` tables (`/ws/d/<token>/`: the tables of the first busts first), the
screens on the clock (`/ws/t/<pk>/`). For `minutes` the desk (this process, the director's
session) busts players at `busts-per-minute` through the API (POST /api/tournaments/<pk>/busts/)
and registers a late player every `register-every` seconds (POST .../entries/, seated by the
server at random), while a process of its own has players look up their seat on the public
find-my-seat page (the phone's htmx request, `lookups-per-second`, each from a new connection
and an address of its own, 127.0.x.y) and, between them at the same rate and in the same way,
asks the same server's trivial view (/api/time, through Django's middleware): the baseline.

A change's commit instant is its event-log row's `at` (written in its transaction just before
the commit; the bench reads it from the database after the answer), its board version the row's
id. A change counts as applied when every affected device shows it: every screen a board of at
least that version, the busted player's phone their bust, the tablet of the table the table
without them (a registration: with the new player). `lost`: affected states never reached
within 5 s after the last action.

Prints one JSON line: `update_p50_ms`, `update_p99_ms` (commit → the last affected device),
`lookup_p99_ms`, `baseline_p99_ms`, `lost`, `server_cpu_ms_per_bust` (the server process's CPU
from the first action until it is idle again, look-ups included, ÷ busts) and the figures
described in docs/benchmarks.md (Venue). Targets: update_p99_ms ≤ 250, lookup_p99_ms ≤ 3 ×
baseline_p99_ms.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import http.client
import json
import multiprocessing as mp
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
import time
from collections import Counter
from http.cookies import SimpleCookie
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlencode

from bench import _calibrate, _stack
from bench.event_storm import SETTLE_S, Change, Spec, evaluate, run_clients, seed

ROOT = _stack.ROOT
# The director the server is started with (and the desk logs in as): new for each run.
DIRECTOR = ("venue-director", secrets.token_urlsafe(18))
# Settings of the caller's environment that are not the venue's (a full stack's database, a
# development DEBUG).
INHERITED_NOT = ("FLOOR_", "DJANGO_", "DATABASE_URL", "REDIS_URL", "DEBUG", "ALLOWED_HOSTS")
UPDATE_TARGET_MS = 250
LOOKUP_RATIO_TARGET = 3


# --- the server ------------------------------------------------------------------------------


def server_env(var_dir: str) -> dict[str, str]:
    """The server's environment, which the bench's own set-up uses too (the same settings find
    the same database in `var_dir`). The embedded stack: no PostgreSQL, no Redis."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(INHERITED_NOT)}
    env.update(
        FLOOR_VAR_DIR=var_dir,
        FLOOR_DIRECTOR_USER=DIRECTOR[0],
        FLOOR_DIRECTOR_PASSWORD=DIRECTOR[1],
        LOG_LEVEL="WARNING",
    )
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.venue"
    return env


def start_server(var_dir: str, port: int) -> subprocess.Popen[bytes]:
    """The venue command's server on 127.0.0.1:`port`, its data in `var_dir` (its first start
    migrates and creates the director). Its output goes to stderr: stdout is the JSON line."""
    env = server_env(var_dir)
    manage = [sys.executable, "manage.py"]
    serve = ["--host", "127.0.0.1", "--port", str(port)]
    # A bench is no venue: it announces no name on the network the machine is in.
    return subprocess.Popen(
        [*manage, "floor_venue", *serve, "--no-mdns"],
        cwd=ROOT,
        env=env,
        stdout=sys.stderr,
        stdin=subprocess.DEVNULL,  # unattended: never asks for the director
    )


def director_ensure() -> None:
    """The director named by FLOOR_DIRECTOR_USER / FLOOR_DIRECTOR_PASSWORD, in the director
    group (Django set up)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group

    from core.roles import DIRECTOR as DIRECTOR_ROLE
    from core.roles import ensure_role_groups

    ensure_role_groups()
    user, _ = get_user_model().objects.get_or_create(username=os.environ["FLOOR_DIRECTOR_USER"])
    user.set_password(os.environ["FLOOR_DIRECTOR_PASSWORD"])
    user.save()
    user.groups.add(Group.objects.get(name=DIRECTOR_ROLE))


# --- the desk (this process) -----------------------------------------------------------------


class Desk:
    """The director at the desk: one keep-alive HTTP connection carrying the session's
    cookies, as the console's browser."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.cookies: dict[str, str] = {}
        self.conn: http.client.HTTPConnection | None = None

    def request(
        self, method: str, path: str, body: str | None = None, headers: dict[str, str] | None = None
    ) -> tuple[int, bytes]:
        sent = {**(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                self.conn.request(method, path, body=body, headers=sent)
                response = self.conn.getresponse()
                data = response.read()
            except (ConnectionError, http.client.RemoteDisconnected):
                # The server closed the idle keep-alive connection before reading the request.
                self.conn.close()
                self.conn = None
                if attempt:
                    raise
                continue
            for value in response.headers.get_all("Set-Cookie") or []:
                jar: SimpleCookie = SimpleCookie()
                jar.load(value)
                self.cookies.update({name: morsel.value for name, morsel in jar.items()})
            return response.status, data
        raise AssertionError("unreachable")

    def login(self, username: str, password: str) -> None:
        """The login page's form, with its CSRF token."""
        _, page = self.request("GET", "/login/")
        found = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if found is None:
            raise RuntimeError("no login form")
        form = {
            "csrfmiddlewaretoken": found.group(1).decode(),
            "username": username,
            "password": password,
            "next": "/console/",
        }
        kind = {"Content-Type": "application/x-www-form-urlencoded"}
        status, _ = self.request("POST", "/login/", urlencode(form), kind)
        if status != 302 or "sessionid" not in self.cookies:
            raise RuntimeError(f"the director could not log in ({status})")

    def post(
        self, path: str, data: dict[str, Any] | None, headers: dict[str, str] | None = None
    ) -> tuple[int, Any]:
        """A POST of the session (the CSRF token in its header, as the console's scripts send
        it); JSON `data`, or an empty form. Returns the status and the answer's JSON (None if
        it has none)."""
        sent = {"X-CSRFToken": self.cookies.get("csrftoken", ""), **(headers or {})}
        body = None
        if data is not None:
            body = json.dumps(data)
            sent["Content-Type"] = "application/json"
        status, raw = self.request("POST", path, body, sent)
        try:
            return status, json.loads(raw) if raw else None
        except ValueError:
            return status, None


def events_since(tournament: int, last: int) -> list[tuple[int, float]]:
    """The tournament's event-log rows after id `last` (the clock's own left out): (id, the
    instant it was written). Read from the server's database (WAL: a reader does not stop it)."""
    from tournament.models import Event

    rows = (
        Event.objects.filter(tournament_id=tournament, id__gt=last)
        .exclude(action__startswith="clock.")
        .order_by("id")
        .values_list("id", "at")
    )
    return [(pk, at.timestamp()) for pk, at in rows]


@dataclasses.dataclass
class Plan:
    """What the desk does: busts of `victims` (entry ids, with their display names and table
    numbers) at `rate` a second, a registration every `every` seconds, for `seconds`."""

    tournament: int
    victims: list[int]
    names: dict[int, str]
    tables: dict[int, int]
    rate: float
    every: float
    seconds: float
    first_number: int  # the display names of late players go on from here


def desk_run(desk: Desk, plan: Plan) -> dict[str, Any]:
    """Bust and register on schedule, one action after another as one person at the desk; per
    change the commit instant, the version, and what each affected device must come to show."""
    pk = plan.tournament
    schedule = [(k / plan.rate, "bust", k) for k in range(len(plan.victims))]
    schedule += [
        ((j + 0.5) * plan.every, "register", j) for j in range(int(plan.seconds / plan.every))
    ]
    schedule.sort()
    changes: list[Change] = []
    clicked: list[float] = []  # when each change's request left the desk
    answer_ms: dict[str, list[float]] = {"bust": [], "register": []}
    errors: Counter[str] = Counter()
    last = max((row for row, _ in events_since(pk, 0)), default=0)
    start = time.time()
    for due, kind, k in schedule:
        time.sleep(max(0.0, start + due - time.time()))
        sent = time.time()
        if kind == "bust":
            victim = plan.victims[k]
            status, body = desk.post(
                f"/api/tournaments/{pk}/busts/", {"busts": [{"entry": victim}]}
            )
            change = Change("bust", phones={victim: ("busted", None, None)})
            change.absent[plan.tables[victim]].add(plan.names[victim])
            change.tables = {plan.tables[victim]}
        else:
            name = f"P{plan.first_number + k:06d}"
            status, body = desk.post(
                f"/api/tournaments/{pk}/entries/",
                {"name": f"Late Player {k + 1}", "display_name": name, "payment_method": "cash"},
                {"Idempotency-Key": f"venue-{k}"},  # a retry registers nobody twice
            )
            change = Change("register")
            if isinstance(body, dict) and body.get("table"):
                change.present[body["table"]].add(name)
                change.tables = {body["table"]}
        answer_ms[kind].append((time.time() - sent) * 1000)
        written = events_since(pk, last)
        last = written[-1][0] if written else last
        if status not in (200, 201) or not written:
            errors[f"{kind} {status}"] += 1
            print(f"{kind} refused ({status}): {body}", file=sys.stderr)
            continue
        change.version, change.at = last, max(at for _, at in written)
        changes.append(change)
        clicked.append(sent)
    return {"changes": changes, "clicked": clicked, "answer_ms": answer_ms, "errors": errors}


# --- look-ups and the baseline (their own process) -------------------------------------------


def lookups_main(port: int, pk: int, entries: int, rate: float, seconds: float, out: Any) -> None:
    """`rate` seat look-ups a second by player number (the find-my-seat page's htmx request)
    and as many requests of the trivial view between them, on schedule whatever the answers
    take (an open loop: latency counts from when a request was due), each on a new connection
    from an address of its own (127.0.x.y: the look-ups' limit per address holds as for
    phones)."""
    with contextlib.suppress(OSError):  # the phones are not on the server's machine
        os.nice(-10)
    rng = random.Random(11)
    ms: dict[str, list[float]] = {"lookup": [], "baseline": []}
    errors: Counter[str] = Counter()

    async def get(kind: str, path: str, expect: bytes, source: str, due: float) -> None:
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), 10
            )
            writer.write(
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nHX-Request: true\r\n"
                "Connection: close\r\n\r\n".encode()
            )
            await writer.drain()
            raw = await asyncio.wait_for(reader.read(), 30)
            writer.close()
        except (OSError, TimeoutError):
            errors[f"{kind} failed"] += 1
            return
        ms[kind].append((time.perf_counter() - due) * 1000)
        head, _, body = raw.partition(b"\r\n\r\n")
        status = head.split(b" ", 2)[1].decode() if head.startswith(b"HTTP/") else "?"
        if status != "200" or expect not in body:
            errors[f"{kind} {status}"] += 1

    async def run() -> None:
        tasks: set[asyncio.Task[None]] = set()
        start = time.perf_counter()
        for i in range(int(rate * seconds)):
            number = rng.randint(1, entries)
            for half, (kind, path, expect) in enumerate(
                (
                    ("lookup", f"/t/{pk}/find/?q={number}", f"#{number}</div>".encode()),
                    ("baseline", "/api/time", b"server_ms"),
                )
            ):
                due = start + (i + half / 2) / rate
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                n = 2 * i + half
                source = f"127.0.{1 + n // 250 % 4}.{1 + n % 250}"
                task = asyncio.create_task(get(kind, path, expect, source, due))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
        await asyncio.gather(*tasks)

    began, cpu = time.perf_counter(), time.process_time()
    asyncio.run(run())
    out.put((ms, dict(errors), time.perf_counter() - began, time.process_time() - cpu))


# --- the room --------------------------------------------------------------------------------


def pick_room(
    t: Any, args: argparse.Namespace, busts: int, rng: random.Random
) -> tuple[list[int], list[Spec]]:
    """The players to bust, in order, and the devices: phones of the players to bust, then of
    others; tablets at the tables of the first busts, then at others; the screens."""
    from tables.models import SeatAssignment, Table

    seated = list(
        SeatAssignment.objects.filter(table__tournament=t).values_list("entry_id", "table_id")
    )
    rng.shuffle(seated)
    victims = [e for e, _ in seated[:busts]]
    tables: list[int] = []
    for _, table in seated:  # the victims' first, in order of their first bust
        if table not in tables:
            tables.append(table)
    wanted = Table.objects.filter(pk__in=tables[: args.tablets])
    specs = [
        Spec("tablet", f"/ws/d/{token}/", n)
        for n, token in wanted.values_list("number", "dealer_token")
    ]
    phones = [e for e, _ in seated][: args.phones]
    tokens = dict(t.entries.filter(pk__in=phones).values_list("pk", "public_token"))
    specs += [Spec("phone", f"/ws/s/{tokens[e]}/", e) for e in phones]
    specs += [Spec("screen", f"/ws/t/{t.pk}/") for _ in range(args.screens)]
    return victims, specs


# The machine's speed for reading the figures against (bench/_calibrate.py); the line carries
# it as `calibration_ms` (taken before the run) and in `calibration` (after it).
calibrate = _calibrate.cpu_ms


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=500)
    parser.add_argument("--tablets", type=int, default=50)
    parser.add_argument("--screens", type=int, default=10)
    parser.add_argument("--busts-per-minute", type=float, default=30)
    parser.add_argument("--minutes", type=float, default=3)
    parser.add_argument(
        "--entries",
        type=int,
        default=0,
        help="players seated; 0: phones + 10 %% (9 a tablet at least)",
    )
    parser.add_argument("--register-every", type=float, default=20, help="seconds")
    parser.add_argument("--lookups-per-second", type=float, default=5)
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    seats = 9
    entries = args.entries or max(args.phones + args.phones // 10, args.tablets * seats)
    seconds = args.minutes * 60
    busts = int(args.busts_per_minute * args.minutes)
    if busts >= entries - 1:
        parser.error("more busts than the field allows")
    calibration = calibrate()  # before anything else runs

    with tempfile.TemporaryDirectory(prefix="floor-venue-") as var_dir:
        env = server_env(var_dir)  # this process writes the same database
        os.environ.clear()
        os.environ.update(env)
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        from live import realtime
        from tournament.models import Entry

        call_command("migrate", verbosity=0, interactive=False)
        director_ensure()  # whether or not the venue command's first start would
        rng = random.Random(args.seed)
        t = seed(entries, seats, rng, name="Venue", closed=False, late_registration_until_level=6)
        victims, specs = pick_room(t, args, busts, rng)
        rows = Entry.objects.filter(pk__in=victims).values_list(
            "pk", "player__display_name", "seat__table__number"
        )
        tables_open = t.tables.filter(is_open=True).count()
        realtime.live_flush()  # the set-up's own messages (nobody listens here)
        connection.close()
        plan = Plan(
            tournament=t.pk,
            victims=victims,
            names={pk: name for pk, name, _ in rows},
            tables={pk: table for pk, _, table in rows},
            rate=args.busts_per_minute / 60,
            every=args.register_every,
            seconds=seconds,
            first_number=entries,
        )

        port = _stack.free_port()
        server = start_server(var_dir, port)
        try:
            _stack.wait_http(port, "/healthz", timeout=180)
            desk = Desk(port)
            desk.login(*DIRECTOR)
            status, _ = desk.post(f"/console/t/{t.pk}/clock/start", None, {"HX-Request": "true"})
            if status != 204:
                raise RuntimeError(f"the clock did not start ({status})")
            ctx = mp.get_context("spawn")

            def work() -> dict[str, Any]:
                time.sleep(5.0)  # the room connected and quiet: what it costs idle
                idle0 = _stack.cpu_seconds([server])
                time.sleep(5.0)
                idle = (_stack.cpu_seconds([server]) - idle0) / 5.0
                load = os.getloadavg()[0]
                machine0, cpu0 = _stack.machine_cpu(), _stack.cpu_seconds([server])
                out = ctx.Queue()
                looker = ctx.Process(
                    target=lookups_main,
                    args=(port, t.pk, entries, args.lookups_per_second, seconds, out),
                )
                looker.start()
                began = time.time()
                done = desk_run(desk, plan)
                end = time.time()
                looked = out.get(timeout=seconds + 120)
                looker.join(30)
                drained = _stack.wait_idle([server], end, SETTLE_S)
                cpu = _stack.cpu_seconds([server]) - cpu0
                busy = _stack.busy_share(machine0, _stack.machine_cpu())
                return {
                    **done,
                    "idle": idle,
                    "load": load,
                    "began": began,
                    "end": end,
                    "looked": looked,
                    "drained": drained,
                    "cpu": cpu,
                    "busy": busy,
                }

            room = SimpleNamespace(ws_ports=[port], http_ports=[port])
            connected, result, records, _boards, closes, _calls, client_cpu = run_clients(
                specs, args.client_processes, room, t.pk, work, False
            )
        finally:
            _stack.stop([server])
        stack = "floor_venue"
        print(
            _calibrate.line(
                figures(
                    args,
                    entries,
                    tables_open,
                    specs,
                    connected,
                    records,
                    closes,
                    result,
                    client_cpu,
                    calibration,
                    stack,
                )
            ),
            flush=True,
        )


def devices(by_client: dict[str, Any]) -> dict[str, Any]:
    """A figure by kind of client without the storm's consoles (the room has none)."""
    return {k: v for k, v in by_client.items() if k != "console"}


def figures(
    args: argparse.Namespace,
    entries: int,
    tables: int,
    specs: list[Spec],
    connected: int,
    records: dict[int, list[Any]],
    closes: dict[int, tuple[float, int | None]],
    result: dict[str, Any],
    client_cpu: float,
    calibration: float,
    stack: str,
) -> dict[str, Any]:
    pct = _stack.percentile
    changes: list[Change] = result["changes"]
    end = result["end"]
    got = evaluate(specs, records, closes, changes, end)
    # From the desk's click (the request sent) instead of the commit: the request's own time in.
    clicked = [
        dataclasses.replace(c, at=at) for c, at in zip(changes, result["clicked"], strict=True)
    ]
    from_click = evaluate(specs, records, closes, clicked, end)
    ms, lookup_errors, looked_s, lookup_cpu = result["looked"]
    n_busts = sum(1 for c in changes if c.kind == "bust")
    elapsed = max(end - result["began"], 1e-9)
    lookup_p99, base_p99 = pct(ms["lookup"], 99), pct(ms["baseline"], 99)
    r1 = lambda x: round(x, 1)  # noqa: E731
    ratio = round(lookup_p99 / base_p99, 2) if ms["lookup"] and ms["baseline"] else None
    return {
        "update_p50_ms": got["update_p50_ms"],
        "update_p99_ms": got["update_p99_ms"],
        "lookup_p99_ms": r1(lookup_p99),
        "baseline_p99_ms": r1(base_p99),
        "lost": got["lost"],
        "server_cpu_ms_per_bust": r1(result["cpu"] * 1000 / max(n_busts, 1)),
        "targets_met": {
            "update_p99": got["update_p99_ms"] <= UPDATE_TARGET_MS and got["lost"] == 0,
            "lookup_ratio": ratio is not None and ratio <= LOOKUP_RATIO_TARGET,
        },
        "lookup_ratio": ratio,
        "stack": stack,
        "entries": entries,
        "tables": tables,
        "clients": len(specs),
        "connected": connected,
        "phones": args.phones,
        "tablets": args.tablets,
        "screens": args.screens,
        "busts": n_busts,
        "busts_per_minute": r1(n_busts * 60 / elapsed),
        "registrations": sum(1 for c in changes if c.kind == "register"),
        "desk_errors": dict(result["errors"]),
        "update_max_ms": got["update_max_ms"],
        "update_p50_ms_over_time": got["update_p50_ms_over_time"],
        "update_p99_ms_by_change": got["update_p99_ms_by_change"],
        "p99_ms_by_client": devices(got["p99_ms_by_client"]),
        "applied_by_client": devices(got["applied_by_client"]),
        "lost_by_client": got["lost_by_client"],
        "changes_incomplete": got["changes_incomplete"],
        "update_from_click_p99_ms": from_click["update_p99_ms"],
        "desk_bust_p50_ms": r1(pct(result["answer_ms"]["bust"], 50)),
        "desk_bust_p99_ms": r1(pct(result["answer_ms"]["bust"], 99)),
        "desk_register_max_ms": r1(max(result["answer_ms"]["register"], default=0.0)),
        "lookups": len(ms["lookup"]),
        "lookups_per_second": r1(len(ms["lookup"]) / max(looked_s, 1e-9)),
        "lookup_p50_ms": r1(pct(ms["lookup"], 50)),
        "baseline_p50_ms": r1(pct(ms["baseline"], 50)),
        "lookup_errors": lookup_errors,
        # Closed by the server during the run (none should be).
        "closed_early": sum(1 for at, _code in closes.values() if at < end + SETTLE_S),
        "drain_s": r1(result["drained"]),
        "server_cpu_s": r1(result["cpu"]),
        # The room connected and quiet (idle sockets, the clock's ticker), before the busts.
        "server_idle_cpu_ms_per_s": r1(result["idle"] * 1000),
        "client_cpu_s": r1(client_cpu + lookup_cpu),
        "machine_busy": result["busy"],
        "load_average": r1(result["load"]),
        # ms of bench/venue.py `calibrate` on this machine, just before the run.
        "calibration_ms": calibration,
    }


if __name__ == "__main__":
    main()
