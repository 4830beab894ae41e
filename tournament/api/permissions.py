from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from core.roles import is_director, is_floor


class IsFloor(BasePermission):
    """Floor staff (or director) for everything."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return is_floor(request.user)


class IsDirector(BasePermission):
    """Directors only (a person's data: export and erasure)."""

    def has_permission(self, request: Request, view: Any) -> bool:
        return is_director(request.user)


class IsFloorOrReadOnlyPublic(BasePermission):
    """Reads of public data for everyone; every write needs the floor role.

    Views that expose private data (players, entries, the event log) use IsFloor instead.
    """

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return is_floor(request.user)


class IsDirectorForWrites(BasePermission):
    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return is_director(request.user)
