"""The venue's copies off the live file (venue/replica.py), what the console says of them and
of a restore (venue/notices.py), and the restore's checks of a database
(venue/management/commands/floor_restore.py). The servers themselves: tests/test_continuity.py."""

from __future__ import annotations

import json
import sqlite3
import stat
from datetime import UTC, datetime, timedelta

import pytest

from venue import notices, replica
from venue.management.commands.floor_restore import floor_problem, newest_event
from venue.network import VenueError


def test_a_replica_is_a_folder_or_an_sftp_address_and_its_password_is_never_shown(tmp_path):
    folder = replica.destination(str(tmp_path / "usb" / ".." / "stick"))
    assert folder.kind == "file" and folder.path == tmp_path / "stick"
    remote = replica.destination("sftp://floor:secret@192.168.1.31:2222/home/floor/replica")
    assert remote.kind == "sftp" and remote.path is None
    assert remote.shown == "sftp://floor@192.168.1.31:2222/home/floor/replica"
    for wrong in ("s3://bucket/floor", "sftp:///no-host", "sftp://host-without-user/x", " "):
        with pytest.raises(VenueError):
            replica.destination(wrong)


def test_litestream_is_configured_for_the_database_its_replica_and_its_control_socket(
    tmp_path, monkeypatch
):
    db = tmp_path / "var" / "floor.sqlite3"
    text = replica.litestream_config(
        db, replica.destination(str(tmp_path / "usb")), tmp_path / "c.sock"
    )
    assert f'path: "{db}"' in text and "monitor-interval: 250ms" in text
    assert "type: file" in text and f'path: "{tmp_path / "usb"}"' in text
    assert "sync-interval: 1000ms" in text and f'path: "{tmp_path / "c.sock"}"' in text
    monkeypatch.setenv("FLOOR_REPLICA_SSH_KEY", "/keys/id_ed25519")
    monkeypatch.setenv("FLOOR_REPLICA_SSH_HOST_KEY", "ssh-ed25519 AAAAC3Nza")
    sftp = replica.litestream_config(db, replica.destination("sftp://floor@laptop2/r"), None)
    assert 'url: "sftp://floor@laptop2/r"' in sftp and "socket:" not in sftp
    assert 'key-path: "/keys/id_ed25519"' in sftp and 'host-key: "ssh-ed25519 AAAAC3Nza"' in sftp
    config = tmp_path / "litestream.yml"
    replica.write_private(config, sftp)
    assert stat.S_IMODE(config.stat().st_mode) == 0o600


def test_a_folder_that_cannot_be_written_is_named_with_its_reason(tmp_path):
    assert replica.folder_problem(tmp_path / "usb") is None
    assert (tmp_path / "usb").is_dir() and not list((tmp_path / "usb").iterdir())
    # A stick that is not mounted: its mount point's folder is not made on this disk.
    assert replica.folder_problem(tmp_path / "not-mounted" / "floor")
    assert not (tmp_path / "not-mounted").exists()
    (tmp_path / "a-file").write_text("x")
    assert replica.folder_problem(tmp_path / "a-file" / "floor")


def test_litestreams_times_are_read_with_their_zone():
    assert replica._parse_go_time("2026-12-07T13:03:09.661546542Z") == datetime(
        2026, 12, 7, 13, 3, 9, 661546, tzinfo=UTC
    )
    assert replica._parse_go_time("2026-12-07T14:07:12.096+01:00") == datetime(
        2026, 12, 7, 13, 7, 12, 96000, tzinfo=UTC
    )
    assert replica._parse_go_time("2026-12-07T14:07:12+01:00").utcoffset() == timedelta(hours=1)


def _live_db(path):
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE bust (entry INTEGER)")
    conn.commit()
    return conn


def test_snapshots_are_whole_single_files_taken_when_something_changed_the_last_ten_kept(
    tmp_path,
):
    db = tmp_path / "floor.sqlite3"
    live = _live_db(db)
    taker = replica.Snapshotter(tmp_path, db, "club")
    clock = iter(datetime(2026, 12, 7, 20, 0, tzinfo=UTC) + timedelta(minutes=m) for m in range(99))
    taker.now = lambda: next(clock)
    taker.start()  # the first at once
    first = replica.snapshots(tmp_path / "snapshots")
    assert [p.name for p in first] == ["floor-20261207-200000.sqlite3"]
    assert stat.S_IMODE((tmp_path / "snapshots").stat().st_mode) == 0o700
    assert taker.take() is None  # nothing changed: no copy
    for k in range(12):
        live.execute("INSERT INTO bust VALUES (?)", (k,))
        live.commit()
        assert taker.take() is not None
    kept = replica.snapshots(tmp_path / "snapshots")
    assert len(kept) == replica.SNAPSHOTS_KEPT
    assert not list((tmp_path / "snapshots").glob(".*part"))
    newest = sqlite3.connect(kept[-1])
    assert newest.execute("SELECT count(*) FROM bust").fetchone() == (12,)
    assert newest.execute("PRAGMA journal_mode").fetchone() == ("delete",)
    newest.close()
    assert replica.read_name(tmp_path / "snapshots") == "club"
    status = replica.current()
    assert status is not None and status.mode == "snapshots" and status.kept == 10
    assert not status.warn
    taker.stop()
    live.close()


@pytest.mark.parametrize(
    ("state", "behind", "warn", "words"),
    [
        ("ok", 1.0, False, "is up to date"),
        ("behind", 12.0, True, "is 12 s behind"),
        ("stopped", None, True, "has stopped"),
        ("unwritable", None, True, "cannot be written (Read-only file system)"),
        ("starting", None, False, "is starting"),
    ],
)
def test_the_replicas_state_in_one_sentence(state, behind, warn, words):
    status = replica.Status(
        mode="replica",
        target="/media/usb/floor",
        state=state,
        last_sync=datetime.now(UTC) if behind is not None else None,
        behind_seconds=behind,
        problem="Read-only file system" if state == "unwritable" else "",
    )
    assert status.warn is warn
    sentence = notices.copy_sentence(status)
    assert words in sentence and "/media/usb/floor" in sentence


def test_the_restored_banner_stays_until_dismissed_or_the_night_is_over(tmp_path):
    at = datetime(2026, 12, 7, 21, 47, 13, tzinfo=UTC)
    notices.restored_write(tmp_path, source="/media/usb/floor", state_at=at, name="club")
    shown = notices.restored_read(tmp_path)
    assert shown is not None and shown["state_at"] == at and shown["venue_name"] == "club"
    notices.restored_dismiss(tmp_path, "tessa")
    assert notices.restored_read(tmp_path) is None
    record = json.loads((tmp_path / notices.RESTORED_FILE).read_text())
    assert record["dismissed_by"] == "tessa"
    record.update(dismissed_by=None, restored_at="2026-01-01T00:00:00+00:00")
    (tmp_path / notices.RESTORED_FILE).write_text(json.dumps(record))
    assert notices.restored_read(tmp_path) is None  # another night


def test_a_foreign_or_damaged_database_is_no_floor_database(tmp_path):
    foreign = tmp_path / "recipes.sqlite3"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE recipe (name TEXT)")
    conn.commit()
    conn.close()
    problem = floor_problem(foreign)
    assert problem and "tournament_event" in problem and "tournament migrations" in problem
    assert newest_event(foreign) is None
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(b"SQLite format 3\x00" + b"\x07" * 4000)
    assert floor_problem(junk)
