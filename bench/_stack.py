"""Start and stop the full stack's web processes on loopback for benchmarks.

`start_asgi`: one uvicorn process (websockets, and HTTP through Django's ASGI handler as in the
embedded mode). `FullStack`: the arrangement of docker-compose.yml: granian for HTTP (`web`),
uvicorn for websockets (`ws`), and nginx in front sending /ws/ to the one and the rest to the
other (deploy/nginx/locations.conf, the routes the compose proxy includes) when `nginx` is
installed; without it the clients route by path themselves (`proxy` says which).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

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
        # As in docker-compose.yml: no per-message compression (see there).
        "--ws-per-message-deflate",
        "false",
        "--backlog",
        "4096",
    ]
    # As docker-compose.yml; BENCH_UVICORN_WS=websockets compares the legacy implementation.
    cmd += ["--ws", os.environ.get("BENCH_UVICORN_WS", "websockets-sansio")]
    if workers > 1:
        cmd += ["--workers", str(workers)]
    return subprocess.Popen(cmd, cwd=ROOT, env=env)


def web_command(
    port: int, workers: int = 1, threads: int = 4, app: str | None = None, host: str = "127.0.0.1"
) -> list[str]:
    """The `web` service's command from docker-compose.yml (granian), run by this Python, on
    `host`:`port` with `workers` processes of `threads` threads; `app` (a WSGI application's
    "module:name") instead of Floor's for a baseline. What is measured is what is deployed."""
    import yaml

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    command: list[str] = compose["services"]["web"]["command"]
    assert command[0] == "granian", command
    set_to = {
        "--host": host,
        "--port": str(port),
        "--workers": str(workers),
        "--blocking-threads": str(threads),
    }
    options = []
    for arg in command[1:-1]:
        name = arg.split("=", 1)[0]
        if app and name == "--factory":
            continue  # a plain application, not Floor's factory
        options.append(f"{name}={set_to[name]}" if name in set_to else arg)
    assert all(o.startswith("--") and "${" not in o for o in options), options
    return [sys.executable, "-m", "granian", *options, app or command[-1]]


def start_wsgi(
    port: int, env: dict[str, str], workers: int = 1, threads: int = 4, app: str | None = None
) -> subprocess.Popen[bytes]:
    """The WSGI server as in the `web` service (`web_command`), on loopback."""
    env = {**env, "FLOOR_HTTP_THREADS": str(threads)}  # Floor's settings read it too
    return subprocess.Popen(web_command(port, workers, threads, app), cwd=ROOT, env=env)


def nginx_main(directory: str, http: str) -> str:
    """A whole nginx.conf for a process run by hand on loopback: `http` (directives of the
    `http` block) inside the main settings, with the pid and temporary files in `directory`."""
    return f"""daemon off;
worker_processes auto;
pid {directory}/nginx.pid;
error_log stderr error;
events {{
    worker_connections 16384;
}}
http {{
    access_log off;
    client_body_temp_path {directory}/body;
    proxy_temp_path {directory}/proxy;
    fastcgi_temp_path {directory}/fastcgi;
    uwsgi_temp_path {directory}/uwsgi;
    scgi_temp_path {directory}/scgi;
{http}
}}
"""


def nginx_conf(directory: str, port: int, web_ports: list[int], ws_ports: list[int]) -> str:
    """The benches' proxy around the deployed routes (deploy/nginx/locations.conf, the file the
    compose proxy includes): the upstreams on local ports instead of compose's services, plain
    HTTP on `port`. Floor is told the client's address from the request's own X-Forwarded-For,
    as a load generator that stands for many clients needs (deployed, nginx sends the address
    it sees)."""
    web = "\n".join(f"        server 127.0.0.1:{p};" for p in web_ports)
    # Without ASGI processes (a baseline) /ws/ has nowhere to go: a server marked down.
    ws = "\n".join(f"        server 127.0.0.1:{p};" for p in ws_ports) or (
        "        server 127.0.0.1:9 down;"
    )
    return nginx_main(
        directory,
        f"""    # The load generator's few connections stand for thousands of phones.
    keepalive_requests 1000000;
    upstream web {{
        least_conn;
{web}
        keepalive 64;
        keepalive_timeout 20s;
        keepalive_requests 1000000;
    }}
    upstream ws {{
        least_conn;
{ws}
    }}
    map $http_upgrade $connection_upgrade {{
        default upgrade;
        "" "";
    }}
    map "" $floor_client {{
        default $http_x_forwarded_for;
    }}
    server {{
        listen 127.0.0.1:{port};
        include {ROOT / "deploy" / "nginx" / "locations.conf"};
    }}""",
    )


