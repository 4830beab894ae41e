"""A season of The Tournament Director's files imported, file by file.

    python -m bench.td_import --files 20

On a scratch database (bench/_django.py: PostgreSQL floor_bench_td_import when reachable, made
afresh, else SQLite under var/): `files` nights in TD3 3.7's shape, 40 players each drawn from
a pool of 60 (so later files find their people again by the TD3 id), with up to 5 re-entries
(imports/domain/td3_sample.py), each imported by `actions.imports.td3_files_import` in its own
transaction, as the command does (the tournament, then its league's season and formula). Measures:

- `read_ms_p50`, `read_cpu_ms_p50`: reading one file (imports/domain/td3.py), wall and CPU;
- `import_ms_per_file_p50`, `import_ms_per_file_p99`: read and import of one file, wall;
- `import_cpu_ms_per_file_p50`: this process's CPU for the same (the database's not counted);
- `file_kb_p50`: the files' size;
- `standings_ms`: the imported season's standings read once, cold (every tournament scored;
  `leagues.selectors.season_standings`), wall.

Prints one JSON line with `files`, `players` and the figures, and the calibration.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from bench import _calibrate, _django

DATABASE = "postgres://postgres@127.0.0.1:5432/floor_bench_td_import"


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def pooled(text: str, pool: list[str], seed: int) -> str:
    """The night's players swapped for people of the club's pool (the same UUIDs file to file)."""
    from imports.domain.td3 import read_td3

    rng = random.Random(seed)
    mine = [p.uuid for p in read_td3(text).players]
    for uuid, member in zip(mine, rng.sample(pool, len(mine)), strict=True):
        text = text.replace(uuid, member)
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--files", type=int, default=20)
    parser.add_argument("--players", type=int, default=40)
    args = parser.parse_args()
    if _django._postgres_reachable() and not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = DATABASE
    _django.setup(fresh=True)

    from actions.imports import td3_files_import
    from imports.domain.td3 import read_td3
    from imports.domain.td3_sample import sample_night
    from imports.services import td3_read
    from leagues.selectors import season_standings, standings_cache_clear
    from tournament.events import Actor
    from tournament.models import Player

    rng = random.Random(60)
    pool = [f"{rng.getrandbits(128):032x}" for _ in range(max(60, args.players + 20))]
    pool = [f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}" for h in pool]
    texts = [
        pooled(sample_night(seed, args.players).text, pool, seed).encode()
        for seed in range(args.files)
    ]
    actor = Actor.system("bench")
    read_wall, read_cpu, wall, cpu = [], [], [], []
    for n, data in enumerate(texts):
        began, began_cpu = time.perf_counter(), time.process_time()
        read_td3(data)
        read_wall.append(time.perf_counter() - began)
        read_cpu.append(time.process_time() - began_cpu)
        began, began_cpu = time.perf_counter(), time.process_time()
        name = f"night-{n}.tdt"
        (done,) = td3_files_import([(name, td3_read(data, name))], actor=actor)
        wall.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)
    standings_ms = None
    if texts and done.link is not None and done.link.season is not None:
        standings_cache_clear()  # a cold read: every tournament of the season scored
        began = time.perf_counter()
        season_standings(done.link.season)
        standings_ms = _ms(time.perf_counter() - began)
    print(
        _calibrate.line(
            {
                "bench": "td_import",
                "database": "postgresql" if "postgres" in os.environ["DATABASE_URL"] else "sqlite",
                "files": args.files,
                "players": Player.objects.count(),
                "file_kb_p50": round(statistics.median(len(t) for t in texts) / 1024, 1),
                "read_ms_p50": _ms(statistics.median(read_wall)),
                "read_cpu_ms_p50": _ms(statistics.median(read_cpu)),
                "import_ms_per_file_p50": _ms(statistics.median(wall)),
                "import_ms_per_file_p99": _ms(_p99(wall)),
                "import_cpu_ms_per_file_p50": _ms(statistics.median(cpu)),
                "standings_ms": standings_ms,
            }
        )
    )


if __name__ == "__main__":
    main()
