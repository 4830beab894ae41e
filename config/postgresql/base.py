"""Django's PostgreSQL backend, asking config/database.py's breaker before each connect."""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql.base import DatabaseWrapper as PostgresDatabaseWrapper

from config import database
from config.database import DatabaseDown


class DatabaseWrapper(PostgresDatabaseWrapper):
    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        try:
            database.breaker.before_connect()
        except DatabaseDown as exc:
            # Django turns the driver's OperationalError into its own, as for a real failure.
            raise self.Database.OperationalError(str(exc)) from None  # type: ignore[attr-defined]
        try:
            connection = super().get_new_connection(conn_params)
        except BaseException:
            database.breaker.failed()
            raise
        database.breaker.succeeded()
        return connection
