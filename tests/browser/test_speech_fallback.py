"""The spoken fallback in real Chromium: a screen whose browser has no voice fetches the
announcement's clip (espeak-ng on the server) by kind and figures, plays it after the chime in the
same queue, one at a time, and the caption shows as before."""

from __future__ import annotations

import pytest

from clocks.announcement_audio import espeak_path
from clocks.announcements import announcement_test
from clocks.services import clock_command
from tests.services import require

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# No speech synthesis at all; every play() of a media element is recorded (its address, whether
# another clip was still playing) and goes on to the real one, which loads the WAV.
NO_VOICE = """
Object.defineProperty(window, 'speechSynthesis', { configurable: true, value: undefined });
window.__clips = [];
const realPlay = HTMLMediaElement.prototype.play;
HTMLMediaElement.prototype.play = function () {
  const entry = { src: this.src, overlapped: window.__clips.some((c) => c.playing),
                  playing: true, duration: null };
  window.__clips.push(entry);
  const stop = () => { entry.playing = false; };
  this.addEventListener('ended', () => { entry.ended = true; stop(); });
  this.addEventListener('pause', stop);
  this.addEventListener('error', stop);
  const seen = () => { entry.duration = this.duration; };
  if (this.readyState >= 1) seen(); else this.addEventListener('loadedmetadata', seen);
  this.muted = true;
  return realPlay.call(this);
};
"""

LIVE = (
    "() => !document.getElementById('bs-status').classList.contains('offline')"
    " && document.getElementById('bs-status').textContent.trim() !== '…'"
)


def test_without_a_voice_the_screen_plays_the_server_s_clip(
    asgi_server, browser, actor, make_tournament
):
    require(espeak_path() is not None, "espeak-ng (Debian package espeak-ng)")
    t = make_tournament(status="running")
    clock_command(tournament=t, kind="start", actor=actor)
    clock_command(tournament=t, kind="set_remaining", seconds=3, actor=actor)
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-GB")
    context.add_init_script(NO_VOICE)
    page = context.new_page()
    page.set_default_timeout(20000)
    refused: list[str] = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    try:
        page.goto(f"{asgi_server}/t/{t.pk}/clock/?sound=1")
        page.wait_for_function(LIVE)
        # The level changes: the screen asks for the clip by kind and figures, never by words.
        page.wait_for_function("() => window.__clips.length > 0", timeout=10000)
        first = page.evaluate("() => window.__clips[0].src")
        assert f"/t/{t.pk}/announce.wav?kind=level_start" in first
        assert "lang=en" in first and "level=2" in first
        assert "small_blind=200" in first and "big_blind=400" in first
        assert "Level 2" in page.inner_text("#bs-caption-text")
        # The WAV loads and has a length (the browser can decode it).
        page.wait_for_function("() => window.__clips[0].duration > 0.5")
        page.wait_for_function("() => window.__clips[0].ended === true")  # played to its end

        # The floor's test announcement, from the websocket, waits its turn.
        announcement_test(tournament=t, actor=actor)
        page.wait_for_function(
            "() => window.__clips.some((c) => c.src.includes('kind=test&lang=en'))"
        )
        clips = page.evaluate("() => window.__clips")
        assert not any(c["overlapped"] for c in clips)  # never two at once
        log = page.evaluate("() => window.floorClock.speaker.log")
        assert [e["kind"] for e in log].count("test") == 1
        assert all(e["voice"] is None for e in log)
        assert next(e for e in log if e["kind"] == "test")["clip"].endswith("kind=test&lang=en")
        assert not refused, refused  # the audio is 'self' under the page's CSP
    finally:
        context.close()


def test_a_german_screen_without_a_voice_asks_for_german(
    asgi_server, browser, actor, make_tournament
):
    require(espeak_path() is not None, "espeak-ng (Debian package espeak-ng)")
    t = make_tournament(status="running")
    clock_command(tournament=t, kind="start", actor=actor)
    context = browser.new_context(viewport={"width": 1280, "height": 720}, locale="de-DE")
    context.add_init_script(NO_VOICE)
    page = context.new_page()
    page.set_default_timeout(20000)
    try:
        page.goto(f"{asgi_server}/t/{t.pk}/clock/?sound=1")
        page.wait_for_function(LIVE)
        announcement_test(tournament=t, actor=actor)
        page.wait_for_function("() => window.__clips.length > 0")
        assert page.evaluate("() => window.__clips[0].src").endswith("kind=test&lang=de")
        status, kind = page.evaluate(
            "async () => { const r = await fetch(window.__clips[0].src);"
            " return [r.status, r.headers.get('content-type')]; }"
        )
        assert (status, kind) == (200, "audio/wav")
    finally:
        context.close()
