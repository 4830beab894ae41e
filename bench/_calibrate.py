"""The machine's own speed, measured in the same run as a bench's figures, so that a figure can
be read against the machine it was taken on (machines of the same kind differ up to 2.5×).

Every bench prints its one JSON line through `line`, which adds `calibration`:

- `cpu_ms`: a fixed pure-Python workload (names formatted, a dict built and sorted, a part
  encoded as JSON), best of five: what one core of this machine does for Floor's own code;
- `pg_commit_ms`: the median latency of a one-row INSERT and COMMIT on the local PostgreSQL
  (127.0.0.1:5432, a temporary table), or null where it cannot be reached: what a write costs
  on this machine's disk and database.

Benches that serve requests also measure their own bare baseline behind the same servers and
print its ratio (docs/benchmarks.md).
"""

from __future__ import annotations

import json
import os
import statistics
import time
from typing import Any

PG_URL = os.environ.get("BENCH_CALIBRATION_PG", "postgres://postgres@127.0.0.1:5432/postgres")


def cpu_ms(rounds: int = 5) -> float:
    best = float("inf")
    for _ in range(rounds):
        began = time.perf_counter()
        numbers = {f"P{i:06d}": i * 7919 % 10007 for i in range(200_000)}
        ordered = sorted(numbers.items(), key=lambda item: item[1])
        json.dumps(ordered[:20_000])
        best = min(best, time.perf_counter() - began)
    return round(best * 1000, 1)


def pg_commit_ms(commits: int = 50) -> float | None:
    try:
        import psycopg

        with psycopg.connect(PG_URL, connect_timeout=2, autocommit=False) as conn:
            conn.execute("CREATE TEMPORARY TABLE floor_calibration (n integer)")
            conn.commit()
            samples = []
            for n in range(commits):
                began = time.perf_counter()
                conn.execute("INSERT INTO floor_calibration VALUES (%s)", (n,))
                conn.commit()
                samples.append(time.perf_counter() - began)
        return round(statistics.median(samples) * 1000, 3)
    except Exception:
        return None


def calibration() -> dict[str, Any]:
    return {"cpu_ms": cpu_ms(), "pg_commit_ms": pg_commit_ms()}


def line(result: dict[str, Any], **dumps: Any) -> str:
    """The bench's JSON line with this machine's calibration, measured now."""
    return json.dumps({**result, "calibration": calibration()}, **dumps)