def nginx_binary() -> str | None:
    return shutil.which("nginx") or next(
        (p for p in ("/usr/sbin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)), None
    )


def start_nginx(conf: str, directory: str) -> subprocess.Popen[bytes]:
    binary = nginx_binary()
    if binary is None:
        raise RuntimeError("nginx is not installed")
    path = Path(directory) / "nginx.conf"
    path.write_text(conf)
    return subprocess.Popen([binary, "-c", str(path), "-p", directory], cwd=directory)


class FullStack:
    """`web` granian processes (`workers` workers of `threads` threads each) and `ws` uvicorn
    processes, behind nginx when it is installed (and `proxy` is true). Clients send HTTP to
    `http_ports` and open websockets on `ws_ports`: the proxy's port for both, or without a
    proxy the servers' own ports."""

    def __init__(
        self,
        env: dict[str, str],
        web: int = 2,
        ws: int = 2,
        workers: int = 1,
        threads: int = 4,
        proxy: bool = True,
        app: str | None = None,
    ) -> None:
        self.env = env
        self.app = app
        self.web_ports = [free_port() for _ in range(web)]
        self.ws_port_list = [free_port() for _ in range(ws)]
        self.workers = workers
        self.threads = threads
        self.nginx = nginx_binary() if proxy else None
        self.proxy_port = free_port() if self.nginx else None
        self.procs: list[subprocess.Popen[bytes]] = []
        self._dir: tempfile.TemporaryDirectory[str] | None = None

    @property
    def proxy(self) -> str | None:
        return "nginx" if self.nginx else None

    @property
    def http_ports(self) -> list[int]:
        return [self.proxy_port] if self.proxy_port else self.web_ports

    @property
    def ws_ports(self) -> list[int]:
        return [self.proxy_port] if self.proxy_port else self.ws_port_list

    def start(self) -> FullStack:
        self.procs += [
            start_wsgi(p, self.env, self.workers, self.threads, self.app) for p in self.web_ports
        ]
        self.procs += [start_asgi(p, self.env) for p in self.ws_port_list]
        for p in [*self.web_ports, *self.ws_port_list]:
            wait_http(p, "/healthz" if self.app is None else "/")
        if self.nginx and self.proxy_port:
            self._dir = tempfile.TemporaryDirectory(prefix="floor-nginx-")
            conf = nginx_conf(self._dir.name, self.proxy_port, self.web_ports, self.ws_port_list)
            self.procs.append(start_nginx(conf, self._dir.name))
            wait_http(self.proxy_port)
        return self

    def stop(self) -> None:
        stop(list(reversed(self.procs)))
        self.procs = []
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None


def cpu_seconds(procs: list[subprocess.Popen[bytes]]) -> float:
    """CPU time (user + system) used so far by `procs` and their children (the servers' workers),
    from /proc; 0 where there is no /proc."""
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    stats: dict[int, tuple[int, float]] = {}  # pid -> (parent, seconds)
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        stats[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / ticks)
    wanted = {p.pid for p in procs}
    grew = True
    while grew:
        more = {pid for pid, (parent, _) in stats.items() if parent in wanted} - wanted
        grew = bool(more)
        wanted |= more
    return sum(stats[pid][1] for pid in wanted if pid in stats)


def wait_idle(
    procs: list[subprocess.Popen[bytes]], since: float, settle: float = 5.0, limit: float = 300
) -> float:
    """Wait `settle` seconds, then until `procs` are idle (under 5 % of a core for a second), at
    most until `limit` seconds after `since`. Returns how long after `since` they were busy."""
    time.sleep(settle)
    while time.time() < since + limit:
        before = cpu_seconds(procs)
        time.sleep(1.0)
        if cpu_seconds(procs) - before < 0.05:
            return time.time() - 1.0 - since
    return time.time() - since


def machine_cpu() -> tuple[int, int]:
    """(busy, total) CPU time of the whole machine so far, all cores, in clock ticks from
    /proc/stat (only their share is used, see `busy_share`); (0, 0) without it."""
    try:
        fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields) - idle, sum(fields)


def busy_share(before: tuple[int, int], after: tuple[int, int]) -> float | None:
    """The share of the machine's CPU that was busy between two `machine_cpu` readings: near 1,
    the cores were the limit."""
    total = after[1] - before[1]
    return round((after[0] - before[0]) / total, 3) if total > 0 else None


def bare_wsgi(environ: dict[str, Any], start_response: Any) -> list[bytes]:
    """A baseline: what the servers and the proxy cost without Floor (a fixed small answer)."""
    body = b"<p>Table 1, Seat 1</p>"
    start_response("200 OK", [("Content-Type", "text/html"), ("Content-Length", str(len(body)))])
    return [body]


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
