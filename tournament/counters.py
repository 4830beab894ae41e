"""Head counts the database keeps: players seated at each table; players left, entries and
alternates waiting in each tournament.

Balancing looks at the head count of every open table after every bust, and a bust needs the
number of players left for the finishing place. Counting rows each time grows with the field
(about 10 ms for the tables and 6 ms for the entries at 30,000 entries); reading a kept count
does not. Triggers keep the counts, so every path that seats, moves, busts, registers or
deletes (services, imports, the admin, bulk writes in tests) keeps them right, in the same
transaction as the change.

On PostgreSQL the seat and entry triggers run once per statement over its transition tables
(a 30,000-seat draw is one grouped update); on SQLite they run per row. A seat that changes
tables by UPDATE is counted by a row trigger on both.

`recount` rebuilds the counts from the rows (after an import, or to check them).
"""

from __future__ import annotations

from typing import Any

# Entry states that count (the same as the selectors' "players left" and "entries").
ALIVE = "status = 'active'"
COUNTED = "status NOT IN ('unregistered', 'alternate')"
WAITING = "status = 'alternate'"

POSTGRES_SEATS = [
    """
    CREATE OR REPLACE FUNCTION floor_seats_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE tables_table t SET players = t.players + d.n
        FROM (SELECT table_id, count(*) AS n FROM added GROUP BY table_id) d
        WHERE t.id = d.table_id;
        RETURN NULL;
    END $$
    """,
    """
    CREATE OR REPLACE FUNCTION floor_seats_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE tables_table t SET players = t.players - d.n
        FROM (SELECT table_id, count(*) AS n FROM removed GROUP BY table_id) d
        WHERE t.id = d.table_id;
        RETURN NULL;
    END $$
    """,
    """
    CREATE OR REPLACE FUNCTION floor_seat_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE tables_table SET players = players - 1 WHERE id = OLD.table_id;
        UPDATE tables_table SET players = players + 1 WHERE id = NEW.table_id;
        RETURN NULL;
    END $$
    """,
    "CREATE TRIGGER floor_seats_added AFTER INSERT ON tables_seatassignment "
    "REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION floor_seats_added()",
    "CREATE TRIGGER floor_seats_removed AFTER DELETE ON tables_seatassignment "
    "REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION floor_seats_removed()",
    "CREATE TRIGGER floor_seat_moved AFTER UPDATE OF table_id ON tables_seatassignment "
    "FOR EACH ROW WHEN (OLD.table_id IS DISTINCT FROM NEW.table_id) "
    "EXECUTE FUNCTION floor_seat_moved()",
]

POSTGRES_SEATS_DROP = [
    "DROP TRIGGER IF EXISTS floor_seats_added ON tables_seatassignment",
    "DROP TRIGGER IF EXISTS floor_seats_removed ON tables_seatassignment",
    "DROP TRIGGER IF EXISTS floor_seat_moved ON tables_seatassignment",
    "DROP FUNCTION IF EXISTS floor_seats_added()",
    "DROP FUNCTION IF EXISTS floor_seats_removed()",
    "DROP FUNCTION IF EXISTS floor_seat_moved()",
]

_ENTRY_DELTA = """
    UPDATE tournament_tournament t
    SET players_left = t.players_left + d.alive, entries_counted = t.entries_counted + d.counted,
        alternates_waiting = t.alternates_waiting + d.waiting
    FROM (
        SELECT tournament_id, sum(alive) AS alive, sum(counted) AS counted,
            sum(waiting) AS waiting
        FROM (%s) x GROUP BY tournament_id
    ) d
    WHERE t.id = d.tournament_id AND (d.alive <> 0 OR d.counted <> 0 OR d.waiting <> 0);
"""


def _rows(name: str, sign: str) -> str:
    return (
        f"SELECT tournament_id, {sign}({ALIVE})::int AS alive, "  # noqa: S608 (constants)
        f"{sign}({COUNTED})::int AS counted, {sign}({WAITING})::int AS waiting FROM {name}"
    )


POSTGRES_ENTRIES = [
    f"""
    CREATE OR REPLACE FUNCTION floor_entries_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN {_ENTRY_DELTA % _rows("added", "")} RETURN NULL; END $$
    """,
    f"""
    CREATE OR REPLACE FUNCTION floor_entries_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN {_ENTRY_DELTA % _rows("removed", "-")} RETURN NULL; END $$
    """,
    f"""
    CREATE OR REPLACE FUNCTION floor_entries_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        {_ENTRY_DELTA % (_rows("after_rows", "") + " UNION ALL " + _rows("before_rows", "-"))}
        RETURN NULL;
    END $$
    """,
    "CREATE TRIGGER floor_entries_added AFTER INSERT ON tournament_entry "
    "REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION floor_entries_added()",
    "CREATE TRIGGER floor_entries_removed AFTER DELETE ON tournament_entry "
    "REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION floor_entries_removed()",
    "CREATE TRIGGER floor_entries_changed AFTER UPDATE ON tournament_entry "
    "REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows "
    "FOR EACH STATEMENT EXECUTE FUNCTION floor_entries_changed()",
]

