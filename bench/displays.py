"""Display manager: the director switches every paired screen to another view and back.

    python -m bench.displays --screens 200                 # embedded server (floor_serve)
    python -m bench.displays --screens 200 --stack full    # granian + uvicorn (+ nginx), Redis

Pairs N screens (Display rows, as /display/ makes them), connects N websocket clients holding
their token cookies (a separate client process), logs a director in and, `--switches` times,
switches every screen to another view and back through the console's own form
(POST /console/displays/<id>/, one screen after another, as a director would). Measured per
screen and switch: from just before the POST (the click) until that screen received the
`assignment` message with the new version. `lost`: switches a screen never received.

Baseline, on the same machine: a bare websocket server (the `websockets` library, no Django)
that forwards a trigger from a control socket to one client, the same number of times (what
fan-out to one screen costs without HTTP, a database, an event log or a channel layer), and the
round trip of a trivial view of the same server (`/api/time`). Prints one JSON line.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import re
import subprocess
import sys
import time
from typing import Any

from bench import _calibrate, _stack

ROOT = _stack.ROOT
REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
PASSWORD = "bench-displays-1"  # noqa: S105 (a throwaway account of the scratch database)


# --- screens (client process) --------------------------------------------------------------


def screens_main(url: str, origin: str, tokens: list[str], ready: Any, done: Any, out: Any) -> None:
    """One websocket per token; records (display, version, arrival) of every assignment."""
    import websockets

    received: list[tuple[int, int, float]] = []
    connected = 0

    async def one(token: str) -> None:
        nonlocal connected
        for attempt in range(20):
            try:
                async with websockets.connect(
                    url,
                    origin=origin,
                    additional_headers={"Cookie": f"floor_display={token}"},
                    open_timeout=30,
                    max_queue=None,
                    ping_interval=None,
                ) as ws:
                    connected += 1
                    try:
                        async for raw in ws:
                            now = time.time()
                            msg = json.loads(raw)
                            if msg.get("event") == "assignment":
                                d = msg["data"]
                                received.append((d["display"], d["version"], now))
                    except websockets.exceptions.ConnectionClosed:
                        pass
                    return
            except (OSError, websockets.exceptions.WebSocketException):
                if done.is_set():
                    return
                await asyncio.sleep(0.2 * (attempt + 1))

    async def run() -> None:
        tasks = [asyncio.create_task(one(t)) for t in tokens]
        deadline = time.time() + 60 + len(tokens) / 20
        while connected < len(tokens) and time.time() < deadline:
            await asyncio.sleep(0.1)
        ready.put(connected)
        while not done.is_set():
            await asyncio.sleep(0.2)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())
    out.put(received)


# --- the director --------------------------------------------------------------------------


def director_session(base: str) -> Any:
    import requests

    s = requests.Session()
    s.get(f"{base}/login/")
    r = s.post(
        f"{base}/login/",
        data={
            "username": "bench-director",
            "password": PASSWORD,
            "csrfmiddlewaretoken": s.cookies["csrftoken"],
        },
        allow_redirects=False,
    )
    if r.status_code != 302:
        raise RuntimeError(f"director login failed: {r.status_code}")
    s.get(f"{base}/console/displays/")
    return s


def switch_all(
    session: Any, base: str, displays: list[int], switches: int
) -> dict[tuple[int, int], float]:
    """Every screen to view B and back to A, `switches` times; (display, version) -> click."""
    clicks: dict[tuple[int, int], float] = {}
    csrf = session.cookies["csrftoken"]
    for round_ in range(1, 2 * switches + 1):
        title = "View B: happy hour at the bar" if round_ % 2 else "View A: welcome"
        for pk in displays:
            t0 = time.time()
            r = session.post(
                f"{base}/console/displays/{pk}/",
                data={"csrfmiddlewaretoken": csrf, "s1-kind": "slide", "s1-title": title},
                allow_redirects=False,
            )
            if r.status_code != 302:
                raise RuntimeError(f"assign refused: {r.status_code} {r.text[:200]}")
            clicks[(pk, 1 + round_)] = t0  # paired = version 1; each switch adds one
    return clicks


def trivial_view_ms(base: str, n: int = 200) -> list[float]:
    import requests

    s = requests.Session()
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        s.get(f"{base}/api/time")
        out.append((time.perf_counter() - t0) * 1000)
    return out


# --- baseline: a bare websocket forwarder --------------------------------------------------

BARE = """
import asyncio, sys, websockets
clients = {}
async def handler(ws):
    path = ws.request.path
    if path == "/control":
        async for raw in ws:
            i, _, seq = raw.partition(" ")
            c = clients.get(i)
            if c is not None:
                await c.send(seq)
        return
    clients[path.rsplit("/", 1)[1]] = ws
    await ws.wait_closed()
