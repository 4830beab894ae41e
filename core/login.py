"""Logging in to the console and the admin: lockout after repeated failures (django-axes), a
bound on password checks running at once, and the page a refused person sees.

Lockout (settings FLOOR_LOGIN_*; docs/login.md):

- an account from one address is locked after FLOOR_LOGIN_FAILURES_ACCOUNT failures,
- an address is locked for every account after FLOOR_LOGIN_FAILURES_ADDRESS failures,
- a lock lasts FLOOR_LOGIN_LOCK_MINUTES from the failure that set it; tries during the lock do
  not prolong it, and a director lifts it earlier in the admin ("Access attempts": delete the
  rows) or with `manage.py axes_reset`.

An account is never locked from everywhere: an attacker elsewhere cannot keep the director out.

Every password check hashes for about 0.3 s on one of the few HTTP threads of a web process. A
locked client is refused before any hashing (axes' backend comes first); of the rest, at most
FLOOR_PASSWORD_CHECKS checks run at once per process, each hashed on a thread of lower CPU
priority, and a login over that bound is answered at once with 429 "try again in a moment"
instead of waiting for a thread.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta
from functools import lru_cache
from typing import Any

from axes.handlers.database import AxesDatabaseHandler
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_client_username, get_cool_off
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.hashers import make_password, verify_password
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.ratelimit import allow, client_address

log = logging.getLogger("floor.login")


# --- Lockout ---------------------------------------------------------------------------------


def login_address(request: HttpRequest) -> str | None:
    """AXES_CLIENT_IP_CALLABLE: the client address (core.ratelimit.client_address), or
    None when there is none to count (a request made inside the process, as in a test's
    force_login): axes stores addresses in an IP column."""
    address = client_address(request)
    try:
        ipaddress.ip_address(address)
    except ValueError:
        return None
    return address


def _limit_of(parameter: str | Sequence[str]) -> int:
    """The failure limit of one of AXES_LOCKOUT_PARAMETERS: an account from an address, or an
    address alone."""
    if isinstance(parameter, str):
        parameter = [parameter]
    if "username" in parameter:
        return int(settings.FLOOR_LOGIN_FAILURES_ACCOUNT)
    return int(settings.FLOOR_LOGIN_FAILURES_ADDRESS)


class LockoutHandler(AxesDatabaseHandler):
    """axes' database handler with a limit per lockout parameter (axes has one for all).

    `get_failures` answers on the scale of AXES_FAILURE_LIMIT (= the account's limit): the
    failures of the group nearest to its own limit, shifted so that reaching any group's limit
    reaches AXES_FAILURE_LIMIT.
    """

    def _groups(self, request: Any, credentials: dict[str, Any] | None) -> list[tuple[Any, int]]:
        parameters = settings.AXES_LOCKOUT_PARAMETERS
        attempts = self.get_user_attempts(request, credentials)
        return [(qs, _limit_of(p)) for qs, p in zip(attempts, parameters, strict=True)]

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        scale = int(settings.AXES_FAILURE_LIMIT)
        nearest = -scale
        for attempts, limit in self._groups(request, credentials):
            failures = attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0
            nearest = max(nearest, failures - limit)
        return nearest + scale

    def lock_ends_at(self, request: Any, credentials: dict[str, Any] | None) -> datetime:
        """When the lock on this request's account and address lifts (no later failure counts
        while it holds)."""
        cool_off = get_cool_off(request) or timedelta(0)
        ends = timezone.now()
        for attempts, limit in self._groups(request, credentials):
            total = 0
            rows = attempts.order_by("-attempt_time").values_list(
                "attempt_time", "failures_since_start"
            )
            for at, failures in rows:
                total += failures
                if total >= limit:  # the lock holds while the newest rows still add up to it
                    ends = max(ends, at + cool_off)
                    break
        return ends

    def reset_user_attempts(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        """After a successful login only that account's failures from that address are
        forgiven: logging in to one's own account must not clear an address's count against
        another account."""
        count, _deleted = AccessAttempt.objects.filter(
            username=get_client_username(request, credentials),
            ip_address=request.axes_ip_address,
        ).delete()
        return count


def lock_ends_at(request: HttpRequest, credentials: dict[str, Any] | None) -> datetime:
    handler = AxesProxyHandler.get_implementation()
    if isinstance(handler, LockoutHandler):
        return handler.lock_ends_at(request, credentials)
    return timezone.now() + (get_cool_off(request) or timedelta(0))


# --- The pages a refused person sees -----------------------------------------------------------


def login_page(request: HttpRequest, *, notice: str, status: int, retry_after: int) -> HttpResponse:
    """The login page again, with `notice` above an empty form (the same form serves the console
    and the admin login: both post username and password)."""
    username = request.POST.get("username", "") if request.method == "POST" else ""
    form = AuthenticationForm(request, initial={"username": username})
    context = {"form": form, "next": request.POST.get("next", ""), "login_notice": notice}
    response = render(request, "auth/login.html", context, status=status)
    response["Retry-After"] = str(max(1, retry_after))
    return response


def lockout_response(
    request: HttpRequest, original_response: Any = None, credentials: Any = None
) -> HttpResponse:
    """AXES_LOCKOUT_CALLABLE: the login page saying how long the lock lasts (429)."""
    until = lock_ends_at(request, credentials)
    seconds = max(1, int((until - timezone.now()).total_seconds()))
    minutes = -(-seconds // 60)
    notice = ngettext(
        "Too many failed logins. Please try again in %(minutes)d minute, at %(time)s.",
        "Too many failed logins. Please try again in %(minutes)d minutes, at %(time)s.",
        minutes,
    ) % {"minutes": minutes, "time": time_format(timezone.localtime(until), "H:i")}
    response = login_page(request, notice=notice, status=429, retry_after=seconds)
    response["X-Floor-Login"] = "locked"
    return response


# --- A bound on password checks --------------------------------------------------------------


class LoginBusy(Exception):
    """More password checks at once than FLOOR_PASSWORD_CHECKS in this process."""


# One per process: the HTTP threads of a web process (granian's threads of a worker) share it.
PASSWORD_CHECKS = threading.BoundedSemaphore(max(1, int(settings.FLOOR_PASSWORD_CHECKS)))


# Nice 10: by the Linux scheduler's weights, against one busy thread of normal priority the
# hashing gets about a tenth of a core, so a check still ends within a few seconds when every
# core is busy (at 19 it would get 1.5 %: half a minute for one check).
HASHING_NICENESS = 10


def _lower_priority() -> None:
    # Linux gives each thread its own nice value; a thread may always lower its own priority.
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASHING_NICENESS)


# The hashing itself runs on threads of a lower CPU priority (hashlib releases the GIL while it
# hashes): on a small machine the look-ups' threads get the cores first, and a password check
# takes what is left. The HTTP thread that asked waits, holding no core.
_HASHERS = ThreadPoolExecutor(
    max_workers=max(1, int(settings.FLOOR_PASSWORD_CHECKS)),
    thread_name_prefix="password",
    initializer=_lower_priority,
)


class BoundedModelBackend(ModelBackend):
    """Django's username/password backend, checking at most FLOOR_PASSWORD_CHECKS passwords at
    once per process, each hashed at a lower CPU priority; over the bound it raises
    LoginBusy at once (not counted as a failure). Put it after axes' backend, which refuses a
    locked client before this one hashes."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        model = get_user_model()
        if username is None:
            username = kwargs.get(model.USERNAME_FIELD)
        if username is None or password is None:
            return None
        if not PASSWORD_CHECKS.acquire(blocking=False):
            raise LoginBusy
        try:
            try:
                user = model._default_manager.get_by_natural_key(username)
            except model.DoesNotExist:
                # As ModelBackend: hash anyway, so an unknown account takes as long as a known one.
                _HASHERS.submit(make_password, password).result()
                return None
            right, outdated = _HASHERS.submit(verify_password, password, user.password).result()
            if right and outdated:  # the hasher's settings changed since: store the new hash
                user.password = _HASHERS.submit(make_password, password).result()
                user.save(update_fields=["password"])
        finally:
            PASSWORD_CHECKS.release()
        return user if right and self.user_can_authenticate(user) else None