POSTGRES_ENTRIES_DROP = [
    "DROP TRIGGER IF EXISTS floor_entries_added ON tournament_entry",
    "DROP TRIGGER IF EXISTS floor_entries_removed ON tournament_entry",
    "DROP TRIGGER IF EXISTS floor_entries_changed ON tournament_entry",
    "DROP FUNCTION IF EXISTS floor_entries_added()",
    "DROP FUNCTION IF EXISTS floor_entries_removed()",
    "DROP FUNCTION IF EXISTS floor_entries_changed()",
]

SQLITE_SEATS = [
    "CREATE TRIGGER floor_seat_added AFTER INSERT ON tables_seatassignment BEGIN "
    "UPDATE tables_table SET players = players + 1 WHERE id = NEW.table_id; END",
    "CREATE TRIGGER floor_seat_removed AFTER DELETE ON tables_seatassignment BEGIN "
    "UPDATE tables_table SET players = players - 1 WHERE id = OLD.table_id; END",
    "CREATE TRIGGER floor_seat_moved AFTER UPDATE OF table_id ON tables_seatassignment "
    "WHEN OLD.table_id <> NEW.table_id BEGIN "
    "UPDATE tables_table SET players = players - 1 WHERE id = OLD.table_id; "
    "UPDATE tables_table SET players = players + 1 WHERE id = NEW.table_id; END",
]

SQLITE_SEATS_DROP = [
    "DROP TRIGGER IF EXISTS floor_seat_added",
    "DROP TRIGGER IF EXISTS floor_seat_removed",
    "DROP TRIGGER IF EXISTS floor_seat_moved",
]


def _sqlite_entry(row: str, sign: str) -> str:
    return (
        "UPDATE tournament_tournament SET "  # noqa: S608 (constants)
        f"players_left = players_left {sign} ({row}.{ALIVE}), "
        f"entries_counted = entries_counted {sign} ({row}.{COUNTED}), "
        f"alternates_waiting = alternates_waiting {sign} ({row}.{WAITING}) "
        f"WHERE id = {row}.tournament_id;"
    )


SQLITE_ENTRIES = [
    "CREATE TRIGGER floor_entry_added AFTER INSERT ON tournament_entry BEGIN "
    f"{_sqlite_entry('NEW', '+')} END",
    "CREATE TRIGGER floor_entry_removed AFTER DELETE ON tournament_entry BEGIN "
    f"{_sqlite_entry('OLD', '-')} END",
    "CREATE TRIGGER floor_entry_changed AFTER UPDATE OF status, tournament_id "
    "ON tournament_entry BEGIN "
    f"{_sqlite_entry('OLD', '-')} {_sqlite_entry('NEW', '+')} END",
]

SQLITE_ENTRIES_DROP = [
    "DROP TRIGGER IF EXISTS floor_entry_added",
    "DROP TRIGGER IF EXISTS floor_entry_removed",
    "DROP TRIGGER IF EXISTS floor_entry_changed",
]

RECOUNT_TABLES = (
    "UPDATE tables_table SET players = "
    "(SELECT count(*) FROM tables_seatassignment s WHERE s.table_id = tables_table.id)"
)
RECOUNT_TOURNAMENTS = (
    "UPDATE tournament_tournament SET "  # noqa: S608 (constants)
    f"players_left = (SELECT count(*) FROM tournament_entry e "
    f"WHERE e.tournament_id = tournament_tournament.id AND e.{ALIVE}), "
    f"entries_counted = (SELECT count(*) FROM tournament_entry e "
    f"WHERE e.tournament_id = tournament_tournament.id AND e.{COUNTED}), "
    f"alternates_waiting = (SELECT count(*) FROM tournament_entry e "
    f"WHERE e.tournament_id = tournament_tournament.id AND e.{WAITING})"
)


def _run(schema_editor: Any, statements: dict[str, list[str]]) -> None:
    for sql in statements.get(schema_editor.connection.vendor, []):
        schema_editor.execute(sql, params=None)


def install_seat_counts(apps: Any, schema_editor: Any) -> None:
    _run(schema_editor, {"postgresql": POSTGRES_SEATS, "sqlite": SQLITE_SEATS})
    schema_editor.execute(RECOUNT_TABLES, params=None)


def remove_seat_counts(apps: Any, schema_editor: Any) -> None:
    _run(schema_editor, {"postgresql": POSTGRES_SEATS_DROP, "sqlite": SQLITE_SEATS_DROP})


def install_entry_counts(apps: Any, schema_editor: Any) -> None:
    _run(schema_editor, {"postgresql": POSTGRES_ENTRIES, "sqlite": SQLITE_ENTRIES})
    schema_editor.execute(RECOUNT_TOURNAMENTS, params=None)


def remove_entry_counts(apps: Any, schema_editor: Any) -> None:
    _run(schema_editor, {"postgresql": POSTGRES_ENTRIES_DROP, "sqlite": SQLITE_ENTRIES_DROP})


def recount(tournament_id: int | None = None) -> None:
    """Rebuild the kept counts from the rows (one tournament, or all)."""
    from django.db import connection

    tables = RECOUNT_TABLES
    tournaments = RECOUNT_TOURNAMENTS
    params: list[int] = []
    if tournament_id is not None:
        tables += " WHERE tournament_id = %s"
        tournaments += " WHERE id = %s"
        params = [tournament_id]
    with connection.cursor() as cursor:
        cursor.execute(tables, params)
        cursor.execute(tournaments, params)
