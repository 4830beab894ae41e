"""A staff account that is disabled or loses its role loses access at once: HTTP requests are
refused from the next one on (Django checks `is_active` and the roles on every request), and
its open console websockets are told to close here. A player's search key follows the name on
every save, imports included. A login locked out by django-axes is written to the event log.

One signal is the tournament app's own: the deal calculator asks who knows the players' stacks
(`deal_stacks_wanted`). The tournament app knows no app that keeps stacks (the chip counts sit
beside it and read its entries), so it asks without knowing who answers."""

from __future__ import annotations

import logging
from typing import Any

from axes.signals import user_locked_out
from django.contrib.auth import get_user_model
from django.db.models.signals import m2m_changed, post_save, pre_save
from django.dispatch import Signal, receiver

from core.login import lock_ends_at
from core.roles import STAFF_ROLES
from live.realtime import broadcast_on_commit, user_group
from tournament.domain.names import fold
from tournament.events import Actor, event_record
from tournament.models import Player

User = get_user_model()
log = logging.getLogger("floor.login")

# The deal calculator asks for stacks it knows: arguments `tournament`, `entry_ids`; a receiver
# answers {entry id: chips} (counts/receivers.py: the latest chip counts).
deal_stacks_wanted = Signal()


@receiver(post_save, sender=User)
def _disabled(sender: Any, instance: Any, created: bool, **kwargs: Any) -> None:
    if not created and not instance.is_active:
        broadcast_on_commit(user_group(instance.pk), "revoked", {})


@receiver(m2m_changed, sender=User.groups.through)
def _role_removed(sender: Any, instance: Any, action: str, reverse: bool, **kwargs: Any) -> None:
    if action not in ("post_remove", "post_clear") or reverse:
        return
    names = set(instance.groups.values_list("name", flat=True))
    if not names & set(STAFF_ROLES) and not instance.is_superuser:
        broadcast_on_commit(user_group(instance.pk), "revoked", {})


@receiver(pre_save, sender=Player)
def _player_search_key(sender: Any, instance: Player, **kwargs: Any) -> None:
    instance.search_key = fold(f"{instance.name} {instance.display_name}")[:200]


@receiver(user_locked_out)
def _record_lock(
    sender: Any, request: Any, username: str | None, ip_address: str, **kw: Any
) -> None:
    # axes sends this signal for every refused try during a lock too; only the failure that
    # sets the lock has counted its failures (axes_failures_since_start).
    if request is None or getattr(request, "axes_failures_since_start", None) is None:
        return
    credentials = getattr(request, "axes_credentials", None)
    until = lock_ends_at(request, credentials)
    log.warning(
        "login locked: account=%r address=%s failures=%s until=%s",
        username,
        ip_address,
        request.axes_failures_since_start,
        until.isoformat(),
    )
    event_record(
        tournament=None,
        action="login.locked",
        actor=Actor(user=None, label=str(username or ""), source=str(ip_address or "")),
        payload={"account": username or "", "address": ip_address, "until": until},
    )
