#!/usr/bin/env python3
"""Floor's commands on a fresh machine (Python 3.11+, nothing else):

    python3 floor.py run     start Floor with a demo tournament (SQLite, embedded), this machine only
    python3 floor.py venue   run a real night: every phone, tablet and screen on this network
                             (options: python3 floor.py venue --help; docs/venue.md)
    python3 floor.py restore SOURCE
                             carry the night on here from a replica or a snapshot, then serve
                             (python3 floor.py restore --help; docs/continuity.md)
    python3 floor.py test    run the whole test suite with lint and type checks
    python3 floor.py test --fast
                             the inner loop: lint, types, contracts, the domain cores and the
                             tests of the files changed since main, on SQLite (under a minute)

Each creates ./.venv and installs the pinned requirements the first time.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
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


class Timer:
    """Each step's time, printed as it ends and once more, with the total, at the end."""

    def __init__(self) -> None:
        self.started = time.monotonic()
        self.steps: list[tuple[str, float]] = []
        self.step_name = ""
        self.step_started = self.started

    def step(self, name: str) -> None:
        self._close()
        print(f"== {name}", flush=True)
        self.step_name, self.step_started = name, time.monotonic()

    def _close(self) -> None:
        if self.step_name:
            seconds = time.monotonic() - self.step_started
            self.steps.append((self.step_name, seconds))
            print(f"   ({self.step_name}: {_minutes(seconds)})", flush=True)
            self.step_name = ""

    def report(self) -> None:
        self._close()
        print("== time", flush=True)
        for name, seconds in self.steps:
            print(f"   {_minutes(seconds):>9}  {name}", flush=True)
        print(f"   {_minutes(time.monotonic() - self.started):>9}  in all", flush=True)


def _minutes(seconds: float) -> str:
    whole = round(seconds)
    return f"{whole // 60} min {whole % 60:02d} s" if whole >= 60 else f"{seconds:.1f} s"


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


MYPY_PACKAGES = (
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
    "imports",
    "venue",
    "webhooks",
)
# The embedded default's pass (and the fast loop) leaves out what needs PostgreSQL or a server.
SQLITE_MARKERS = "not postgres and not browser and not venue"


def test(argv: list[str]) -> None:
    if "--fast" in argv:
        fast([a for a in argv if a != "--fast"])
        return
    ensure_venv("requirements-dev.txt")
    timer = Timer()
    static_checks(timer)
    timer.step("django checks")
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
    on_postgres = _tests_ran_on_postgres()
    timer.step("pytest" + (" on PostgreSQL" if on_postgres else ""))
    # Two workers (the machines Floor is tested on have two cores; a third made the suite no
    # faster, the cores were busy), a test file to a worker, the longest files first
    # (conftest.py LONGEST_FIRST; xdist would otherwise order files by their number of tests).
    workers = [] if "-n" in argv else ["-n", "2", "--dist", "loadfile", "--no-loadscope-reorder"]
    sh(str(PY), "-m", "pytest", *workers, *argv)
    if on_postgres:
        # The embedded default (SQLite, in-memory layer) is what a newcomer starts: every
        # service and page test runs on it too. Browser tests need the ASGI server on the
        # PostgreSQL test database, and tests marked `postgres` test PostgreSQL itself. The
        # domain cores' tests ran in the first pass and touch no database (`*/domain/` imports
        # no Django: the import-linter contract); run again they took a third of this pass.
        timer.step("pytest on SQLite (the embedded default)")
        sh(
            str(PY),
            "-m",
            "pytest",
            "-m",
            SQLITE_MARKERS,
            "--ignore-glob=*/tests/domain/*",
            *workers,
            *argv,
            env={"FLOOR_TEST_SQLITE": "1"},
        )
    timer.report()


def static_checks(timer: Timer) -> None:
    bin_dir = PY.parent
    tool = lambda name: str(bin_dir / name)  # noqa: E731
    timer.step("ruff")
    sh(tool("ruff"), "format", "--check", ".")
    sh(tool("ruff"), "check", ".")
    timer.step("mypy")
    sh(tool("mypy"), *MYPY_PACKAGES)
    timer.step("import-linter")
    sh(tool("lint-imports"))


