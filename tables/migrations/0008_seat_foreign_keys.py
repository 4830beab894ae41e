import django.db.models.deletion
from django.db import migrations, models

# The SQL this migration runs, written out here: live code may change, a migration must not.
# The triggers that stood in for the seat table's foreign keys (installed by 0005).
POSTGRES_REFERENCES = [
    """
    CREATE OR REPLACE FUNCTION floor_seat_refs_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN 
        IF (SELECT count(*) FROM added r) <> (SELECT count(*) FROM (SELECT 1 FROM tournament_entry e JOIN added r ON r.entry_id = e.id FOR KEY SHARE OF e) locked) THEN
            RAISE foreign_key_violation USING MESSAGE = 'a seat refers to an entry that does not exist';
        END IF;
        IF (SELECT count(DISTINCT r.table_id) FROM added r)
            <> (SELECT count(*) FROM (SELECT 1 FROM tables_table t WHERE t.id IN (SELECT r.table_id FROM added r) FOR KEY SHARE OF t) locked)
        THEN
            RAISE foreign_key_violation USING MESSAGE = 'a seat refers to a table that does not exist';
        END IF;
     RETURN NULL; END $$
    """,
    """
    CREATE OR REPLACE FUNCTION floor_seat_refs_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        -- Only the rows whose entry or table changed (a stack or a seat number is no concern).
        IF EXISTS (SELECT 1 FROM (SELECT n.entry_id, n.table_id FROM after_rows n JOIN before_rows o ON o.id = n.id WHERE o.entry_id <> n.entry_id OR o.table_id <> n.table_id) r) THEN 
        IF (SELECT count(*) FROM (SELECT n.entry_id, n.table_id FROM after_rows n JOIN before_rows o ON o.id = n.id WHERE o.entry_id <> n.entry_id OR o.table_id <> n.table_id) r) <> (SELECT count(*) FROM (SELECT 1 FROM tournament_entry e JOIN (SELECT n.entry_id, n.table_id FROM after_rows n JOIN before_rows o ON o.id = n.id WHERE o.entry_id <> n.entry_id OR o.table_id <> n.table_id) r ON r.entry_id = e.id FOR KEY SHARE OF e) locked) THEN
            RAISE foreign_key_violation USING MESSAGE = 'a seat refers to an entry that does not exist';
        END IF;
        IF (SELECT count(DISTINCT r.table_id) FROM (SELECT n.entry_id, n.table_id FROM after_rows n JOIN before_rows o ON o.id = n.id WHERE o.entry_id <> n.entry_id OR o.table_id <> n.table_id) r)
            <> (SELECT count(*) FROM (SELECT 1 FROM tables_table t WHERE t.id IN (SELECT r.table_id FROM (SELECT n.entry_id, n.table_id FROM after_rows n JOIN before_rows o ON o.id = n.id WHERE o.entry_id <> n.entry_id OR o.table_id <> n.table_id) r) FOR KEY SHARE OF t) locked)
        THEN
            RAISE foreign_key_violation USING MESSAGE = 'a seat refers to a table that does not exist';
        END IF;
     END IF;
        RETURN NULL;
    END $$
    """,
    """
    CREATE OR REPLACE FUNCTION floor_seated_entries_removed() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM tables_seatassignment s USING removed r WHERE s.entry_id = r.id;
        RETURN NULL;
    END $$
    """,
    """
    CREATE OR REPLACE FUNCTION floor_seated_tables_removed() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM tables_seatassignment s USING removed r WHERE s.table_id = r.id;
        RETURN NULL;
    END $$
    """,
    "CREATE TRIGGER floor_seat_refs_added AFTER INSERT ON tables_seatassignment "
    "REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION "
    "floor_seat_refs_added()",
    "CREATE TRIGGER floor_seat_refs_changed AFTER UPDATE ON tables_seatassignment "
    "REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows FOR EACH STATEMENT "
    "EXECUTE FUNCTION floor_seat_refs_changed()",
    "CREATE TRIGGER floor_seated_entries_removed AFTER DELETE ON tournament_entry "
    "REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION "
    "floor_seated_entries_removed()",
    "CREATE TRIGGER floor_seated_tables_removed AFTER DELETE ON tables_table REFERENCING "
    "OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION floor_seated_tables_removed()",
]

POSTGRES_REFERENCES_DROP = [
    "DROP TRIGGER IF EXISTS floor_seat_refs_added ON tables_seatassignment",
    "DROP TRIGGER IF EXISTS floor_seat_refs_changed ON tables_seatassignment",
    "DROP TRIGGER IF EXISTS floor_seated_entries_removed ON tournament_entry",
    "DROP TRIGGER IF EXISTS floor_seated_tables_removed ON tables_table",
    "DROP FUNCTION IF EXISTS floor_seat_refs_added()",
    "DROP FUNCTION IF EXISTS floor_seat_refs_changed()",
    "DROP FUNCTION IF EXISTS floor_seated_entries_removed()",
    "DROP FUNCTION IF EXISTS floor_seated_tables_removed()",
]

