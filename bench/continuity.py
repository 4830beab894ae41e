"""When the laptop dies: what a power cut costs with the venue's replica, and what durable
commits cost the desk (docs/continuity.md).

    python -m bench.continuity --entries 1500 --phase-seconds 15 --kill-after 10-30

The venue command's own server (`manage.py floor_venue`, bench/venue.py) on a running tournament
of `entries` seated players (bench/event_storm.py `seed`, late registration open, the clock
started), with `--replica` to a folder. Two directors at the desk (bench/venue.py `Desk`, each
with its own session and connection) bust ten players a second and register five a second
through the API, on schedule.

1. Four phases of `--phase-seconds`, the server started for each with `synchronous=NORMAL`,
   `FULL`, `FULL`, `NORMAL` (FLOOR_SQLITE_SYNCHRONOUS; FULL is the venue's default): what a bust
   costs with and without durable commits, on the same data, the machine's drift falling on
   both alike. The first two seconds of each phase warm the server and are not counted.
2. The server with `FULL`, SIGKILLed at a random moment in `--kill-after` seconds (Litestream,
   its child, dies with it).
3. `floor_restore` from the folder into a fresh var directory, which starts the server.

Prints one JSON line: `acknowledged` (actions answered 2xx in phase 2), `lost_acknowledged` (of
those acknowledged more than the replica interval before the kill, the ones not in the restored
database; target 0), `lost_inside_interval` (missing, acknowledged within the interval),
`rpo_ms` (from the oldest missing action's acknowledgement to the kill; 0 when nothing is
missing), `rto_s` (`floor_restore` started → the restored server's first answered request;
target ≤ 60), `bust_p99_ms_durable` / `bust_p99_ms_normal` and their `bust_p99_ratio` (target
≤ 1.3), and `calibration_ms` (bench/venue.py `calibrate`).
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from bench import _calibrate, _stack
from bench.event_storm import seed
from bench.venue import DIRECTOR, Desk, calibrate, director_ensure, server_env

ROOT = _stack.ROOT
BUSTS_PER_SECOND = 10.0
REGISTRATIONS_PER_SECOND = 5.0
WARM_SECONDS = 2.0
RTO_TARGET_S = 60
RATIO_TARGET = 1.3


def start(var_dir: str, port: int, synchronous: str, *extra: str) -> subprocess.Popen[bytes]:
    """The venue command's server on 127.0.0.1:`port` (no mDNS), its output on stderr."""
    env = {**server_env(var_dir), "FLOOR_SQLITE_SYNCHRONOUS": synchronous}
    return subprocess.Popen(
        [
            sys.executable,
            "manage.py",
            "floor_venue",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-mdns",
            *extra,
        ],
        cwd=ROOT,
        env=env,
        stdout=sys.stderr,
        stdin=subprocess.DEVNULL,
    )


