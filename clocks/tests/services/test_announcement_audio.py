"""The spoken fallback: the words a clip speaks (the venue's text, filled as the screen fills it,
in both languages), the endpoint's answers (a WAV, 400 with the reason, 404, 429, 503) and the
speech config that points a screen at it."""

from __future__ import annotations

import json
import subprocess

import pytest
from django.core.cache import cache
from django.urls import reverse

from clocks import announcement_audio, audio_views
from clocks.announcement_audio import (
    AudioUnavailable,
    announcement_wav,
    announcement_words,
    clip_key,
    espeak_path,
)
from clocks.announcements import announcement_texts_save
from tests.services import require

pytestmark = pytest.mark.django_db


def url(t, **query: str) -> str:
    base = reverse("announcement-audio", args=[t.pk])
    return base + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.fixture
def no_espeak(monkeypatch):
    monkeypatch.setattr(announcement_audio, "espeak_path", lambda: None)


# --- The words ----------------------------------------------------------------------------------


def test_the_clock_s_words_are_filled_as_the_screen_fills_them_in_both_languages():
    figures: dict[str, object] = {"level": 7, "small_blind": 1000, "big_blind": 2000, "ante": 2000}
    assert (
        announcement_words("level_start_ante", "en", figures)
        == "Level 7. Blinds 1,000 and 2,000, ante 2,000."
    )
    german = announcement_words("level_start_ante", "de", figures)
    assert "1.000" in german and "2.000" in german and german.startswith("Level 7")
    chips = {"chips": "25, 100"}
    assert "25, 100" in announcement_words("colour_up_ahead", "en", chips)
    assert "25, 100" in announcement_words("colour_up_ahead", "de", chips)


def test_the_floor_s_words_come_plain_and_the_venue_s_own_text_counts(actor):
    assert announcement_words("table_break", "de", {"table": 12}).startswith(
        "Tisch 12 wird aufgelöst"
    )
    assert "1200" in announcement_words("bubble", "en", {"players": 1200, "places": 1100})
    announcement_texts_save(
        language="en", texts={"table_break": "Table {table} closes now."}, actor=actor
    )
    assert announcement_words("table_break", "en", {"table": 3}) == "Table 3 closes now."
    assert announcement_words("table_break", "en", {}) == "Table closes now."  # as on the screen


# --- The endpoint -------------------------------------------------------------------------------


def test_a_clip_is_a_wav_and_is_kept(client, make_tournament):
    require(espeak_path() is not None, "espeak-ng (Debian package espeak-ng)")
    t = make_tournament(status="running")
    response = client.get(url(t, kind="table_break", lang="de", table="12"))
    assert response.status_code == 200
    assert response["Content-Type"] == "audio/wav"
    assert "public" in response["Cache-Control"]
    body = response.content
    assert body[:4] == b"RIFF" and body[8:12] == b"WAVE"
    assert int.from_bytes(body[4:8], "little") == len(body) - 8  # sizes filled in
    assert len(body) > 20_000  # a second of speech or more
    words = announcement_words("table_break", "de", {"table": 12})
    assert cache.get(clip_key("de", words)) == body
    english = client.get(url(t, kind="test", lang="en"))
    assert english.status_code == 200 and english.content != body
    assert client.head(url(t, kind="test", lang="en")).status_code == 200


def test_a_kept_clip_is_not_spoken_again(monkeypatch):
    cache.set(clip_key("en", "Hello."), b"RIFF-kept")

    def boom(*args, **kwargs):
        raise AssertionError("espeak-ng ran for a kept clip")

    monkeypatch.setattr(subprocess, "run", boom)
    assert announcement_wav("en", "Hello.") == b"RIFF-kept"


