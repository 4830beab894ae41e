"""The project: settings (env-driven: base, production, venue, test), URLs and websocket routes,
the ASGI app, the Celery app, the database breaker, health checks and the migrations' SQL
loader (sql.py)."""

from config.celery import app as celery_app

__all__ = ["celery_app"]