class Load:
    """The desk: busts and registrations on schedule, each from its own director's session,
    until stopped. Records (acknowledged at, kind, entry id, sent at, ms) for each 2xx."""

    def __init__(self, port: int, pk: int, victims: list[int], first_number: int) -> None:
        self.port = port
        self.pk = pk
        self.victims = victims  # popped from the end
        self.number = first_number
        self.acked: list[tuple[float, str, int, float, float]] = []
        self.errors: dict[str, int] = {}
        self.stop = threading.Event()
        self._lock = threading.Lock()

    def _run(self, desk: Desk, kind: str, rate: float) -> None:
        began = time.time()
        k = 0
        while not self.stop.is_set():
            due = began + k / rate
            time.sleep(max(0.0, due - time.time()))
            if self.stop.is_set():
                return
            sent = time.time()
            try:
                if kind == "bust":
                    with self._lock:
                        if not self.victims:
                            return
                        entry = self.victims.pop()
                    status, body = desk.post(
                        f"/api/tournaments/{self.pk}/busts/", {"busts": [{"entry": entry}]}
                    )
                else:
                    with self._lock:
                        self.number += 1
                        number = self.number
                    status, body = desk.post(
                        f"/api/tournaments/{self.pk}/entries/",
                        {
                            "name": f"Late Player {number}",
                            "display_name": f"P{number:06d}",
                            "payment_method": "cash",
                        },
                        {"Idempotency-Key": f"continuity-{number}"},
                    )
                    entry = body["id"] if isinstance(body, dict) and "id" in body else 0
            except OSError:
                return  # the server is gone
            done = time.time()
            if status in (200, 201):
                self.acked.append((done, kind, entry, sent, (done - sent) * 1000))
            else:
                with self._lock:
                    self.errors[f"{kind} {status}"] = self.errors.get(f"{kind} {status}", 0) + 1
            k += 1

    def start(self) -> list[threading.Thread]:
        threads = []
        for kind, rate in (("bust", BUSTS_PER_SECOND), ("register", REGISTRATIONS_PER_SECOND)):
            desk = Desk(self.port)
            desk.login(*DIRECTOR)  # one after the other: logins at once are bounded (429)
            threads.append(threading.Thread(target=self._run, args=(desk, kind, rate), daemon=True))
        for thread in threads:
            thread.start()
        return threads

    def ms(self, kind: str, after: float) -> list[float]:
        """The answer times of `kind` sent from `after` on."""
        return [m for _done, k, _e, sent, m in self.acked if k == kind and sent >= after]


def restored_rows(db: Path) -> dict[int, str]:
    conn = sqlite3.connect(db)
    try:
        return dict(conn.execute("SELECT id, status FROM tournament_entry").fetchall())
    finally:
        conn.close()


