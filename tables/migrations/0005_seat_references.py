import django.db.models.deletion
from django.db import migrations, models

from config.sql import TriggerSet

# The triggers this migration installs and removes, by version (docs/architecture.md
# "Migrations"): old migrations keep the version they ran, live code may change.
SEAT_COUNTS = TriggerSet("tables", "seat_counts", 1)
SEAT_REFERENCES = TriggerSet("tables", "seat_references", 1)


class Migration(migrations.Migration):
    """The seat table's foreign keys become triggers that check once per statement
    (tables/references.py)."""

    dependencies = [
        ("tables", "0004_draw_sets_counts"),
        ("tournament", "0006_purchase_counts"),
    ]

    operations = [
        # SQLite rebuilds the seat table to alter its columns, which drops its triggers.
        SEAT_COUNTS.removed(),
        migrations.AlterField(
            model_name="seatassignment",
            name="entry",
            field=models.OneToOneField(
                db_constraint=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="seat",
                to="tournament.entry",
            ),
        ),
        migrations.AlterField(
            model_name="seatassignment",
            name="table",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="assignments",
                to="tables.table",
            ),
        ),
        SEAT_COUNTS.installed(),
        SEAT_REFERENCES.installed(),
    ]
