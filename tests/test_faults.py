"""Faults on the full stack (bench/faults.py): the Celery worker, beat and an ASGI process
killed, Redis and PostgreSQL restarted mid-level. Each runs against a private PostgreSQL
cluster and Redis server on free loopback ports, with a big screen in Chromium."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.db.utils import OperationalError
from django.test import RequestFactory

from config.errors import server_error
from tests.services import chromium_available, require

ROOT = Path(__file__).resolve().parents[1]


def _postgres_binaries() -> bool:
    return shutil.which("initdb") is not None or any(
        Path("/usr/lib/postgresql").glob("*/bin/initdb")
    )


@pytest.mark.browser
def test_no_level_event_lost_or_doubled_and_screens_recover_after_each_fault():
    require(_postgres_binaries(), "PostgreSQL server binaries (initdb)")
    require(shutil.which("redis-server") is not None, "redis-server")
    require(chromium_available(), "Chromium (/usr/bin/chromium)")
    out = subprocess.run(
        [sys.executable, "-m", "bench.faults"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["violations"] == []
    assert result["scenarios"] == result["faults_injected"] == 5
    for name in ("worker", "beat", "asgi", "redis", "postgres"):
        assert result[name]["level_recorded_s"] is not None
        assert result[name]["screen_live_again_s"] is not None
        assert result[name]["screen_live_again_s"] < 15
    assert result["redis"]["write_during_outage"] == 201
    assert result["postgres"]["write_while_down"] == 503


def test_a_database_outage_is_a_503_with_retry_after():
    rf = RequestFactory()
    try:
        raise OperationalError("connection refused")
    except OperationalError:
        api = server_error(rf.get("/api/tournaments/"))
        page = server_error(rf.get("/console/"))
    assert api.status_code == page.status_code == 503
    assert api["Retry-After"] == "2" and b"database_unavailable" in api.content
    assert b"Nothing was saved" in page.content
    # The Content-Security-Policy refuses inline styles: the page links its style sheet.
    assert b"<style" not in page.content and b"/static/floor/error.css" in page.content
    try:
        raise ValueError("bug")
    except ValueError:
        assert server_error(rf.get("/console/")).status_code == 500
