"""The Celery app of the full stack (worker + beat). Tasks take ids and call a service."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")

app = Celery("floor")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
