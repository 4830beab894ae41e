"""Charts drawn on the server as SVG (pygal), shown with <img> and printed as they are.

Why this shape (issue #61):
- **Server-side SVG** draws the same picture for the phone, the big screen, the printed report
  and the PDF, with no charting script in the browser and nothing from a CDN. pygal is a kept
  library built for exactly this; it is told to emit no script of its own (`js=[]`).
- **Its own document**: pygal styles its SVG with an inline <style>. The pages' policy forbids
  inline styles, so a chart is never pasted into a page: it is served at its own address with a
  policy of its own (`svg_response`: the inline style allowed, no script, nothing loaded) and the
  page shows it with <img> (or a data: URI in the printed report). An SVG in <img> runs no script
  and loads nothing, whatever it holds.
- **More than colour**: every series has its own colour, its own dash pattern and its own dot
  size, so two lines differ in black and white too; colours meet 3:1 against their background
  (WCAG 2.2 AA for graphics) in the light and the dark style. Every chart also has its data as a
  table beside it (`templates/charts/figure.html`).
- **The same input draws the same bytes**, so `svg_response` can answer 304 by ETag: pygal's
  random id is replaced by one derived from the input, and its dated comment is dropped.

Numbers on the axes are grouped the reader's way (core.figures), money given in cents.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pygal
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control
from pygal.style import Style

from core.figures import chips, money

FONT = '"DejaVu Sans", "Segoe UI", system-ui, -apple-system, Arial, sans-serif'

# Light: each at least 4.5:1 on white (the floor's own ink colours first).
LIGHT_COLOURS = (
    "#0f5132",  # felt green
    "#1d4ed8",  # blue
    "#b42318",  # red
    "#8a3c06",  # brown
    "#6d28d9",  # violet
    "#0e6178",  # teal
    "#a3195b",  # plum
    "#374151",  # slate
    "#166534",  # green
    "#9a3412",  # rust
)
# Dark (the big screens, background #0b1220): each at least 4.5:1 on it.
DARK_COLOURS = (
    "#6ee7b7",
    "#93c5fd",
    "#fca5a5",
    "#fcd34d",
    "#c4b5fd",
    "#67e8f9",
    "#f9a8d4",
    "#e5e7eb",
    "#bef264",
    "#fdba74",
)
# One dash pattern per series (None: solid), cycled with the colours but on a different
# period, so that the 11th series is not the 1st again in both.
DASHES: tuple[str | None, ...] = (
    None,
    "9,4",
    "2,4",
    "12,4,2,4",
    "5,5",
    "16,5",
    "2,2",
    "9,3,3,3",
    "1,6",
)
DOT_SIZES = (3, 4, 2.5, 3.5, 2, 4.5, 3, 2.5, 4)


@dataclass(frozen=True)
class Series:
    """One line (or one set of bars): its legend and one value per x label (None: no point)."""

    label: str
    values: Sequence[float | int | None]
    emphasis: bool = False
    secondary: bool = False  # line charts: on a second y axis, on the right (another unit)


def _style(dark: bool, scale: float = 1.0) -> Style:
    """The light style (pages, print) or the dark one (big screens); the type grows with the
    picture's width, so that a 1600-wide chart on a big screen reads like an 800-wide one."""
    style = _dark() if dark else _light()
    if scale != 1.0:
        for name in (
            "title_font_size",
            "legend_font_size",
            "label_font_size",
            "major_label_font_size",
            "no_data_font_size",
        ):
            setattr(style, name, round(getattr(style, name) * scale))
    return style


# What both styles share: full opacity (pygal's default .7-.8 paled the colours below their
# contrast), the page's font, no animation.
_SHARED = {
    "font_family": FONT,
    "opacity": "1",
    "opacity_hover": "1",
    "stroke_opacity": "1",
    "stroke_opacity_hover": "1",
    "transition": "0ms",
}


