"""The spoken fallback's pure parts: what a request for a clip may carry, the espeak-ng command
and the WAV sizes."""

from __future__ import annotations

import struct

import pytest

from clocks.domain.announcement_audio import (
    MAX_FIGURE,
    FigureError,
    espeak_command,
    read_clip_request,
    read_figures,
    wav_with_sizes,
)
from clocks.domain.announcements import PLACEHOLDERS


def q(**values: str) -> dict[str, list[str]]:
    return {name: [value] for name, value in values.items()}


def refused(query: dict[str, list[str]]) -> FigureError:
    with pytest.raises(FigureError) as caught:
        read_clip_request(query)
    return caught.value


def test_a_level_start_with_its_figures():
    kind, language, figures = read_clip_request(
        q(kind="level_start", lang="de", level="7", small_blind="400", big_blind="800")
    )
    assert (kind, language) == ("level_start", "de")
    assert figures == {"level": 7, "small_blind": 400, "big_blind": 800}


def test_a_figure_left_out_is_left_out_and_a_kind_without_figures_takes_none():
    assert read_figures("table_break", {}) == {}
    assert read_clip_request(q(kind="test", lang="en")) == ("test", "en", {})


def test_the_colour_up_names_its_chips_as_the_screen_writes_them():
    assert read_figures("colour_up_ahead", q(chips="25,100")) == {"chips": "25, 100"}
    assert read_figures("colour_up_ahead", q(chips=" 25, 100 ,1000")) == {"chips": "25, 100, 1000"}
    for bad in ("", "25,,100", "25;100", "red", ",".join(["25"] * 13), "25, -100"):
        with pytest.raises(FigureError) as caught:
            read_figures("colour_up_ahead", q(chips=bad))
        assert caught.value.code == "chips", bad


@pytest.mark.parametrize(
    ("query", "code", "name"),
    [
        (q(lang="en"), "kind", ""),
        (q(kind="speak_this", lang="en"), "kind", "speak_this"),
        (q(kind="test"), "language", ""),
        (q(kind="test", lang="fr"), "language", "fr"),
        (q(kind="test", lang="en", text="Hello"), "unknown", "text"),
        (q(kind="table_break", lang="en", level="3"), "unknown", "level"),
        ({"kind": ["test", "bubble"], "lang": ["en"]}, "twice", "kind"),
        ({"kind": ["table_break"], "lang": ["en"], "table": ["1", "2"]}, "twice", "table"),
        (q(kind="table_break", lang="en", table="twelve"), "number", "table"),
        (q(kind="table_break", lang="en", table="-1"), "number", "table"),
        (q(kind="table_break", lang="en", table="1.5"), "number", "table"),
        (q(kind="table_break", lang="en", table=""), "number", "table"),
        (q(kind="table_break", lang="en", table="١٢"), "number", "table"),  # Arabic digits
        (q(kind="table_break", lang="en", table=str(MAX_FIGURE + 1)), "number", "table"),
        (q(kind="table_break", lang="en", table="9" * 400), "number", "table"),
    ],
)
def test_anything_but_a_known_kind_and_its_whole_numbers_is_refused(query, code, name):
    error = refused(query)
    assert (error.code, error.name) == (code, name)


def test_every_figure_of_every_kind_is_accepted():
    for kind, names in PLACEHOLDERS.items():
        query = {name: ["25,100" if name == "chips" else "12"] for name in names}
        assert set(read_figures(kind, query)) == set(names)


def test_the_words_go_in_on_stdin_never_as_an_argument():
    command = espeak_command("/usr/bin/espeak-ng", "de")
    assert command[0] == "/usr/bin/espeak-ng"
    assert command[command.index("-v") + 1] == "de"
    assert "--stdin" in command and "--stdout" in command
    assert espeak_command("espeak-ng", "en")[2] == "en"


def _wav(data: bytes, open_sizes: bool) -> bytes:
    riff = 0x7FFFF000 if open_sizes else 36 + len(data)
    size = 0x7FFFF000 if open_sizes else len(data)
    fmt = struct.pack("<4sIHHIIHH", b"fmt ", 16, 1, 1, 22050, 44100, 2, 16)
    return (
        b"RIFF" + struct.pack("<I", riff) + b"WAVE" + fmt + b"data" + struct.pack("<I", size) + data
    )


def test_the_open_sizes_of_a_piped_wav_are_filled_in():
    samples = b"\x01\x00" * 100
    fixed = wav_with_sizes(_wav(samples, open_sizes=True))
    assert fixed == _wav(samples, open_sizes=False)
    assert struct.unpack_from("<I", fixed, 4)[0] == len(fixed) - 8
    assert struct.unpack_from("<I", fixed, 40)[0] == len(samples)


@pytest.mark.parametrize("raw", [b"", b"not a wav at all", b"RIFF\x00\x00\x00\x00WAVEfmt "])
def test_what_is_not_a_wav_is_refused(raw):
    with pytest.raises(ValueError):
        wav_with_sizes(raw)
