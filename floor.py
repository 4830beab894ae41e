#!/usr/bin/env python3
"""Floor's commands on a fresh machine (Python 3.11+, nothing else):

    python3 floor.py run     start Floor with a demo tournament (SQLite, embedded), this machine only
    python3 floor.py venue   run a real night: every phone, tablet and screen on this network
                             (options: python3 floor.py venue --help; docs/venue.md)
    python3 floor.py restore SOURCE
                             carry the night on here from a replica or a snapshot, then serve
                             (python3 floor.py restore --help; docs/continuity.md)
    python3 floor.py test    run the whole test suite with lint and type checks

Each creates ./.venv and installs the pinned requirements the first time.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import venv
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
PY = VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def sh(*args: str, env: dict[str, str] | None = None) -> None:
    result = subprocess.run(args, cwd=ROOT, env={**os.environ, **(env or {})}, check=False)
    if result.returncode != 0:
        sys.exit(result.returncode)


def ensure_venv(requirements: str) -> None:
    if sys.version_info < (3, 11):
        sys.exit("Floor needs Python 3.11 or newer.")
    if not PY.exists():
        print("Creating .venv …", flush=True)
        venv.create(VENV, with_pip=True)
    stamp = VENV / f".installed-{requirements}"
    req = ROOT / requirements
    wanted = req.read_text() + (ROOT / "requirements.txt").read_text()
    if not stamp.exists() or stamp.read_text() != wanted:
        print(f"Installing {requirements} …", flush=True)
        sh(str(PY), "-m", "pip", "install", "-q", "--disable-pip-version-check", "-r", str(req))
        stamp.write_text(wanted)


def run(argv: list[str]) -> None:
    ensure_venv("requirements.txt")
    port = argv[0] if argv else os.environ.get("PORT", "8000")
    manage = [str(PY), "manage.py"]
    sh(*manage, "migrate", "--noinput", "-v", "0")
    sh(*manage, "floor_demo")
    password = os.environ.get("FLOOR_DEMO_PASSWORD", "floor-demo")
    print(
        f"\n  Floor is running:  http://127.0.0.1:{port}/console/\n"
        f"  Log in as director / {password}  (or floor / {password})\n"
        f"  Public pages:      http://127.0.0.1:{port}/\n"
        f"  API docs:          http://127.0.0.1:{port}/api/docs/\n"
        "  Stop with Ctrl+C.\n",
        flush=True,
    )
    os.execv(str(PY), [str(PY), "manage.py", "floor_serve", "--port", str(port)])


def venue(argv: list[str]) -> None:
    """A real night on this machine (docs/venue.md): production settings on the embedded stack,
    listening on every interface, announced as floor.local; the data stays in var/."""
    ensure_venv("requirements.txt")
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.venue"
    os.execv(str(PY), [str(PY), "manage.py", "floor_venue", *argv])


def restore(argv: list[str]) -> None:
    """Carry the night on from a copy (docs/continuity.md): restore a replica or a snapshot
    into var/venue/, then start the venue's server as `venue` does."""
    ensure_venv("requirements.txt")
    os.environ["DJANGO_SETTINGS_MODULE"] = "config.settings.venue"
    os.execv(str(PY), [str(PY), "manage.py", "floor_restore", *argv])


def test(argv: list[str]) -> None:
    ensure_venv("requirements-dev.txt")
    bin_dir = PY.parent
    tool = lambda name: str(bin_dir / name)  # noqa: E731
    print("== ruff", flush=True)
    sh(tool("ruff"), "format", "--check", ".")
    sh(tool("ruff"), "check", ".")
    print("== mypy", flush=True)
    sh(
        tool("mypy"),
        "config",
        "core",
        "live",
        "eventlog",
        "tournament",
        "tables",
        "clocks",
        "rules_engine",
        "actions",
        "leagues",
        "displays",
        "counts",
        "festivals",
        "signups",
        "venue",
    )
    print("== import-linter", flush=True)
    sh(tool("lint-imports"))
    print("== django checks", flush=True)
    deploy_env = {
        "DJANGO_SETTINGS_MODULE": "config.settings.production",
        "SECRET_KEY": "check-deploy-" + "x" * 50,
        "ALLOWED_HOSTS": "floor.example.org",
    }
    sh(str(PY), "manage.py", "check", "--deploy", "--fail-level", "WARNING", env=deploy_env)
    sh(
        str(PY),
        "manage.py",
        "makemigrations",
        "--check",
        "--dry-run",
        env={"DJANGO_SETTINGS_MODULE": "config.settings.test"},
    )
    print("== pytest", flush=True)
    # Two workers (the machines Floor is tested on have two cores; a third made the suite no
    # faster, the cores were busy), a test file to a worker, the longest files first
    # (conftest.py LONGEST_FIRST; xdist would otherwise order files by their number of tests).
    workers = [] if "-n" in argv else ["-n", "2", "--dist", "loadfile", "--no-loadscope-reorder"]
    sh(str(PY), "-m", "pytest", *workers, *argv)
    if _tests_ran_on_postgres():
        # The embedded default (SQLite, in-memory layer) is what a newcomer starts: every
        # service and page test runs on it too. Browser tests need the ASGI server on the
        # PostgreSQL test database, and tests marked `postgres` test PostgreSQL itself. The
        # domain cores' tests ran in the first pass and touch no database (`*/domain/` imports
        # no Django: the import-linter contract); run again they took a third of this pass.
        print("== pytest on SQLite (the embedded default)", flush=True)
        sh(
            str(PY),
            "-m",
            "pytest",
            "-m",
            "not postgres and not browser and not venue",
            "--ignore-glob=*/tests/domain/*",
            *workers,
            *argv,
            env={"FLOOR_TEST_SQLITE": "1"},
        )


def _tests_ran_on_postgres() -> bool:
    """The first pass's database, decided as config/settings/test.py decides it."""
    truthy = {"1", "true", "yes", "on"}
    if os.environ.get("FLOOR_TEST_SQLITE", "").lower() in truthy:
        return False
    if os.environ.get("CI", "").lower() in truthy:
        return True
    url = os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 5432), 1):
            return True
    except OSError:
        return False


def main() -> None:
    commands = {"run": run, "venue": venue, "restore": restore, "test": test}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print(__doc__)
        sys.exit(2)
    commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
