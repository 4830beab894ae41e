"""Clock layouts, pure: colours and their contrast (WCAG AA), the figures' order, the logo."""

from __future__ import annotations

import struct
import zlib

import pytest

from displays.domain.layouts import (
    DEFAULT_ACCENT,
    DEFAULT_BACKGROUND,
    LOGO_MAX_BYTES,
    LayoutRefused,
    blend,
    check_layout,
    check_logo,
    contrast,
    figures_in_order,
    order_of,
    parse_colour,
    theme_of,
)
from displays.domain.views import Figure, Layout


def png(width: int = 64, height: int = 32) -> bytes:
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (
        b"\x89PNG\r\n\x1a\n"
        + struct.pack(">I", len(ihdr))
        + chunk
        + struct.pack(">I", zlib.crc32(chunk))
        + b"\0" * 20
    )


def jpeg(width: int = 120, height: int = 40) -> bytes:
    app0 = b"\xff\xe0" + struct.pack(">H", 16) + b"JFIF\0" + b"\1\1\0\0\1\0\1\0\0"
    sof = b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, height, width, 1) + b"\1\x11\0"
    return b"\xff\xd8" + app0 + sof + b"\xff\xda" + b"\0" * 10


def test_contrast_is_the_wcag_ratio():
    assert contrast("#ffffff", "#000000") == pytest.approx(21)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert contrast("#123456", "#123456") == 1
    assert blend("#000000", "#ffffff", 0.5) == "#808080"


def test_colours_are_hex_only():
    assert parse_colour(" #0B0F14 ") == "#0b0f14"
    assert parse_colour("0b0f14") == "#0b0f14"
    for bad in ("red", "#fff", "rgb(0,0,0)", "#0b0f14;}body{", "", "#gggggg"):
        with pytest.raises(LayoutRefused) as refused:
            parse_colour(bad)
        assert refused.value.code == "colour"


def test_the_default_theme_is_readable():
    theme = theme_of(DEFAULT_BACKGROUND, DEFAULT_ACCENT)
    for colour in (theme.text, theme.label):
        assert contrast(colour, theme.panel) >= 4.5
        assert contrast(colour, theme.background) >= 4.5
    assert contrast(theme.accent, theme.panel) >= 3


@pytest.mark.parametrize("background", ["#1a237e", "#3b0a0a", "#004d40", "#595959", "#000000"])
def test_dark_backgrounds_pass_and_labels_stay_readable(background):
    theme = theme_of(background, "#ffd54f")
    assert min(contrast(theme.label, theme.panel), contrast(theme.label, background)) >= 4.5
    assert set(theme.as_css_variables()) >= {"--dl-bg", "--dl-accent", "--dl-label"}


def test_a_light_background_is_refused_for_the_white_text():
    with pytest.raises(LayoutRefused) as refused:
        theme_of("#777777", "#000000")
    assert refused.value.code == "contrast_text"
    assert refused.value.params["ratio"] == pytest.approx(4.48, abs=0.01)
    assert refused.value.params["need"] == 4.5


def test_an_accent_close_to_the_background_is_refused():
    with pytest.raises(LayoutRefused) as refused:
        theme_of("#0b0f14", "#202830")
    assert refused.value.code == "contrast_accent"
    assert refused.value.params["need"] == 3.0


def test_figures_are_ordered_by_their_place():
    order = figures_in_order(
        ["pool", "players", "leaders"], {"pool": "1", "players": 3, "leaders": 2}
    )
    assert order == (Figure.POOL, Figure.LEADERS, Figure.PLAYERS)
    # A missing or unreadable place goes last; unknown figures are dropped.
    assert figures_in_order(["break", "average", "nope"], {"average": "x"}) == (
        Figure.AVERAGE,
        Figure.BREAK,
    )
    assert order_of((Figure.POOL,))[:2] == (Figure.POOL, Figure.PLAYERS)
    assert len(order_of(())) == len(Figure)


def test_check_layout():
    layout = check_layout(
        arrangement="standard",
        figures=["entries", "players"],
        background="#1A237E",
        accent="#ffd54f",
        has_logo=False,
    )
    assert layout.figures == (Figure.ENTRIES, Figure.PLAYERS)
    assert layout.background == "#1a237e"
    with pytest.raises(LayoutRefused, match="no_figures"):
        check_layout(
            arrangement="portrait",
            figures=[],
            background="#000000",
            accent="#ffffff",
            has_logo=False,
        )
    assert (
        check_layout(
            arrangement="clock_only",
            figures=[],
            background="#000000",
            accent="#ffffff",
            has_logo=False,
        ).arrangement
        == Layout.CLOCK_ONLY
    )
    with pytest.raises(LayoutRefused, match="logo_missing"):
        check_layout(
            arrangement="logo",
            figures=["pool"],
            background="#000000",
            accent="#ffffff",
            has_logo=False,
        )
    with pytest.raises(LayoutRefused, match="arrangement"):
        check_layout(
            arrangement="event",
            figures=["pool"],
            background="#000000",
            accent="#ffffff",
            has_logo=False,
        )


def test_a_png_and_a_jpeg_are_read_from_their_header():
    assert check_logo(png(64, 32)).content_type == "image/png"
    assert (check_logo(png(64, 32)).width, check_logo(png(64, 32)).height) == (64, 32)
    logo = check_logo(jpeg(120, 40))
    assert (logo.content_type, logo.width, logo.height) == ("image/jpeg", 120, 40)


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "logo_type"),
        (b"GIF89a" + b"\0" * 40, "logo_type"),
        (b"", "logo_type"),
        (b"\x89PNG\r\n\x1a\n" + b"\0" * 40, "logo_type"),
        (b"\xff\xd8\xff" + b"\0" * 40, "logo_type"),
        (png(8, 8), "logo_pixels"),
        (png(5000, 100), "logo_pixels"),
        (png() + b"\0" * LOGO_MAX_BYTES, "logo_size"),
    ],
)
def test_what_is_not_a_small_png_or_jpeg_is_refused(data, code):
    with pytest.raises(LayoutRefused) as refused:
        check_logo(data)
    assert refused.value.code == code
