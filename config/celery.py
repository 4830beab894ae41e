"""The Celery app of the full stack (worker + beat). Tasks take ids and call a service."""

import os

from celery import Celery
from celery.signals import task_success

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("floor")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_success.connect
def _record_clock_tick(sender: object = None, **kwargs: object) -> None:
    # /readyz tells a stopped beat or worker from a running one by the last tick (config/health.py).
    if getattr(sender, "name", "") == "clocks.tasks.clocks_tick":
        from config.health import ticker_beat

        ticker_beat()