def _dark() -> Style:
    return Style(
        background="#0b1220",
        plot_background="#0b1220",
        foreground="#f3f4f6",
        foreground_strong="#ffffff",
        foreground_subtle="#cbd5e1",
        colors=DARK_COLOURS,
        guide_stroke_color="#475569",
        major_guide_stroke_color="#64748b",
        title_font_size=22,
        legend_font_size=18,
        label_font_size=16,
        major_label_font_size=16,
        no_data_font_size=28,
        **_SHARED,
    )


def _light() -> Style:
    return Style(
        background="#ffffff",
        plot_background="#ffffff",
        foreground="#1c2430",
        foreground_strong="#1c2430",
        foreground_subtle="#4a5565",
        colors=LIGHT_COLOURS,
        guide_stroke_color="#cbd2dc",
        major_guide_stroke_color="#9aa4b2",
        title_font_size=17,
        legend_font_size=14,
        label_font_size=12,
        major_label_font_size=12,
        no_data_font_size=20,
        **_SHARED,
    )


def _formatter(currency: str | None) -> Any:
    if currency:

        def as_money(value: float | None) -> str:
            return "" if value is None else money(round(value), currency)

        return as_money

    def as_number(value: float | None) -> str:
        if value is None:
            return ""
        if float(value).is_integer() or abs(value) >= 100:  # a second axis' ticks: 187,413
            return chips(round(value))
        return f"{value:.1f}"

    return as_number