@pytest.mark.parametrize(
    ("query", "says"),
    [
        ({"kind": "test", "lang": "en", "text": "Hello"}, "“text” is not a figure"),
        ({"kind": "say", "lang": "en"}, "Unknown announcement"),
        ({"kind": "test", "lang": "fr"}, "No voice for the language"),
        ({"kind": "table_break", "lang": "en", "table": "12abc"}, "table: a whole number"),
        ({"kind": "colour_up_ahead", "lang": "en", "chips": "red"}, "chips: up to 12"),
        ({"kind": "table_break", "lang": "en", "level": "1"}, "Known: table."),
    ],
)
def test_bad_input_is_refused_with_the_reason(client, make_tournament, query, says):
    t = make_tournament(status="running")
    response = client.get(url(t, **query))
    assert response.status_code == 400
    assert response["Content-Type"].startswith("text/plain")
    assert says in response.content.decode()


def test_a_repeated_figure_and_a_post_are_refused(client, make_tournament):
    t = make_tournament(status="running")
    twice = client.get(url(t, kind="table_break", lang="en") + "&table=1&table=2")
    assert twice.status_code == 400 and "more than once" in twice.content.decode()
    assert client.post(url(t, kind="test", lang="en")).status_code == 405


def test_no_such_tournament(client):
    missing = reverse("announcement-audio", args=[999999]) + "?kind=test&lang=en"
    assert client.get(missing).status_code == 404


def test_without_espeak_the_server_says_so_and_screens_get_no_address(
    client, make_tournament, no_espeak
):
    t = make_tournament(status="running")
    response = client.get(url(t, kind="test", lang="en"))
    assert response.status_code == 503
    assert "espeak-ng is not installed" in response.content.decode()
    assert response["Retry-After"]
    page = client.get(reverse("bigscreen", args=[t.pk]) + "?sound=1").content.decode()
    config = json.loads(page.split('id="speech-config" type="application/json">')[1].split("<")[0])
    assert config["audioUrl"] is None


def test_a_hung_or_failing_espeak_is_unavailable(monkeypatch):
    monkeypatch.setattr(announcement_audio, "espeak_path", lambda: "/usr/bin/espeak-ng")

    def hangs(*args, **kwargs):
        raise subprocess.TimeoutExpired(args[0], kwargs["timeout"])

    monkeypatch.setattr(subprocess, "run", hangs)
    with pytest.raises(AudioUnavailable, match="too long"):
        announcement_wav("en", "Hello.")

    def garbage(*args, **kwargs):
        return subprocess.CompletedProcess(args[0], 0, stdout=b"garbage", stderr=b"")

    monkeypatch.setattr(subprocess, "run", garbage)
    with pytest.raises(AudioUnavailable, match="could not speak"):
        announcement_wav("en", "Hello.")
    assert cache.get(clip_key("en", "Hello.")) is None


def test_clips_are_limited_per_address(
    client, make_tournament, monkeypatch, no_espeak, one_rate_window
):
    monkeypatch.setattr(audio_views, "CLIPS_PER_MINUTE", 3)
    t = make_tournament(status="running")
    codes = [client.get(url(t, kind="test", lang="en")).status_code for _ in range(5)]
    assert codes == [503, 503, 503, 429, 429]
    other = client.get(url(t, kind="test", lang="en"), REMOTE_ADDR="10.0.0.9")
    assert other.status_code == 503


def test_a_speaking_screen_gets_the_address_and_the_floor_s_figures(client, make_tournament):
    require(espeak_path() is not None, "espeak-ng (Debian package espeak-ng)")
    t = make_tournament(status="running")
    page = client.get(reverse("bigscreen", args=[t.pk]) + "?sound=1").content.decode()
    config = json.loads(page.split('id="speech-config" type="application/json">')[1].split("<")[0])
    assert config["audioUrl"] == reverse("announcement-audio", args=[t.pk])
    assert config["floorFigures"]["players_move"] == ["table", "to_table"]
    assert config["floorFigures"]["test"] == []
    assert "level_start" not in config["floorFigures"]  # the screen has the clock's figures
