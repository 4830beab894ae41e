"""WSGI entry point: every HTTP request but websockets in the full stack (gunicorn,
deploy/gunicorn.conf.py). /healthz is answered before Django (config/health.py)."""

import os

from django.core.wsgi import get_wsgi_application

from config.health import with_wsgi_liveness

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.base")
application = with_wsgi_liveness(get_wsgi_application())
