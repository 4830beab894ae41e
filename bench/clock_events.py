"""Exactly-once level events under racing tickers.

    python -m bench.clock_events --tickers 2 --levels 500

Starts one clock with `levels` one-minute levels (at most the 500 rows a structure may have,
tournament/domain/structure.py MAX_LEVELS; the bench ran 1,000 before that cap), then runs `tickers` processes that each walk
simulated time from the start to past the last level in small random steps, calling the real
announcer (`clocks_announce_due(now=...)`) at every step, all against the same database. Prints
one JSON line: levels, events, duplicates (level starts announced more than once), missed (level
starts never announced).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import time
from datetime import timedelta

from bench import _calibrate, _django


def ticker(tournament_id: int, start_iso: str, levels: int, seed: int, barrier: object) -> None:
    _django.setup()
    from datetime import datetime

    from django.db import close_old_connections

    from clocks.services import clocks_announce_due

    start = datetime.fromisoformat(start_iso)
    rng = random.Random(seed)
    barrier.wait()  # type: ignore[attr-defined]
    offset = 0.0
    end = levels * 60 + 30
    while offset <= end:
        clocks_announce_due(now=start + timedelta(seconds=offset))
        offset += rng.uniform(5, 25)
        close_old_connections()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tickers", type=int, default=2)
    parser.add_argument("--levels", type=int, default=500)
    args = parser.parse_args()
    from tournament.domain.structure import MAX_LEVELS

    if not 2 <= args.levels <= MAX_LEVELS:
        parser.error(f"--levels: a structure has 2 to {MAX_LEVELS} levels")

    url = _django.setup()
    from django.utils import timezone

    from clocks.models import Clock
    from clocks.services import clock_command
    from tournament.domain.structure import LevelSpec
    from tournament.events import Actor
    from tournament.models import ChipSet, Event, Tournament
    from tournament.services.tournaments import structure_create, tournament_create

    actor = Actor.system("bench")
    structure = structure_create(
        name="bench",
        levels=[LevelSpec(100 * (i + 1), 200 * (i + 1), 0, False, 1) for i in range(args.levels)],
        is_template=True,
    )
    chip_set = ChipSet.objects.create(name="bench")
    start = timezone.now() - timedelta(days=30)
    t = tournament_create(
        actor=actor,
        name="bench clock",
        starts_at=start,
        buy_in=100,
        starting_stack=1000,
        structure=structure,
        chip_set=chip_set,
    )
    Tournament.objects.filter(pk=t.pk).update(status="registering")
    t.refresh_from_db()
    clock_command(tournament=t, kind="start", actor=actor, now=start)
    # Only this benchmark's clock may tick: park every other running tournament.
    Tournament.objects.exclude(pk=t.pk).filter(status__in=["running", "final_table"]).update(
        status="finished"
    )

    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(args.tickers)
    began = time.perf_counter()
    procs = [
        ctx.Process(target=ticker, args=(t.pk, start.isoformat(), args.levels, seed, barrier))
        for seed in range(args.tickers)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    seconds = time.perf_counter() - began

    counts: dict[int, int] = {}
    for payload in Event.objects.filter(
        tournament=t, action__in=["clock.level", "clock.break"]
    ).values_list("payload", flat=True):
        counts[payload["level_index"]] = counts.get(payload["level_index"], 0) + 1
    expected = range(1, args.levels)  # level 0 starts with the clock, not announced
    duplicates = sum(1 for i in expected if counts.get(i, 0) > 1)
    missed = sum(1 for i in expected if counts.get(i, 0) == 0)
    print(
        _calibrate.line(
            {
                "levels": args.levels,
                "tickers": args.tickers,
                "events": sum(counts.values()),
                "duplicates": duplicates,
                "missed": missed,
                "announced_level": Clock.objects.get(tournament=t).announced_level,
                "seconds": round(seconds, 2),
                "database": url.split(":", 1)[0],
            }
        )
    )


if __name__ == "__main__":
    main()
