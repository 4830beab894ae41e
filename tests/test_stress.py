"""Concurrency stress (bench/stress.py) in CI: parallel processes registering, busting,
finishing hands, balancing, breaking tables, moving players, working the clock, announcing
levels, calling the clock on players and calling the floor on one event on PostgreSQL.
Nobody is seated twice or lost, every kept counter equals its recount, and the event log has
one event per change, in order."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.services import CI

ROOT = Path(__file__).resolve().parents[1]


def _postgres() -> bool:
    import socket

    try:
        with socket.create_connection(("127.0.0.1", 5432), 1):
            return True
    except OSError:
        return False


@pytest.mark.postgres
def test_parallel_floor_clients_keep_every_invariant():
    if not _postgres():
        if CI:
            pytest.fail("PostgreSQL is required under CI")
        pytest.skip("PostgreSQL is not reachable on this machine.")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        # A database of its own for runs side by side (a floor_bench_* name; it is recreated).
        "DATABASE_URL": os.environ.get(
            "FLOOR_STRESS_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/floor_bench"
        ),
    }
    env.pop("REDIS_URL", None)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.stress",
            "--players",
            "600",
            "--clients",
            "6",
            "--seconds",
            "12",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["violations"] == [] and result["error_count"] == 0, result
    # floor_recount --check found every kept counter equal to its recount (in the violations).
    assert result["counters_checked"] > 600 // 9, result
    # Enough of each kind of change happened to prove something (how many fit in the 12 s
    # depends on the machine's load: the tests run on two workers).
    ops = result["operations"]
    assert ops.get("bust", 0) > 20 and ops.get("register", 0) > 5 and ops.get("hand", 0) > 20
    assert ops.get("clock_pause", 0) > 3 and ops.get("time_call", 0) > 3
