"""The webhook pages in Chromium: WCAG 2.2 AA (axe) in English at 1366 px and German at 360 px,
nothing wider than a 360 px phone, an endpoint added with the keyboard and its secret shown once."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.test import Client

from core.roles import DIRECTOR, ensure_role_groups
from tests.browser.test_accessibility import AXE_OPTIONS, audit
from webhooks.models import Delivery, Endpoint

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE_360 = {"width": 360, "height": 780}
DESKTOP = {"width": 1366, "height": 900}


@pytest.fixture
def axe() -> Any:
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


def _signed_in(page: Any, base: str) -> None:
    ensure_role_groups()
    user = get_user_model().objects.create_user("boss", password="pw-director-123")
    user.groups.add(Group.objects.get(name=DIRECTOR))
    client = Client()
    client.force_login(user)
    cookie = client.cookies[settings.SESSION_COOKIE_NAME].value
    page.context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": cookie, "url": base}])


def _fits(page: Any, width: int) -> None:
    wide = page.evaluate("() => document.scrollingElement.scrollWidth")
    assert wide <= width, f"the page is {wide} px wide at {width} px"


def test_add_an_endpoint_and_read_its_deliveries(asgi_server, new_page, axe, monkeypatch):
    monkeypatch.setattr(
        "webhooks.sending.resolve",
        lambda host, port: ["93.184.215.14"] if host.startswith("hooks.") else [],
    )
    assert AXE_OPTIONS  # the same rules as every other page
    page = new_page(DESKTOP, "en-GB")
    _signed_in(page, asgi_server)
    page.goto(asgi_server + "/console/webhooks/")
    audit(axe, page, "webhooks (en, 1366 px)")
    # A refusal: the message is announced and tied to the field.
    page.fill("#wh-url", "https://127.0.0.1/hook")
    page.click("#webhook-add-submit")
    assert "this machine itself" in page.inner_text("#webhook-error")
    assert page.get_attribute("#wh-url", "aria-invalid") == "true"
    audit(axe, page, "webhooks refused (en, 1366 px)")
    page.fill("#wh-url", "https://hooks.example.org/floor")
    page.focus("#wh-url")
    page.keyboard.press("Enter")
    page.wait_for_selector("#wh-secret")
    endpoint = Endpoint.objects.get()
    assert page.input_value("#wh-secret") == endpoint.secret
    audit(axe, page, "webhook created (en, 1366 px)")
    Delivery.objects.create(
        endpoint=endpoint,
        kind="player.out",
        message_id="msg_1_player-out_1",
        payload={},
        attempts=3,
        last_status=502,
        last_answer=("Bad gateway " * 20)[:200],
    )
    phone = new_page(PHONE_360, "de-DE")
    phone.context.add_cookies(page.context.cookies())
    for path, name in (
        ("/console/webhooks/", "webhooks"),
        (f"/console/webhooks/{endpoint.pk}/", "webhook"),
    ):
        phone.goto(asgi_server + path)
        assert phone.get_attribute("html", "lang") == "de"
        assert endpoint.secret not in phone.content()
        audit(axe, phone, f"{name} (de, 360 px)")
        _fits(phone, 360)
    assert "502" in phone.inner_text("#webhook-deliveries")
