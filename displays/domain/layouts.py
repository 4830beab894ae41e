"""A clock layout a director arranges: which figures show beside the clock and in which order,
two colours (background, accent) that must keep the text readable, and the event's logo.
Pure Python (docs/displays.md#clock-layouts).

Colours. The big screen's text is white on the background and on the panels (the background
lightened a little); the labels are a lighter mix of the panel and white, as light as they must
be; the accent paints the level line (large text) and the panels' top edge. `theme_of` refuses
what WCAG 2.2 AA does not allow: white text below 4.5:1 on the background or a panel (1.4.3),
the accent or the warning colour below 3:1 (large text, 1.4.3; lines, 1.4.11).

Logo. PNG or JPEG only (an SVG can carry script and is refused), at most `LOGO_MAX_BYTES`
and `LOGO_MAX_PIXELS` a side; the type and the size come from the file's own header, never from
its name or the browser's word.
"""

from __future__ import annotations

import re
import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from displays.domain.views import DEFAULT_FIGURES, Figure, Layout

# What a layout may be arranged as (a screen's step may also say "the tournament's layout").
ARRANGEMENTS = (Layout.STANDARD, Layout.CLOCK_ONLY, Layout.PORTRAIT, Layout.LOGO)

DEFAULT_BACKGROUND = "#0b0f14"
DEFAULT_ACCENT = "#8fe0b8"
TEXT = "#ffffff"
WARN = "#ffcc66"  # the last minute, a break, a colour-up: fixed, checked against the panels
TEXT_MIN = 4.5  # WCAG 1.4.3 normal text
LARGE_MIN = 3.0  # WCAG 1.4.3 large text, 1.4.11 non-text
PANEL_LIGHTEN = 0.05
LINE_LIGHTEN = 0.12

LOGO_MAX_BYTES = 512 * 1024
LOGO_MAX_PIXELS = 4096
LOGO_MIN_PIXELS = 16

_HEX = re.compile(r"^#?([0-9a-fA-F]{6})$")


class LayoutRefused(ValueError):
    """A layout that cannot be saved. `code` names the reason (the service words it)."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


# --- Colours ---------------------------------------------------------------------------------


def parse_colour(text: str, field: str = "colour") -> str:
    """`#rrggbb` in lower case; refuses anything else (names, rgb(), short forms, markup)."""
    match = _HEX.match(text.strip())
    if not match:
        raise LayoutRefused("colour", field=field, value=text.strip()[:20])
    return "#" + match.group(1).lower()


def _rgb(colour: str) -> tuple[int, int, int]:
    value = int(colour[1:], 16)
    return (value >> 16) & 255, (value >> 8) & 255, value & 255


def _channel(c: int) -> float:
    s = c / 255
    return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4


def luminance(colour: str) -> float:
    """WCAG relative luminance of `#rrggbb`."""
    r, g, b = (_channel(c) for c in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two colours, 1 to 21."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def blend(base: str, over: str, share: float) -> str:
    """`over` laid on `base` at `share` (0: base, 1: over), as `#rrggbb`."""
    mixed = (round(x + (y - x) * share) for x, y in zip(_rgb(base), _rgb(over), strict=True))
    return "#" + "".join(f"{c:02x}" for c in mixed)


@dataclass(frozen=True)
class Theme:
    """The colours a big screen is painted with; every text colour checked against what it
    stands on."""

    background: str
    accent: str
    panel: str
    line: str
    text: str
    label: str

    def as_css_variables(self) -> dict[str, str]:
        return {
            "--dl-bg": self.background,
            "--dl-accent": self.accent,
            "--dl-panel": self.panel,
            "--dl-line": self.line,
            "--dl-text": self.text,
            "--dl-label": self.label,
        }


def theme_of(background: str, accent: str) -> Theme:
    """The theme of a background and an accent; raises LayoutRefused("contrast", …) naming the
    first pair that is not readable, its ratio and the ratio needed."""
    background = parse_colour(background, "background")
    accent = parse_colour(accent, "accent")
    panel = blend(background, TEXT, PANEL_LIGHTEN)
    for name, against in (("background", background), ("panel", panel)):
        ratio = contrast(TEXT, against)
        if ratio < TEXT_MIN:
            raise LayoutRefused(
                "contrast_text", colour=background, ratio=round(ratio, 2), need=TEXT_MIN, on=name
            )
    for name, against in (("background", background), ("panel", panel)):
        ratio = contrast(accent, against)
        if ratio < LARGE_MIN:
            raise LayoutRefused(
                "contrast_accent",
                colour=accent,
                background=background,
                ratio=round(ratio, 2),
                need=LARGE_MIN,
                on=name,
            )
        if contrast(WARN, against) < LARGE_MIN:
            raise LayoutRefused(
                "contrast_warn",
                colour=background,
                ratio=round(contrast(WARN, against), 2),
                need=LARGE_MIN,
            )
    return Theme(
        background=background,
        accent=accent,
        panel=panel,
        line=blend(background, TEXT, LINE_LIGHTEN),
        text=TEXT,
        label=_label_colour(background, panel),
    )


def _label_colour(background: str, panel: str) -> str:
    """The labels: as little white mixed into the panel as keeps them at 4.5:1 on the panel
    and the background (at most white itself, which passes: theme_of checked it)."""
    for step in range(70, 101, 2):
        label = blend(panel, TEXT, step / 100)
        if min(contrast(label, panel), contrast(label, background)) >= TEXT_MIN:
            return label
    return TEXT


# --- Figures ---------------------------------------------------------------------------------


def figures_in_order(
    shown: Iterable[Figure | str], positions: Mapping[str, Any] | None = None
) -> tuple[Figure, ...]:
    """The figures to show, ordered by their position (1 first; a missing or unreadable
    position goes last), ties in the figures' own order. Unknown names are dropped."""
    wanted = {f.value for f in Figure} & {str(getattr(f, "value", f)) for f in shown}
    own = [f for f in Figure]

    def place(f: Figure) -> tuple[int, int]:
        raw: Any = (positions or {}).get(f.value)
        try:
            position = int(raw)
        except (TypeError, ValueError):
            position = 99
        return position, own.index(f)

    return tuple(sorted((f for f in own if f.value in wanted), key=place))


