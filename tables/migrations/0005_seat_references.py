import django.db.models.deletion
from django.db import migrations, models

from tables import references
from tournament import counters


class Migration(migrations.Migration):
    """The seat table's foreign keys become triggers that check once per statement
    (tables/references.py)."""

    dependencies = [
        ("tables", "0004_draw_sets_counts"),
        ("tournament", "0006_purchase_counts"),
    ]

    operations = [
        # SQLite rebuilds the seat table to alter its columns, which drops its triggers.
        migrations.RunPython(counters.remove_seat_counts, counters.install_seat_counts),
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
        migrations.RunPython(counters.install_seat_counts, counters.remove_seat_counts),
        migrations.RunPython(references.install, references.remove),
    ]
