"""The flush after a transactional test on PostgreSQL, in a fraction of the time.

Django's flush (TransactionTestCase._fixture_teardown) truncates every table, then sends
post_migrate, which makes the content types and the permissions anew. On PostgreSQL a TRUNCATE
costs per table (new files for the table and its indexes), and a test writes to a few of the
56: this one truncates the tables that hold rows, and leaves the content types and permissions
as they are when they are the rows post_migrate would make (the same names; their ids stay).
The database a test starts from is the one Django's flush gives: every other table empty, the
sequences where they were. When a test changed the content types or the permissions, Django's
own flush runs."""

from __future__ import annotations

from typing import Any

from django.db import DatabaseError, connections, transaction

# post_migrate's tables: (table, the columns that say what a row is, ids aside).
MADE_BY_POST_MIGRATE = {
    "django_content_type": "app_label, model",
    "auth_permission": "content_type_id, codename, name",
}

_pristine: dict[str, Any] = {}


def _rows(cursor: Any, table: str, columns: str) -> list[tuple[Any, ...]]:
    cursor.execute(f"SELECT id, {columns} FROM {table} ORDER BY id")  # noqa: S608
    return list(cursor.fetchall())


def _made_by_post_migrate(cursor: Any, alias: str) -> bool:
    """The content types and permissions are those post_migrate made after the first flush."""
    current = {t: _rows(cursor, t, c) for t, c in MADE_BY_POST_MIGRATE.items()}
    if alias not in _pristine:
        return False
    return bool(current == _pristine[alias])


def flush(alias: str, django_flush: Any) -> None:
    """Empty the tables of database `alias` as `django_flush()` (Django's own) would."""
    connection = connections[alias]
    if connection.vendor != "postgresql":
        django_flush()
        return
    tables = sorted(
        connection.introspection.django_table_names(only_existing=True, include_views=False)
    )
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        if not _made_by_post_migrate(cursor, alias):
            django_flush()
            _pristine[alias] = {t: _rows(cursor, t, c) for t, c in MADE_BY_POST_MIGRATE.items()}
            return
        cursor.execute(
            " UNION ALL ".join(
                f"SELECT {i} WHERE EXISTS (SELECT 1 FROM {quote(t)})"  # noqa: S608
                for i, t in enumerate(tables)
            )
        )
        holding = [tables[i] for (i,) in cursor.fetchall()]
        holding = [t for t in holding if t not in MADE_BY_POST_MIGRATE]
    if not holding:
        return
    # DELETE, not TRUNCATE: a few rows go in a fraction of a TRUNCATE's time. As replica, the
    # foreign keys and the tables' own triggers stay quiet, as for a TRUNCATE. That takes a
    # superuser: for another role, Django's flush.
    statements = ["SET LOCAL session_replication_role = replica"]
    statements += [f"DELETE FROM {quote(table)}" for table in holding]  # noqa: S608
    try:
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            cursor.execute("; ".join(statements))
    except DatabaseError:
        django_flush()


def install() -> None:
    """Django's TransactionTestCase flushes with `flush` above (pytest-django's transactional
    tests are TransactionTestCases)."""
    from django.core.management import call_command
    from django.test import TransactionTestCase

    original = vars(TransactionTestCase)["_fixture_teardown"]
    if getattr(original, "floor_flush", False):
        return

    def _fixture_teardown(self: Any) -> None:
        if self.available_apps is not None or self.serialized_rollback:
            original(self)
            return
        for db_name in self._databases_names(include_mirrors=False):
            flush(
                db_name,
                lambda db_name=db_name: call_command(
                    "flush",
                    verbosity=0,
                    interactive=False,
                    database=db_name,
                    reset_sequences=False,
                    allow_cascade=False,
                    inhibit_post_migrate=False,
                ),
            )

    _fixture_teardown.floor_flush = True  # type: ignore[attr-defined]
    setattr(TransactionTestCase, "_fixture_teardown", _fixture_teardown)  # noqa: B010
