from django.db import migrations


# The SQL this migration ran, written out here: live code may change, a migration must not.
POSTGRES_SEATS_MOVED = [
    """
    CREATE OR REPLACE FUNCTION floor_seats_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        -- One update per table whose count changed: a break that sends eight players away
        -- updates the broken table once, not eight times.
        UPDATE tables_table t SET players = t.players + d.n
        FROM (
            SELECT table_id, sum(n) AS n FROM (
                SELECT table_id, 1 AS n FROM after_rows
                UNION ALL SELECT table_id, -1 AS n FROM before_rows
            ) x GROUP BY table_id HAVING sum(n) <> 0
        ) d
        WHERE t.id = d.table_id;
        RETURN NULL;
    END $$
    """,
    "CREATE TRIGGER floor_seats_moved AFTER UPDATE ON tables_seatassignment REFERENCING "
    "OLD TABLE AS before_rows NEW TABLE AS after_rows FOR EACH STATEMENT EXECUTE FUNCTION "
    "floor_seats_moved()",
]

# Before this migration: a row trigger per moved seat (two table updates each).
POSTGRES_SEAT_MOVED_PER_ROW = [
    """
    CREATE OR REPLACE FUNCTION floor_seat_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE tables_table SET players = players - 1 WHERE id = OLD.table_id;
        UPDATE tables_table SET players = players + 1 WHERE id = NEW.table_id;
        RETURN NULL;
    END $$
    """,
    "CREATE TRIGGER floor_seat_moved AFTER UPDATE OF table_id ON tables_seatassignment FOR "
    "EACH ROW WHEN (OLD.table_id IS DISTINCT FROM NEW.table_id) EXECUTE FUNCTION "
    "floor_seat_moved()",
]


def move_counts_per_statement(apps, schema_editor):
    """PostgreSQL: the seat-move count becomes a statement trigger (`floor_seats_moved`)."""
    if schema_editor.connection.vendor != "postgresql":
        return
    for sql in [
        "DROP TRIGGER IF EXISTS floor_seat_moved ON tables_seatassignment",
        "DROP FUNCTION IF EXISTS floor_seat_moved()",
        # A database migrated from scratch has it already (0002 installs the current triggers).
        "DROP TRIGGER IF EXISTS floor_seats_moved ON tables_seatassignment",
        *POSTGRES_SEATS_MOVED,
    ]:
        schema_editor.execute(sql, params=None)


def move_counts_per_row(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for sql in [
        "DROP TRIGGER IF EXISTS floor_seats_moved ON tables_seatassignment",
        "DROP FUNCTION IF EXISTS floor_seats_moved()",
        *POSTGRES_SEAT_MOVED_PER_ROW,
    ]:
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    """PostgreSQL counts moved seats once per statement (tournament/counters.py)."""

    dependencies = [
        ("tables", "0005_seat_references"),
        ("tournament", "0007_open_tables"),
    ]

    operations = [
        migrations.RunPython(move_counts_per_statement, move_counts_per_row),
    ]
