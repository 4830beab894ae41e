# Shot clock and time-bank settings of a tournament (issue #21 part 4; docs/seating.md).

from django.db import migrations, models

from config.sql import SQLiteTriggersAside

# SQLite rebuilds a table to add a column with a default; the triggers that name
# tournament_tournament (the head counts) come off first and go back on after, exactly as the
# database holds them (as in 0011). PostgreSQL adds the columns in place.
TRIGGERS = SQLiteTriggersAside("tournament_tournament")


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0011_person_records_and_ledger"),
    ]

    operations = [
        TRIGGERS.off(),
        migrations.AddField(
            model_name="tournament",
            name="shot_clock",
            field=models.BooleanField(
                default=False, verbose_name="shot clock on the dealer tablets"
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="shot_clock_seconds",
            field=models.PositiveSmallIntegerField(
                default=30, verbose_name="shot clock: seconds per decision"
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="time_bank_cards",
            field=models.PositiveSmallIntegerField(
                default=2, verbose_name="time-bank cards per player"
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="time_bank_reset",
            field=models.CharField(
                choices=[
                    ("day_and_final_table", "New day and final table"),
                    ("day", "Each new day"),
                    ("final_table", "At the final table"),
                    ("never", "Never"),
                ],
                default="day_and_final_table",
                max_length=20,
                verbose_name="time-bank cards come back",
            ),
        ),
        migrations.AddField(
            model_name="tournament",
            name="time_bank_seconds",
            field=models.PositiveSmallIntegerField(
                default=30, verbose_name="seconds per time-bank card"
            ),
        ),
        TRIGGERS.on(),
    ]
