"""Who may do what. Roles are Django groups; a superuser counts as director.

- director: everything, including set-up, payouts and staff.
- floor: runs the event: registration, busts, seating, clock, rulings.
- dealer: a per-table token (tables app), no password typing at the table.
- public viewer: anonymous, read-only public pages.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

from django.contrib.auth.models import AnonymousUser, Group
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

DIRECTOR = "director"
FLOOR = "floor"
STAFF_ROLES = (DIRECTOR, FLOOR)

ViewFunc = TypeVar("ViewFunc", bound=Callable[..., HttpResponse])


def user_roles(user: Any) -> set[str]:
    if user is None or isinstance(user, AnonymousUser) or not user.is_authenticated:
        return set()
    if not user.is_active:
        return set()
    if user.is_superuser:
        return {DIRECTOR, FLOOR}
    cached = getattr(user, "_floor_roles", None)
    if cached is None:
        cached = set(user.groups.values_list("name", flat=True)) & set(STAFF_ROLES)
        if DIRECTOR in cached:
            cached.add(FLOOR)
        user._floor_roles = cached
    return set(cached)


def is_floor(user: Any) -> bool:
    return FLOOR in user_roles(user)


def is_director(user: Any) -> bool:
    return DIRECTOR in user_roles(user)


def ensure_role_groups() -> None:
    for name in STAFF_ROLES:
        Group.objects.get_or_create(name=name)


def _role_required(check: Callable[[Any], bool]) -> Callable[[ViewFunc], ViewFunc]:
    def decorator(view: ViewFunc) -> ViewFunc:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            if not check(request.user):
                raise PermissionDenied
            return view(request, *args, **kwargs)

        return wrapped  # type: ignore[return-value]

    return decorator


floor_required = _role_required(is_floor)
director_required = _role_required(is_director)
