from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0014_player_barred"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="hits",
            field=models.PositiveIntegerField(default=0, verbose_name="knock-outs"),
        ),
    ]
