"""Wrong passwords against the login while players look up their seats.

    python -m bench.login_flood --seconds 20 --threads 8

Runs the full stack on loopback (PostgreSQL, Redis, two ASGI processes with production-like
settings and the real password hasher, ~0.3 s a check) with a seated tournament of `entries`,
behind a pretend proxy (FLOOR_TRUSTED_PROXIES=127.0.0.1, so each request names its client in
X-Forwarded-For). A separate process sends "find my seat" look-ups (bench/player_lookup.py's
load, an open loop at `--rate` a second by default) in three phases of `seconds` each, after 5
untimed seconds of look-ups that let the processes settle:

1. baseline: look-ups only;
2. flood from one address: `threads` threads post wrong passwords as fast as they are answered,
   all from one client address, mostly for the director's account; the lockout applies. Every
   second the director's right password is tried from that address too;
3. flood spread: every wrong password from a new address for a new account name, so no lockout
   ever applies and only the bound on password checks (FLOOR_PASSWORD_CHECKS) protects.

Prints one JSON line: lookup_p50_ms, lookup_p99_ms, lookup_rps (phase 2), the same with
baseline_ (phase 1) and spread_ (phase 3), ratio_p99 and spread_ratio_p99 (against the
baseline), login_attempts, refused_lockout, refused_bound, hashed (answered after a password
check), right_password_tries, right_password_refused_during_lock (every try after the lock set
in was refused; null if it never set in), lock_set_in_after_s, and the same counts with spread_.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing as mp
import os
import re
import threading
import time
from collections import Counter
from typing import Any
from urllib.parse import urlencode

from bench import _calibrate, _stack

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/13")
DATABASE_URL = "postgres://postgres@127.0.0.1:5432/floor_bench_login"
DIRECTOR_PASSWORD = "director-right-password-7"  # noqa: S105  # a scratch database's account
ATTACKER = "203.0.113.7"


def _fresh_database() -> str:
    import psycopg

    url = os.environ.get("DATABASE_URL", DATABASE_URL)
    if url == DATABASE_URL:
        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            conn.execute("DROP DATABASE IF EXISTS floor_bench_login WITH (FORCE)")
            conn.execute("CREATE DATABASE floor_bench_login")
    os.environ["DATABASE_URL"] = url
    return url


def _seated_tournament(entries: int) -> int:
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from tables import services as seating
    from tournament.domain.structure import LevelSpec
    from tournament.events import Actor
    from tournament.models import ChipSet, Entry, EntryStatus, Player, Tournament
    from tournament.services.tournaments import structure_create, tournament_create

    actor = Actor.system("bench")
    t = tournament_create(
        actor=actor,
        name="Login flood",
        starts_at=timezone.now(),
        buy_in=1000,
        fee=0,
        starting_stack=10000,
        structure=structure_create(name="lf", levels=[LevelSpec(100, 200)]),
        chip_set=ChipSet.objects.create(name="lf"),
    )
    Tournament.objects.filter(pk=t.pk).update(status="running")
    t.refresh_from_db()
    players = Player.objects.bulk_create(
        Player(name=f"Player {i}", display_name=f"Player {i % 997}") for i in range(entries)
    )
    Entry.objects.bulk_create(
        Entry(tournament=t, player=p, number=i + 1, status=EntryStatus.ACTIVE)
        for i, p in enumerate(players)
    )
    seating.seats_draw(tournament=t, actor=actor)
    get_user_model().objects.create_superuser("director", password=DIRECTOR_PASSWORD)
    return t.pk


# --- the flood -------------------------------------------------------------------------------


class _Login:
    """One keep-alive connection posting to /login/ with its own CSRF cookie."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.conn.request("GET", "/login/")
        response = self.conn.getresponse()
        body = response.read()
        cookie = response.getheader("Set-Cookie") or ""
        self.cookie = re.search(r"csrftoken=([^;]+)", cookie).group(1)  # type: ignore[union-attr]
        self.token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)  # type: ignore[union-attr]

    def post(self, username: str, password: str, address: str) -> str:
        """What became of the try: hashed, locked, busy, logged_in or an error status."""
        body = urlencode(
            {"csrfmiddlewaretoken": self.token.decode(), "username": username, "password": password}
        )
        self.conn.request(
            "POST",
            "/login/",
            body=body,
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": f"csrftoken={self.cookie}",
                "X-Forwarded-For": address,
            },
        )
        response = self.conn.getresponse()
        response.read()
        if response.status == 200:
            return "hashed"
        if response.status == 302:
            return "logged_in"
        if response.status == 429:
            return response.getheader("X-Floor-Login") or "429"
        return str(response.status)


