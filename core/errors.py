"""The one error a service raises when it refuses: a message for a person, nothing changed."""

from __future__ import annotations

from typing import Any


class FloorError(Exception):
    """A refused operation. `message` is already in the user's language (lazy gettext).

    Raised before or inside the transaction; either way nothing is written.
    """

    status_code = 400

    def __init__(self, message: Any, *, field: str | None = None, code: str = "invalid") -> None:
        super().__init__(str(message))
        self.message = message
        self.field = field
        self.code = code

    def __str__(self) -> str:
        return str(self.message)


class NotFound(FloorError):
    status_code = 404


class Conflict(FloorError):
    """The state changed under the request (stale plan, seat taken): reload and try again."""

    status_code = 409
