"""The console of events with starting flights (docs/festivals.md): the list and a new event,
the festival view (flights and days, bagging progress, the Day-2 draw), bag and tag per table
(a chip-counter page, confirmed by a second person), the end-of-day report, bag slips and bag
lists to print, and the places across the event; the public event page."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import FloorError
from core.figures import chips
from core.inputs import plain_text, whole_number, whole_number_or_none
from core.pdf import pdf_or_page
from core.roles import floor_required, is_director
from counts.models import CountSource
from counts.views import chips_typed
from festivals import services as fest
from festivals.domain.bagging import BagReport, Finding, Flag
from festivals.models import Advance, Bagging, FlightEvent
from festivals.report import day_report
from festivals.selectors import (
    bagging_report,
    event_standings,
    event_state,
    flight_labels,
    lines_by_table,
    open_bagging,
    table_findings,
    table_lines,
)
from tables.dealer_view import tablet_table
from tournament.events import Actor
from tournament.live import board_version
from tournament.models import Status, Tournament

BAG = "bag_"
COUNT = "count_"
# The fields of one table's bag form read at most (two per seat; Django caps a request at
# DATA_UPLOAD_MAX_NUMBER_FIELDS anyway).
MAX_FIELDS = 200


def _event(pk: int) -> FlightEvent:
    return get_object_or_404(FlightEvent.objects.select_related("day2"), pk=pk)


def _bagging(event: FlightEvent, pk: int) -> Bagging:
    return get_object_or_404(
        Bagging.objects.select_related("tournament", "event"), pk=pk, event=event
    )


def finding_text(f: Finding, numbers: dict[int, int]) -> str:
    """A plausibility flag in the reader's words (festivals/domain/bagging.py)."""
    who = f"#{numbers.get(f.entry_id, '?')}" if f.entry_id is not None else ""
    if f.flag is Flag.NOT_MULTIPLE:
        return _("%(who)s: %(c)s is not a multiple of the smallest chip in play (%(s)s).") % {
            "who": who,
            "c": chips(f.figures[0]),
            "s": chips(f.figures[1]),
        }
    if f.flag is Flag.FAR_ABOVE_LEADER:
        return _("%(who)s: %(c)s is far above the chip leader before the bag (%(r)s).") % {
            "who": who,
            "c": chips(f.figures[0]),
            "r": chips(f.figures[1]),
        }
    if f.flag is Flag.DISPUTED:
        return _("%(who)s: two counts disagree; count again.") % {"who": who}
    if f.flag is Flag.TABLE_SUM_OFF:
        return _("Table %(t)s: the bags add up to %(s)s, the counts before to %(b)s.") % {
            "t": f.table,
            "s": chips(f.figures[0]),
            "b": chips(f.figures[1]),
        }
    return _(
        "All bags add up to %(s)s chips; %(c)s are in play (tolerance %(tol)s): recount the tables flagged."
    ) % {"s": chips(f.figures[0]), "c": chips(f.figures[1]), "tol": chips(f.figures[2])}


def _findings(bagging: Bagging, found: BagReport | list[Finding]) -> list[dict[str, Any]]:
    findings = found.findings if isinstance(found, BagReport) else found
    ids = [f.entry_id for f in findings if f.entry_id is not None]
    numbers = dict(bagging.tournament.entries.filter(pk__in=ids).values_list("pk", "number"))
    return [
        {"text": finding_text(f, numbers), "table": f.table, "flag": f.flag.value} for f in findings
    ]


# --- The list and a new event ---------------------------------------------------------------


def _flight_cap(value: Any) -> int | None:
    """The cap of players per flight: blank is no cap (as the form's help says); anything else
    typed must be a whole number of at least 2, never read as "no cap"."""
    text = str(value or "").strip()
    if not text:
        return None
    return whole_number(
        text,
        low=2,
        message=_("Players per flight: a whole number of at least 2, or blank for no cap."),
        field="flight_cap",
    )


