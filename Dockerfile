# Floor — one image for the web processes (granian), the websocket processes (uvicorn), the
# Celery worker and beat (docker-compose.yml gives each its command).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=config.settings.production

# espeak-ng (offline, German and English) speaks the announcements of screens whose browser has
# no voice (docs/clock.md "Spoken fallback"). Pango, HarfBuzz and a font make the printed
# reports' PDF (WeasyPrint, docs/results.md).
RUN apt-get update \
    && apt-get install -y --no-install-recommends espeak-ng \
       libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-liberation \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

COPY . .
RUN SECRET_KEY=build-only-not-secret python manage.py collectstatic --noinput -v 0

RUN useradd --create-home floor && chown -R floor /app
USER floor

EXPOSE 8000
# HTTP by default: granian, the `web` service's command in docker-compose.yml with its defaults
# (one worker process of four threads). It leaves the client address alone; Floor reads
# X-Forwarded-For itself, from FLOOR_TRUSTED_PROXIES only (tournament/ratelimit.py
# client_address). Neither granian nor uvicorn limits request bodies; Floor's own cap answers
# 413 before reading one (config/request_cap.py).
CMD ["granian", "--interface=wsgi", "--factory", "--host=0.0.0.0", "--port=8000", "--workers=1", "--blocking-threads=4", "--http=1", "--no-ws", "--backlog=2048", "--http1-header-read-timeout=30000", "--respawn-failed-workers", "--workers-kill-timeout=20", "--log-level=warning", "config.wsgi:serve"]