def order_of(figures: Iterable[Figure]) -> tuple[Figure, ...]:
    """Every figure: `figures` first in their order, then the rest (left out) in their own."""
    first = tuple(dict.fromkeys(figures))
    return first + tuple(f for f in Figure if f not in first)


@dataclass(frozen=True)
class ClockLayout:
    """A saved layout, checked."""

    arrangement: Layout = Layout.STANDARD
    figures: tuple[Figure, ...] = DEFAULT_FIGURES
    background: str = DEFAULT_BACKGROUND
    accent: str = DEFAULT_ACCENT
    has_logo: bool = False

    @property
    def theme(self) -> Theme:
        return theme_of(self.background, self.accent)


def check_layout(
    *,
    arrangement: str,
    figures: Iterable[Figure | str],
    background: str,
    accent: str,
    has_logo: bool,
) -> ClockLayout:
    """A layout to save, or LayoutRefused: an unknown arrangement, no figure beside the clock
    (other than "clock only"), unreadable colours, the logo layout without a logo."""
    try:
        chosen = Layout(arrangement)
    except ValueError:
        raise LayoutRefused("arrangement") from None
    if chosen not in ARRANGEMENTS:
        raise LayoutRefused("arrangement")
    ordered = figures_in_order(figures, {f.value: i for i, f in enumerate(_as_figures(figures))})
    if not ordered and chosen != Layout.CLOCK_ONLY:
        raise LayoutRefused("no_figures")
    if chosen == Layout.LOGO and not has_logo:
        raise LayoutRefused("logo_missing")
    theme = theme_of(background, accent)
    return ClockLayout(
        arrangement=chosen,
        figures=ordered,
        background=theme.background,
        accent=theme.accent,
        has_logo=has_logo,
    )


def _as_figures(figures: Iterable[Figure | str]) -> list[Figure]:
    out = []
    for f in figures:
        try:
            out.append(Figure(str(getattr(f, "value", f))))
        except ValueError:
            continue
    return out


# --- The logo --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Logo:
    content_type: str  # image/png or image/jpeg
    width: int
    height: int


_PNG = b"\x89PNG\r\n\x1a\n"
# JPEG start-of-frame markers (baseline, progressive, …): they carry the size.
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def check_logo(data: bytes) -> Logo:
    """The logo's type and size from its header; LayoutRefused("logo_size" | "logo_type" |
    "logo_pixels") otherwise."""
    if len(data) > LOGO_MAX_BYTES:
        raise LayoutRefused("logo_size", kb=LOGO_MAX_BYTES // 1024)
    if not data:
        raise LayoutRefused("logo_type")
    if data.startswith(_PNG):
        logo = _png(data)
    elif data.startswith(b"\xff\xd8\xff"):
        logo = _jpeg(data)
    else:
        raise LayoutRefused("logo_type")
    if not (
        LOGO_MIN_PIXELS <= logo.width <= LOGO_MAX_PIXELS
        and LOGO_MIN_PIXELS <= logo.height <= LOGO_MAX_PIXELS
    ):
        raise LayoutRefused(
            "logo_pixels", low=LOGO_MIN_PIXELS, high=LOGO_MAX_PIXELS, w=logo.width, h=logo.height
        )
    return logo


def _png(data: bytes) -> Logo:
    if len(data) < 33 or data[12:16] != b"IHDR":
        raise LayoutRefused("logo_type")
    width, height = struct.unpack(">II", data[16:24])
    return Logo("image/png", width, height)


def _jpeg(data: bytes) -> Logo:
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            raise LayoutRefused("logo_type")
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length
            i += 2
            continue
        length = struct.unpack(">H", data[i + 2 : i + 4])[0]
        if marker in _SOF:
            height, width = struct.unpack(">HH", data[i + 5 : i + 9])
            return Logo("image/jpeg", width, height)
        if marker == 0xDA or length < 2:  # image data before any frame: broken
            break
        i += 2 + length
    raise LayoutRefused("logo_type")
