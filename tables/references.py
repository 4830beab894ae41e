"""A seat row refers to its entry and its table; triggers keep those references whole.

A declared foreign key checks each row on its own: two look-ups (entry and table) per seat row,
each a separate query inside PostgreSQL. A 30,000-player draw writes 30,000 seat rows, and
those 60,000 look-ups took 190 ms of its commit on the development machine, half of the whole
draw. So the seat table declares no foreign keys (`db_constraint=False` on both fields), and
triggers give the same guarantees, checked once per statement over all its rows:

- a seat row written (insert, or an update that changes its entry or table) must refer to an
  existing entry and an existing table; the entry and table rows are locked `FOR KEY SHARE`, as
  a foreign key locks them, so a concurrent delete waits for this transaction;
- deleting an entry or a table deletes its seat rows in the same statement (what the model's
  `on_delete=CASCADE` says; Django's deletion collector deletes them first anyway), and the
  head counts follow (tournament/counters.py).

A dangling reference raises `foreign_key_violation` (PostgreSQL) or aborts the statement
(SQLite): Django reports an `IntegrityError` either way, and the transaction changes nothing.
The checks run at the end of each statement, not at commit: write the entry and the table
before the seat. They rely on READ COMMITTED, Django's default isolation level, which every
Floor connection uses: each statement of a trigger sees what concurrent transactions committed
before it, so a delete that waited for a seat being written deletes that seat too. Row ids never
change.

On SQLite the triggers run per row. Like the head-count triggers (tournament/counters.py),
SQLite drops them when Django rebuilds a table in a migration: a migration that alters
`tables_seatassignment`, `tables_table` or `tournament_entry` must install them again
(tables/tests/services/test_references.py fails on SQLite otherwise).
"""

from __future__ import annotations

from typing import Any

_ENTRIES_LOCKED = (
    "SELECT count(*) FROM (SELECT 1 FROM tournament_entry e JOIN {rows} r ON r.entry_id = e.id "
    "FOR KEY SHARE OF e) locked"
)
_TABLES_LOCKED = (
    "SELECT count(*) FROM (SELECT 1 FROM tables_table t "
    "WHERE t.id IN (SELECT r.table_id FROM {rows} r) FOR KEY SHARE OF t) locked"
)
_NO_ENTRY = (
    "RAISE foreign_key_violation USING MESSAGE = 'a seat refers to an entry that does not exist'"
)
_NO_TABLE = (
    "RAISE foreign_key_violation USING MESSAGE = 'a seat refers to a table that does not exist'"
)


def _check(rows: str) -> str:
    """Every row of `rows` (seat rows, a transition table or a subquery: entry ids are unique)
    refers to an existing entry and table, which stay locked until the transaction ends."""
    return f"""
        IF (SELECT count(*) FROM {rows} r) <> ({_ENTRIES_LOCKED.format(rows=rows)}) THEN
            {_NO_ENTRY};
        END IF;
        IF (SELECT count(DISTINCT r.table_id) FROM {rows} r)
            <> ({_TABLES_LOCKED.format(rows=rows)})
        THEN
            {_NO_TABLE};
        END IF;
    """  # noqa: S608 (constants)


_CHANGED = (
    "(SELECT n.entry_id, n.table_id FROM after_rows n JOIN before_rows o ON o.id = n.id "
    "WHERE o.entry_id <> n.entry_id OR o.table_id <> n.table_id)"
)