@floor_required
def festivals_home(request: HttpRequest) -> HttpResponse:
    typed: dict[str, str] = {}
    errors: dict[str, str] = {}
    if request.method == "POST":
        if not is_director(request.user):
            raise Http404
        typed = {k: str(v)[:120] for k, v in request.POST.items()}
        try:
            template = Tournament.objects.filter(
                pk=whole_number_or_none(request.POST.get("template", "")) or 0
            ).first()
            if template is None:
                raise FloorError(
                    _("Choose the tournament the flights are made from."), field="template"
                )
            event = fest.event_create(
                template=template,
                name=plain_text(request.POST.get("name", ""), longest=100, field="name"),
                flights=whole_number(
                    request.POST.get("flights", ""),
                    low=2,
                    high=fest.MAX_FLIGHTS,
                    message=_("An event has 2 to 26 starting flights."),
                    field="flights",
                ),
                advance=request.POST.get("advance", ""),
                reentry_across_flights=request.POST.get("reentry") == "on",
                flight_cap=_flight_cap(request.POST.get("flight_cap", "")),
                tolerance_bp=whole_number(
                    request.POST.get("tolerance_bp", "50"),
                    high=1000,
                    message=_("The count tolerance is 0 to 10 % of the chips in play."),
                    field="tolerance_bp",
                ),
                days_between=whole_number(
                    request.POST.get("days_between", "1"),
                    high=7,
                    message=_("Flights start 0 to 7 days apart."),
                    field="days_between",
                ),
                actor=Actor.from_request(request),
            )
        except FloorError as exc:
            if exc.field:
                # Beside the field it is about (templates/festivals/home.html).
                errors[exc.field] = str(exc)
                messages.error(request, _("The event was not made: see the field marked."))
            else:
                messages.error(request, str(exc))
        else:
            messages.success(request, _("Event “%(n)s” made.") % {"n": event.name})
            return redirect("festival", pk=event.pk)
    taken = set(FlightEvent.objects.values_list("day2_id", flat=True))
    candidates = (
        Tournament.objects.filter(
            status__in=[Status.PLANNED, Status.REGISTERING],
            pool_to__isnull=True,
            pooled=False,
            satellite_seat_value=0,
            bounty_kind="none",
        )
        .exclude(pk__in=taken)
        .order_by("starts_at")
    )
    return render(
        request,
        "festivals/home.html",
        {
            "events": [event_state(e, reports=False) for e in FlightEvent.objects.all()[:50]],
            "candidates": candidates,
            "advances": Advance.choices,
            "typed": typed,
            "errors": errors,
        },
        status=400 if request.method == "POST" else 200,
    )


# --- The festival view ------------------------------------------------------------------------