def _config(
    *,
    title: str,
    x_labels: Sequence[str],
    y_title: str,
    x_title: str,
    dark: bool,
    width: int,
    height: int,
    currency: str | None,
    legends: Sequence[str],
    second_axis: bool = False,
) -> dict[str, Any]:
    scale = max(1.0, width / 800)
    style = _style(dark, scale)
    longest = max((len(s) for s in legends), default=0)
    columns = max(1, min(4, int(width // (0.62 * style.legend_font_size * min(longest, 28) + 50))))
    # Labels that would overlap are thinned: every k-th shown (about 0.6 em a character and a
    # gap); beyond 16 labels they also turn, and the axis' numbers follow the picture's size.
    wanted = sum(0.6 * style.label_font_size * len(x) + 10 for x in x_labels)
    every = max(1, math.ceil(wanted / (0.8 * width)))
    many = len(x_labels) > 16 or every > 1
    # One long label among short ones ("13", "Day 1 bag") fits in sum but not beside its
    # neighbour: the labels turn instead of being thinned.
    widest = max((0.6 * style.label_font_size * len(x) + 10 for x in x_labels), default=0)
    turned = len(x_labels) > 16 or (widest > 0.8 * width / max(1, len(x_labels)) and not many)
    return {
        "js": [],  # no script inside the SVG, and none from pygal's CDN
        "style": style,
        "title": title,
        "x_title": x_title or None,
        "y_title": y_title or None,
        "width": width,
        "height": height,
        "explicit_size": False,  # the viewBox scales to the <img>'s width
        "legend_at_bottom": True,
        "legend_at_bottom_columns": columns,
        "legend_box_size": round(12 * scale),
        "truncate_legend": 28,
        "truncate_label": 18,
        "x_label_rotation": 35 if turned else 0,
        "show_minor_x_labels": not many,
        "x_labels_major_every": max(every, len(x_labels) // 12) if many else None,
        # As many steps on the value axis as the picture holds without crowding.
        "max_scale": max(3, min(10, height // 45)),
        "value_formatter": _formatter(currency),
        "print_values": False,
        "include_x_axis": False,
        "margin": 12,
        # The last x label is centred on the plot's right edge: half of it stood outside the
        # picture ("Day 1 ba…"). Room for half the longest label (about 0.6 em a character).
        "margin_right": 12
        + (
            0
            if many
            else round(0.3 * style.label_font_size * max((len(x) for x in x_labels), default=0))
        ),
        "margin_bottom": 12
        + _legend_shortfall(len(legends), columns, style.legend_font_size, scale)
        - (
            _legend_height(len(legends), columns, style.legend_font_size, scale)
            if second_axis
            else 0
        ),
        "spacing": 10,
        "no_data_text": "",
    }


def _legend_shortfall(count: int, columns: int, font_size: int, scale: float) -> float:
    """pygal 3.0.5 reserves room for `count // columns` legend rows below the plot where
    `ceil(count / columns)` are drawn (graph.py, _compute_margin), so the last row (or a single
    series' legend) fell off the picture. The missing rows' height is added to the margin."""
    if count == 0:
        return 0
    line = max(font_size, round(12 * scale))
    return 1.5 * line * (-(-count // columns) - count // columns)


def _legend_height(count: int, columns: int, font_size: int, scale: float) -> float:
    """What pygal 3.0.5 reserves below the plot for a group of series' legends. With a second
    axis it reserves it twice (once per group, though both share one legend), which left a
    chart with a second axis a squashed plot over an empty band: the second is given back."""
    line = max(font_size, round(12 * scale))
    return 10 + line * round(count // columns - 1) * 1.5 + line


def _stable(svg_kind: str, payload: dict[str, Any]) -> str:
    raw = json.dumps(payload, sort_keys=True, default=str).encode()
    return svg_kind + "-" + hashlib.sha1(raw, usedforsecurity=False).hexdigest()[:16]


_COMMENT = re.compile(r"<!--.*?-->", re.S)
# pygal always writes its configuration as a <script> for its optional tooltips; the picture
# needs none of it (and its policy would not run it), so it is taken out.
_SCRIPT = re.compile(r"<script\b.*?</script>", re.S)


def _render(chart: Any, key: str) -> str:
    chart.uuid = key
    svg: str = chart.render(is_unicode=True)
    return _SCRIPT.sub("", _COMMENT.sub("", svg))


def _add(chart: Any, index: int, series: Series, *, line: bool, scale: float = 1.0) -> None:
    options: dict[str, Any] = {}
    if line:
        width = (4 if series.emphasis else 2) * scale
        dash = DASHES[index % len(DASHES)]
        stroke: dict[str, Any] = {"width": width}
        if dash:
            stroke["dasharray"] = dash
        options["stroke_style"] = stroke
        options["dots_size"] = (
            DOT_SIZES[index % len(DOT_SIZES)] + (1.5 if series.emphasis else 0)
        ) * scale
    if series.secondary:
        options["secondary"] = True
    chart.add(series.label, list(series.values), **options)


def _nice(value: float) -> float:
    """The smallest of 1, 2, 5 times a power of ten that is at least `value` (> 0)."""
    power = 10 ** math.floor(math.log10(value))
    return next(m * power for m in (1, 2, 5, 10) if m * power >= value)


def _two_axes(series: Sequence[Series], height: int = 400) -> dict[str, Any]:
    """Round ticks on both axes of a chart with a second one, from zero: the same number of
    steps on each, so the right axis' labels fall on the left's guides (pygal divides the
    right axis' range by the left's steps, which gave ticks like 187412.6)."""

    def top(second: bool) -> float:
        values = [
            v for one in series if one.secondary == second for v in one.values if v is not None
        ]
        return max([*values, 0]) or 1

    step = _nice(top(False) / max(2, min(5, height // 60)))
    whole = all(
        float(v).is_integer()
        for one in series
        if not one.secondary
        for v in one.values
        if v is not None
    )
    if whole:  # counts (players): no tick at 0.2 of a player
        step = max(step, 1)
    steps = max(1, math.ceil(top(False) / step))
    right = _nice(top(True) / steps)
    return {
        "y_labels": [i * step for i in range(steps + 1)],
        "range": (0, steps * step),
        "secondary_range": (0, steps * right),
    }


def line_svg(
    *,
    title: str,
    x_labels: Sequence[str],
    series: Sequence[Series],
    y_title: str = "",
    x_title: str = "",
    dark: bool = False,
    width: int = 800,
    height: int = 400,
    y_min: float | None = None,
    currency: str | None = None,
) -> str:
    """Lines over the x labels (levels, nights). `currency`: the values are cents of it."""
    config = _config(
        title=title,
        x_labels=x_labels,
        y_title=y_title,
        x_title=x_title,
        dark=dark,
        width=width,
        height=height,
        currency=currency,
        legends=[one.label for one in series],
        second_axis=any(one.secondary for one in series),
    )
    if y_min is not None:
        config["range"] = (y_min, None)
        if any(one.secondary for one in series):
            config.update(_two_axes(series, height))
    chart = pygal.Line(allow_interruptions=True, **config)
    chart.x_labels = list(x_labels)
    for index, one in enumerate(series):
        _add(chart, index, one, line=True, scale=max(1.0, width / 800))
    key = _stable(
        "line",
        {
            "c": [title, list(x_labels), y_title, x_title, dark, width, height, y_min, currency],
            "s": [(s.label, list(s.values), s.emphasis) for s in series],
        },
    )
    return _render(chart, key)


def bar_svg(
    *,
    title: str,
    x_labels: Sequence[str],
    series: Sequence[Series],
    y_title: str = "",
    x_title: str = "",
    dark: bool = False,
    width: int = 800,
    height: int = 400,
    horizontal: bool = False,
    currency: str | None = None,
) -> str:
    """Bars per x label; several series stand side by side and differ by colour and order,
    and the legend names them (bars carry no dash)."""
    config = _config(
        title=title,
        x_labels=x_labels,
        y_title=y_title,
        x_title=x_title,
        dark=dark,
        width=width,
        height=height,
        currency=currency,
        legends=[one.label for one in series],
    )
    config["x_label_rotation"] = 0 if horizontal else config["x_label_rotation"]
    if horizontal:  # the values run along the width
        config["max_scale"] = max(3, min(10, width // 90))
    chart = (pygal.HorizontalBar if horizontal else pygal.Bar)(**config)
    chart.x_labels = list(x_labels)
    for index, one in enumerate(series):
        _add(chart, index, one, line=False)
    key = _stable(
        "bar",
        {
            "c": [
                title,
                list(x_labels),
                y_title,
                x_title,
                dark,
                width,
                height,
                horizontal,
                currency,
            ],
            "s": [(s.label, list(s.values)) for s in series],
        },
    )
    return _render(chart, key)


def empty_svg(message: str, *, dark: bool = False, width: int = 800, height: int = 200) -> str:
    """A chart's place when there is nothing to draw yet: the message, centred."""
    background, ink = ("#0b1220", "#f3f4f6") if dark else ("#ffffff", "#4a5565")
    size = 28 if dark else 18
    text = (
        message.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img">'
        f"<title>{text}</title>"
        f'<rect width="{width}" height="{height}" fill="{background}"/>'
        f'<text x="{width // 2}" y="{height // 2}" fill="{ink}" font-family="{FONT.replace(chr(34), "")}"'
        f' font-size="{size}" text-anchor="middle" dominant-baseline="middle">{text}</text></svg>'
    )


# The SVG's own policy: its inline <style> (pygal's) and nothing else; no script, nothing loaded.
SVG_POLICY = (
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src 'none'; "
    "script-src 'none'; frame-ancestors 'self'"
)


def svg_response(request: HttpRequest, svg: str) -> HttpResponse:
    """The chart as its own document: image/svg+xml, its own Content-Security-Policy, an ETag
    (304 when the browser has this picture), and no caching without asking."""
    etag = '"' + hashlib.sha1(svg.encode(), usedforsecurity=False).hexdigest()[:20] + '"'
    if etag in request.headers.get("If-None-Match", ""):
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["ETag"] = etag
    response["Content-Security-Policy"] = SVG_POLICY
    response["X-Content-Type-Options"] = "nosniff"
    patch_cache_control(response, no_cache=True, private=True)
    # django-csp would put the pages' policy over ours: this response keeps its own.
    response._csp_exempt = True  # type: ignore[attr-defined]
    return response


def svg_data_uri(svg: str) -> str:
    """The chart inside a page or a PDF (the printed report): a data: URI."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
