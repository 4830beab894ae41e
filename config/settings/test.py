"""Test settings.

The suite runs on PostgreSQL wherever it is reachable (TEST_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/postgres) and always under CI=true; elsewhere it falls back to
SQLite so a fresh laptop can still run it. FLOOR_TEST_SQLITE=1 asks for SQLite (the second pass
of `floor.py test`, under CI too). Redis-backed tests decide for themselves (see
tests/services.py).
"""

import socket
from urllib.parse import urlparse

import dj_database_url

from config.env import env_bool, env_str
from config.settings.base import *  # noqa: F403
from config.settings.base import BASE_DIR, REST_FRAMEWORK

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CELERY_TASK_ALWAYS_EAGER = True
CELERY_BROKER_URL = "memory://"
CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
FLOOR_TICKER = "off"
# A live message that cannot be built fails the test (production logs it and goes on).
FLOOR_RAISE_ON_EVENT_ERRORS = True
# Live payloads are built in the committing thread: a test's data is not committed, so the
# builder thread of production could not read it (live/realtime.py; one test turns it off).
FLOOR_LIVE_INLINE = True
# Tests log in many times a minute from one address; the per-address limit has its own test.
FLOOR_LOGIN_POSTS_PER_MINUTE = 100_000
LANGUAGE_CODE = "en"
REST_FRAMEWORK = {
    **REST_FRAMEWORK,
    "DEFAULT_THROTTLE_RATES": {"public_lookup": "100000/min"},
}

CI = env_bool("CI", False)
TEST_DATABASE_URL = env_str("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")


def _reachable(url: str) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 5432), 1):
            return True
    except OSError:
        return False


# FLOOR_TEST_SQLITE=1 runs on the embedded default's database. `floor.py test` does so in a
# second pass after the PostgreSQL one (CI included), so the SQLite branches stay tested.
SQLITE_PASS = env_bool("FLOOR_TEST_SQLITE", False)
TEST_ON_POSTGRES = not SQLITE_PASS and (CI or _reachable(TEST_DATABASE_URL))

if TEST_ON_POSTGRES:
    DATABASES = {"default": dj_database_url.parse(TEST_DATABASE_URL)}
    # FLOOR_TEST_DB_NAME lets two test runs share one server without clashing.
    DATABASES["default"]["TEST"] = {"NAME": env_str("FLOOR_TEST_DB_NAME", "floor_test")}
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": ":memory:",
            "TEST": {"NAME": ":memory:"},
        }
    }

# The tests serve static files from the apps' folders (WhiteNoise's finders), never from the
# collected folder: a venue server started by a test collects into that one meanwhile.
STATIC_ROOT = BASE_DIR / "var" / "test-static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)
