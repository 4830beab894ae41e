import django.db.models.deletion
from django.db import migrations, models

from config.sql import TriggerSet

# The triggers this migration installs and removes, by version (docs/architecture.md
# "Migrations"): old migrations keep the version they ran, live code may change.
SEAT_REFERENCES = TriggerSet("tables", "seat_references", 1)
# SQLite rebuilds the seat table to declare its keys, which drops the table's triggers; PostgreSQL
# adds the constraints in place and keeps them.
SQLITE_SEAT_COUNTS = TriggerSet("tables", "seat_counts", 1, vendors=("sqlite",))


class Migration(migrations.Migration):
    """The seat table declares its foreign keys again (DEFERRABLE INITIALLY DEFERRED, checked at
    commit); the triggers that replaced them go."""

    dependencies = [
        ("tables", "0007_hand_positions"),
    ]

    operations = [
        SEAT_REFERENCES.removed(),
        SQLITE_SEAT_COUNTS.removed(),
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
        SQLITE_SEAT_COUNTS.installed(),
    ]