def fast(argv: list[str]) -> None:
    """The inner loop: the static checks, the domain cores' tests (with fewer examples for the
    property tests: conftest.py FLOOR_FAST) and the tests of the files changed since the branch
    left main, committed or not, on SQLite. A changed browser test file runs on its own
    afterwards (it needs PostgreSQL). The migrations, `check --deploy` and the rest of the
    suite are left to the full command."""
    ensure_venv("requirements-dev.txt")
    timer = Timer()
    static_checks(timer)
    timer.step("pytest on SQLite: the domain cores and the changed files")
    changed = changed_files()
    tests = tests_for(changed)
    browser = [t for t in tests if t.startswith("tests/browser/")]
    others = [t for t in tests if t not in browser]
    domain = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("*/tests/domain"))
    selected = sorted(set(domain) | set(others))
    print(f"   changed since main: {len(changed)} files; test files: {len(others)}", flush=True)
    for name in others:
        print(f"     {name}", flush=True)
    env = {"FLOOR_TEST_SQLITE": "1", "FLOOR_FAST": "1"}
    workers = [] if "-n" in argv else ["-n", "2"]
    quiet = ["-q", "--durations=5"]
    sh(str(PY), "-m", "pytest", "-m", SQLITE_MARKERS, *workers, *quiet, *selected, *argv, env=env)
    if browser:
        timer.step("pytest: the changed browser test files")
        sh(str(PY), "-m", "pytest", *workers, "-q", *browser, *argv)
    timer.report()


def changed_files() -> list[str]:
    """The files changed since this branch left main (its merge-base), committed or not, and
    the new files git does not ignore; deleted ones left out."""

    def git(*args: str) -> list[str]:
        out = subprocess.run(
            ["git", *args], cwd=ROOT, capture_output=True, text=True, check=False
        ).stdout
        return [line for line in out.splitlines() if line]

    base = git("merge-base", "HEAD", "main") or git("merge-base", "HEAD", "origin/main")
    if not base:
        print("   (no branch main to compare with: only the uncommitted changes)", flush=True)
    names = git("diff", "--name-only", *base[:1])
    names += git("ls-files", "--others", "--exclude-standard")
    return sorted({n for n in names if (ROOT / n).is_file()})


def _is_test_file(name: str) -> bool:
    path = Path(name)
    return path.suffix == ".py" and path.name.startswith("test_") and "tests" in path.parts


def tests_for(changed: list[str]) -> list[str]:
    """The test files for the changed files: a changed test file itself; for a changed module
    `app/x.py` (`app/sub/x.py`), the test files named after it in its app's tests
    (`test_x.py`, `test_x_*.py`) and every test file whose text names the module
    (`app.x`, `from app import x`). A conftest.py, a template or a migration selects nothing
    here: the full command runs what they touch."""
    everything = [
        n
        for n in subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "*.py"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        ).stdout.splitlines()
        if _is_test_file(n) and (ROOT / n).is_file()
    ]
    texts: dict[str, str] = {}
    chosen: set[str] = set()
    for name in changed:
        path = Path(name)
        if path.suffix != ".py":
            continue
        if _is_test_file(name):
            chosen.add(name)
            continue
        if path.name == "conftest.py" or "migrations" in path.parts or len(path.parts) < 2:
            continue
        parts = path.with_suffix("").parts
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        module = ".".join(parts)
        package, stem = ".".join(parts[:-1]), parts[-1]
        # A package's name only where it is not the start of a longer one.
        named = rf"\b{re.escape(module)}\b" + (r"(?!\.)" if is_package else "")
        imported = (
            rf"\bfrom\s+{re.escape(package)}\s+import\s+(\([^)]*|[^\n]*)\b{re.escape(stem)}\b"
        )
        names_it = re.compile(f"{named}|{imported}")
        for test_file in everything:
            test_path = Path(test_file)
            beside = test_path.parts[0] == parts[0] and (
                test_path.stem == f"test_{stem}" or test_path.stem.startswith(f"test_{stem}_")
            )
            if beside:
                chosen.add(test_file)
                continue
            if test_file not in texts:
                texts[test_file] = (ROOT / test_file).read_text(encoding="utf-8", errors="replace")
            if names_it.search(texts[test_file]):
                chosen.add(test_file)
    return sorted(chosen)


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
