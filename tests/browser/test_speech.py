"""Spoken announcements on a big screen opened with ?sound=1, in real Chromium with a stand-in
speech synthesis (the test machine has no voices): a level change is queued, captioned and
spoken; the floor's test announcement arrives over the websocket; a screen without ?sound=1
stays silent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from clocks.announcements import announcement_test
from clocks.services import clock_command
from tests.browser.conftest import login, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path(os.environ.get("FLOOR_SHOTS", "/tmp/shots/voice"))

# A speech synthesis with one English and one German voice that "speaks" in 50 ms.
FAKE_SPEECH = """
window.__spoken = [];
const voices = [
  { name: "Test English", lang: "en-GB", localService: true },
  { name: "Test Deutsch", lang: "de-DE", localService: true },
];
window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; } };
Object.defineProperty(window, "speechSynthesis", { configurable: true, value: {
  getVoices: () => voices,
  addEventListener() {},
  cancel() {},
  speak(u) { if (u.text) window.__spoken.push({ text: u.text, voice: u.voice && u.voice.name });
             setTimeout(() => u.onend && u.onend(), 50); },
} });
"""


# A message sent before the page's websocket opens is not replayed: wait until the feed is live.
LIVE = (
    "() => !document.getElementById('bs-status').classList.contains('offline')"
    " && document.getElementById('bs-status').textContent.trim() !== '…'"
)


def _shot(page, name):
    try:
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"{name}.png"))
    except OSError:
        pass


def test_a_level_change_is_announced_on_a_screen_that_speaks(
    asgi_server, browser, actor, make_tournament
):
    t = make_tournament(status="running")
    clock_command(tournament=t, kind="start", actor=actor)
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    context.add_init_script(FAKE_SPEECH)
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(f"{asgi_server}/t/{t.pk}/clock/?sound=1")
        page.wait_for_function("() => document.getElementById('bs-time').dataset.levelIndex")
        page.wait_for_function(LIVE)
        assert page.is_hidden("#bs-caption")
        # The level ends in three seconds once the screen is live (a loaded machine can take
        # longer than that to load the page: the level would end before it, unannounced).
        clock_command(tournament=t, kind="set_remaining", seconds=3, actor=actor)
        page.wait_for_function(
            "() => document.getElementById('bs-time').dataset.levelIndex === '1'", timeout=8000
        )
        page.wait_for_selector("#bs-caption:not([hidden])")
        caption = page.inner_text("#bs-caption-text")
        assert "Level 2" in caption and "200" in caption and "400" in caption
        _shot(page, "bigscreen-caption-1280")
        screenshot(page, "bigscreen-speech")
        log = page.evaluate("() => window.floorClock.speaker.log.map((e) => e.kind)")
        assert log[0] in ("level_start", "level_start_ante")
        page.wait_for_function("() => window.__spoken.some((s) => s.text.includes('Level 2'))")
        assert page.evaluate("() => window.__spoken[0].voice") == "Test English"

        # The floor's test button: the words come over the websocket.
        announcement_test(tournament=t, actor=actor)
        page.wait_for_function(
            "() => window.__spoken.some((s) => s.text === 'This is a test announcement.')"
        )
        kinds = page.evaluate("() => window.floorClock.speaker.log.map((e) => e.kind)")
        assert kinds.count("test") == 1
        assert len([k for k in kinds if k.startswith("level_start")]) == 1  # once

        # A screen without ?sound=1 neither speaks nor shows captions.
        quiet = context.new_page()
        quiet.goto(f"{asgi_server}/t/{t.pk}/clock/")
        quiet.wait_for_function("() => document.getElementById('bs-time').dataset.levelIndex")
        assert quiet.evaluate("() => window.floorClock.speaker") is None
        assert quiet.query_selector("#bs-caption") is None
    finally:
        context.close()


def test_without_a_voice_the_caption_still_shows(asgi_server, browser, actor, make_tournament):
    t = make_tournament(status="running")
    clock_command(tournament=t, kind="start", actor=actor)
    context = browser.new_context(viewport={"width": 1080, "height": 1920}, locale="en-GB")
    context.add_init_script(
        "Object.defineProperty(window, 'speechSynthesis', { value: undefined });"
    )
    page = context.new_page()
    try:
        page.goto(f"{asgi_server}/t/{t.pk}/clock/?sound=1")
        page.wait_for_function("() => document.getElementById('bs-time').dataset.levelIndex")
        page.wait_for_function(LIVE)
        announcement_test(tournament=t, actor=actor)
        page.wait_for_selector("#bs-caption:not([hidden])")
        assert page.inner_text("#bs-caption-text") == "This is a test announcement."
        # Chromium keeps audio off until a tap: the hint says so, a tap clears it.
        if page.is_visible("#bs-allow-sound"):
            _shot(page, "bigscreen-tap-to-allow-portrait")
            page.click("#bs-allow-sound")
            page.wait_for_selector("#bs-allow-sound", state="hidden")
        # Another tap once sound is allowed does not bring the hint back.
        page.mouse.click(200, 300)
        page.wait_for_timeout(400)
        assert page.is_hidden("#bs-allow-sound")
    finally:
        context.close()


def test_the_console_page_at_desk_and_phone_width(asgi_server, page, actor, make_tournament):
    t = make_tournament(status="running", late_registration_until_level=2)
    clock_command(tournament=t, kind="start", actor=actor)
    login(page, asgi_server, "dir", "pw-director-123")
    for width, height in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(f"{asgi_server}/console/t/{t.pk}/announcements/?lang=en")
        page.fill("#text-table_break", "Table {table} <b>breaks</b>")
        page.click("#texts-preview")
        page.wait_for_selector("#error-table_break")
        assert page.get_attribute("#text-table_break", "aria-invalid") == "true"
        _shot(page, f"console-{width}")
        page.screenshot(path=str(SHOTS / f"console-{width}-full.png"), full_page=True)
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 1, overflow


def test_a_german_screen_speaks_with_a_german_voice(asgi_server, browser, actor, make_tournament):
    t = make_tournament(status="running")
    clock_command(tournament=t, kind="start", actor=actor)
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="de-DE")
    context.add_init_script(FAKE_SPEECH)
    page = context.new_page()
    try:
        page.goto(f"{asgi_server}/t/{t.pk}/clock/?sound=1")
        page.wait_for_function("() => document.getElementById('bs-time').dataset.levelIndex")
        assert page.get_attribute("html", "lang") == "de"
        page.wait_for_function(LIVE)
        announcement_test(tournament=t, actor=actor)
        page.wait_for_function("() => window.__spoken.length > 0")
        assert page.evaluate("() => window.__spoken[0].voice") == "Test Deutsch"
    finally:
        context.close()


def test_edited_texts_and_registration_closed_by_hand_reach_a_speaking_screen_live(
    asgi_server, browser, actor, make_tournament, register
):
    """No reload: a director's new words for a level are said at the next level change, and
    registration closed by hand before the clock closed it is said once; the clock then says
    nothing more about late registration."""
    from clocks.announcements import announcement_texts_save
    from tournament.services.registration import registration_close

    t = make_tournament(status="running", late_registration_until_level=3)
    register(t)
    clock_command(tournament=t, kind="start", actor=actor)
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    context.add_init_script(FAKE_SPEECH)
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(f"{asgi_server}/t/{t.pk}/clock/?sound=1")
        page.wait_for_function("() => document.getElementById('bs-time').dataset.levelIndex")
        page.wait_for_function(LIVE)
        announcement_texts_save(
            language="en", texts={"level_start": "Now level {level}: {small_blind} and {big_blind}."},
            actor=actor,
        )  # fmt: skip
        page.wait_for_function(
            "() => window.floorClock.speaker.cfg.texts.level_start.startsWith('Now level')"
        )
        clock_command(tournament=t, kind="set_remaining", seconds=2, actor=actor)
        page.wait_for_function(
            "() => window.__spoken.some((s) => s.text === 'Now level 2: 200 and 400.')",
            timeout=8000,
        )
        registration_close(tournament=t, actor=actor)
        page.wait_for_function(
            "() => window.__spoken.some((s) => s.text === 'Late registration is now closed.')"
        )
        assert page.evaluate("() => window.floorClock.speaker.cfg.lateUntil") is None
        kinds = page.evaluate("() => window.floorClock.speaker.log.map((e) => e.kind)")
        assert kinds.count("late_registration_closed") == 1
        assert "late_registration_last_level" not in kinds[kinds.index("level_start") + 1 :]
    finally:
        context.close()