def answered(port: int, path: str = "/healthz") -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def phase(
    var_dir: str,
    usb: str,
    synchronous: str,
    load: Load,
    seconds: float,
    kill: bool = False,
) -> tuple[float, float]:
    """The server with `synchronous` and the replica to `usb` under `load` for `seconds`, then
    stopped (or SIGKILLed with `kill`). Returns when the load began and when the server ended."""
    port = _stack.free_port()
    server = start(var_dir, port, synchronous, "--replica", usb)
    try:
        _stack.wait_http(port, "/healthz", timeout=180)
        load.port = port
        load.stop.clear()
        began = time.time()
        threads = load.start()
        time.sleep(seconds)
        if kill:
            server.kill()  # the laptop is unplugged: Litestream, its child, dies with it
            server.wait(10)
        ended = time.time()
        load.stop.set()
        for thread in threads:
            thread.join(30)
    finally:
        if server.poll() is None:
            _stack.stop([server])
    return began, ended


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=1500)
    parser.add_argument(
        "--phase-seconds",
        type=float,
        default=15,
        help="each of the four phases that compare FULL with NORMAL (NORMAL, FULL, FULL, NORMAL)",
    )
    parser.add_argument("--kill-after", default="10-30", help="seconds, a range: from-to")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    low, _sep, high = args.kill_after.partition("-")
    rng = random.Random(args.seed)
    kill_after = rng.uniform(float(low), float(high or low))
    if (4 * args.phase_seconds + float(high or low) + 5) * BUSTS_PER_SECOND >= args.entries:
        parser.error("more busts than the field allows: raise --entries")
    calibration = calibrate()
    from venue.replica import MONITOR_SECONDS, SYNC_SECONDS

    interval = SYNC_SECONDS + MONITOR_SECONDS

    with tempfile.TemporaryDirectory(prefix="floor-continuity-") as tmp:
        var_dir, usb, second = (str(Path(tmp) / n) for n in ("laptop", "usb", "second"))
        os.environ.clear()
        os.environ.update(server_env(var_dir))
        sys.path.insert(0, str(ROOT))
        import django

        django.setup()
        from django.core.management import call_command
        from django.db import connection

        from clocks.services import clock_command
        from tables.models import SeatAssignment
        from tournament.events import Actor

        call_command("migrate", verbosity=0, interactive=False)
        director_ensure()
        t = seed(
            args.entries, 9, rng, name="Continuity", closed=False, late_registration_until_level=6
        )
        clock_command(tournament=t, kind="start", actor=Actor.system("bench"))
        victims = list(
            SeatAssignment.objects.filter(table__tournament=t).values_list("entry_id", flat=True)
        )
        rng.shuffle(victims)
        connection.close()

        # 1. What durable commits cost: NORMAL, FULL, FULL, NORMAL (the machine's drift falls
        # on both alike), the replica on in each.
        samples: dict[str, dict[str, list[float]]] = {
            mode: {"bust": [], "register": []} for mode in ("NORMAL", "FULL")
        }
        number = args.entries
        for mode in ("NORMAL", "FULL", "FULL", "NORMAL"):
            load = Load(0, t.pk, victims, number)
            began, _ended = phase(var_dir, usb, mode, load, args.phase_seconds)
            number = load.number
            for kind in ("bust", "register"):
                samples[mode][kind] += load.ms(kind, began + WARM_SECONDS)

        # 2. synchronous=FULL with the replica; SIGKILL at a random moment.
        durable = Load(0, t.pk, victims, number)
        _began, killed = phase(var_dir, usb, "FULL", durable, kill_after, kill=True)
        load_average = os.getloadavg()[0]

        # 3. Restore on "the second laptop" and serve.
        port = _stack.free_port()
        restoring = time.time()
        restored = subprocess.Popen(
            [
                *(sys.executable, "manage.py", "floor_restore", usb),
                *("--host", "127.0.0.1", "--port", str(port), "--no-mdns"),
            ],
            cwd=ROOT,
            env=server_env(second),
            stdout=sys.stderr,
            stdin=subprocess.DEVNULL,
        )
        try:
            while not answered(port):
                if restored.poll() is not None or time.time() - restoring > 300:
                    raise RuntimeError("the restored server did not answer")
                time.sleep(0.05)
            rto = time.time() - restoring
            rows = restored_rows(Path(second) / "floor.sqlite3")
        finally:
            _stack.stop([restored])

    missing = [
        (done, kind, entry)
        for done, kind, entry, _sent, _ms in durable.acked
        if entry not in rows or (kind == "bust" and rows[entry] != "busted")
    ]
    older = [m for m in missing if m[0] <= killed - interval]
    pct = _stack.percentile
    p99 = {mode: round(pct(samples[mode]["bust"], 99), 1) for mode in samples}
    ratio = round(p99["FULL"] / p99["NORMAL"], 2) if p99["NORMAL"] else None
    print(
        _calibrate.line(
            {
                "acknowledged": len(durable.acked),
                "lost_acknowledged": len(older),
                "lost_inside_interval": len(missing) - len(older),
                "rpo_ms": round((killed - min(m[0] for m in missing)) * 1000) if missing else 0,
                "rto_s": round(rto, 1),
                "bust_p99_ms_durable": p99["FULL"],
                "bust_p99_ms_normal": p99["NORMAL"],
                "bust_p99_ratio": ratio,
                "targets_met": {
                    "lost_acknowledged": not older,
                    "rto": rto <= RTO_TARGET_S,
                    "bust_p99_ratio": ratio is not None and ratio <= RATIO_TARGET,
                },
                "bust_p50_ms_durable": round(pct(samples["FULL"]["bust"], 50), 1),
                "bust_p50_ms_normal": round(pct(samples["NORMAL"]["bust"], 50), 1),
                "register_p99_ms_durable": round(pct(samples["FULL"]["register"], 99), 1),
                "register_p99_ms_normal": round(pct(samples["NORMAL"]["register"], 99), 1),
                "busts_compared": {m: len(samples[m]["bust"]) for m in samples},
                "replica_interval_s": interval,
                "killed_after_s": round(kill_after, 1),
                "busts_before_kill": sum(1 for a in durable.acked if a[1] == "bust"),
                "registrations_before_kill": sum(1 for a in durable.acked if a[1] == "register"),
                "desk_errors": durable.errors,
                "entries": args.entries,
                "load_average": round(load_average, 1),
                "calibration_ms": calibration,
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
