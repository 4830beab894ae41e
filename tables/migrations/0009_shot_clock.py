# The shot clock of a table and the time-bank cards an entry used (issue #21 part 4).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0008_seat_foreign_keys"),
        ("tournament", "0012_shot_clock"),
    ]

    operations = [
        migrations.CreateModel(
            name="ShotClock",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("started_at", models.DateTimeField(blank=True, null=True)),
                ("seconds", models.PositiveSmallIntegerField(default=0)),
                ("seat", models.PositiveSmallIntegerField(blank=True, null=True)),
                ("cards_used", models.PositiveSmallIntegerField(default=0)),
                ("version", models.PositiveIntegerField(default=0)),
                (
                    "table",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="shot_clock",
                        to="tables.table",
                    ),
                ),
            ],
            options={
                "verbose_name": "shot clock",
                "verbose_name_plural": "shot clocks",
            },
        ),
        migrations.CreateModel(
            name="TimeBank",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("used", models.PositiveSmallIntegerField(default=0)),
                (
                    "entry",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="time_bank",
                        to="tournament.entry",
                    ),
                ),
            ],
            options={
                "verbose_name": "time bank",
                "verbose_name_plural": "time banks",
            },
        ),
    ]
