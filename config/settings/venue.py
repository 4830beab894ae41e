"""The venue: a real night on this machine for every device in the room (`python3 floor.py
venue`, docs/venue.md). The embedded stack (SQLite, the in-memory channel layer, the in-process
ticker) with production settings, over plain HTTP on the local network.

The server's own command (venue/management/commands/floor_venue.py) may narrow what is set here
from its options (--name, --port, --public-address) before it serves.
"""

import logging
import sys
from pathlib import Path
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from config.env import env_int, env_list, env_str
from config.secret import kept_secret_key
from config.settings.base import *  # noqa: F403
from config.settings.base import BASE_DIR, DATABASES, LOGGING, STORAGES, TEMPLATES
from venue.network import allowed_hosts, base_url, machine_addresses, mdns_label

# The venue's data lives apart from the demo's (var/floor.sqlite3 of `floor.py run`, whose
# accounts have a published password): its own SQLite database, secret key and lock.
VAR_DIR = Path(env_str("FLOOR_VAR_DIR", str(BASE_DIR / "var" / "venue")))
VAR_DIR.mkdir(parents=True, exist_ok=True)
DATABASES = {"default": {**DATABASES["default"], "NAME": str(VAR_DIR / "floor.sqlite3")}}
if DATABASES["default"]["ENGINE"] != "django.db.backends.sqlite3":
    raise ImproperlyConfigured(
        "The venue runs on its own SQLite database (var/venue/); unset DATABASE_URL. "
        "PostgreSQL is the full stack's (docs/production.md)."
    )
# Durable commits (docs/continuity.md): with FULL, SQLite syncs the WAL to the disk at every
# commit, so a bust or a registration the desk was told is saved survives a power cut; NORMAL
# (the base settings') may lose the last commits then. FLOOR_SQLITE_SYNCHRONOUS=NORMAL is for the
# benchmark's comparison (bench/continuity.py), not for a night.
SQLITE_SYNCHRONOUS = env_str("FLOOR_SQLITE_SYNCHRONOUS", "FULL").upper()
if SQLITE_SYNCHRONOUS not in {"FULL", "EXTRA", "NORMAL"}:
    raise ImproperlyConfigured("FLOOR_SQLITE_SYNCHRONOUS is FULL (the default), EXTRA or NORMAL.")
# macOS's fsync leaves the data in the drive's cache; F_FULLFSYNC (fullfsync) empties it.
_FULLFSYNC = " PRAGMA fullfsync=ON;" if sys.platform == "darwin" else ""
DATABASES["default"]["OPTIONS"] = {
    **DATABASES["default"]["OPTIONS"],
    "init_command": (
        f"PRAGMA journal_mode=WAL; PRAGMA synchronous={SQLITE_SYNCHRONOUS};{_FULLFSYNC}"
    ),
}
SECRET_KEY = kept_secret_key(VAR_DIR)
DEBUG = False
FLOOR_VENUE = True
FLOOR_VENUE_NAME = mdns_label(env_str("FLOOR_VENUE_NAME", "floor"))
FLOOR_VENUE_PORT = env_int("FLOOR_VENUE_PORT", 8000)
# Host names beyond this machine's own addresses, localhost and the mDNS name (a name the
# venue's router gives this machine, say).
FLOOR_HOSTS = env_list("FLOOR_HOSTS", [])
ALLOWED_HOSTS = allowed_hosts(FLOOR_VENUE_NAME, machine_addresses(), FLOOR_HOSTS)
# Every QR code and printed link: the mDNS name unless the operator chooses (the command falls
# back to the LAN address when the name cannot be announced).
FLOOR_PUBLIC_URL_CHOSEN = env_str("FLOOR_PUBLIC_URL", "")
FLOOR_PUBLIC_URL = FLOOR_PUBLIC_URL_CHOSEN or base_url(
    f"{FLOOR_VENUE_NAME}.local", FLOOR_VENUE_PORT
)

# Plain HTTP on the room's network: there is no certificate a phone would trust for floor.local
# or 192.168.x.y, so cookies cannot be Secure and nothing redirects to HTTPS. `check --deploy`
# names exactly these (security.W004, W008, W012, W016); docs/venue.md says why they are
# acceptable on a LAN and what the full stack does instead.
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
SECURE_SSL_REDIRECT = False
SECURE_HSTS_SECONDS = 0
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
SESSION_COOKIE_HTTPONLY = True
# Static files: collected by the command at start, served by WhiteNoise with hashed names.
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = False
# The console's notices of the venue (venue/notices.py): the replica's warning for directors,
# the restored night's banner for staff.
_options: dict[str, Any] = dict(TEMPLATES[0]["OPTIONS"])  # type: ignore[call-overload]
_options["context_processors"] = [*_options["context_processors"], "venue.notices.notices"]
TEMPLATES = [{**TEMPLATES[0], "OPTIONS": _options}]


class _OneLine(logging.Filter):
    """A record without its traceback: the message alone says what happened."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.exc_info = None
        record.exc_text = None
        return True


# The terminal the venue runs in is the director's: a device asking by a name the venue does not
# answer to (400) is one line there ("Invalid HTTP_HOST header: 'x'", then FLOOR_HOSTS helps),
# not a traceback each time.
LOGGING = {
    **LOGGING,
    "filters": {"one_line": {"()": _OneLine}},
    "loggers": {"django.security.DisallowedHost": {"filters": ["one_line"]}},
}
