"""Start and stop the full stack's web processes on loopback for benchmarks."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def stack_env(database_url: str, redis_url: str) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.base",
        "DEBUG": "false",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "FLOOR_TICKER": "off",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "WARNING",
        "DB_POOL_MAX": "10",
        "WHITENOISE_USE_FINDERS": "true",
    }


def start_asgi(port: int, env: dict[str, str], workers: int = 1) -> subprocess.Popen[bytes]:
    cmd = [
        sys.executable,
        "-m",
        "uvicorn",
        "config.asgi:application",
        "--host",
        "127.0.0.1",
        "--port",
        str(port),
        "--lifespan",
        "off",
        "--log-level",
        "warning",
        "--no-access-log",
        "--no-proxy-headers",  # as in production: Floor reads X-Forwarded-For itself
        "--ws-max-size",
        "65536",
        "--backlog",
        "4096",
    ]
    if workers > 1:
        cmd += ["--workers", str(workers)]
    return subprocess.Popen(cmd, cwd=ROOT, env=env)


def wait_http(port: int, path: str = "/healthz", timeout: float = 30) -> None:
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"server on port {port} did not come up")


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        p.terminate()
    for p in procs:
        try:
            p.wait(10)
        except subprocess.TimeoutExpired:
            p.kill()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1))))
    return ordered[k]