def _flood(
    ports: list[int], threads: int, seconds: float, spread: bool, director_every: float
) -> dict[str, Any]:
    outcomes: Counter[str] = Counter()
    right: list[tuple[float, str]] = []
    first_lock: list[float] = []  # when the first try was refused by the lock
    lock = threading.Lock()
    started = time.monotonic()
    deadline = started + seconds
    serial = iter(range(10**9))

    def attacker(i: int) -> None:
        login = _Login(ports[i % len(ports)])
        while time.monotonic() < deadline:
            with lock:
                n = next(serial)
            if spread:  # a new address and account name for every try: no lockout applies
                address = f"198.18.{n // 250 % 250}.{n % 250 + 1}"
                username = f"guess-{n}"
            else:
                address = ATTACKER
                username = "director" if n % 4 else f"staff{n % 7}"
            outcome = login.post(username, f"wrong-{n}", address)
            with lock:
                outcomes[outcome] += 1
                if outcome == "locked" and not first_lock:
                    first_lock.append(time.monotonic())

    def director() -> None:  # the right password, from the attacker's address
        login = _Login(ports[0])
        while time.monotonic() < deadline:
            time.sleep(director_every)
            right.append((time.monotonic(), login.post("director", DIRECTOR_PASSWORD, ATTACKER)))

    workers = [threading.Thread(target=attacker, args=(i,)) for i in range(threads)]
    if not spread:
        workers.append(threading.Thread(target=director))
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    after = [outcome for at, outcome in right if first_lock and at >= first_lock[0]]
    result: dict[str, Any] = {
        "login_attempts": sum(outcomes.values()),
        "refused_lockout": outcomes.pop("locked", 0),
        "refused_bound": outcomes.pop("busy", 0),
        "hashed": outcomes.pop("hashed", 0),
        "other_outcomes": dict(outcomes),
        "lock_set_in_after_s": round(first_lock[0] - started, 1) if first_lock else None,
    }
    if not spread:
        result.update(
            right_password_tries=len(right),
            # None: the lock never set in, or the right password was not tried while it held.
            right_password_refused_during_lock=(
                all(o != "logged_in" for o in after) if after else None
            ),
            right_password_outcomes=dict(Counter(o for _, o in right)),
        )
    return result


# --- one phase: look-ups, with or without a flood ------------------------------------------------


def _phase(
    ports: list[int], tournament: int, args: argparse.Namespace, flood: str | None
) -> dict[str, Any]:
    from bench.player_lookup import load_main

    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    loader = ctx.Process(
        target=load_main,
        args=(ports, tournament, args.entries, args.seconds, args.connections, args.rate, out),
    )
    loader.start()
    time.sleep(1.0)  # the loader process has started sending
    result: dict[str, Any] = {}
    if flood is not None:
        result.update(
            _flood(ports, args.threads, args.seconds - 2, flood == "spread", args.director_every)
        )
    lat, errs, elapsed, _lag, _cpu = out.get(timeout=args.seconds + 120)
    loader.join()
    result.update(
        lookup_p50_ms=round(_stack.percentile(lat, 50), 1),
        lookup_p99_ms=round(_stack.percentile(lat, 99), 1),
        lookup_rps=round(len(lat) / elapsed, 1),
        lookup_errors=len(errs),
    )
    return result


def _reset_lockouts() -> None:
    from axes.models import AccessAttempt

    AccessAttempt.objects.all().delete()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=10000)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--threads", type=int, default=8, help="threads posting wrong passwords")
    parser.add_argument("--rate", type=float, default=300, help="look-ups a second (0: closed)")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--director-every", type=float, default=1.0)
    args = parser.parse_args()

    url = _fresh_database()
    from bench import _django

    _django.setup(fresh=False)
    tournament = _seated_tournament(args.entries)
    env = {**_stack.stack_env(url, REDIS_URL), "FLOOR_TRUSTED_PROXIES": "127.0.0.1"}
    ports = [_stack.free_port(), _stack.free_port()]
    procs = [_stack.start_asgi(p, env) for p in ports]
    from django.conf import settings

    result: dict[str, Any] = {
        "entries": args.entries,
        "seconds": args.seconds,
        "threads": args.threads,
        "offered_rps": args.rate or None,
        "connections": args.connections,
        "password_checks_per_process": settings.FLOOR_PASSWORD_CHECKS,
        "http_threads_per_process": settings.FLOOR_HTTP_THREADS,
    }
    try:
        for p in ports:
            _stack.wait_http(p)
        # Warm-up (untimed): the processes settle (pool filled, heap frozen after 500 requests).
        _phase(ports, tournament, argparse.Namespace(**{**vars(args), "seconds": 5}), None)
        baseline = _phase(ports, tournament, args, None)
        _reset_lockouts()
        locked = _phase(ports, tournament, args, "one-address")
        _reset_lockouts()
        spread = _phase(ports, tournament, args, "spread")
    finally:
        _stack.stop(procs)
    result.update({f"baseline_{k}": v for k, v in baseline.items()})
    result.update(locked)
    result.update({f"spread_{k}": v for k, v in spread.items()})
    for prefix in ("", "spread_"):
        result[f"{prefix}ratio_p99"] = round(
            result[f"{prefix}lookup_p99_ms"] / max(0.1, result["baseline_lookup_p99_ms"]), 2
        )
    print(_calibrate.line(result))


if __name__ == "__main__":
    main()
