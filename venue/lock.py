"""One venue server per var directory: a second start on the same data refuses instead of two
servers writing one database. The lock is the operating system's (flock), so it is released
when the process ends however it ends (a crash, a power cut) and never goes stale."""

from __future__ import annotations

import os
from pathlib import Path
from typing import IO

from venue.network import VenueError, _

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt


class VarDirLock:
    def __init__(self, var_dir: Path) -> None:
        self.path = var_dir / "venue.lock"
        self._file: IO[str] | None = None

    def acquire(self, describe: str) -> None:
        """Hold the lock, writing `describe` (process and address) for a second start to read."""
        handle = open(self.path, "a+")  # noqa: SIM115 - held until release()
        try:
            if fcntl is not None:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            else:
                handle.seek(0)
                msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip() or "another process"
            handle.close()
            raise VenueError(
                _(
                    "Floor is already running on this data (%(where)s): %(holder)s. Use that "
                    "server, or stop it (Ctrl+C in its terminal) before starting again. Two "
                    "servers must never write one database."
                )
                % {"where": self.path.parent, "holder": holder}
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"process {os.getpid()}, {describe}\n")
        handle.flush()
        self._file = handle

    def note(self, describe: str) -> None:
        if self._file is not None:
            self._file.seek(0)
            self._file.truncate()
            self._file.write(f"process {os.getpid()}, {describe}\n")
            self._file.flush()

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing the file releases the lock
            self._file = None


class FileLock:
    """A blocking exclusive lock on `path` for a `with` block (released at its end)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: IO[str] | None = None

    def __enter__(self) -> FileLock:
        self._file = open(self.path, "a+")
        if fcntl is not None:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_EX)
        else:
            self._file.seek(0)
            msvcrt.locking(self._file.fileno(), msvcrt.LK_LOCK, 1)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
