from typing import Any

from django.http import HttpRequest

from core.roles import is_director, is_floor


def roles(request: HttpRequest) -> dict[str, Any]:
    user = getattr(request, "user", None)
    return {"is_floor": is_floor(user), "is_director": is_director(user)}