POSTGRES = [
    f"""
    CREATE OR REPLACE FUNCTION floor_seat_refs_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN {_check("added")} RETURN NULL; END $$
    """,
    f"""
    CREATE OR REPLACE FUNCTION floor_seat_refs_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        -- Only the rows whose entry or table changed (a stack or a seat number is no concern).
        IF EXISTS (SELECT 1 FROM {_CHANGED} r) THEN {_check(_CHANGED)} END IF;
        RETURN NULL;
    END $$
    """,  # noqa: S608 (constants)
    *(
        f"""
    CREATE OR REPLACE FUNCTION floor_seated_{kind}_removed() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM tables_seatassignment s USING removed r WHERE s.{column} = r.id;
        RETURN NULL;
    END $$
    """  # noqa: S608 (constants)
        for kind, column in (("entries", "entry_id"), ("tables", "table_id"))
    ),
    "CREATE TRIGGER floor_seat_refs_added AFTER INSERT ON tables_seatassignment "
    "REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION floor_seat_refs_added()",
    "CREATE TRIGGER floor_seat_refs_changed AFTER UPDATE ON tables_seatassignment "
    "REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows "
    "FOR EACH STATEMENT EXECUTE FUNCTION floor_seat_refs_changed()",
    "CREATE TRIGGER floor_seated_entries_removed AFTER DELETE ON tournament_entry "
    "REFERENCING OLD TABLE AS removed FOR EACH STATEMENT "
    "EXECUTE FUNCTION floor_seated_entries_removed()",
    "CREATE TRIGGER floor_seated_tables_removed AFTER DELETE ON tables_table "
    "REFERENCING OLD TABLE AS removed FOR EACH STATEMENT "
    "EXECUTE FUNCTION floor_seated_tables_removed()",
]

POSTGRES_DROP = [
    "DROP TRIGGER IF EXISTS floor_seat_refs_added ON tables_seatassignment",
    "DROP TRIGGER IF EXISTS floor_seat_refs_changed ON tables_seatassignment",
    "DROP TRIGGER IF EXISTS floor_seated_entries_removed ON tournament_entry",
    "DROP TRIGGER IF EXISTS floor_seated_tables_removed ON tables_table",
    "DROP FUNCTION IF EXISTS floor_seat_refs_added()",
    "DROP FUNCTION IF EXISTS floor_seat_refs_changed()",
    "DROP FUNCTION IF EXISTS floor_seated_entries_removed()",
    "DROP FUNCTION IF EXISTS floor_seated_tables_removed()",
]

_SQLITE_MISSING = (
    "NOT EXISTS (SELECT 1 FROM tournament_entry WHERE id = NEW.entry_id) "
    "OR NOT EXISTS (SELECT 1 FROM tables_table WHERE id = NEW.table_id)"
)

SQLITE = [
    "CREATE TRIGGER floor_seat_refs_added BEFORE INSERT ON tables_seatassignment "
    f"WHEN {_SQLITE_MISSING} BEGIN "
    "SELECT RAISE(ABORT, 'a seat refers to an entry or a table that does not exist'); END",
    "CREATE TRIGGER floor_seat_refs_changed BEFORE UPDATE OF entry_id, table_id "
    f"ON tables_seatassignment WHEN {_SQLITE_MISSING} BEGIN "
    "SELECT RAISE(ABORT, 'a seat refers to an entry or a table that does not exist'); END",
    "CREATE TRIGGER floor_seated_entries_removed AFTER DELETE ON tournament_entry BEGIN "
    "DELETE FROM tables_seatassignment WHERE entry_id = OLD.id; END",
    "CREATE TRIGGER floor_seated_tables_removed AFTER DELETE ON tables_table BEGIN "
    "DELETE FROM tables_seatassignment WHERE table_id = OLD.id; END",
]

SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS floor_seat_refs_added",
    "DROP TRIGGER IF EXISTS floor_seat_refs_changed",
    "DROP TRIGGER IF EXISTS floor_seated_entries_removed",
    "DROP TRIGGER IF EXISTS floor_seated_tables_removed",
]


def install(apps: Any, schema_editor: Any) -> None:
    statements = {"postgresql": POSTGRES, "sqlite": SQLITE}
    for sql in statements.get(schema_editor.connection.vendor, []):
        schema_editor.execute(sql, params=None)


def remove(apps: Any, schema_editor: Any) -> None:
    statements = {"postgresql": POSTGRES_DROP, "sqlite": SQLITE_DROP}
    for sql in statements.get(schema_editor.connection.vendor, []):
        schema_editor.execute(sql, params=None)
