"""When the laptop dies (docs/continuity.md): durable commits, the live replica, and
`floor_restore` on another var directory, with the venue's own server in processes of their own
(tests/venue_server.py), killed with SIGKILL as a power cut would."""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from bench.venue import Desk
from tests.venue_night import prepare
from tests.venue_server import (
    DIRECTOR,
    ROOT,
    Venue,
    answers,
    free_port,
    start_venue,
    venue_env,
)

pytestmark = [pytest.mark.venue, pytest.mark.slow]

# Litestream looks at the WAL every 0.25 s and sends at most every second (venue/replica.py):
# an action acknowledged this long before the kill must be in the replica.
REPLICA_INTERVAL = 1.25
MARGIN = 1.0


def _rows(db: Path, sql: str, *args: object) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, args).fetchall()
    finally:
        conn.close()


def _director(venue: Venue) -> Desk:
    desk = Desk(venue.port)
    desk.login(*DIRECTOR)
    return desk


def _restore(var_dir: Path, *args: str, port: int | None = None, wait: bool = True):
    """`manage.py floor_restore` (it becomes the venue's server: the same process)."""
    port = port or free_port()
    var_dir.parent.mkdir(parents=True, exist_ok=True)
    log = var_dir.parent / f"{var_dir.name}-restore-{port}.log"
    with open(log, "ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "floor_restore", *args, "--port", str(port)],
            cwd=ROOT,
            env=venue_env(var_dir),
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    venue = Venue(proc=proc, port=port, var_dir=var_dir, log=log)
    if wait:
        if answers(venue, 90):
            return venue
        venue.stop()
        raise AssertionError(f"The restored venue did not answer:\n{venue.output}")
    return venue


def _refused(var_dir: Path, *args: str) -> str:
    venue = _restore(var_dir, *args, wait=False)
    assert venue.proc.wait(60) != 0, venue.output
    output = venue.output
    assert "Traceback" not in output and "Floor is running" not in output
    return output


def _announced(db: Path) -> Counter[int]:
    """How often each level start was announced (the event log's clock.level and clock.break)."""
    rows = _rows(
        db, "select payload from tournament_event where action in ('clock.level','clock.break')"
    )
    return Counter(json.loads(payload)["level_index"] for (payload,) in rows)


def test_durable_commits_survive_sigkill_and_an_unwritable_replica_is_said(tmp_path):
    var = tmp_path / "var"
    night = prepare(var, players=3)
    blocked = tmp_path / "file-not-folder"
    blocked.write_text("x")  # a file where the replica's folder should be: cannot be written
    synchronous = subprocess.run(
        [
            sys.executable,
            "manage.py",
            "shell",
            "-c",
            "from django.db import connection\n"
            "c = connection.cursor(); c.execute('PRAGMA synchronous'); print(c.fetchone()[0])",
        ],
        cwd=ROOT,
        env=venue_env(var),
        capture_output=True,
        text=True,
        check=True,
    )
    assert synchronous.stdout.strip().splitlines()[-1] == "2"  # FULL
    venue = start_venue(var, "--no-mdns", "--replica", str(blocked / "floor"))
    try:
        # The replica cannot be written: said in the terminal and on the console; Floor serves.
        assert "cannot be written" in venue.output
        desk = _director(venue)
        _, page = desk.request("GET", "/console/devices/")
        assert b'role="alert"' in page and b"cannot be written" in page
        _, home = desk.request("GET", "/console/")
        assert b'id="venue-copy-warning"' in home
        acknowledged = []
        for k in range(25):
            status, body = desk.post(
                f"/api/tournaments/{night.tournament}/entries/",
                {"name": f"Durable Player{k}", "display_name": f"D{k}", "payment_method": "cash"},
                {"Idempotency-Key": f"durable-{k}"},
            )
            assert status == 201, body
            acknowledged.append(body["id"])
    finally:
        venue.proc.kill()  # no goodbye: as a power cut, as far as a process can tell
        venue.proc.wait(10)
    found = {pk for (pk,) in _rows(var / "floor.sqlite3", "select id from tournament_entry")}
    assert set(acknowledged) <= found
    assert _rows(var / "floor.sqlite3", "PRAGMA integrity_check") == [("ok",)]


def test_the_drill_replica_sigkill_restore_and_carry_on(tmp_path):
    rng = random.Random()
    var = tmp_path / "laptop"
    usb = tmp_path / "usb"
    night = prepare(var, players=60)
    name = f"drill-{rng.randrange(16**6):06x}"
    venue = start_venue(var, "--no-mdns", "--name", name, "--replica", str(usb))
    pk = night.tournament
    assert f"Replica: every commit goes to {usb}" in venue.output
    desk = _director(venue)
    status, _ = desk.post(f"/console/t/{pk}/clock/start", None, {"HX-Request": "true"})
    assert status == 204
    # The first level ends in 2 s (its start announced by the ticker), the second in 20 s.
    form = {"Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true"}
    desk.request(
        "POST",
        f"/console/t/{pk}/clock/set_remaining",
        "time=0:02",
        {**form, "X-CSRFToken": desk.cookies["csrftoken"]},
    )
    deadline = time.monotonic() + 15
    while _announced(var / "floor.sqlite3")[1] == 0 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert _announced(var / "floor.sqlite3")[1] == 1
    desk.request(
        "POST",
        f"/console/t/{pk}/clock/set_remaining",
        "time=0:20",
        {**form, "X-CSRFToken": desk.cookies["csrftoken"]},
    )
    with venue.get(f"/t/{pk}/clock.json") as answer:
        clock = json.loads(answer.read())["clock"]
    clock_acknowledged = time.time()
    assert clock["level"]["index"] == 1 and clock["running"]
    ends_at_ms = clock["ends_at_ms"]

    # The desk busts and registers through HTTP until the laptop dies.
    victims = [
        pk for (pk,) in _rows(var / "floor.sqlite3", "select entry_id from tables_seatassignment")
    ]
    rng.shuffle(victims)
    acked: list[tuple[float, str, int]] = []  # (acknowledged at, kind, entry id)
    stop = threading.Event()

    def desk_loop() -> None:
        k = 0
        while not stop.is_set() and victims:
            try:
                if k % 3 == 2:
                    status, body = desk.post(
                        f"/api/tournaments/{pk}/entries/",
                        {
                            "name": f"Late Player{k}",
                            "display_name": f"L{k}",
                            "payment_method": "cash",
                        },
                        {"Idempotency-Key": f"drill-{k}"},
                    )
                    if status == 201:
                        acked.append((time.time(), "register", body["id"]))
                else:
                    victim = victims.pop()
                    status, body = desk.post(
                        f"/api/tournaments/{pk}/busts/", {"busts": [{"entry": victim}]}
                    )
                    if status == 200:
                        acked.append((time.time(), "bust", victim))
            except OSError:
                return  # the server is gone
            k += 1
            time.sleep(0.1)

    thread = threading.Thread(target=desk_loop)
    thread.start()
    time.sleep(max(0.0, clock_acknowledged + REPLICA_INTERVAL + MARGIN - time.time()))
    time.sleep(rng.uniform(0.5, 3.0))
    venue.proc.kill()  # the laptop is unplugged (Litestream, its child, dies with it)
    killed = time.time()
    venue.proc.wait(10)
    stop.set()
    thread.join(10)
    assert len(acked) >= 5

    # The second laptop: a fresh var directory, restored from the stick, serving.
    second = tmp_path / "second"
    restored = _restore(second, str(usb), "--no-mdns")
    try:
        db = second / "floor.sqlite3"
        assert "Restored from" in restored.output
        # The same name as the first laptop's (written beside the replica).
        assert f"Starting the venue's server as {name}.local" in restored.output
        entries = dict(_rows(db, "select id, status from tournament_entry"))
        must = [(at, kind, e) for at, kind, e in acked if at <= killed - REPLICA_INTERVAL - MARGIN]
        assert must, "nothing was acknowledged early enough"
        for _at, kind, entry in must:
            assert entry in entries, (kind, entry)
            if kind == "bust":
                assert entries[entry] == "busted", (entry, entries[entry])
        # Nothing half-applied: every kept counter agrees with the rows.
        recount = subprocess.run(
            [sys.executable, "manage.py", "floor_recount", "--check"],
            cwd=ROOT,
            env=venue_env(second),
            capture_output=True,
            text=True,
            check=False,
        )
        assert recount.returncode == 0, recount.stdout + recount.stderr
        # The clock is data: the same level, ending at the same instant.
        with restored.get(f"/t/{pk}/clock.json") as answer:
            now_clock = json.loads(answer.read())["clock"]
        assert now_clock["running"]
        if time.time() * 1000 < ends_at_ms - 500:
            assert now_clock["level"]["index"] == 1
            assert abs(now_clock["ends_at_ms"] - ends_at_ms) <= 1000
        else:  # the restore took longer than the level had left: the next level runs
            assert now_clock["level"]["index"] == 2
        # The console says what time the restored state is from.
        desk2 = _director(restored)
        _, page = desk2.request("GET", "/console/")
        assert b'id="venue-restored"' in page and b"newest entry in the event log" in page
        # The second level's end falls after the restore: announced once, by the new server.
        deadline = time.time() + 40
        while _announced(db)[2] == 0 and time.time() < deadline:
            time.sleep(0.3)
        assert _announced(db)[1] == 1 and _announced(db)[2] == 1
    finally:
        restored.proc.kill()
        restored.proc.wait(10)
    # Started again on the restored data: no level announced twice.
    again = start_venue(second, "--no-mdns", "--name", name)
    try:
        time.sleep(3)
        counts = _announced(second / "floor.sqlite3")
        assert counts[1] == 1 and counts[2] == 1 and max(counts.values()) == 1
    finally:
        again.stop()

    # A partial replica (its largest file cut in half, as a copy that stopped): refused.
    partial = tmp_path / "partial"
    shutil.copytree(usb, partial)
    largest = max(partial.rglob("*.ltx"), key=lambda p: p.stat().st_size)
    with open(largest, "r+b") as cut:
        cut.truncate(largest.stat().st_size // 2)
    said = _refused(tmp_path / "third", str(partial))
    assert "is incomplete or damaged" in said
    assert not (tmp_path / "third" / "floor.sqlite3").exists()


def test_restore_refuses_an_empty_folder_a_foreign_file_a_newer_database_and_a_running_venue(
    tmp_path,
):
    empty = tmp_path / "empty"
    empty.mkdir()
    said = _refused(tmp_path / "a", str(empty))
    assert "holds no replica and no snapshot of Floor" in said
    foreign = tmp_path / "recipes.sqlite3"
    conn = sqlite3.connect(foreign)
    conn.execute("create table recipe (name text)")
    conn.commit()
    conn.close()
    said = _refused(tmp_path / "b", str(foreign))
    assert "is not a Floor database" in said
    text = tmp_path / "notes.txt"
    text.write_text("not a database")
    assert "is not a Floor database" in _refused(tmp_path / "c", str(text))

    # A venue with a snapshot (no --replica), then newer events than the snapshot.
    var = tmp_path / "var"
    prepare(var, players=2)
    venue = start_venue(var, "--no-mdns")
    try:
        assert "Snapshots: a copy of the database every minute" in venue.output
        snaps = sorted((var / "snapshots").glob("floor-*.sqlite3"))
        assert len(snaps) == 1
        assert json.loads((var / "snapshots" / "floor-venue.json").read_text())["venue_name"]
        # Running: a restore into its var directory is refused.
        said = _refused(var, str(snaps[0]))
        assert "already running on this data" in said
        desk = _director(venue)
        status, _ = desk.post(
            "/api/tournaments/1/entries/",
            {"name": "Newer Player", "display_name": "N1", "payment_method": "cash"},
            {"Idempotency-Key": "newer-1"},
        )
        assert status == 201
    finally:
        venue.stop()
    said = _refused(var, str(snaps[0]))
    assert "holds a newer database" in said and "--force" in said
    # With --force it is restored (the newer database moved aside, not deleted).
    forced = _restore(var, str(snaps[0]), "--force", "--no-mdns")
    try:
        assert list(var.glob("replaced-*/floor.sqlite3"))
        names = {n for (n,) in _rows(var / "floor.sqlite3", "select name from tournament_player")}
        assert "Newer Player" not in names
    finally:
        forced.stop()
