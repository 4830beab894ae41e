# Floor — one image for the web processes (gunicorn), the websocket processes (uvicorn), the
# Celery worker and beat (docker-compose.yml gives each its command).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=config.settings.production

# espeak-ng (offline, German and English) speaks the announcements of screens whose browser has
# no voice (docs/clock.md "Spoken fallback").
RUN apt-get update \
    && apt-get install -y --no-install-recommends espeak-ng \
    && rm -rf /var/lib/apt/lists/*

WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

COPY . .
RUN SECRET_KEY=build-only-not-secret python manage.py collectstatic --noinput -v 0

RUN useradd --create-home floor && chown -R floor /app
USER floor

EXPOSE 8000
# HTTP by default: gunicorn, threaded workers (deploy/gunicorn.conf.py). It leaves the client
# address alone; Floor reads X-Forwarded-For itself, from FLOOR_TRUSTED_PROXIES only
# (tournament/ratelimit.py client_address). Neither gunicorn nor uvicorn limits request bodies;
# Floor's own cap answers 413 before reading one (config/request_cap.py).
CMD ["gunicorn", "-c", "deploy/gunicorn.conf.py"]
