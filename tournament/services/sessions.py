"""Staff sessions: "log out everywhere" for a shared floor laptop or a lost tablet."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.conf import settings
from django.db import transaction

from tournament.events import Actor, event_record
from tournament.session_selectors import user_session_keys


@transaction.atomic
def user_sessions_end(*, user: Any, actor: Actor) -> int:
    """End every session of `user` on every device, the caller's own included; returns how
    many ended. The next request of each of those browsers goes to the login page."""
    store = import_module(settings.SESSION_ENGINE).SessionStore
    keys = user_session_keys(user=user)
    for key in keys:
        store(session_key=key).delete()  # through the store: a cached session goes too
    event_record(
        tournament=None,
        action="sessions.ended",
        actor=actor,
        payload={"account": user.get_username(), "sessions": len(keys)},
    )
    return len(keys)
