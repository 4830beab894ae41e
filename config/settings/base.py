"""Settings shared by every way of running Floor.

The embedded default (no environment variables) is a club night on one laptop: SQLite, the
in-memory channel layer and the in-process ticker. Setting DATABASE_URL and REDIS_URL switches the
same code to the full stack: PostgreSQL with pooled connections, the Redis channel layer and
Celery (worker + beat) as the ticker.
"""

from __future__ import annotations

import warnings
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from config.env import env_bool, env_int, env_list, env_networks, env_str
from config.installation import installation_name

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
    "drf_spectacular_sidecar",
    "csp",
    "django_htmx",
    "channels",
    "live",
    "eventlog",
    "tournament",
    "tables",
    "clocks",
    "rules_engine",
    "leagues",
    "counts",
    "festivals",
    "signups",
    "imports",
    "actions",
    "displays",
    "webhooks",
    "venue",
    "axes",
]

MIDDLEWARE = [
    # First: a body over the cap is refused (413) before anything reads it (config/request_cap.py).
    "config.request_cap.RequestBodyCapMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After WhiteNoise: static files need no policy.
    "config.csp.CSPMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # A view that failed for the database answers 503 at once (config/database.py).
    "config.database.DatabaseUnavailableMiddleware",
    # A refusal a page did not catch is a 4xx with its message (core/middleware.py).
    "core.middleware.FloorErrorMiddleware",
    # Login: the bound on password checks and the lockout page (core/login.py); axes'
    # middleware comes last, as axes asks.
    "core.login.LoginBusyMiddleware",
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

# Request bodies: the largest form Floor posts (the structure editor at its 500 levels, about
# 3,500 fields and 100 KiB) stays well inside these; more is a 400. Files are bounded by
# FLOOR_UPLOAD_MAX_BYTES below.
DATA_UPLOAD_MAX_MEMORY_SIZE = 1024 * 1024
DATA_UPLOAD_MAX_NUMBER_FIELDS = 4000

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
                "core.context_processors.roles",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------------------
DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{VAR_DIR / 'floor.sqlite3'}")
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's backend plus a breaker: while PostgreSQL is unreachable requests answer 503 at
    # once instead of each waiting for the pool (config/database.py).
    DATABASES["default"]["ENGINE"] = "config.postgresql"
    # Pooled connections (psycopg_pool inside Django); CONN_MAX_AGE must stay 0 with a pool.
    DATABASES["default"]["OPTIONS"] = {
        # Only statements that ask for it are prepared (the public seat look-up); Django's own
        # queries bind their parameters on the client and are never prepared.
        "prepare_threshold": 2**31 - 1,
        "connect_timeout": env_int("DB_CONNECT_TIMEOUT", 3),
        "pool": {
            "min_size": env_int("DB_POOL_MIN", 2),
            "max_size": env_int("DB_POOL_MAX", 20),
            # the `web` threads (FLOOR_HTTP_THREADS <= DB_POOL_MAX) never wait for a busy pool;
            # a wait means PostgreSQL is not answering, so it is short.
            "timeout": float(env_str("DB_POOL_TIMEOUT", "1")),
            # The pool retries a failed connect with growing pauses; giving up after a few
            # seconds lets the next request start afresh, so Floor is back within seconds of
            # PostgreSQL (measured: 23 s after a 40 s outage with the default of 5 minutes).
            "reconnect_timeout": 5,
        },
    }
else:
    DATABASES["default"]["OPTIONS"] = {
        # WAL lets the ticker thread read while a request writes; wait instead of failing.
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
    }
# After a failed connect, how long every connect fails at once before one request tries again.
DB_RETRY_SECONDS = float(env_str("DB_RETRY_SECONDS", "2"))
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- One installation per prefix (config/installation.py) ------------------------------------
# Everything Floor puts in Redis (channel-layer pub/sub, cache keys, Celery queues) starts with
# FLOOR_REDIS_PREFIX, so two installations on one Redis server never see each other's events,
# counters or tasks. Default: the database's name and a hash of where it lives.
FLOOR_INSTALLATION = installation_name(
    configured=env_str("FLOOR_INSTALLATION", ""), database=DATABASES["default"]
)
FLOOR_REDIS_PREFIX = f"floor.{FLOOR_INSTALLATION}."

# --- Channels, Celery, ticker -------------------------------------------------------------
REDIS_URL = env_str("REDIS_URL", "")
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [REDIS_URL], "prefix": FLOOR_REDIS_PREFIX},
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
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "visibility_timeout": 3600,
    "global_keyprefix": FLOOR_REDIS_PREFIX,
}
# The clock's safety net (clocks/tasks.py TICK_SECONDS and RESCHEDULE_SECONDS; a test keeps
# them equal): level ends are announced by tasks armed with their ETA, beat catches a lost one
# within 5 s (docs/clock.md, config/celery.py).
CELERY_BEAT_SCHEDULE = {
    "clock-tick": {"task": "clocks.tasks.clocks_tick", "schedule": 5.0},
    "clock-reschedule": {"task": "clocks.tasks.clocks_reschedule", "schedule": 60.0},
    # The webhooks' outbox: retries as they fall due, and rows whose task was lost
    # (webhooks/tasks.py SWEEP_SECONDS; docs/webhooks.md).
    "webhooks-send": {"task": "webhooks.tasks.deliveries_send", "schedule": 15.0},
    "webhooks-prune": {"task": "webhooks.tasks.deliveries_prune", "schedule": 3600.0},
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
# axes refuses a locked client before the next backend hashes a password (core/login.py).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "core.login.BoundedModelBackend",
]
# Lockout (docs/login.md): an account from one address after 5 failures, an address for every
# account after 20; a lock lasts 15 minutes from the failure that set it, and never covers an
# account from everywhere, so nobody can keep the director out from afar.
FLOOR_LOGIN_FAILURES_ACCOUNT = env_int("FLOOR_LOGIN_FAILURES_ACCOUNT", 5)
FLOOR_LOGIN_FAILURES_ADDRESS = env_int("FLOOR_LOGIN_FAILURES_ADDRESS", 20)
FLOOR_LOGIN_LOCK_MINUTES = env_int("FLOOR_LOGIN_LOCK_MINUTES", 15)
# Login posts per address and minute, refused before the form (a person types a few; a flood
# from one address would otherwise keep the password checks busy until its lock is set).
FLOOR_LOGIN_POSTS_PER_MINUTE = env_int("FLOOR_LOGIN_POSTS_PER_MINUTE", 30)
AXES_HANDLER = "core.login.LockoutHandler"
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_FAILURE_LIMIT = FLOOR_LOGIN_FAILURES_ACCOUNT
AXES_COOLOFF_TIME = timedelta(minutes=FLOOR_LOGIN_LOCK_MINUTES)
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_RESET_ON_SUCCESS = True  # the account's own failures from that address only (LockoutHandler)
AXES_CLIENT_IP_CALLABLE = "core.login.login_address"  # ratelimit.client_address
AXES_LOCKOUT_CALLABLE = "core.login.lockout_response"
AXES_VERBOSE = False
# Password checks running at once per web process; a login over the bound is answered 429 at
# once, so hashing (about 0.3 s each) never takes every HTTP thread.
FLOOR_PASSWORD_CHECKS = env_int("FLOOR_PASSWORD_CHECKS", 1)
# Sessions (docs/login.md): a working day from login, also across a browser restart; "Log out
# everywhere" ends them all at once.
FLOOR_SESSION_HOURS = env_int("FLOOR_SESSION_HOURS", 12)
SESSION_COOKIE_AGE = FLOOR_SESSION_HOURS * 3600
SESSION_EXPIRE_AT_BROWSER_CLOSE = False

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
    # JSON nested thousands deep is a 400 (tournament/api/parsers.py); forms as DRF's default.
    "DEFAULT_PARSER_CLASSES": [
        "tournament.api.parsers.FloorJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_THROTTLE_RATES": {"public_lookup": "120/min"},
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
    # Swagger UI and Redoc come from this installation (drf-spectacular-sidecar), not a CDN:
    # the docs pages run with a staff session, so no third party's script runs on them.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Content-Security-Policy (django-csp): every page runs only this installation's own scripts,
# no inline script, no event-handler attribute, no eval. Websockets are same-origin ('self'
# covers ws:/wss: of the page's own host in CSP Level 3). Stylesheets come from 'self' only,
# and no style attribute is allowed (style-src-attr 'none'): the pages use classes (small
# one-declaration utilities in floor.css), the felt's seat positions come from
# static/tables/felt.css, and what is computed (a chip's colour, the big screen's digit count) is
# set through the CSSOM by the page's own script, which the policy permits. The API docs relax
# this per view (config/urls.py).
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "connect-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "media-src": ["'self'", "data:"],
        "style-src": ["'self'"],
        "style-src-elem": ["'self'"],
        "style-src-attr": ["'none'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}

CACHES = {
    "default": (
        {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": FLOOR_REDIS_PREFIX,
            "OPTIONS": {
                # Redis being down must not stop the floor: the cache holds only short-lived
                # values (rate-limit counters, the ticker's beat), so while it is unreachable
                # reads miss, writes are dropped and rate limits let requests through
                # (core/ratelimit.py). /readyz says that Redis is down.
                "IGNORE_EXCEPTIONS": True,
                "SOCKET_CONNECT_TIMEOUT": 0.5,
                "SOCKET_TIMEOUT": 0.5,
            },
        }
        if REDIS_URL
        # Embedded: one process; a clock screen keeps two entries per tournament
        # (clocks/selectors.py), so room for many tournaments.
        else {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": 5000},
        }
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
# Mail (a sign-up that moved up from the waiting list is told, signups/): the embedded default
# writes mails to the console; production sets an SMTP server by these variables.
EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "floor@localhost")
# The address every device reaches Floor at: every QR code and printed link (receipts, seat and
# table cards, the sign-up poster, dealer links) and mails carry it (core/links.py). Empty:
# a page's links use the address its own request came to, and a mail 127.0.0.1:8000. The venue
# sets it to its mDNS name or LAN address (config/settings/venue.py); the full stack to its
# domain.
FLOOR_PUBLIC_URL = env_str("FLOOR_PUBLIC_URL", "")
# The venue mode (config/settings/venue.py, docs/venue.md): its mDNS name and the LAN address
# devices fall back to (set by its command at start).
FLOOR_VENUE = False
FLOOR_VENUE_NAME = ""
FLOOR_VENUE_ANNOUNCED = False  # its name answers by mDNS (not with --no-mdns, nor when taken)
FLOOR_VENUE_PORT = 8000
FLOOR_VENUE_LAN_URL = ""
FLOOR_HOSTS: list[str] = []
FLOOR_PUBLIC_URL_CHOSEN = ""
# Days after a finished tournament's start after which its public pages (find my seat, my
# seat, table pages) show players' initials only (docs/players.md); 0 keeps the names public.
FLOOR_PUBLIC_RESULTS_DAYS = env_int("FLOOR_PUBLIC_RESULTS_DAYS", 90)
# Addresses or networks (CIDR) of the reverse proxies in front of Floor. X-Forwarded-For counts
# only on a request whose TCP peer is one of them (core/ratelimit.py client_address);
# empty: the header is ignored and the peer is the client.
FLOOR_TRUSTED_PROXIES = env_networks("FLOOR_TRUSTED_PROXIES")
# Threads per `web` worker serving HTTP (docker-compose.yml passes the same variable to granian);
# each holds at most one database connection while it serves a request, so keep it at or below
# DB_POOL_MAX.
FLOOR_HTTP_THREADS = env_int("FLOOR_HTTP_THREADS", 4)
# The largest file Floor accepts (the structure import). A request body may carry this plus
# DATA_UPLOAD_MAX_MEMORY_SIZE of form data; config/request_cap.py refuses a larger body (413)
# before reading it, since neither granian nor uvicorn has a limit of its own.
FLOOR_UPLOAD_MAX_BYTES = 512 * 1024
# Webhooks (docs/webhooks.md): seconds to connect and, separately, to wait for the answer. A
# receiver on this machine (127.0.0.1) is refused always; only the tests' own receiver sets
# FLOOR_WEBHOOKS_ALLOW_LOOPBACK.
FLOOR_WEBHOOKS_TIMEOUT = 5.0
FLOOR_WEBHOOKS_ALLOW_LOOPBACK = False
# The routes that take a season of files in one upload (The Tournament Director's files,
# imports/): their own larger cap, here and in front (deploy/nginx/locations.conf).
FLOOR_LARGE_UPLOAD_PATHS = ("/api/imports/td/", "/console/imports/td/")
FLOOR_LARGE_UPLOAD_MAX_BYTES = 32 * 1024 * 1024
WHITENOISE_USE_FINDERS = env_bool("WHITENOISE_USE_FINDERS", DEBUG)

# WhiteNoise streams static files with a sync iterator; Django's ASGI handler (the test live
# server) warns on every file.
warnings.filterwarnings("ignore", message="StreamingHttpResponse must consume synchronous")
