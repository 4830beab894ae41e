"""The trigger SQL the migrations load from `<app>/sql/` (config/sql.py; docs/architecture.md
"Migrations"): every file a migration names exists and parses, no file is left unnamed, and a
migrated database holds exactly the latest version of each set, byte for byte."""

from __future__ import annotations

import re
import sys

import pytest
from django.db import connection
from django.db.migrations.loader import MigrationLoader

from config.sql import VENDORS, TriggerSet, split_statements, sql_dir

# Sets a later migration took off for good: the seat table declares its foreign keys again
# (tables/migrations/0008).
RETIRED = {("tables", "seat_references")}

_FUNCTION = re.compile(r"\ACREATE OR REPLACE FUNCTION (\w+)\(\).*?\$\$(.*)\$\$\Z", re.DOTALL)
_TRIGGER = re.compile(r"\ACREATE TRIGGER (\w+)\s")


def _trigger_sets() -> list[TriggerSet]:
    """Every TriggerSet a migration module names."""
    loader = MigrationLoader(None, ignore_no_migrations=True, load=False)
    loader.load_disk()
    found = []
    for migration in loader.disk_migrations.values():
        module = sys.modules[type(migration).__module__]
        found += [v for v in vars(module).values() if isinstance(v, TriggerSet)]
    return found


def _latest() -> dict[tuple[str, str], TriggerSet]:
    latest: dict[tuple[str, str], TriggerSet] = {}
    for s in _trigger_sets():
        key = (s.app, s.name)
        if key not in latest or s.version > latest[key].version:
            latest[key] = TriggerSet(s.app, s.name, s.version)
    return {k: v for k, v in latest.items() if k not in RETIRED}


def test_every_file_a_migration_names_exists_and_parses() -> None:
    sets = _trigger_sets()
    assert {(s.app, s.name) for s in sets} >= {
        ("tournament", "entry_counts"),
        ("tournament", "purchase_counts"),
        ("tournament", "table_counts"),
        ("tables", "seat_counts"),
        ("tables", "seat_moves"),
    }
    for s in sets:
        for vendor in s.vendors:
            if s.path(vendor).exists():
                assert s.statements(vendor), s.path(vendor)
                assert s.statements(f"{vendor}.drop"), f"{s.path(vendor)} has no drop file"
    named = {p for s in sets for p in TriggerSet(s.app, s.name, s.version).files()}
    on_disk = {p for app in ("tournament", "tables") for p in sql_dir(app).rglob("*.sql")}
    assert on_disk == named, "a .sql file that no migration names, or a name without its file"


def test_statements_split_at_the_end_of_each_statement() -> None:
    text = (
        "-- a comment\n\n"
        "CREATE OR REPLACE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\n"
        "    BEGIN \n        UPDATE t SET n = 1;\n    RETURN NULL; END $$;\n\n"
        "CREATE TRIGGER a AFTER INSERT ON t BEGIN UPDATE u SET n = n + 1; END;\n"
        "DROP TRIGGER IF EXISTS b;\n"
    )
    assert split_statements(text) == [
        "CREATE OR REPLACE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$\n"
        "    BEGIN \n        UPDATE t SET n = 1;\n    RETURN NULL; END $$",
        "CREATE TRIGGER a AFTER INSERT ON t BEGIN UPDATE u SET n = n + 1; END",
        "DROP TRIGGER IF EXISTS b",
    ]
    with pytest.raises(ValueError):
        split_statements("DROP TRIGGER b")


def _expected(vendor: str) -> tuple[dict[str, str], dict[str, str]]:
    """(function name -> body, trigger name -> statement) of the latest versions."""
    functions: dict[str, str] = {}
    triggers: dict[str, str] = {}
    for s in _latest().values():
        for sql in s.statements(vendor):
            if m := _FUNCTION.match(sql):
                assert functions.setdefault(m[1], m[2]) == m[2], f"two bodies of {m[1]}"
            elif m := _TRIGGER.match(sql):
                triggers[m[1]] = sql
    return functions, triggers


@pytest.mark.django_db
def test_the_database_holds_the_latest_version_of_each_set() -> None:
    vendor = connection.vendor
    assert vendor in VENDORS
    functions, triggers = _expected(vendor)
    with connection.cursor() as cursor:
        if vendor == "postgresql":
            cursor.execute(
                "SELECT p.proname, p.prosrc FROM pg_proc p JOIN pg_namespace n "
                "ON n.oid = p.pronamespace WHERE n.nspname = current_schema() "
                "AND p.proname LIKE 'floor\\_%'"
            )
            assert dict(cursor.fetchall()) == functions
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal AND tgname LIKE 'floor\\_%'"
            )
            assert {name for (name,) in cursor.fetchall()} == set(triggers)
        else:
            cursor.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
            assert dict(cursor.fetchall()) == triggers
