"""Clock fan-out: command accepted → message received on N websocket screens.

    python -m bench.clock_fanout --clients 1000

Starts two ASGI processes (uvicorn) on loopback with the Redis pub/sub channel layer and
PostgreSQL, connects N websocket clients to one tournament (half to each process, from a
separate client process), issues pause/resume commands through the real service and measures,
per message, the time from just before the command is issued to its arrival at each client.
Then the same measurement against a bare baseline: a minimal websocket server per process that
fans out a plain Redis PUBLISH. Prints one JSON line.

    python -m bench.clock_fanout --clients 1000 --slow 50

adds 50 clients that stop reading (a phone on bad Wi-Fi): each opens its socket with a tiny
receive window, fills the server's send buffer for it with large pongs and never reads again, so
every write to it blocks. The figures (`p99_ms`, `lost`) are then those of the other clients;
`slow_connected` says how many slow ones were connected when the commands began.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import socket
import sys
import time
from typing import Any

from bench import _calibrate, _django, _stack

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/14")


# --- clients -------------------------------------------------------------------------------


def client_main(
    urls: list[str],
    n: int,
    ready: Any,
    done: Any,
    out: Any,
    origin_ports: list[int],
    slow: int = 0,
) -> None:
    import websockets

    received: list[tuple[float, float]] = []  # (command id, arrival), normal clients only
    connected = 0
    slow_connected = 0
    slow_ids = {k * n // slow for k in range(slow)} if slow else set()
    sockets: list[Any] = []

    async def one(i: int) -> None:
        nonlocal connected
        url = urls[i % len(urls)]
        origin = f"http://127.0.0.1:{origin_ports[i % len(origin_ports)]}"
        for attempt in range(20):
            try:
                async with websockets.connect(
                    url, origin=origin, open_timeout=30, max_queue=None, ping_interval=None
                ) as ws:
                    connected += 1
                    sockets.append(ws)
                    try:
                        async for raw in ws:
                            now = time.time()
                            msg = json.loads(raw)
                            data = msg.get("data") or {}
                            cid = data.get("command_id", data.get("server_ms"))
                            if cid is not None:
                                received.append((float(cid), now))
                    except websockets.exceptions.ConnectionClosed:
                        pass
                    return
            except (OSError, websockets.exceptions.WebSocketException):
                if done.is_set():
                    return
                await asyncio.sleep(0.2 * (attempt + 1))

    async def stalled(i: int) -> None:
        """A client that stops reading: a tiny receive window and small segments keep the
        kernel's buffers for it small, `max_queue=1` stops the library reading, and pings whose
        `t0` is a long number make the server queue about 1 kB of pong each until its writes to
        this socket block."""
        nonlocal slow_connected
        url = urls[i % len(urls)]
        port = int(url.split(":")[2].split("/")[0])
        origin = f"http://127.0.0.1:{origin_ports[i % len(origin_ports)]}"
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_MAXSEG, 536)
        sock.setblocking(False)
        try:
            await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
            ws = await websockets.connect(
                url,
                sock=sock,
                origin=origin,
                open_timeout=30,
                max_queue=1,
                ping_interval=None,
                compression=None,
            )
        except (OSError, websockets.exceptions.WebSocketException):
            sock.close()
            return
        sockets.append(ws)
        ping = json.dumps({"type": "ping", "t0": int("9" * 900)})
        try:
            for _ in range(300):
                await asyncio.wait_for(ws.send(ping), 1.0)
        except (TimeoutError, websockets.exceptions.ConnectionClosed):
            pass
        slow_connected += 1

    async def run() -> None:
        tasks = []
        for i in range(n):
            tasks.append(asyncio.create_task(stalled(i) if i in slow_ids else one(i)))
            if i % 100 == 99:
                await asyncio.sleep(0.05)
        deadline = time.time() + 120 + n / 50
        while connected + slow_connected < n and time.time() < deadline:
            await asyncio.sleep(0.1)
        ready.put((connected, slow_connected))
        while not done.is_set():  # one cheap poll for the whole process, not one per socket
            await asyncio.sleep(0.2)
        await asyncio.gather(
            *(asyncio.wait_for(ws.close(), 5) for ws in sockets), return_exceptions=True
        )
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())
    out.put(received)


# --- bare baseline server --------------------------------------------------------------------


def baseline_server(port: int, channel: str) -> None:
    import redis.asyncio as aioredis
    import websockets

    clients: set[Any] = set()

    async def handler(ws: Any) -> None:
        clients.add(ws)
        try:
            await ws.wait_closed()
        finally:
            clients.discard(ws)

    async def pump() -> None:
        r = aioredis.from_url(REDIS_URL)
        pubsub = r.pubsub()
        await pubsub.subscribe(channel)
        async for message in pubsub.listen():
            if message["type"] != "message":
                continue
            websockets.broadcast(clients, message["data"].decode())

    async def main() -> None:
        async with websockets.serve(
            handler, "127.0.0.1", port, max_queue=None, ping_interval=None, backlog=4096
        ):
            await pump()

    asyncio.run(main())


# --- measurement -----------------------------------------------------------------------------


def measure(
    urls: list[str],
    origin_ports: list[int],
    clients: int,
    commands: int,
    issue: Any,
    settle: float,
    slow: int = 0,
) -> dict[str, Any]:
    ctx = mp.get_context("spawn")
    ready: Any = ctx.Queue()
    out: Any = ctx.Queue()
    done: Any = ctx.Event()
    proc = ctx.Process(
        target=client_main, args=(urls, clients, ready, done, out, origin_ports, slow)
    )
    proc.start()
    connected, slow_connected = ready.get(timeout=180)
    time.sleep(3.0 if slow else 1.0)  # let the servers work off the slow clients' pings
    sent: dict[float, float] = {}
    for k in range(commands):
        cid, t_sent = issue(k)
        sent[cid] = t_sent
        time.sleep(settle)
    time.sleep(2.0)
    done.set()
    received = out.get(timeout=120)
    proc.join(30)
    if proc.is_alive():
        proc.terminate()
    latencies = [(arrival - sent[cid]) * 1000 for cid, arrival in received if cid in sent]
    expected = connected * commands
    return {
        "connected": connected,
        "slow_connected": slow_connected,
        "messages": len(latencies),
        "lost": max(0, expected - len(latencies)),
        "p50_ms": round(_stack.percentile(latencies, 50), 1),
        "p99_ms": round(_stack.percentile(latencies, 99), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--clients", type=int, default=1000)
    parser.add_argument("--commands", type=int, default=10)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument(
        "--slow", type=int, default=0, help="how many of the clients stop reading (see above)"
    )
    args = parser.parse_args()

    db_url = _django.setup()
    os.environ["REDIS_URL"] = REDIS_URL
    from datetime import timedelta

    # The benchmark process broadcasts through Redis like a web process would.
    from django.conf import settings
    from django.utils import timezone

    from clocks.services import clock_command
    from tournament.domain.structure import LevelSpec
    from tournament.events import Actor
    from tournament.models import ChipSet, Tournament
    from tournament.services.tournaments import structure_create, tournament_create

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            # The servers' prefix (config/installation.py), or they would hear nothing.
            "CONFIG": {"hosts": [REDIS_URL], "prefix": settings.FLOOR_REDIS_PREFIX},
        }
    }
    import channels.layers

    channels.layers.channel_layers.backends = {}

    actor = Actor.system("bench")
    structure = structure_create(
        name="fanout", levels=[LevelSpec(100, 200, 0, False, 600)], is_template=True
    )
    t = tournament_create(
        actor=actor,
        name="fanout",
        starts_at=timezone.now(),
        buy_in=100,
        starting_stack=1000,
        structure=structure,
        chip_set=ChipSet.objects.create(name="fanout"),
    )
    Tournament.objects.filter(pk=t.pk).update(status="registering")
    clock_command(
        tournament=t, kind="start", actor=actor, now=timezone.now() - timedelta(seconds=1)
    )

    env = _stack.stack_env(db_url, REDIS_URL)
    ports = [_stack.free_port() for _ in range(args.processes)]
    procs = [_stack.start_asgi(p, env) for p in ports]
    try:
        for p in ports:
            _stack.wait_http(p)
        urls = [f"ws://127.0.0.1:{p}/ws/t/{t.pk}/" for p in ports]

        def issue(k: int) -> tuple[float, float]:
            kind = "pause" if k % 2 == 0 else "resume"
            now = timezone.now()
            t_sent = time.time()
            clock_command(tournament=t, kind=kind, actor=actor, now=now)
            return float(int(now.timestamp() * 1000)), t_sent

        floor = measure(urls, ports, args.clients, args.commands, issue, settle=1.0, slow=args.slow)
    finally:
        _stack.stop(procs)

    # Baseline: plain PUBLISH → minimal websocket servers.
    import redis

    ctx = mp.get_context("spawn")
    bports = [_stack.free_port() for _ in range(args.processes)]
    channel = "floor-bench-baseline"
    bprocs = [ctx.Process(target=baseline_server, args=(p, channel)) for p in bports]
    for p in bprocs:
        p.start()
    time.sleep(1.5)
    r = redis.Redis.from_url(REDIS_URL)

    def issue_baseline(k: int) -> tuple[float, float]:
        cid = float(k + 1)
        t_sent = time.time()
        r.publish(
            channel,
            json.dumps(
                {
                    "type": "event",
                    "event": "clock",
                    "data": {"command_id": cid, "running": k % 2 == 1},
                }
            ),
        )
        return cid, t_sent

    try:
        base = measure(
            [f"ws://127.0.0.1:{p}/" for p in bports],
            bports,
            args.clients,
            args.commands,
            issue_baseline,
            settle=1.0,
            slow=args.slow,
        )
    finally:
        for p in bprocs:
            p.terminate()

    ratio = floor["p99_ms"] / base["p99_ms"] if base["p99_ms"] else None
    print(
        _calibrate.line(
            {
                "clients": args.clients,
                "connected": floor["connected"],
                **(
                    {"slow": args.slow, "slow_connected": floor["slow_connected"]}
                    if args.slow
                    else {}
                ),
                "processes": args.processes,
                "commands": args.commands,
                "messages": floor["messages"],
                "lost": floor["lost"],
                "p50_ms": floor["p50_ms"],
                "p99_ms": floor["p99_ms"],
                "baseline_p50_ms": base["p50_ms"],
                "baseline_p99_ms": base["p99_ms"],
                "baseline_lost": base["lost"],
                "ratio_to_baseline": round(ratio, 2) if ratio else None,
            }
        )
    )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
