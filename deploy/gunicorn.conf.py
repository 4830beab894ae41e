"""gunicorn settings of the `web` service: every HTTP request except websockets (the proxy
sends /ws/ to the `ws` service, uvicorn). `gunicorn -c deploy/gunicorn.conf.py`.

Floor's views are synchronous and wait mostly on PostgreSQL and Redis: threaded workers
(gthread), WEB_CONCURRENCY processes of FLOOR_HTTP_THREADS threads each. Each thread holds at
most one pooled database connection while it serves a request (keep FLOOR_HTTP_THREADS at or
below DB_POOL_MAX).
"""

import os

wsgi_app = "config.wsgi:application"
bind = os.environ.get("FLOOR_BIND", "0.0.0.0:8000")
worker_class = "gthread"
workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
threads = int(os.environ.get("FLOOR_HTTP_THREADS", "4"))
# Longer than the proxy keeps an idle upstream connection (deploy/nginx/floor.conf.template
# keepalive_timeout), so the
# proxy never sends a request on a connection gunicorn is closing.
keepalive = 75
timeout = 30
graceful_timeout = 20
backlog = 2048
# Floor reads X-Forwarded-For and X-Forwarded-Proto itself, from FLOOR_TRUSTED_PROXIES only
# (tournament/ratelimit.py, SECURE_PROXY_SSL_HEADER).
forwarded_allow_ips = ""
accesslog = None
errorlog = "-"
loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "warning")

# After this many requests a worker's heap has settled (URL patterns, templates, translations,
# connections loaded): its objects then move into the garbage collector's permanent generation
# (gc.freeze), once, so later full collections walk only what requests leave behind. 0: never.
FREEZE_AFTER = int(os.environ.get("FLOOR_GC_FREEZE_AFTER", "500"))


def post_request(worker, req, environ, resp):  # a gunicorn hook, after each request
    if not FREEZE_AFTER:
        return
    served = getattr(worker, "floor_served", 0) + 1
    worker.floor_served = served
    if served == FREEZE_AFTER:
        import gc

        gc.collect()
        gc.freeze()


def post_worker_init(worker):  # a gunicorn hook, once the worker has loaded Floor
    # The URL configuration, the template engine and the templates, loaded before the first
    # request instead of by it (config/warmup.py). Only where the application loaded is Floor's
    # (a bench's bare baseline app loads no Django).
    from django.apps import apps

    if apps.ready:
        from config.warmup import warm

        warm()
