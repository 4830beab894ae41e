from django.db import migrations, models

from config.sql import TriggerSet

# The triggers this migration installs and removes, by version (docs/architecture.md
# "Migrations"): old migrations keep the version they ran, live code may change.
ENTRY_COUNTS = TriggerSet("tournament", "entry_counts", 1)
PURCHASE_COUNTS = TriggerSet("tournament", "purchase_counts", 1)
TABLE_COUNTS = TriggerSet("tournament", "table_counts", 1)


class Migration(migrations.Migration):
    """The tournament row keeps how many of its tables are open (tournament/counters.py)."""

    dependencies = [
        ("tournament", "0006_purchase_counts"),
        ("tables", "0005_seat_references"),
    ]

    operations = [
        # SQLite rebuilds tournament_tournament to add the column; the entry and purchase
        # triggers name it, so they come off first and go back on after.
        PURCHASE_COUNTS.removed(),
        ENTRY_COUNTS.removed(),
        migrations.AddField(
            model_name="tournament",
            name="tables_open",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        ENTRY_COUNTS.installed(),
        PURCHASE_COUNTS.installed(),
        TABLE_COUNTS.installed(),
    ]
