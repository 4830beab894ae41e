from __future__ import annotations

import json
from typing import Any

import pytest

from tournament import realtime


@pytest.fixture
def sent(monkeypatch: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """Every message that leaves, as (group, event, data), round-tripped through JSON."""
    out: list[tuple[str, str, dict[str, Any]]] = []

    def record(group: str, message: dict[str, Any]) -> None:
        decoded = json.loads(message["text"])
        out.append((group, decoded["event"], decoded["data"]))

    monkeypatch.setattr(realtime, "_send", record)
    return out


@pytest.fixture
def screen(client):
    """A screen that opened /display/: (the client holding its cookie, its Display row)."""
    from displays.models import Display

    response = client.get("/display/")
    assert response.status_code == 200
    return client, Display.objects.get(code=response.context["code"])


@pytest.fixture
def paired(screen, actor):
    from displays.services import display_pair

    client, display = screen
    return client, display_pair(code=display.code, name="Bar", actor=actor)
