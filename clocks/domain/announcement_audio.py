"""The spoken fallback (docs/clock.md "Spoken fallback"): what a request for an announcement's
audio may carry, the espeak-ng command that speaks it, and the WAV it writes.

Pure Python (no framework). A screen without a voice of its language asks the server for the
audio of an announcement by its kind and its figures, never by its words: the words are the
venue's text for that kind (clocks/domain/announcements.py), filled with the figures read here.
Every figure is a whole number (the colour-up's `chips` a short list of them), so nothing a
client sends is spoken as it is written.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping, Sequence

from clocks.domain.announcements import PLACEHOLDERS

# The largest figure a text speaks (blinds of a deep structure stay far below it).
MAX_FIGURE = 10**9
MAX_FIGURE_DIGITS = len(str(MAX_FIGURE))
# The colour-up names a few denominations.
MAX_CHIPS = 12
# espeak-ng's voices per language of the site (settings.LANGUAGES).
VOICES: dict[str, str] = {"de": "de", "en": "en"}
# Words per minute: a little slower than espeak-ng's 175, for a room.
WORDS_PER_MINUTE = 160


class FigureError(ValueError):
    """A request that names no known announcement or carries a figure it cannot have; `code`
    says why (kind, language, unknown, twice, number, chips) and `name` what is wrong."""

    def __init__(self, code: str, name: str = "") -> None:
        super().__init__(f"{code}: {name}" if name else code)
        self.code = code
        self.name = name


def _whole_number(name: str, value: str) -> int:
    value = value.strip()
    if not value.isascii() or not value.isdigit() or len(value) > MAX_FIGURE_DIGITS:
        raise FigureError("number", name)
    number = int(value)
    if number > MAX_FIGURE:
        raise FigureError("number", name)
    return number


def _chips(value: str) -> str:
    parts = value.split(",")
    if not 1 <= len(parts) <= MAX_CHIPS:
        raise FigureError("chips", "chips")
    try:
        return ", ".join(str(_whole_number("chips", p)) for p in parts)
    except FigureError as exc:
        raise FigureError("chips", "chips") from exc


def read_figures(kind: str, query: Mapping[str, Sequence[str]]) -> dict[str, object]:
    """The figures of announcement `kind` from a query (each name with its values, as a
    QueryDict's `lists()` gives them, without `kind` and `lang`).

    Only the kind's own placeholders are accepted, each once: a whole number, or for `chips`
    whole numbers separated by commas ("25, 100", written back as the screen writes it). A
    figure left out is left empty in the text, as on the screen. Raises FigureError.
    """
    if kind not in PLACEHOLDERS:
        raise FigureError("kind", kind)
    allowed = PLACEHOLDERS[kind]
    figures: dict[str, object] = {}
    for name, values in query.items():
        if name not in allowed:
            raise FigureError("unknown", name)
        if len(values) != 1:
            raise FigureError("twice", name)
        value = values[0]
        figures[name] = _chips(value) if name == "chips" else _whole_number(name, value)
    return figures


def read_language(language: str) -> str:
    """`language` if espeak-ng has a voice for it; FigureError("language") otherwise."""
    if language not in VOICES:
        raise FigureError("language", language)
    return language


def espeak_command(executable: str, language: str) -> list[str]:
    """The argument list that makes espeak-ng read UTF-8 text from stdin and write a WAV to
    stdout (the text never becomes an argument, so none of it is read as an option)."""
    return [
        executable,
        "-v",
        VOICES[language],
        "-s",
        str(WORDS_PER_MINUTE),
        "-b",
        "1",
        "--stdin",
        "--stdout",
    ]


def wav_with_sizes(raw: bytes) -> bytes:
    """espeak-ng's WAV with the RIFF and data sizes it leaves open when it writes to a pipe
    filled in (some players stop at a size they cannot trust). Raises ValueError when `raw` is
    not a PCM WAV with a data chunk."""
    if len(raw) < 12 or raw[:4] != b"RIFF" or raw[8:12] != b"WAVE":
        raise ValueError("not a WAV")
    out = bytearray(raw)
    offset = 12
    while offset + 8 <= len(out):
        chunk, size = out[offset : offset + 4], struct.unpack_from("<I", out, offset + 4)[0]
        if chunk == b"data":
            struct.pack_into("<I", out, offset + 4, len(out) - offset - 8)
            struct.pack_into("<I", out, 4, len(out) - 8)
            return bytes(out)
        offset += 8 + size + (size & 1)
    raise ValueError("a WAV without data")


def read_clip_request(query: Mapping[str, Sequence[str]]) -> tuple[str, str, dict[str, object]]:
    """The kind, language and figures of a request for a clip (every query parameter with its
    values): `kind` and `lang` once each, then the kind's figures (`read_figures`). Raises
    FigureError."""
    rest = dict(query)
    picked: list[str] = []
    for name in ("kind", "lang"):
        values = rest.pop(name, [])
        if len(values) > 1:
            raise FigureError("twice", name)
        picked.append(values[0] if values else "")
    kind, language = picked
    if kind not in PLACEHOLDERS:
        raise FigureError("kind", kind)
    return kind, read_language(language), read_figures(kind, rest)