SQLITE_REFERENCES = [
    "CREATE TRIGGER floor_seat_refs_added BEFORE INSERT ON tables_seatassignment WHEN NOT "
    "EXISTS (SELECT 1 FROM tournament_entry WHERE id = NEW.entry_id) OR NOT EXISTS (SELECT "
    "1 FROM tables_table WHERE id = NEW.table_id) BEGIN SELECT RAISE(ABORT, 'a seat refers "
    "to an entry or a table that does not exist'); END",
    "CREATE TRIGGER floor_seat_refs_changed BEFORE UPDATE OF entry_id, table_id ON "
    "tables_seatassignment WHEN NOT EXISTS (SELECT 1 FROM tournament_entry WHERE id = "
    "NEW.entry_id) OR NOT EXISTS (SELECT 1 FROM tables_table WHERE id = NEW.table_id) "
    "BEGIN SELECT RAISE(ABORT, 'a seat refers to an entry or a table that does not "
    "exist'); END",
    "CREATE TRIGGER floor_seated_entries_removed AFTER DELETE ON tournament_entry BEGIN "
    "DELETE FROM tables_seatassignment WHERE entry_id = OLD.id; END",
    "CREATE TRIGGER floor_seated_tables_removed AFTER DELETE ON tables_table BEGIN DELETE "
    "FROM tables_seatassignment WHERE table_id = OLD.id; END",
]

SQLITE_REFERENCES_DROP = [
    "DROP TRIGGER IF EXISTS floor_seat_refs_added",
    "DROP TRIGGER IF EXISTS floor_seat_refs_changed",
    "DROP TRIGGER IF EXISTS floor_seated_entries_removed",
    "DROP TRIGGER IF EXISTS floor_seated_tables_removed",
]

SQLITE_SEATS = [
    "CREATE TRIGGER floor_seat_added AFTER INSERT ON tables_seatassignment BEGIN UPDATE "
    "tables_table SET players = players + 1 WHERE id = NEW.table_id; END",
    "CREATE TRIGGER floor_seat_removed AFTER DELETE ON tables_seatassignment BEGIN UPDATE "
    "tables_table SET players = players - 1 WHERE id = OLD.table_id; END",
    "CREATE TRIGGER floor_seat_moved AFTER UPDATE OF table_id ON tables_seatassignment "
    "WHEN OLD.table_id <> NEW.table_id BEGIN UPDATE tables_table SET players = players - 1 "
    "WHERE id = OLD.table_id; UPDATE tables_table SET players = players + 1 WHERE id = "
    "NEW.table_id; END",
]

SQLITE_SEATS_DROP = [
    "DROP TRIGGER IF EXISTS floor_seat_added",
    "DROP TRIGGER IF EXISTS floor_seat_removed",
    "DROP TRIGGER IF EXISTS floor_seat_moved",
]

RECOUNT_TABLES = (
    "UPDATE tables_table SET players = (SELECT count(*) FROM tables_seatassignment s WHERE "
    "s.table_id = tables_table.id)"
)


def _run(schema_editor, statements):
    for sql in statements.get(schema_editor.connection.vendor, []):
        schema_editor.execute(sql, params=None)


def remove_references(apps, schema_editor):
    _run(schema_editor, {"postgresql": POSTGRES_REFERENCES_DROP, "sqlite": SQLITE_REFERENCES_DROP})


def install_references(apps, schema_editor):
    _run(schema_editor, {"postgresql": POSTGRES_REFERENCES, "sqlite": SQLITE_REFERENCES})


# SQLite rebuilds the seat table to declare its keys, which drops the table's triggers; PostgreSQL
# adds the constraints in place and keeps them.
def remove_seat_counts(apps, schema_editor):
    _run(schema_editor, {"sqlite": SQLITE_SEATS_DROP})


def install_seat_counts(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        _run(schema_editor, {"sqlite": SQLITE_SEATS})
        schema_editor.execute(RECOUNT_TABLES, params=None)


class Migration(migrations.Migration):
    """The seat table declares its foreign keys again (DEFERRABLE INITIALLY DEFERRED, checked at
    commit); the triggers that replaced them go."""

    dependencies = [
        ("tables", "0007_hand_positions"),
    ]

    operations = [
        migrations.RunPython(remove_references, install_references),
        migrations.RunPython(remove_seat_counts, install_seat_counts),
        migrations.AlterField(
            model_name="seatassignment",
            name="entry",
            field=models.OneToOneField(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seat",
                to="tournament.entry",
            ),
        ),
        migrations.AlterField(
            model_name="seatassignment",
            name="table",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="assignments",
                to="tables.table",
            ),
        ),
        migrations.RunPython(install_seat_counts, remove_seat_counts),
    ]
