from django.db import migrations, models
from django.utils import timezone


def due_now(apps, schema_editor):
    # Every existing clock is looked at once by the next pass, which sets its real due instant.
    apps.get_model("clocks", "Clock").objects.update(next_due_at=timezone.now())


class Migration(migrations.Migration):
    dependencies = [("clocks", "0002_clock_stop_reopen")]

    operations = [
        migrations.AddField(
            model_name="clock",
            name="next_due_at",
            field=models.DateTimeField(blank=True, db_index=True, null=True),
        ),
        migrations.RunPython(due_now, migrations.RunPython.noop),
    ]
