"""The chart foundation: pygal SVG that carries no script, differs by more than colour, draws the
same bytes for the same input, and travels as its own document with its own policy."""

from __future__ import annotations

import re

from django.http import HttpResponse, HttpResponseBase
from django.test import RequestFactory
from django.utils import translation

from config.csp import CSPMiddleware
from core.charts import (
    DASHES,
    SVG_POLICY,
    Series,
    bar_svg,
    empty_svg,
    line_svg,
    svg_data_uri,
    svg_response,
)

LEVELS = ["1", "2", "3", "4"]


def _lines(n: int = 3, **kwargs: object) -> str:
    series = [Series(f"Player {i}", [1000 * i, 2000 * i, None, 2500 * i]) for i in range(1, n + 1)]
    return line_svg(title="Stacks", x_labels=LEVELS, series=series, **kwargs)  # type: ignore[arg-type]


def test_line_chart_has_no_script_and_no_dated_comment() -> None:
    svg = _lines()
    assert svg.startswith("<?xml") or svg.startswith("<svg")
    assert "<script" not in svg
    assert "<!--" not in svg
    assert "kozea.github.io" not in svg


def test_same_input_draws_the_same_bytes_and_other_input_other_bytes() -> None:
    assert _lines() == _lines()
    assert _lines() != _lines(4)
    assert _lines() != _lines(dark=True)


def test_series_differ_by_dash_and_dot_size_not_only_colour() -> None:
    svg = _lines(4)
    dashes = set(re.findall(r"stroke-dasharray:\s*([0-9, ]+)", svg))
    assert {d.replace(" ", "") for d in dashes} >= {DASHES[1], DASHES[2], DASHES[3]}


def test_numbers_on_the_axis_are_grouped_the_readers_way() -> None:
    series = [Series("Pool", [150000, 250000])]
    with translation.override("de"):
        german = line_svg(title="t", x_labels=["a", "b"], series=series)
    with translation.override("en"):
        english = line_svg(title="t", x_labels=["a", "b"], series=series)
    assert "250.000" in german
    assert "250,000" in english


def test_money_axis_shows_cents_as_money() -> None:
    with translation.override("en"):
        svg = bar_svg(
            title="Payouts",
            x_labels=["1", "2"],
            series=[Series("Prize", [50000, 30000])],
            currency="EUR",
        )
    assert "€500" in svg


def test_empty_chart_says_why_and_escapes_the_message() -> None:
    svg = empty_svg('Nothing <yet> & "so"')
    assert "Nothing &lt;yet&gt; &amp; &quot;so&quot;" in svg
    assert "<script" not in svg


def test_gaps_are_allowed_and_a_single_point_draws() -> None:
    svg = line_svg(title="One", x_labels=["1"], series=[Series("Only", [5000])])
    assert "<svg" in svg


def test_response_is_an_svg_document_with_its_own_policy_and_etag() -> None:
    request = RequestFactory().get("/chart.svg")
    middleware = CSPMiddleware(lambda r: svg_response(r, _lines()))
    response = middleware(request)
    assert isinstance(response, HttpResponseBase)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    assert response["Content-Security-Policy"] == SVG_POLICY
    assert "script-src 'none'" in response["Content-Security-Policy"]
    assert response["X-Content-Type-Options"] == "nosniff"
    again = RequestFactory().get("/chart.svg", HTTP_IF_NONE_MATCH=response["ETag"])
    not_modified = middleware(again)
    assert isinstance(not_modified, HttpResponseBase)
    assert not_modified.status_code == 304


def test_pages_keep_their_own_policy() -> None:
    request = RequestFactory().get("/page/")
    response = CSPMiddleware(lambda r: HttpResponse("<p>page</p>"))(request)
    assert isinstance(response, HttpResponseBase)
    assert "style-src-attr 'none'" in response["Content-Security-Policy"]


def test_data_uri_for_printing() -> None:
    assert svg_data_uri("<svg/>").startswith("data:image/svg+xml;base64,")
