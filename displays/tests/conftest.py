from __future__ import annotations

import pytest


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
