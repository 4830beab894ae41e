"""A refused correction in the cage answers 400 on the cage page with the reason and writes
nothing (docs/input.md); it used to redirect (302) with the message kept for later."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tournament.models import Event, LedgerLine

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "url_name, data",
    [
        ("cage-difference", {"amount": "zwölf", "method": "cash", "reason": "short"}),
        ("cage-difference", {"amount": "²", "method": "cash", "reason": "short"}),
        ("cage-difference", {"amount": "-2.50", "method": "cash", "reason": ""}),
        ("cage-difference", {"amount": "-2.50", "method": "gold", "reason": "short"}),
        ("cage-method", {"line": "abc", "method": "card", "reason": "card"}),
        ("cage-method", {"line": "LINE", "method": "gold", "reason": "card"}),
        ("cage-method", {"line": "LINE", "method": "card", "reason": ""}),
    ],
)
def test_a_refused_ledger_correction_is_a_400_with_the_reason_and_writes_nothing(
    client, director, make_tournament, register, url_name, data
):
    """Refused corrections redirected (302) with the message for later: a 400 on the cage page."""
    t = make_tournament(status="registering")
    register(t, "Paula Pay")
    line = t.ledger.get()
    if data.get("line") == "LINE":
        data = {**data, "line": line.pk}
    client.force_login(director)
    before = list(LedgerLine.objects.order_by("pk").values())
    events = Event.objects.count()
    r = client.post(reverse(url_name, args=[t.pk]), data)
    assert r.status_code == 400
    page = r.content.decode()
    assert 'class="error"' in page and "Paula Pay" in page  # the reason, on the cage page
    assert list(LedgerLine.objects.order_by("pk").values()) == before
    assert Event.objects.count() == events
