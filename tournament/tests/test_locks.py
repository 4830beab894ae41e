"""The one tournament lock, and the seating services all reachable from `tables.services`."""

from __future__ import annotations

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from tables import selectors
from tables import services as svc
from tournament.locks import lock_tournament


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("key", "only", "clause"),
    [(False, (), "FOR NO KEY UPDATE"), (True, (), "FOR UPDATE"), (False, ("id",), "FOR NO KEY")],
)
def test_the_lock_keeps_its_strength(make_tournament, key, only, clause):
    t = make_tournament()
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        locked = lock_tournament(t.pk, key=key, only=only)
    assert locked.pk == t.pk
    sql = queries.captured_queries[-1]["sql"]
    if connection.vendor == "postgresql":
        assert clause in sql
        assert ("NO KEY" in sql) is not key
    if only:
        assert '"seats_per_table"' not in sql


def test_every_service_and_read_is_importable_from_the_package():
    for name in svc.__all__:
        assert callable(getattr(svc, name)) or name.isupper()
    assert svc.balance_plan is selectors.balance_plan
    assert svc.break_suggestion is selectors.break_suggestion
