"""The TD3 import page in a browser: upload two files, the preview (axe, WCAG 2.2 AA; English
at 1366 px, German at 360 px, nothing running off a phone's side), a likely duplicate ticked,
the import confirmed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import login, screenshot
from tests.browser.test_accessibility import audit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FILES = Path(__file__).resolve().parents[2] / "imports" / "tests" / "files"


@pytest.fixture
def axe() -> Any:
    from axe_playwright_python.sync_playwright import Axe

    return Axe()


@pytest.mark.parametrize(("locale", "width"), [("en-GB", 1366), ("de-DE", 360)])
def test_upload_preview_confirm(asgi_server, browser, director, axe, locale, width):
    from tournament.models import Player, Tournament

    hugo = Player.objects.create(name="Hugo Lang", display_name="Hugo")
    ctx = browser.new_context(viewport={"width": width, "height": 900}, locale=locale)
    page = ctx.new_page()
    try:
        login(page, asgi_server, "dir", "pw-director-123")
        page.click("#import-td-link")
        audit(axe, page, f"td3 upload {locale} {width}")
        page.set_input_files(
            "#id_files", [str(FILES / "club-night-3.4.3.tdt"), str(FILES / "club-night-3.7.2.tdt")]
        )
        page.click("#upload-form button[type=submit]")
        page.wait_for_selector("#confirm-form")
        assert "Thursday 2018-10-11" in page.content()
        screenshot(page, f"td3-preview-{locale}-{width}")
        audit(axe, page, f"td3 preview {locale} {width}")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        page.check(f"input[name=match][value$=':{hugo.pk}']")
        page.click("#confirm-form button[type=submit]")
        page.wait_for_url(f"{asgi_server}/console/")
        assert Tournament.objects.count() == 2 and hugo.entries.count() == 1
    finally:
        ctx.close()
