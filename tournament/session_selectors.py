"""Reads about staff sessions: which sessions belong to an account.

Django's session rows carry no user column. Only staff log in (players, dealers and big screens
never do), so the unexpired sessions are few and are read and decoded here. This needs a
database-backed session engine (Floor's: `db`, or `cached_db`).
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.models import Session
from django.utils import timezone


def user_session_keys(*, user: Any) -> list[str]:
    """The keys of the account's unexpired sessions, on every device."""
    wanted = str(user.pk)
    keys = []
    for session in Session.objects.filter(expire_date__gt=timezone.now()).iterator():
        if str(session.get_decoded().get(SESSION_KEY, "")) == wanted:
            keys.append(session.session_key)
    return keys