@floor_required
def festival(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(pk)
    status = 200
    if request.method == "POST":
        if not is_director(request.user):
            raise Http404
        actor = Actor.from_request(request)
        action = request.POST.get("action", "")
        try:
            if action == "bagging_open":
                t = get_object_or_404(
                    Tournament, pk=whole_number_or_none(request.POST.get("tournament", "")) or 0
                )
                if t.pk != event.day2_id and t.pk not in flight_labels(event):
                    raise Http404
                bagging = fest.bagging_open(tournament=t, actor=actor)
                messages.success(request, _("Bag and tag has begun."))
                return redirect("bagging", pk=event.pk, bag=bagging.pk)
            if action == "draw":
                if request.POST.get("confirm") != "on":
                    raise FloorError(_("Tick the box to confirm the Day-2 draw."))
                drawn = fest.day2_draw_run(
                    event=event, seeded=request.POST.get("how") == "seeded", actor=actor
                )
                messages.success(
                    request,
                    _("Day 2 drawn: %(p)s players at %(t)s tables.")
                    % {"p": drawn.players, "t": drawn.tables},
                )
                return redirect("festival", pk=event.pk)
            raise FloorError(_("Unknown action."))
        except FloorError as exc:
            # Refused: the page again with the reason, and a 4xx (docs/input.md).
            messages.error(request, str(exc))
            status = exc.status_code
    state = event_state(event)
    return render(
        request, "festivals/festival.html", {"event": event, "state": state}, status=status
    )


# --- Bag and tag --------------------------------------------------------------------------------


@floor_required
def bagging(request: HttpRequest, pk: int, bag: int) -> HttpResponse:
    event = _event(pk)
    bagging = _bagging(event, bag)
    status = 200
    if request.method == "POST":
        if not is_director(request.user):
            raise Http404
        actor = Actor.from_request(request)
        try:
            if request.POST.get("action") == "close":
                fest.bagging_close(
                    bagging=bagging,
                    actor=actor,
                    despite_flags=request.POST.get("despite_flags") == "on",
                )
                messages.success(request, _("The day is closed."))
            elif request.POST.get("action") == "reopen":
                fest.bagging_reopen(
                    bagging=bagging,
                    actor=actor,
                    reason=plain_text(request.POST.get("reason", ""), longest=200, field="reason"),
                )
                messages.success(request, _("The day is open again for corrections."))
            else:
                raise FloorError(_("Unknown action."))
        except FloorError as exc:
            # Refused: the page again with the reason, and a 4xx (docs/input.md).
            messages.error(request, str(exc))
            status = exc.status_code
        else:
            return redirect("bagging", pk=event.pk, bag=bagging.pk)
    # Read before the report: the page fetches itself once when its socket's hello is newer
    # (static/counts/live.js).
    version = board_version(bagging.tournament_id)
    report = bagging_report(bagging)
    return render(
        request,
        "festivals/bagging.html",
        {
            "event": event,
            "bagging": bagging,
            "report": report,
            "version": version,
            "findings": _findings(bagging, report),
            "done_tables": sum(1 for t in report.tables if not t.missing and not t.unverified),
            "reason": request.POST.get("reason", "")[:200] if status != 200 else "",
        },
        status=status,
    )


def _typed_bags(post: Any, lines: list[Any]) -> dict[int, tuple[int | None, str]]:
    """{entry id: (chips or None, bag)} for the players at the table, and for anyone else the
    form holds a count for (a player who busted or moved since the form was drawn): those go
    to the service too, which refuses the whole form naming them (nothing is dropped
    silently)."""
    out: dict[int, tuple[int | None, str]] = {}
    for line in lines:
        chips = chips_typed(post.get(f"{COUNT}{line.entry_id}", ""), number=line.number)
        bag = str(post.get(f"{BAG}{line.entry_id}", ""))[:40]
        if chips is None and bag.strip() and bag.strip().upper() != line.bag:
            raise FloorError(_("#%(n)s: enter the count with the bag number.") % {"n": line.number})
        out[line.entry_id] = (chips, bag)
    for key in list(post.keys())[:MAX_FIELDS]:
        entry_id = whole_number_or_none(key[len(COUNT) :]) if key.startswith(COUNT) else None
        if entry_id is None or entry_id in out:
            continue
        chips = chips_typed(str(post.get(key, "")))
        if chips is not None:
            out[entry_id] = (chips, str(post.get(f"{BAG}{entry_id}", ""))[:40])
    return out


def bag_table_page(
    request: HttpRequest,
    *,
    bagging: Bagging,
    table: int,
    actor: Actor,
    source: str,
    template: str,
    extra: dict[str, Any],
    back: str,
) -> HttpResponse:
    """One table's bag form, for the console's chip counter and the dealer tablet."""
    lines = table_lines(bagging, table)
    typed: dict[str, str] = {}
    status = 200
    if request.method == "POST":
        typed = {k: str(v)[:40] for k, v in request.POST.items()}
        try:
            if request.POST.get("action") == "confirm":
                n = fest.bags_confirm(
                    bagging=bagging, table_number=table, entry_ids=None, actor=actor
                )
                messages.success(
                    request,
                    ngettext("%(n)s count confirmed.", "%(n)s counts confirmed.", n) % {"n": n},
                )
            else:
                rows = fest.bags_record(
                    bagging=bagging,
                    table_number=table,
                    bags=_typed_bags(request.POST, lines),
                    actor=actor,
                    source=source,
                )
                confirmed = sum(1 for r in rows if r.verified_at)
                text = ngettext("%(n)s bag recorded.", "%(n)s bags recorded.", len(rows)) % {
                    "n": len(rows)
                }
                if confirmed:
                    text += " " + ngettext(
                        "%(c)s count confirmed by this second count.",
                        "%(c)s counts confirmed by this second count.",
                        confirmed,
                    ) % {"c": confirmed}
                messages.success(request, text)
            return redirect(back)
        except FloorError as exc:
            messages.error(request, str(exc))
            status = exc.status_code
    return render(
        request,
        template,
        {
            "bagging": bagging,
            "table": table,
            "rows": [
                {
                    "l": line,
                    "count": typed.get(f"{COUNT}{line.entry_id}", ""),
                    "bag": typed.get(f"{BAG}{line.entry_id}", line.bag),
                }
                for line in lines
            ],
            "open": bagging.closed_at is None,
            "flags": _findings(bagging, table_findings(bagging, table)),
            **extra,
        },
        status=status,
    )


@floor_required
def bag_table(request: HttpRequest, pk: int, bag: int, table: int) -> HttpResponse:
    event = _event(pk)
    bagging = _bagging(event, bag)
    if not table_lines(bagging, table) and request.method == "GET":
        raise Http404(_("Nobody sits at this table."))
    tables = sorted(lines_by_table(bagging))
    return bag_table_page(
        request,
        bagging=bagging,
        table=table,
        actor=Actor.from_request(request),
        source=CountSource.FLOOR,
        template="festivals/bag_table.html",
        extra={"event": event, "tables": tables},
        back=reverse("bag-table", args=[event.pk, bagging.pk, table]),
    )


@floor_required
def bag_report(request: HttpRequest, pk: int, bag: int) -> HttpResponse:
    """The end-of-day report: survivors and their bags by table, chip leaders, totals checked,
    who has no count yet. Printable."""
    event = _event(pk)
    bagging = _bagging(event, bag)
    report = bagging_report(bagging)
    lines = table_lines(bagging)
    by_id = {line.entry_id: line for line in lines}
    return render(
        request,
        "festivals/report.html",
        {
            "event": event,
            "bagging": bagging,
            "report": report,
            "findings": _findings(bagging, report),
            "by_table": lines_by_table(bagging),
            "leaders": [(by_id[e], c) for e, c in report.leaders if e in by_id],
            "missing": [line for line in lines if line.count is None],
            "survivors": len(lines),
            "within": abs(report.off_by) <= report.tolerance,
            "average": report.total // len(lines) if lines else 0,
        },
    )


@floor_required
def bag_slips(request: HttpRequest, pk: int, bag: int) -> HttpResponse:
    """Bag slips (one per player, to go in the bag) and bag lists per table, to print."""
    event = _event(pk)
    bagging = _bagging(event, bag)
    table = whole_number_or_none(request.GET.get("table", ""))
    by_table = lines_by_table(bagging)
    if table is not None:
        by_table = {table: by_table.get(table, [])}
    return render(
        request,
        "festivals/slips.html",
        {
            "event": event,
            "bagging": bagging,
            "by_table": by_table,
            "kind": "list" if request.GET.get("kind") == "list" else "slips",
        },
    )


@floor_required
def standings(request: HttpRequest, pk: int) -> HttpResponse:
    event = _event(pk)
    return render(
        request, "festivals/standings.html", {"event": event, "rows": event_standings(event)}
    )


# --- The day report -------------------------------------------------------------------------------


def _report_context(request: HttpRequest, pk: int, *, pdf: bool) -> dict[str, Any]:
    """The day report of `?day=YYYY-MM-DD` (a date the event plays on), or of the whole event."""
    event = _event(pk)
    try:
        day = date.fromisoformat(request.GET.get("day", ""))
    except ValueError:
        day = None
    report = day_report(event, day)
    if day is not None and day not in report.days:
        raise Http404("the event does not play on that day")
    title = (
        _("Day report: %(e)s, %(d)s") % {"e": event.name, "d": formats.date_format(day)}
        if day is not None
        else _("Event report: %(e)s") % {"e": event.name}
    )
    return {
        "event": event,
        "report": report,
        "title": title,
        "made_at": timezone.now(),
        "pdf": pdf,
        "query": f"?day={day.isoformat()}" if day is not None else "",
    }


@floor_required
def festival_report(request: HttpRequest, pk: int) -> HttpResponse:
    return render(request, "festivals/day_report.html", _report_context(request, pk, pdf=False))


@floor_required
def festival_report_pdf(request: HttpRequest, pk: int) -> HttpResponse:
    context = _report_context(request, pk, pdf=True)
    html = render_to_string("festivals/day_report_pdf.html", context, request=request)
    day = context["report"].day
    return pdf_or_page(
        request,
        html,
        filename=f"festival-{pk}{'-' + day.isoformat() if day else ''}.pdf",
        page=reverse("festival-report", args=[pk]) + context["query"],
        title=context["title"],
    )


# --- Public -------------------------------------------------------------------------------------


def festival_public(request: HttpRequest, pk: int) -> HttpResponse:
    """The event for players: flights, entries, the prize pool, survivors, the Day-2 seats and
    counts. No private data (display names only, as the tournaments' public pages)."""
    event = _event(pk)
    state = event_state(event, reports=False)
    return render(request, "festivals/public.html", {"event": event, "state": state})


def dealer_bags(request: HttpRequest, token: str) -> HttpResponse:
    """Bag and tag from the table's dealer tablet (`/d/<token>/bag/`): the table's players, a
    count and a bag number each; the tablet's link is its only authentication, as on every
    tablet page. A floor person confirms on the chip-counter page, or counts again."""
    table = tablet_table(request, token)
    if isinstance(table, HttpResponse):
        return table
    bagging = open_bagging(table.tournament)
    if bagging is None:
        return render(
            request, "festivals/dealer_bag.html", {"table_obj": table, "bagging": None}, status=404
        )
    return bag_table_page(
        request,
        bagging=bagging,
        table=table.number,
        actor=Actor.from_request(request, label=f"dealer, table {table.number}"),
        source=CountSource.DEALER,
        template="festivals/dealer_bag.html",
        extra={"table_obj": table, "token": token},
        back=reverse("dealer-bags", args=[token]),
    )
