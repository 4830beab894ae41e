from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from webhooks.tests import receiver as receiver_module


@pytest.fixture
def receiver(settings: Any) -> Iterator[receiver_module.Receiver]:
    """The tests' own receiver on 127.0.0.1 (allowed by the setting only the tests set)."""
    settings.FLOOR_WEBHOOKS_ALLOW_LOOPBACK = True
    settings.FLOOR_WEBHOOKS_TIMEOUT = 0.5
    r = receiver_module.start()
    yield r
    r.close()


@pytest.fixture
def dispatched(monkeypatch: Any) -> list[Any]:
    """What was handed to the sender after a commit (nothing is sent in the request)."""
    calls: list[Any] = []
    monkeypatch.setattr("webhooks.receivers.dispatch", lambda ids=None: calls.append(ids))
    return calls
