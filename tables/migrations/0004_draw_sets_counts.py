from django.db import migrations


# The SQL this migration ran, written out here: live code may change, a migration must not.
POSTGRES_SEAT_FUNCTIONS = [
    """
    CREATE OR REPLACE FUNCTION floor_seats_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF current_setting('floor.draw_sets_counts', true) = 'on' THEN RETURN NULL; END IF;
        UPDATE tables_table t SET players = t.players + d.n
        FROM (SELECT table_id, count(*) AS n FROM added GROUP BY table_id) d
        WHERE t.id = d.table_id;
        RETURN NULL;
    END $$
    """,
    """
    CREATE OR REPLACE FUNCTION floor_seats_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF current_setting('floor.draw_sets_counts', true) = 'on' THEN RETURN NULL; END IF;
        UPDATE tables_table t SET players = t.players - d.n
        FROM (SELECT table_id, count(*) AS n FROM removed GROUP BY table_id) d
        WHERE t.id = d.table_id;
        RETURN NULL;
    END $$
    """,
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
]


def replace_seat_functions(apps, schema_editor):
    """Install the seat-count functions over older ones (the triggers stay)."""
    if schema_editor.connection.vendor == "postgresql":
        for sql in POSTGRES_SEAT_FUNCTIONS:
            schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0003_seat_table_index"),
    ]

    operations = [
        # The seat-count functions learn to leave the counts to the draw (tournament/counters.py).
        migrations.RunPython(replace_seat_functions, migrations.RunPython.noop),
    ]
