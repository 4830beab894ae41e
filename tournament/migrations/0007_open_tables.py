from django.db import migrations, models

from tournament import counters


class Migration(migrations.Migration):
    """The tournament row keeps how many of its tables are open (tournament/counters.py)."""

    dependencies = [
        ("tournament", "0006_purchase_counts"),
        ("tables", "0005_seat_references"),
    ]

    operations = [
        # SQLite rebuilds tournament_tournament to add the column; the entry and purchase
        # triggers name it, so they come off first and go back on after.
        migrations.RunPython(counters.remove_purchase_counts, counters.install_purchase_counts),
        migrations.RunPython(counters.remove_entry_counts, counters.install_entry_counts),
        migrations.AddField(
            model_name="tournament",
            name="tables_open",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(counters.install_entry_counts, counters.remove_entry_counts),
        migrations.RunPython(counters.install_purchase_counts, counters.remove_purchase_counts),
        migrations.RunPython(counters.install_table_counts, counters.remove_table_counts),
    ]
