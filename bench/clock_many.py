"""Many clocks at once in the embedded mode: is every level announced on time?

    python -m bench.clock_many --tournaments 100 --minutes 3

Creates `tournaments` tournaments with one-minute levels and starts their clocks a few seconds
apart, so level ends are spread over each minute. The embedded ticker runs in this process (a
thread, as under `floor.py run`) against the database of `DATABASE_URL` (default: an SQLite
file under var/, the embedded default; set a PostgreSQL URL for that). Meanwhile the main
thread asks for each tournament's clock JSON once per second, as the big screens do at
reconnect.

Lateness of an announcement is the `announced_at` the announcer stamped on the level's event
minus the instant the level began (the start plus the levels before it: no pause in the bench).
An idle pass is measured before the first level end: the queries of one ticker pass when
nothing is due.

Prints one JSON line: tournaments, level_ends, missed, duplicates, late_p50_ms, late_p99_ms,
late_max_ms, queries_per_idle_pass, json_p99_ms, server_cpu_pct (this process, % of one core,
the JSON polling included).

The full-stack mode (Celery beat, two ASGI processes) is not part of this bench yet.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import threading
import time
from datetime import datetime, timedelta
from typing import Any

from bench import _django


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tournaments", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=3)
    parser.add_argument("--spread", type=float, default=60, help="seconds the starts spread")
    args = parser.parse_args()

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

    from clocks import ticker
    from clocks.services import clock_command
    from tournament.domain.structure import LevelSpec
    from tournament.events import Actor
    from tournament.models import ChipSet, Event
    from tournament.services.registration import entry_register, player_create
    from tournament.services.tournaments import (
        chip_set_create,
        structure_create,
        tournament_create,
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

    first_end = timezone.now() + timedelta(seconds=15)
    started: dict[int, datetime] = {}
    for i in range(args.tournaments):
        t = tournament_create(
            actor=actor,
            structure=structure,
            chip_set=chips,
            name=f"Satellite {i + 1}",
            starts_at=timezone.now(),
            buy_in=1000,
            starting_stack=5000,
        )
        from tournament.services.tournaments import tournament_status_set

        tournament_status_set(tournament=t, status="registering", actor=actor)
        entry_register(tournament=t, player=player, actor=actor)
        # Level 1 of clock i ends at first_end + i * spread / n: starts a few seconds apart.
        end = first_end + timedelta(seconds=args.spread * i / max(1, args.tournaments))
        start = end - timedelta(minutes=1)
        clock_command(tournament=t, kind="start", actor=actor, now=start)
        started[t.pk] = start

    # One ticker pass with nothing due: how many queries?
    with CaptureQueriesContext(connection) as idle:
        ticker.tick_once()
    idle_queries = len(idle.captured_queries)

    stop = threading.Event()
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
        for pk in pks:
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
    ticker.wake() if hasattr(ticker, "wake") else None
    thread.join(timeout=10)

    late: list[float] = []
    expected = 0
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
    missed = 0
    for pk, start in started.items():
        index = 1
        while start + timedelta(minutes=index) <= run_to - timedelta(seconds=1):
            if start + timedelta(minutes=index) >= run_from:
                expected += 1
                if (pk, index) not in announced:
                    missed += 1
            index += 1
    result: dict[str, Any] = {
        "bench": "clock_many",
        "database": url.split(":", 1)[0],
        "tournaments": args.tournaments,
        "minutes": args.minutes,
        "level_ends": expected,
        "missed": missed,
        "duplicates": sum(1 for n in announced.values() if n > 1),
        "late_p50_ms": round(statistics.median(late), 1) if late else None,
        "late_p99_ms": round(_percentile(late, 0.99), 1),
        "late_max_ms": round(max(late), 1) if late else None,
        "queries_per_idle_pass": idle_queries,
        "json_p99_ms": round(_percentile(json_ms, 0.99), 1),
        "server_cpu_pct": round(100 * cpu / wall, 1),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
