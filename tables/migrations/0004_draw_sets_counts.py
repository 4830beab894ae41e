from django.db import migrations

from config.sql import TriggerSet

# The triggers this migration installs, by version (docs/architecture.md "Migrations"): old
# migrations keep the version they ran, live code may change.
SEAT_COUNTS = TriggerSet("tables", "seat_counts", 1)


def replace_seat_functions(apps, schema_editor):
    """Install the seat-count functions over older ones (the triggers stay)."""
    if schema_editor.connection.vendor == "postgresql":
        for sql in SEAT_COUNTS.statements("postgresql"):
            if sql.startswith("CREATE OR REPLACE FUNCTION"):
                schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0003_seat_table_index"),
    ]

    operations = [
        # The seat-count functions learn to leave the counts to the draw (tournament/counters.py).
        migrations.RunPython(replace_seat_functions, migrations.RunPython.noop),
    ]
