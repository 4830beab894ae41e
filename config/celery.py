"""The Celery app of the full stack (worker + beat). Tasks take ids and call a service."""

import os

from celery import Celery
from celery.signals import task_success, worker_process_init

from config.health import ticker_beat

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("floor")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


# The clock (clocks/tasks.py, docs/clock.md "Many clocks"). A level end is announced by a task
# armed with the level end as its ETA, re-armed by every clock command; beat is the safety net.
# Its tick is 5 s (CELERY_BEAT_SCHEDULE in config/settings/base.py): it bounds how late a level
# is when its armed task was lost (a worker killed), an idle tick costs two queries, and /readyz
# still sees a stopped beat within its 10 s (config/health.py). ETAs are armed at most 5 minutes
# ahead (and never more than half the broker's visibility_timeout, 3600 s in settings): a longer
# ETA would outlive the Redis visibility timeout and be delivered a second time; the minute's
# reschedule arms later ones.


@worker_process_init.connect
def _warm(**kwargs: object) -> None:
    # A pool process imports the clock's code when it starts, not in its first level end.
    import clocks.services  # noqa: F401  # inside: loaded before the apps (config/__init__)


@task_success.connect
def _record_clock_tick(sender: object = None, **kwargs: object) -> None:
    # /readyz tells a stopped beat or worker from a running one by the last tick (config/health.py).
    if getattr(sender, "name", "") == "clocks.tasks.clocks_tick":
        ticker_beat()
