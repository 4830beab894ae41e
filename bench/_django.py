"""Benchmarks run Django against a scratch database: PostgreSQL from DATABASE_URL, else a
local `floor_bench` database on 127.0.0.1:5432 if reachable, else SQLite under var/."""

from __future__ import annotations

import os
import socket
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _postgres_reachable() -> bool:
    try:
        with socket.create_connection(("127.0.0.1", 5432), 1):
            return True
    except OSError:
        return False


def database_url() -> str:
    if os.environ.get("DATABASE_URL"):
        return os.environ["DATABASE_URL"]
    if _postgres_reachable():
        return "postgres://postgres@127.0.0.1:5432/floor_bench"
    return f"sqlite:///{ROOT / 'var' / 'bench.sqlite3'}"


def ensure_postgres_database(url: str) -> None:
    if not url.startswith("postgres"):
        (ROOT / "var").mkdir(exist_ok=True)
        return
    import psycopg

    name = url.rsplit("/", 1)[-1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{name}"')


def setup(fresh: bool = False, migrate: bool = True) -> str:
    """Configure Django for a benchmark and migrate (unless `migrate` is false: a worker process
    of a benchmark whose parent already did). Returns the database URL."""
    sys.path.insert(0, str(ROOT))
    url = database_url()
    name = url.rsplit("/", 1)[-1]
    if fresh and url.startswith("postgres") and name.startswith("floor_bench"):
        import psycopg

        # The database the URL names (floor_bench or a floor_bench_* of its own), never another.
        admin = url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    ensure_postgres_database(url)
    os.environ["DATABASE_URL"] = url
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
    os.environ.setdefault("DEBUG", "false")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    if migrate:
        from django.core.management import call_command

        call_command("migrate", verbosity=0, interactive=False)
    return url
