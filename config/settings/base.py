"""Settings shared by every way of running Floor.

The embedded default (no environment variables) is a club night on one laptop: SQLite, the
in-memory channel layer and the in-process ticker. Setting DATABASE_URL and REDIS_URL switches the
same code to the full stack: PostgreSQL with pooled connections, the Redis channel layer and
Celery (worker + beat) as the ticker.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from config.env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(env_str("FLOOR_VAR_DIR", str(BASE_DIR / "var")))
VAR_DIR.mkdir(parents=True, exist_ok=True)

SECRET_KEY = env_str("SECRET_KEY", "floor-embedded-development-key-not-for-production")
DEBUG = env_bool("DEBUG", True)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "django_htmx",
    "channels",
    "tournament",
    "tables",
    "clocks",
    "rules_engine",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
                "tournament.context_processors.roles",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'floor.sqlite3'}")
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Pooled connections (psycopg_pool inside Django); CONN_MAX_AGE must stay 0 with a pool.
    DATABASES["default"]["OPTIONS"] = {
        # Only statements that ask for it are prepared (the public seat look-up); Django's own
        # queries bind their parameters on the client and are never prepared.
        "prepare_threshold": 2**31 - 1,
        "pool": {
            "min_size": env_int("DB_POOL_MIN", 2),
            "max_size": env_int("DB_POOL_MAX", 20),
            "timeout": 10,
        },
    }
else:
    DATABASES["default"]["OPTIONS"] = {
        # WAL lets the ticker thread read while a request writes; wait instead of failing.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channels, Celery, ticker -------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL]},
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# "inprocess": the ASGI server runs the ticker loop (embedded); "celery": beat drives it.
FLOOR_TICKER = env_str("FLOOR_TICKER", "celery" if REDIS_URL else "inprocess")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_IGNORE_RESULT = True
CELERY_TIMEZONE = "UTC"
# Tasks are short and idempotent; ETAs stay under the visibility timeout (see clocks/tasks.py).
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_BEAT_SCHEDULE = {
    "clock-tick": {"task": "clocks.tasks.clocks_tick", "schedule": 1.0},
}

# --- Auth ------------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "console-home"
LOGOUT_REDIRECT_URL = "login"

# --- Language and time -----------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
TIME_ZONE = env_str("TIME_ZONE", "Europe/Berlin")
USE_TZ = True

# --- Static files ----------------------------------------------------------------------------
STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# --- API ---------------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["tournament.api.permissions.IsFloorOrReadOnlyPublic"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "tournament.api.errors.exception_handler",
    "DEFAULT_THROTTLE_RATES": {"public_lookup": "120/min", "login": "20/min"},
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Floor API",
    "DESCRIPTION": "Run live poker tournaments: tournaments, structures, registration, "
    "eliminations, payouts, seating, clock and rulings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "ENUM_NAME_OVERRIDES": {
        "TournamentStatusEnum": "tournament.models.Status",
        "EntryStatusEnum": "tournament.models.EntryStatus",
        "PenaltyKindEnum": "rules_engine.models.PenaltyKind",
    },
}

CACHES = {
    "default": (
        {"BACKEND": "config.cache.FloorRedisCache", "LOCATION": REDIS_URL}
        if REDIS_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}

# Public demo credentials are only created by `manage.py floor_demo`.
FLOOR_DEMO_PASSWORD = env_str("FLOOR_DEMO_PASSWORD", "floor-demo")
# How many reverse proxies in front of Floor append to X-Forwarded-For (0: trust no header).
FLOOR_TRUSTED_PROXIES = env_int("FLOOR_TRUSTED_PROXIES", 0)
# Threads per web process serving HTTP (config/asgi.py); each holds at most one database
# connection while it serves a request, so keep it at or below DB_POOL_MAX.
FLOOR_HTTP_THREADS = env_int("FLOOR_HTTP_THREADS", 4)
WHITENOISE_USE_FINDERS = env_bool("WHITENOISE_USE_FINDERS", DEBUG)

# WhiteNoise streams static files with a sync iterator; Django's ASGI handler (the test live
# server) warns on every file.
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous")
