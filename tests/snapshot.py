"""The rows of every table, kept aside on PostgreSQL and put back in a fraction of the time it
took to make them.

A browser test module whose tests each start from the same expensive data (the demo night of
test_accessibility.py) makes that data once, takes a snapshot, and every later test restores it
before it starts (tests/browser/conftest.py `made_once`): the database each test sees is the one a fresh build would give it (the same
rows, the same ids, the same sequences), and the flush after each test happens as before.

`Snapshot.take` copies every table Django flushes into a schema of its own (`CREATE TABLE AS`),
with the position of every sequence; `restore` empties those tables and copies the rows back in
one transaction, with the tables' own triggers (the head counts and seat references of
tables/migrations) off while it does: the counts in the snapshot already include those rows.
Foreign keys are checked once every row is back."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection, transaction


def supported() -> bool:
    return connection.vendor == "postgresql"


def _quote(name: str) -> str:
    return connection.ops.quote_name(name)


@dataclass
class Snapshot:
    schema: str
    tables: list[str]
    triggered: list[str]  # tables with triggers of their own
    sequences: list[tuple[str, int | None, int]]  # (name, last value or None, start value)

    @classmethod
    def take(cls, schema: str) -> Snapshot:
        assert supported()
        tables = sorted(
            connection.introspection.django_table_names(only_existing=True, include_views=False)
        )
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(f"DROP SCHEMA IF EXISTS {_quote(schema)} CASCADE")
            cursor.execute(f"CREATE SCHEMA {_quote(schema)}")
            for table in tables:
                cursor.execute(
                    f"CREATE TABLE {_quote(schema)}.{_quote(table)} AS TABLE {_quote(table)}"
                )
            cursor.execute(
                "SELECT DISTINCT c.relname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid"
                " WHERE NOT t.tgisinternal AND pg_table_is_visible(c.oid)"
            )
            triggered = sorted(row[0] for row in cursor.fetchall() if row[0] in tables)
            cursor.execute(
                "SELECT sequencename, last_value, start_value FROM pg_sequences"
                " WHERE schemaname = current_schema()"
            )
            sequences = [(name, last, start) for name, last, start in cursor.fetchall()]
        return cls(schema=schema, tables=tables, triggered=triggered, sequences=sequences)

    def restore(self) -> None:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL DEFERRED")
            cursor.execute("TRUNCATE " + ", ".join(_quote(t) for t in self.tables))
            for table in self.triggered:
                cursor.execute(f"ALTER TABLE {_quote(table)} DISABLE TRIGGER USER")
            for table in self.tables:
                cursor.execute(
                    f"INSERT INTO {_quote(table)} OVERRIDING SYSTEM VALUE"  # noqa: S608
                    f" SELECT * FROM {_quote(self.schema)}.{_quote(table)}"
                )
            # The foreign keys are checked now: a table with events pending cannot be altered.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for table in self.triggered:
                cursor.execute(f"ALTER TABLE {_quote(table)} ENABLE TRIGGER USER")
            for name, last, start in self.sequences:
                if last is None:
                    cursor.execute("SELECT setval(%s, %s, false)", [_quote(name), start])
                else:
                    cursor.execute("SELECT setval(%s, %s, true)", [_quote(name), last])

    def drop(self) -> None:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP SCHEMA IF EXISTS {_quote(self.schema)} CASCADE")
