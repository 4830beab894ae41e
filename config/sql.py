"""The trigger SQL the migrations install, kept as versioned files (docs/architecture.md
"Migrations").

An app's triggers live in `<app>/sql/<name>/`, one set of files per version:

    v1.postgresql.sql        the functions and triggers, as PostgreSQL gets them
    v1.postgresql.drop.sql   what takes them off again
    v1.sqlite.sql            the same counts for SQLite (where the set has them)
    v1.sqlite.drop.sql
    v1.recount.sql           optional: the counts recounted from the rows (any database)

A migration names the version it installs or removes (`TriggerSet("tournament",
"entry_counts", 1)`), so migrating forwards or backwards builds the same objects it always did; a
change to a trigger is a new version file and a new migration, never an edit of an old file.

A file holds statements ended by `;` at the end of a line, outside `$$` quotes; a SQLite trigger
(`CREATE TRIGGER ... BEGIN ... END;`) ends at the `END;` that closes it. Comment lines and blank
lines between statements are left out. The statements run one by one, as the file writes them:
PostgreSQL keeps a function's body and SQLite a trigger's text exactly as given.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import Any

from django.db import migrations

VENDORS = ("postgresql", "sqlite")


def sql_dir(app: str) -> Path:
    """`<app>/sql/`, found next to the app's package (wherever it is installed)."""
    module_file = import_module(app).__file__
    assert module_file is not None, app
    return Path(module_file).resolve().parent / "sql"


def sql_file(app: str, name: str, version: int, kind: str) -> Path:
    """The file of one version: kind is a vendor ("postgresql", "sqlite"), a vendor's drop
    ("postgresql.drop") or "recount"."""
    return sql_dir(app) / name / f"v{version}.{kind}.sql"


_SQLITE_TRIGGER = re.compile(r"\ACREATE\s+TRIGGER\b.*\sBEGIN\s", re.IGNORECASE | re.DOTALL)


def split_statements(text: str) -> list[str]:
    """The statements of a file, each without its closing `;`."""
    statements: list[str] = []
    lines: list[str] = []
    for line in text.splitlines():
        if not lines and (not line.strip() or line.lstrip().startswith("--")):
            continue
        lines.append(line)
        sql = "\n".join(lines)
        if not line.rstrip().endswith(";") or sql.count("$$") % 2:
            continue
        if _SQLITE_TRIGGER.match(sql) and not re.search(r"\bEND\s*;\s*\Z", sql, re.IGNORECASE):
            continue
        statements.append(sql.rstrip()[:-1].strip())
        lines = []
    if lines:
        raise ValueError(f"a statement without its closing ';': {lines[0][:60]}")
    return statements


@cache
def statements(app: str, name: str, version: int, kind: str) -> tuple[str, ...]:
    """The statements of one file; a missing file is an error (a migration names only files
    that exist)."""
    return tuple(split_statements(sql_file(app, name, version, kind).read_text(encoding="utf-8")))


def _execute(schema_editor: Any, sqls: Iterable[str]) -> None:
    for sql in sqls:
        schema_editor.execute(sql, params=None)


class TriggerSet:
    """One version of a set of triggers, for the databases in `vendors` (both by default; a
    vendor whose file is missing gets nothing)."""

    def __init__(
        self, app: str, name: str, version: int, *, vendors: tuple[str, ...] = VENDORS
    ) -> None:
        self.app, self.name, self.version, self.vendors = app, name, version, vendors
        if not any(self.files()):
            raise FileNotFoundError(sql_file(app, name, version, vendors[0]))

    def __repr__(self) -> str:
        return f"TriggerSet({self.app!r}, {self.name!r}, {self.version})"

    def path(self, kind: str) -> Path:
        return sql_file(self.app, self.name, self.version, kind)

    def files(self) -> list[Path]:
        """The files of this version that exist."""
        kinds = [k for v in self.vendors for k in (v, f"{v}.drop")] + ["recount"]
        return [p for p in map(self.path, kinds) if p.exists()]

    def statements(self, kind: str) -> tuple[str, ...]:
        if not self.path(kind).exists():
            return ()
        return statements(self.app, self.name, self.version, kind)

    def install(self, apps: Any, schema_editor: Any) -> None:
        """The triggers on, then the counts recounted from the rows."""
        vendor = schema_editor.connection.vendor
        if vendor not in self.vendors:
            return
        _execute(schema_editor, self.statements(vendor))
        _execute(schema_editor, self.statements("recount"))

    def remove(self, apps: Any, schema_editor: Any) -> None:
        vendor = schema_editor.connection.vendor
        if vendor in self.vendors:
            _execute(schema_editor, self.statements(f"{vendor}.drop"))

    def installed(self) -> migrations.RunPython:
        """The operation that installs this version (and removes it when migrating back)."""
        return migrations.RunPython(self.install, self.remove)

    def removed(self) -> migrations.RunPython:
        """The operation that removes this version (and installs it again when migrating
        back)."""
        return migrations.RunPython(self.remove, self.install)


def run_all(*steps: Callable[[Any, Any], None]) -> Callable[[Any, Any], None]:
    """One RunPython function made of several, run in order."""

    def run(apps: Any, schema_editor: Any) -> None:
        for step in steps:
            step(apps, schema_editor)

    return run


class SQLiteTriggersAside:
    """SQLite rebuilds a table to add a column with a default, and a rebuild drops the
    triggers of other tables that name it: `off()` takes those triggers off, exactly as the
    database holds them, and `on()` puts the same text back after (PostgreSQL alters tables in
    place and keeps its triggers, so both do nothing there). Each migration has its own."""

    def __init__(self, table: str) -> None:
        self.table = table
        self._set_aside: list[tuple[str, str]] = []

    def take_off(self, apps: Any, schema_editor: Any) -> None:
        if schema_editor.connection.vendor != "sqlite":
            return
        with schema_editor.connection.cursor() as cursor:
            cursor.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND sql LIKE %s",
                [f"%{self.table}%"],
            )
            self._set_aside[:] = cursor.fetchall()
        for name, _sql in self._set_aside:
            schema_editor.execute(f'DROP TRIGGER IF EXISTS "{name}"', params=None)

    def put_back(self, apps: Any, schema_editor: Any) -> None:
        if schema_editor.connection.vendor != "sqlite":
            return
        _execute(schema_editor, [sql for _name, sql in self._set_aside])
        self._set_aside.clear()

    def off(self) -> migrations.RunPython:
        return migrations.RunPython(self.take_off, self.put_back)

    def on(self) -> migrations.RunPython:
        return migrations.RunPython(self.put_back, self.take_off)
