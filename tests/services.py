"""Which outside services the tests can use. Outside CI a missing one skips with a reason;
under CI=true a missing one fails, because nothing required may be skipped there."""

from __future__ import annotations

import os
import shutil
import socket

import pytest

CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
# Chromium's switches for the tests: no sandbox (root in CI), nothing that calls out.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/15")


def _port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), 1):
            return True
    except OSError:
        return False


def redis_available() -> bool:
    return _port_open("127.0.0.1", 6379)


def chromium_available() -> bool:
    return os.path.exists(CHROMIUM) or shutil.which("chromium") is not None


def require(available: bool, what: str) -> None:
    """Skip (or, under CI, fail) the calling test when `what` is missing."""
    if available:
        return
    if CI:
        pytest.fail(f"{what} is required under CI but not reachable.")
    pytest.skip(f"{what} is not reachable on this machine.")
