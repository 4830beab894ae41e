from django.db import migrations

from tournament import counters


class Migration(migrations.Migration):
    """PostgreSQL counts moved seats once per statement (tournament/counters.py)."""

    dependencies = [
        ("tables", "0005_seat_references"),
        ("tournament", "0007_open_tables"),
    ]

    operations = [
        migrations.RunPython(counters.move_counts_per_statement, counters.move_counts_per_row),
    ]
