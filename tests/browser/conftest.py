"""Browser tests: real Chromium (Debian's /usr/bin/chromium) driven by Playwright."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.services import CHROMIUM, chromium_available, require

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

# Playwright's sync API runs an event loop in this thread; the ORM calls made by the test itself
# are ordinary synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    require(chromium_available(), "Chromium (/usr/bin/chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
            ],
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


def login(page: Any, base_url: str, username: str, password: str) -> None:
    page.goto(f"{base_url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base_url}/console/")


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)
