"""The installation's name: what keeps two Floors apart on one Redis server.

Redis pub/sub channels are shared by every database number of a server, and cache and Celery keys
are shared within one; so the channel layer, the cache and the Celery broker all prefix what they
put in Redis with `floor.<installation>.` (settings FLOOR_REDIS_PREFIX).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from pathlib import PurePath
from typing import Any

from django.core.exceptions import ImproperlyConfigured

_VALID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


def installation_name(*, configured: str, database: Mapping[str, Any]) -> str:
    """`configured` (FLOOR_INSTALLATION) if set, else the database's name plus a short hash of
    where it lives (engine, host, port, name): two installations that share a Redis server but
    not a database never get the same name, and one installation's processes always agree."""
    if configured:
        if not _VALID.match(configured):
            raise ImproperlyConfigured(
                f"FLOOR_INSTALLATION: up to 40 letters, digits, '-' or '_', not {configured!r}."
            )
        return configured
    name = str(database.get("NAME") or "floor")
    if database.get("ENGINE", "").endswith("sqlite3"):
        name = PurePath(name).name.split(".", 1)[0] or "floor"
    where = "|".join(str(database.get(key) or "") for key in ("ENGINE", "HOST", "PORT", "NAME"))
    digest = hashlib.sha256(where.encode()).hexdigest()[:8]
    readable = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-")[:30] or "floor"
    return f"{readable}-{digest}"
