"""The night's report (actions/report.py): a console page made to be printed on one A4 page,
and the same sheet as a PDF made with WeasyPrint (core/pdf.py). Floor staff only.

Where WeasyPrint cannot be loaded (no Pango on this machine) the PDF's address answers with a
page that says so and points to the print button, which always works."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from actions.report import night_report, report_charts, report_title
from core.pdf import pdf_or_page
from core.roles import floor_required
from tournament.views import get_tournament


def _context(pk: int, *, pdf: bool) -> dict[str, Any]:
    tournament = get_tournament(pk)
    return {
        "tournament": tournament,
        "report": night_report(tournament),
        "charts": report_charts(tournament),
        "title": report_title(tournament),
        "made_at": timezone.now(),
        "pdf": pdf,
    }


@floor_required
def report_page(request: HttpRequest, pk: int) -> HttpResponse:
    return render(request, "actions/report.html", _context(pk, pdf=False))


@floor_required
def report_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    context = _context(pk, pdf=True)
    html = render_to_string("actions/report_pdf.html", context, request=request)
    return pdf_or_page(
        request,
        html,
        filename=f"report-{pk}.pdf",
        page=reverse("report", args=[pk]),
        title=context["title"],
    )
