# Events with starting flights (docs/festivals.md): a flight's pool goes to its Day 2, which
# gathers the pools; a stack carried from a flight is a purchase of chips without money.

import django.db.models.deletion
from django.db import migrations, models

from config.sql import SQLiteTriggersAside

# SQLite rebuilds a table to add a column with a default; the triggers that name
# tournament_tournament (the head counts) come off first and go back on after, exactly as the
# database holds them (as in 0011 and 0012). PostgreSQL adds the columns in place.
TRIGGERS = SQLiteTriggersAside("tournament_tournament")


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0012_shot_clock"),
    ]

    operations = [
        TRIGGERS.off(),
        migrations.AddField(
            model_name="tournament",
            name="pool_to",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="pool_from",
                to="tournament.tournament",
                verbose_name="prize pool paid at",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="pooled",
            field=models.BooleanField(
                default=False, verbose_name="gathers the prize pools of its starting flights"
            ),
        ),
        TRIGGERS.on(),
        # Choices only: no change in the database (the purchase triggers stay).
        migrations.AlterField(
            model_name="purchase",
            name="kind",
            field=models.CharField(
                choices=[
                    ("buyin", "Buy-in"),
                    ("reentry", "Re-entry"),
                    ("rebuy", "Rebuy"),
                    ("addon", "Add-on"),
                    ("carried", "Chips carried from a starting flight"),
                ],
                max_length=10,
            ),
        ),
    ]