def _slot_free() -> bool:
    if not PASSWORD_CHECKS.acquire(blocking=False):
        return False
    PASSWORD_CHECKS.release()
    return True


@lru_cache(maxsize=1)
def _login_paths() -> frozenset[str]:
    return frozenset({reverse("login"), reverse("admin:login")})


class LoginBusyMiddleware:
    """A login refused by the bound: the login page with "try again in a moment" (429).

    While every password check of the process is taken, a login post is answered here, before
    the view: a flood of them costs a page each, not a form, a lockout look-up and a page."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path in _login_paths():
            if not allow(request, "login", settings.FLOOR_LOGIN_POSTS_PER_MINUTE):
                return self.too_many(request)
            if not _slot_free():
                return self.busy(request)
        response: HttpResponse = self.get_response(request)
        return response

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return self.busy(request) if isinstance(exception, LoginBusy) else None

    @staticmethod
    def too_many(request: HttpRequest) -> HttpResponse:
        """One address posting logins faster than any person types: refused before the form,
        so a flood from one address neither takes the password checks from the others nor
        keeps them busy until its lock is set."""
        notice = _("Too many login attempts from this address. Please wait a minute.")
        response = login_page(request, notice=notice, status=429, retry_after=60)
        response["X-Floor-Login"] = "rate"
        return response

    @staticmethod
    def busy(request: HttpRequest) -> HttpResponse:
        notice = _("Many logins are being checked right now. Please try again in a moment.")
        response = login_page(request, notice=notice, status=429, retry_after=1)
        response["X-Floor-Login"] = "busy"
        return response
