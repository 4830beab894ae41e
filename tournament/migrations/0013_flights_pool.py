# Events with starting flights (docs/festivals.md): a flight's pool goes to its Day 2, which
# gathers the pools; a stack carried from a flight is a purchase of chips without money.

import django.db.models.deletion
from django.db import migrations, models

# SQLite rebuilds a table to add a column with a default; the triggers that name
# tournament_tournament (the head counts) come off first and go back on after, exactly as the
# database holds them (as in 0011 and 0012). PostgreSQL adds the columns in place.
_SET_ASIDE: list[tuple[str, str]] = []


def triggers_off(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' "
            "AND sql LIKE '%tournament_tournament%'"
        )
        _SET_ASIDE[:] = cursor.fetchall()
    for name, _sql in _SET_ASIDE:
        schema_editor.execute(f'DROP TRIGGER IF EXISTS "{name}"', params=None)


def triggers_on(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    for _name, sql in _SET_ASIDE:
        schema_editor.execute(sql, params=None)
    _SET_ASIDE.clear()


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0012_shot_clock"),
    ]

    operations = [
        migrations.RunPython(triggers_off, triggers_on),
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
        migrations.RunPython(triggers_on, triggers_off),
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
