from django.db import migrations

from tournament import counters


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0003_seat_table_index"),
    ]

    operations = [
        # The seat-count functions learn to leave the counts to the draw (tournament/counters.py).
        migrations.RunPython(counters.replace_seat_functions, migrations.RunPython.noop),
    ]
