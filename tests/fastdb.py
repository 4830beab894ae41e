"""The fast loop's SQLite test database (`floor.py test --fast`, FLOOR_FAST=1), kept between
runs in a file under var/test-fast/ instead of made afresh in memory each time: migrating it took
most of a run's start. A database is named after the migrations' contents (an edited or a new
migration makes a new one) and the xdist worker, and it is used again only when the run that
last used it ended as a run does (passed or failed: every test's changes undone or flushed);
after an interrupted run it is made anew. The full command keeps to the database in memory."""

from __future__ import annotations

import hashlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "var" / "test-fast"
_in_use: list[Path] = []


def _migrations_digest() -> str:
    digest = hashlib.sha256()
    for path in sorted(ROOT.glob("*/migrations/**/*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(ROOT).as_posix().encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _remove(database: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm", ".clean"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)


def database(worker: str) -> Path:
    """The file for this worker's test database; a stale or unfinished one removed first."""
    FOLDER.mkdir(parents=True, exist_ok=True)
    current = FOLDER / f"{_migrations_digest()}-{worker}.sqlite3"
    for other in FOLDER.glob(f"*-{worker}.sqlite3"):
        if other != current:
            _remove(other)
    clean = Path(f"{current}.clean")
    if not clean.exists():
        _remove(current)
    clean.unlink(missing_ok=True)
    _in_use.append(current)
    return current


def finished(exitstatus: int) -> None:
    """The run ended as runs do (0 passed, 1 some failed): the databases may be used again."""
    if exitstatus in (0, 1):
        for current in _in_use:
            if current.exists():
                Path(f"{current}.clean").touch()
