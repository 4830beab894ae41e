"""Browser tests: real Chromium (Debian's /usr/bin/chromium) driven by Playwright.

The pages refuse eval (Content-Security-Policy): give `wait_for_function` a function,
`"() => document.title === 'x'"`; a bare expression that has to be polled is evaluated with eval
in the page and fails."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests import snapshot
from tests.services import CHROMIUM, CHROMIUM_ARGS, chromium_available, require

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
T = TypeVar("T")

# Playwright's sync API runs an event loop in this thread; the ORM calls made by the test itself
# are ordinary synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


# One browser per test module, not per session: Playwright's sync API keeps an event loop
# running in this thread while it is open, and an asyncio test run after it in the same process
# (the order under pytest-xdist is not fixed) would find that loop.
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    require(chromium_available(), "Chromium (/usr/bin/chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-GB")
    page = context.new_page()
    page.set_default_timeout(15000)
    yield page
    context.close()


@pytest.fixture
def new_page(browser: Any) -> Iterator[Callable[..., Any]]:
    """Pages of their own contexts, made on demand (a screen, a console, a phone in one test);
    `phone` makes a touch screen with a mobile viewport."""
    contexts: list[Any] = []

    def make(viewport: dict[str, int], locale: str = "en-GB", phone: bool = False) -> Any:
        context = browser.new_context(
            viewport=viewport, locale=locale, is_mobile=phone, has_touch=phone
        )
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15000)
        return page

    yield make
    for context in contexts:
        context.close()


@pytest.fixture(scope="module")
def made_once(request: Any, django_db_blocker: Any) -> Iterator[Callable[[Callable[[], T]], T]]:
    """`made_once(build)`, called from a fixture of a transactional test, gives what `build()`
    gives, made by the first test of the module that asks: every later one gets the database as
    `build()` left it back from a snapshot (tests/snapshot.py, PostgreSQL) instead of
    making it again, and the flush after each test happens as before. What `build` returns is
    shared by those tests: plain values (ids, tokens), not rows a test would change. Elsewhere
    than on PostgreSQL every test makes its own."""
    kept: dict[str, Any] = {}

    def once(build: Callable[[], T]) -> T:
        if not snapshot.supported():
            return build()
        if "made" not in kept:
            made = build()
            name = "snapshot_" + request.module.__name__.rsplit(".", 1)[-1]
            kept["snapshot"] = snapshot.Snapshot.take(name)
            kept["made"] = made
        else:
            kept["snapshot"].restore()
        return kept["made"]  # type: ignore[no-any-return]

    yield once
    if "snapshot" in kept:
        with django_db_blocker.unblock():
            kept["snapshot"].drop()


def login(page: Any, base_url: str, username: str, password: str) -> None:
    page.goto(f"{base_url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"{base_url}/console/")


def screenshot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.fixture
def asgi_server(transactional_db: Any) -> Iterator[str]:
    """Floor's own ASGI application (HTTP and websockets) under uvicorn on a free loopback port;
    yields its base URL. pytest-django's live_server speaks WSGI only, so pages that need their
    websocket (the dealer tablet) use this one. Static files come from the finders."""
    import socket
    import threading
    import time

    import uvicorn
    from django.conf import settings
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    if settings.DATABASES["default"]["ENGINE"].endswith("sqlite3"):
        # An in-memory SQLite database is not shared with the server's threads.
        pytest.skip("The ASGI server test needs the PostgreSQL test database.")
    from config.asgi import application

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(
            ASGIStaticFilesHandler(application),
            host="127.0.0.1",
            port=port,
            lifespan="off",
            ws="websockets-sansio",  # as floor_serve and docker-compose.yml
            proxy_headers=False,  # as floor_serve: only FLOOR_TRUSTED_PROXIES count
            log_level="warning",
        )
    )
    thread = threading.Thread(target=server.run, name="asgi-test-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("The ASGI test server did not start.")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
