# Floor — one image for the web (ASGI), the Celery worker and beat.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DJANGO_SETTINGS_MODULE=config.settings.production

WORKDIR /app
COPY requirements.txt .
RUN pip install --no-cache-dir -r requirements.txt

COPY . .
RUN SECRET_KEY=build-only-not-secret python manage.py collectstatic --noinput -v 0

RUN useradd --create-home floor && chown -R floor /app
USER floor

EXPOSE 8000
# --no-proxy-headers: uvicorn leaves the client address alone; Floor reads X-Forwarded-For itself,
# from FLOOR_TRUSTED_PROXIES only (tournament/ratelimit.py client_address). Uvicorn has no limit
# on request bodies; Floor's own cap answers 413 before reading one (config/asgi.py).
CMD ["uvicorn", "config.asgi:application", "--host", "0.0.0.0", "--port", "8000", "--lifespan", "off", "--ws-max-size", "65536", "--no-proxy-headers"]
