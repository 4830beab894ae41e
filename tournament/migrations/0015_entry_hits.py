# The players an entry knocked out (a league formula's `h`, docs/leagues.md).

from django.db import migrations, models

from config.sql import SQLiteTriggersAside

# SQLite rebuilds a table to add a column with a default; the triggers that name
# tournament_entry (its own head counts, the purchases') come off first and go back on after,
# exactly as the database holds them (as in 0011-0013). PostgreSQL adds the column in place.
TRIGGERS = SQLiteTriggersAside("tournament_entry")


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0014_player_barred"),
    ]

    operations = [
        TRIGGERS.off(),
        migrations.AddField(
            model_name="entry",
            name="hits",
            field=models.PositiveIntegerField(default=0, verbose_name="knock-outs"),
        ),
        TRIGGERS.on(),
    ]
