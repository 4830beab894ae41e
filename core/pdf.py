"""PDF files made from a page's HTML with WeasyPrint (the printed reports, docs/results.md).

WeasyPrint needs the system's Pango (a C library, not a Python package): where it is missing
the import fails with OSError, not ImportError. So it is loaded on first use, and a page that
offers a PDF asks `pdf_or_none` and answers with a page that says so (and points to the print
button, which always works) instead of an error. Nothing is fetched from outside while a PDF is
made: only `data:` addresses are read (the charts are embedded as data URIs), so a name in the
page can never make the server request an address.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

# The printed reports' stylesheet (the night's report, the festival's day report): the pages
# link it, WeasyPrint reads it from the static files.
REPORT_CSS = "floor/report.css"


class PdfUnavailable(Exception):
    """WeasyPrint or the system libraries it needs cannot be loaded here."""


def _weasyprint() -> Any:
    try:
        import weasyprint  # inside: optional, needs the system's Pango; loaded on first use
    except (ImportError, OSError) as exc:
        raise PdfUnavailable(str(exc) or exc.__class__.__name__) from exc
    return weasyprint


def pdf_available() -> bool:
    try:
        _weasyprint()
    except PdfUnavailable:
        return False
    return True


def pdf_bytes(html: str, *, css: Sequence[str] = ()) -> bytes:
    """The PDF of `html`, styled by the CSS texts `css` (print media). Raises PdfUnavailable."""
    weasyprint = _weasyprint()
    fetcher = weasyprint.urls.URLFetcher(allowed_protocols={"data"}, fail_on_errors=False)
    document = weasyprint.HTML(string=html, url_fetcher=fetcher, media_type="print")
    sheets = [weasyprint.CSS(string=text, url_fetcher=fetcher) for text in css]
    return bytes(document.write_pdf(stylesheets=sheets))


def pdf_response(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response


def static_text(name: str) -> str:
    """A static file's text (a stylesheet for WeasyPrint), empty when there is none."""
    path = finders.find(name)
    if not path or isinstance(path, list):
        return ""
    with open(path, encoding="utf-8") as f:
        return f.read()


def pdf_or_page(
    request: HttpRequest, html: str, *, filename: str, page: str, title: str
) -> HttpResponse:
    """The PDF of a report's `html`; where no PDF can be made here, a page that says so and
    leads to the report's `page` to print it (never an error)."""
    try:
        data = pdf_bytes(html, css=[static_text(REPORT_CSS)])
    except PdfUnavailable:
        return render(
            request,
            "pdf_unavailable.html",
            {
                "page": page,
                "title": title,
                "message": _(
                    "This installation cannot make PDF files: WeasyPrint or the system's Pango "
                    "library is missing. Open the report and use the Print button: the browser "
                    "prints the same page, or saves it as a PDF."
                ),
            },
        )
    return pdf_response(data, filename)