async def main():
    async with websockets.serve(handler, "127.0.0.1", int(sys.argv[1]), compression=None, ping_interval=None):
        await asyncio.Future()
asyncio.run(main())
"""


def bare_screens(port: int, n: int, ready: Any, done: Any, out: Any) -> None:
    import websockets

    received: list[tuple[int, int, float]] = []

    async def one(i: int) -> None:
        async with websockets.connect(
            f"ws://127.0.0.1:{port}/c/{i}", ping_interval=None, compression=None
        ) as ws:
            async for raw in ws:
                received.append((i, int(raw), time.time()))

    async def run() -> None:
        tasks = [asyncio.create_task(one(i)) for i in range(n)]
        await asyncio.sleep(1 + n / 200)
        ready.put(n)
        while not done.is_set():
            await asyncio.sleep(0.2)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())
    out.put(received)


def bare_run(n: int, switches: int, interval: float) -> tuple[list[float], int]:
    """The bare forwarder, triggered at the pace the director switched Floor's screens
    (`interval` seconds apart), so that both measure one message at a time."""
    import websockets.sync.client

    port = _stack.free_port()
    server = subprocess.Popen([sys.executable, "-c", BARE, str(port)])
    try:
        time.sleep(1)
        ready, done, out = mp.Queue(), mp.Event(), mp.Queue()
        proc = mp.Process(target=bare_screens, args=(port, n, ready, done, out))
        proc.start()
        ready.get(timeout=60)
        clicks: dict[tuple[int, int], float] = {}
        with websockets.sync.client.connect(f"ws://127.0.0.1:{port}/control") as control:
            for seq in range(2 * switches):
                for i in range(n):
                    clicks[(i, seq)] = time.time()
                    control.send(f"{i} {seq}")
                    time.sleep(interval)
        time.sleep(2)
        done.set()
        received = out.get(timeout=30)
        proc.join(10)
    finally:
        server.terminate()
        server.wait(10)
    return _latencies(clicks, received)


def _latencies(
    clicks: dict[tuple[int, int], float], received: list[tuple[int, int, float]]
) -> tuple[list[float], int]:
    arrived: dict[tuple[int, int], float] = {}
    for display, version, at in received:
        arrived.setdefault((display, version), at)
    ms = [(arrived[k] - t0) * 1000 for k, t0 in clicks.items() if k in arrived]
    return ms, len(clicks) - len(ms)


# --- the run -------------------------------------------------------------------------------


def prepare(n: int) -> tuple[list[int], list[str]]:
    """A director and N paired screens, straight through the services."""
    from django.contrib.auth.models import Group, User

    from core.roles import DIRECTOR
    from displays.models import Display
    from displays.services import display_open, display_pair
    from tournament.events import Actor

    Display.objects.all().delete()
    user, _ = User.objects.get_or_create(username="bench-director")
    user.set_password(PASSWORD)
    user.save()
    user.groups.add(Group.objects.get_or_create(name=DIRECTOR)[0])
    actor = Actor.system("bench")
    ids, tokens = [], []
    for i in range(n):
        display, token = display_open()
        display_pair(code=display.code, name=f"Screen {i + 1:03d}", actor=actor)
        ids.append(display.pk)
        tokens.append(token)
    return ids, tokens


def start_embedded(env: dict[str, str]) -> tuple[list[subprocess.Popen[bytes]], int, int]:
    port = _stack.free_port()
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "floor_serve", "--port", str(port)], cwd=ROOT, env=env
    )
    _stack.wait_http(port)
    return [proc], port, port


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--screens", type=int, default=200)
    parser.add_argument("--switches", type=int, default=10, help="to the other view and back")
    parser.add_argument("--stack", choices=["embedded", "full"], default="embedded")
    args = parser.parse_args()

    if args.stack == "embedded":
        db = ROOT / "var" / "bench_displays.sqlite3"
        db.parent.mkdir(exist_ok=True)
        for suffix in ("", "-wal", "-shm"):
            if os.path.exists(f"{db}{suffix}"):
                os.remove(f"{db}{suffix}")
        os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    else:
        os.environ.setdefault(
            "DATABASE_URL", "postgres://postgres@127.0.0.1:5432/floor_bench_displays"
        )
        os.environ["REDIS_URL"] = REDIS_URL
    from bench import _django

    url = _django.setup(fresh=args.stack == "full")
    ids, tokens = prepare(args.screens)

    env = _stack.stack_env(url, REDIS_URL if args.stack == "full" else "")
    if args.stack == "embedded":
        env.pop("REDIS_URL", None)
        procs, http_port, ws_port = start_embedded(env)
        stack = None
    else:
        stack = _stack.FullStack(env).start()
        procs, http_port, ws_port = stack.procs, stack.http_ports[0], stack.ws_ports[0]
    base = f"http://127.0.0.1:{http_port}"
    try:
        ready, done, out = mp.Queue(), mp.Event(), mp.Queue()
        client = mp.Process(
            target=screens_main,
            args=(f"ws://127.0.0.1:{ws_port}/ws/display/", base, tokens, ready, done, out),
        )
        client.start()
        connected = ready.get(timeout=300)
        session = director_session(base)
        cpu0 = _stack.cpu_seconds(procs)
        started = time.time()
        clicks = switch_all(session, base, ids, args.switches)
        seconds = time.time() - started
        cpu = _stack.cpu_seconds(procs) - cpu0
        deadline = time.time() + 15
        time.sleep(1)
        done.set()
        received = out.get(timeout=60)
        client.join(10)
        while time.time() < deadline and client.is_alive():
            time.sleep(0.1)
        trivial = trivial_view_ms(base)
    finally:
        if stack is not None:
            stack.stop()
        else:
            _stack.stop(procs)
    ms, lost = _latencies(clicks, received)
    bare_ms, bare_lost = bare_run(args.screens, args.switches, seconds / max(len(clicks), 1))
    p = _stack.percentile
    result = {
        "bench": "displays",
        "stack": args.stack,
        "proxy": stack.proxy if stack is not None else None,
        "database": re.sub(r"//[^@]*@", "//", url).split("://")[0],
        "screens": args.screens,
        "connected": connected,
        "switches": len(clicks),
        "switch_p50_ms": round(p(ms, 50), 1),
        "switch_p99_ms": round(p(ms, 99), 1),
        "switch_max_ms": round(max(ms), 1) if ms else None,
        "lost": lost,
        "switches_per_second": round(len(clicks) / seconds, 1),
        "server_cpu_ms_per_switch": round(cpu * 1000 / max(len(clicks), 1), 2),
        "baseline_bare_ws_p50_ms": round(p(bare_ms, 50), 2),
        "baseline_bare_ws_p99_ms": round(p(bare_ms, 99), 2),
        "baseline_bare_ws_lost": bare_lost,
        "baseline_trivial_view_p50_ms": round(p(trivial, 50), 2),
        "ratio_p50_to_trivial_view": round(p(ms, 50) / p(trivial, 50), 1),
        "ratio_p99_to_bare_ws": round(p(ms, 99) / max(p(bare_ms, 99), 0.01), 1),
    }
    print(_calibrate.line(result))


if __name__ == "__main__":
    main()
