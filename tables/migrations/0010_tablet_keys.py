# One-time keys of dealer tablet actions, and the floor report of an action that no longer fits
# (issue #57 part 4: tablets through a Wi-Fi drop).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0009_shot_clock'),
    ]

    operations = [
        migrations.AlterField(
            model_name='tablereport',
            name='kind',
            field=models.CharField(choices=[('bust', 'Bust'), ('floor', 'Floor call'), ('conflict', 'Not applied')], max_length=10),
        ),
        migrations.CreateModel(
            name='TabletKey',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('key', models.CharField(max_length=100)),
                ('action', models.CharField(max_length=20)),
                ('fingerprint', models.CharField(max_length=64)),
                ('status', models.PositiveSmallIntegerField()),
                ('message', models.CharField(blank=True, max_length=300)),
                ('code', models.CharField(blank=True, max_length=30)),
                ('reported', models.BooleanField(default=False)),
                ('created_at', models.DateTimeField(auto_now_add=True, db_index=True)),
                ('table', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='tablet_keys', to='tables.table')),
            ],
            options={
                'verbose_name': 'tablet action key',
                'verbose_name_plural': 'tablet action keys',
                'constraints': [models.UniqueConstraint(fields=('table', 'key'), name='unique_tablet_key')],
            },
        ),
    ]
