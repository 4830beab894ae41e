from django.db import migrations

from config.sql import TriggerSet

# The triggers this migration installs and removes, by version (docs/architecture.md
# "Migrations"): old migrations keep the version they ran, live code may change.
# v1: a row trigger per moved seat (two table updates each); v2: one statement trigger.
PER_ROW = TriggerSet("tables", "seat_moves", 1, vendors=("postgresql",))
PER_STATEMENT = TriggerSet("tables", "seat_moves", 2, vendors=("postgresql",))


def move_counts_per_statement(apps, schema_editor):
    """PostgreSQL: the seat-move count becomes a statement trigger (`floor_seats_moved`)."""
    PER_ROW.remove(apps, schema_editor)
    # A database migrated from scratch has it already (0002 installs the current triggers).
    PER_STATEMENT.remove(apps, schema_editor)
    PER_STATEMENT.install(apps, schema_editor)


def move_counts_per_row(apps, schema_editor):
    PER_STATEMENT.remove(apps, schema_editor)
    PER_ROW.install(apps, schema_editor)


class Migration(migrations.Migration):
    """PostgreSQL counts moved seats once per statement (tournament/counters.py)."""

    dependencies = [
        ("tables", "0005_seat_references"),
        ("tournament", "0007_open_tables"),
    ]

    operations = [
        migrations.RunPython(move_counts_per_statement, move_counts_per_row),
    ]
