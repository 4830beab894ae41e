"""Seating chart (console) and the dealer's table view (opened with the table's token)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.db.models import Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import Resolver404, resolve, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from actions.bust import report_resolve
from actions.tables import hand_done
from core.errors import Conflict, FloorError
from core.inputs import (
    next_url,
    plain_text,
    search_text,
    whole_number,
    whole_number_or_none,
    whole_numbers,
)
from core.links import public_url
from core.qr import qr_svg
from core.roles import floor_required, is_director
from rules_engine.selectors import show_order_ruling, show_order_text, tournament_version
from tables import services as svc
from tables.dealer_view import dealer_context, dealer_seats, seat_marks, tablet_table
from tables.domain.shotclock import cards_left
from tables.models import ReportKind, SeatAssignment, ShotClock, Table, TableReport
from tables.selectors import room_totals
from tables.services.tablet_keys import (
    KEY_LENGTH,
    Answer,
    fingerprint,
    keyed_action,
    tablet_key,
)
from tournament.desk_views import finish_message
from tournament.events import Actor
from tournament.field import field_is_final
from tournament.forms import chips_or_none, entry_numbers
from tournament.live import board_version
from tournament.models import Entry, EntryStatus, Event, Tournament
from tournament.selectors import entries_found
from tournament.views import console_context, get_tournament

# --- Console: seating chart -----------------------------------------------------------------


def _chart(tournament: Tournament, only: set[int] | None = None) -> dict[str, Any]:
    """The seating chart. `only`: the cards of these table numbers alone (the console asks for
    the tables a live message named); the figures above the cards are for the whole room."""
    open_tables = tournament.tables.filter(is_open=True)
    if only is not None:
        open_tables = open_tables.filter(number__in=only)
    tables = list(
        open_tables.order_by("number").prefetch_related(
            Prefetch(
                "assignments",
                queryset=SeatAssignment.objects.select_related("entry__player").order_by("seat"),
            )
        )
    )
    plan = svc.balance_plan(tournament) if tables else None
    moving = {m.entry for m in plan.moves} if plan else set()
    holds = set(plan.holds) if plan else set()
    cards: list[dict[str, Any]] = []
    for t in tables:
        rows = list(t.assignments.all())
        seats = seat_marks(t, {r.seat: r for r in rows})
        for s in seats:
            s["sb"] = s["sb"] and not s["heads_up"]  # heads-up: the button posts the small blind
            s["moving"] = s["row"] is not None and s["row"].entry_id in moving
        cards.append(
            {
                "table": t,
                "count": len(rows),
                "seats": seats,
                "hold": t.number in holds,
                "h4h_done": tournament.hand_for_hand and t.h4h_done_round >= tournament.h4h_round,
            }
        )
    if tournament.shot_clock:
        _chart_shot_clocks(tournament, cards)
    room = room_totals(tournament)
    return {
        "cards": cards,
        "open_tables": room.open_tables,
        "partial": only is not None,
        "plan": plan,
        "together": _numbers_of_pairs(tournament, plan.together if plan else ()),
        "players_seated": room.seated,
        "suggest_break": room.break_due(tournament),
        "final_ready": room.open_tables > 1 and room.seated <= tournament.final_table_size,
        "unseated": room.unseated,
        # A reported bust whose player is out already (busted at the desk, say) is moot.
        "reports": _reports_by_hand(
            TableReport.objects.filter(table__tournament=tournament, resolved_at__isnull=True)
            .filter(
                Q(kind__in=[ReportKind.FLOOR, ReportKind.CONFLICT])
                | Q(entry__status=EntryStatus.ACTIVE)
            )
            .select_related("table", "entry__player")
        ),
        "h4h_pending": [c["table"].number for c in cards if not c["h4h_done"]]
        if tournament.hand_for_hand
        else [],
        "last_moves": Event.objects.filter(
            tournament=tournament, action__in=["seats.balance", "seats.break", "seats.final"]
        )
        .order_by("-id")
        .first(),
        "spread": room.spread,
    }


def _chart_shot_clocks(tournament: Tournament, cards: list[dict[str, Any]]) -> None:
    """Each card's shot clock and its players' time-bank cards left (two queries in all)."""
    clocks = {
        c.table_id: c for c in ShotClock.objects.filter(table__in=[c["table"] for c in cards])
    }
    used = svc.cards_used_by_entry(s["row"].entry_id for c in cards for s in c["seats"] if s["row"])
    rules = svc.shot_clock_rules(tournament)
    for c in cards:
        c["table"].tournament = tournament
        c["shot_clock"] = svc.shot_clock_payload(c["table"], clocks.get(c["table"].pk))
        for s in c["seats"]:
            s["cards_left"] = (
                cards_left(rules, used.get(s["row"].entry_id, 0)) if s["row"] else None
            )


def _numbers_of_pairs(
    tournament: Tournament, pairs: Iterable[tuple[int, int]]
) -> list[tuple[int, int]]:
    """Keep-apart pairs (entry ids) as the player numbers the floor knows."""
    pairs = list(pairs)
    if not pairs:
        return []
    ids = {i for pair in pairs for i in pair}
    numbers = dict(tournament.entries.filter(pk__in=ids).values_list("pk", "number"))
    return [(numbers[a], numbers[b]) for a, b in pairs if a in numbers and b in numbers]


def _reports_by_hand(reports: Iterable[TableReport]) -> list[list[TableReport]]:
    """Waiting reports, busts of the same hand together (one form confirms them all, so they
    are ranked together); floor calls one by one."""
    groups: dict[tuple[object, ...], list[TableReport]] = {}
    for r in reports:
        if r.kind != ReportKind.BUST:
            key: tuple[object, ...] = ("call", r.pk)
        elif r.h4h_round is not None:
            key = ("round", r.h4h_round)
        else:
            key = ("hand", r.table_id, r.hand_number)
        groups.setdefault(key, []).append(r)
    return list(groups.values())


@floor_required
def seating(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    whole_page = not getattr(request, "htmx", None)
    # The whole page says the version it was rendered at, read before the chart: the console's
    # socket says the version it must have seen, and a change committed between the two reads
    # is then fetched once more, never missed. The console's fetches of changed cards need none.
    version = board_version(tournament.pk) if whole_page else None
    context = console_context(
        tournament, "seating", **_chart(tournament, _table_numbers(request.GET.get("tables")))
    )
    context["chart_version"] = version
    _keep_typed_reports(request, context)
    q = search_text(request.GET.get("q"))
    if q:
        context["query"] = q

        context["found"] = entries_found(tournament, q, 20)
    template = "tables/seating.html" if whole_page else "tables/_chart.html"
    return render(request, template, context)


def _table_numbers(text: str | None) -> set[int] | None:
    """`?tables=3,7`: the table numbers a live message named (bad parts are dropped)."""
    if text is None:
        return None
    return {
        int(part)
        for part in text.split(",")[:200]  # static/tables/console.js MAX_TABLES
        if part.isascii() and part.isdigit() and len(part) < 7
    }


@floor_required
@require_POST
def seating_action(request: HttpRequest, pk: int, action: str) -> HttpResponse:
    tournament = get_tournament(pk)
    actor = Actor.from_request(request)
    post = request.POST
    try:
        if action == "draw":
            n = svc.seats_draw(tournament=tournament, actor=actor, redraw=post.get("redraw") == "1")
            messages.success(request, _("%(n)s players seated.") % {"n": n})
        elif action == "open":
            count = _int(post.get("count"), _("Enter how many tables to open."))
            svc.tables_create(
                tournament=tournament,
                count=count,
                actor=actor,
                area=search_text(post.get("area"), longest=60),
            )
            messages.success(request, _("Tables opened."))
        elif action == "balance":
            moves = svc.balance_apply(
                tournament=tournament, signature=post.get("signature", ""), actor=actor
            )
            messages.success(
                request,
                ngettext("%(n)s player moved.", "%(n)s players moved.", len(moves))
                % {"n": len(moves)},
            )
        elif action == "break":
            number = _int(post.get("table"), _("Choose a table."))
            moves = svc.table_break(tournament=tournament, number=number, actor=actor)
            messages.success(
                request,
                ngettext(
                    "Table %(t)s broken: %(n)s player moved.",
                    "Table %(t)s broken: %(n)s players moved.",
                    len(moves),
                )
                % {"t": number, "n": len(moves)},
            )
        elif action == "final":
            svc.final_table_draw(tournament=tournament, actor=actor)
            messages.success(request, _("The final table is drawn."))
        elif action == "h4h":
            on = post.get("on") == "1"
            svc.hand_for_hand_set(tournament=tournament, on=on, actor=actor)
            messages.success(
                request, _("Hand-for-hand is on.") if on else _("Hand-for-hand is off.")
            )
        elif action == "time_banks_day":
            if not is_director(request.user):
                raise PermissionDenied
            n = svc.time_banks_reset(tournament=tournament, occasion="day", actor=actor)
            messages.success(
                request,
                _("New day: every player has all time-bank cards again (%(n)s had used some).")
                % {"n": n},
            )
        elif action == "undo":
            n = svc.moves_undo(
                tournament=tournament,
                event_id=_int(post.get("event"), _("Nothing to undo.")),
                actor=actor,
            )
            messages.success(request, _("%(n)s players are back in their old seats.") % {"n": n})
        elif action == "button":
            table = get_object_or_404(
                Table, tournament=tournament, number=_int(post.get("table"), _("Choose a table."))
            )
            svc.button_set(
                table=table, seat=_int(post.get("seat"), _("Choose a seat.")), actor=actor
            )
            messages.success(request, _("Button set."))
        elif action == "move":
            entry = get_object_or_404(
                Entry, tournament=tournament, number=_int(post.get("entry"), _("Choose a player."))
            )
            svc.seat_move(
                tournament=tournament,
                entry=entry,
                table_number=_int(post.get("table"), _("Choose a table.")),
                seat=_int(post.get("seat"), _("Choose a seat.")),
                actor=actor,
            )
            messages.success(request, _("Player moved."))
        elif action == "report":
            report = get_object_or_404(
                TableReport,
                pk=_int(post.get("report"), _("Choose a report.")),
                table__tournament=tournament,
            )
            ids = whole_numbers(post.getlist("reports"), most=20)
            report_resolve(
                report=report,
                confirm=post.get("confirm") == "1",
                actor=actor,
                eliminated_by={
                    i: entry_numbers(post.get(f"by_{i}", post.get("by", "")))
                    for i in ids or [report.pk]
                },
                stacks={i: chips_or_none(post.get(f"stack_{i}")) for i in ids},
            )
            messages.success(request, _reports_message(report))
        else:
            raise Http404
    except FloorError as exc:
        messages.error(request, str(exc))
        if action == "report":
            # Refused: the stacks and numbers typed for the reports come back on the page.
            request.session[KEPT_REPORT_INPUT] = {
                k: str(post.get(k, ""))[:20]
                for k in list(post)[:100]
                if k.startswith(("stack_", "by_"))
            }
        if not getattr(request, "htmx", None):
            return _refused_on_page(request, pk, exc)
    return redirect(next_url(request, default=reverse("seating", args=[pk])))


def _refused_on_page(request: HttpRequest, pk: int, exc: FloorError) -> HttpResponse:
    """A refused seating action answers with its refusal's status (docs/input.md): the page
    the form came from (the chart or one table's page, as `next` says) is drawn at once with
    the reason, instead of a redirect to it."""
    target = next_url(request, default=reverse("seating", args=[pk]))
    try:
        match = resolve(urlsplit(target).path)
    except Resolver404:
        match = None
    if match is not None and match.url_name == "table-detail":
        response = table_detail(request, *match.args, **match.kwargs)
    else:
        response = seating(request, pk)
    response.status_code = exc.status_code
    return response


# The session key holding what was typed for dealer reports when confirming them was refused.
KEPT_REPORT_INPUT = "seating.kept_report_input"


def _keep_typed_reports(request: HttpRequest, context: dict[str, Any]) -> None:
    """Put back on each report what was typed for it before a refused confirmation."""
    kept = request.session.pop(KEPT_REPORT_INPUT, None)
    if not kept:
        return
    for group in context.get("reports", []):
        for r in group:
            if f"stack_{r.pk}" in kept:
                r.kept_stack = kept[f"stack_{r.pk}"]
            if f"by_{r.pk}" in kept:
                r.kept_by = kept[f"by_{r.pk}"]


def _int(value: str | None, message: str) -> int:
    return whole_number(value, low=0, message=message)


@floor_required
def move_slips(request: HttpRequest, pk: int, event_id: int) -> HttpResponse:
    """Printable move slips: one per moved player."""
    tournament = get_tournament(pk)
    event = get_object_or_404(Event, pk=event_id, tournament=tournament)
    moves = (event.payload or {}).get("moves", [])

    entries = {
        e.pk: e
        for e in Entry.objects.filter(pk__in=[m["entry"] for m in moves]).select_related("player")
    }
    areas = dict(tournament.tables.values_list("number", "area"))
    slips = [
        {**m, "e": entries.get(m["entry"]), "area": areas.get(m["to_table"], "")} for m in moves
    ]
    return render(
        request, "tables/slips.html", {"tournament": tournament, "slips": slips, "event": event}
    )


@floor_required
def table_detail(request: HttpRequest, pk: int, number: int) -> HttpResponse:
    """Console page of one table: dealer link and QR, button, seats, token renewal."""
    tournament = get_tournament(pk)
    table = get_object_or_404(Table, tournament=tournament, number=number)
    if request.method == "POST" and request.POST.get("action") == "renew":
        svc.dealer_token_renew(table=table, actor=Actor.from_request(request))
        messages.success(request, _("A new dealer link was issued; the old one no longer works."))
        return redirect("table-detail", pk=pk, number=number)
    link = public_url(reverse("dealer", args=[table.dealer_token]), request)
    context = console_context(
        tournament,
        "seating",
        table=table,
        dealer_link=link,
        qr=qr_svg(link),
        seats=dealer_seats(table),
    )
    return render(request, "tables/table_detail.html", context)


# --- Dealer tablet --------------------------------------------------------------------------


def _table_by_token(token: str) -> Table:
    table = Table.objects.select_related("tournament").filter(dealer_token=token).first()
    if table is None or not table.is_open:
        raise Http404
    return table


def seat_position(n: int, size: int) -> str:
    """Seats around an oval: the dealer sits at the bottom, seat 1 on the dealer's left and the
    numbers run clockwise. Written out for every table size in static/tables/felt.css (no style
    attribute on the page); a test keeps the two the same."""
    gap = 50.0
    t = math.radians(gap / 2 + (n - 0.5) * (360 - gap) / size)
    x = 50 - 43 * math.sin(t)
    y = 50 + 40 * math.cos(t)
    return f"left:{x:.1f}%;top:{y:.1f}%"


def _show_order_hint(table: Table, seats: list[dict[str, Any]], query: Any) -> dict[str, Any]:
    """The dealer's "who shows first?" sheet: the seats ticked as still in the hand (all
    seated players at first), the last bet or raise and the all-ins, with this table's button
    and size, ruled under the tournament's ruleset (tda-de 16-17, bdpv 2.5.5, 6.27)."""
    if not table.button_seat:
        return {}
    occupied = [s["n"] for s in seats if s["row"]]
    asked = "show" in query
    facts = {
        "seats": query.getlist("in_hand") if asked else occupied,
        "button": table.button_seat,
        "table_seats": table.seats,
        "aggressor": query.get("aggressor") if asked else None,
        "all_in": query.getlist("all_in") if asked else [],
    }
    try:
        result = show_order_ruling(
            facts, table.tournament.ruleset, tournament_version(table.tournament)
        )
    except FloorError as exc:
        return {"error": str(exc)}
    text, steps = show_order_text(result)
    return {"result": result, "text": text, "steps": steps}


def dealer(request: HttpRequest, token: str) -> HttpResponse:
    table = tablet_table(request, token)
    if isinstance(table, HttpResponse):
        return table
    template = "tables/_dealer.html" if getattr(request, "htmx", None) else "tables/dealer.html"
    context = dealer_context(table)
    context["show_order"] = _show_order_hint(table, context["seats"], request.GET)
    if getattr(request, "htmx", None) and "show" in request.GET:
        template = "tables/_show_order.html"
    response = render(request, template, context)
    response["Cache-Control"] = "no-store"
    response["X-Robots-Tag"] = "noindex"
    return response


def _version(post: Any, tapped: datetime | None = None) -> int | None:
    """The shot clock's version the tablet showed (a double tap is recognised by it); none
    for a tap the tablet kept offline (its view is old by then; its key counts it once)."""
    if tapped is not None:
        return None
    return whole_number_or_none(post.get("version"), low=0, high=2_000_000_000)


def _reports_message(report: TableReport) -> str:
    """What confirming did: each player's place, best first."""
    report.refresh_from_db()
    if report.resolution != "confirmed":
        return _("Report handled.")
    done = TableReport.objects.filter(
        table__tournament_id=report.table.tournament_id,
        resolution="confirmed",
        resolved_at=report.resolved_at,
    ).select_related("entry__player")
    # Everyone of the hands just confirmed, those recorded before in the same hand included
    # (their places may have moved).
    groups = {r.entry.bust_group for r in done if r.entry is not None}
    out = sorted(
        Entry.objects.filter(tournament_id=report.table.tournament_id, bust_group__in=groups)
        .exclude(bust_group=None)
        .select_related("player", "tournament"),
        key=lambda e: e.place or 0,
    )
    final = field_is_final(report.table.tournament)
    return " ".join(finish_message(e, final=final) for e in out)


# The dealer tablet's actions (`/d/<token>/<action>/`).
DEALER_ACTIONS = frozenset(
    {"hand", "bust", "floor", "time", "time_cancel", "shot_start", "shot_stop", "time_bank"}
)
# How far back a tablet's tap may date an action it kept offline (a time call, the shot clock).
_TAPPED_WITHIN = timedelta(hours=6)


def _do_dealer_action(
    table: Table, action: str, post: Any, actor: Actor, tapped: datetime | None = None
) -> str:
    """Do one tablet action; the confirmation for the dealer ("" for none). Raises FloorError
    when refused. `tapped`: when the dealer tapped an action the tablet kept while offline
    (sent later): a time call and the shot clock count from then, a shot clock tap is not
    checked against the clock's version (its key counts it once), and "hand done" for a hand
    that is no longer the table's is a conflict rather than a silent repeat."""
    if action == "hand":
        hand = post.get("hand")
        number = _int(hand, _("The hand number is a whole number.")) if hand else None
        if tapped is not None and number is not None and number != table.hand_number:
            raise Conflict(
                _("Hand %(h)s was finished meanwhile: the table is at hand %(now)s.")
                % {"h": number + 1, "now": table.hand_number + 1}
            )
        hand_done(table=table, actor=actor, hand_number=number)
        return ""
    if action == "bust":
        seat = _int(post.get("seat"), _("Choose the seat of the player who is out."))
        svc.report_bust(
            table=table,
            seat=seat,
            stack_at_hand_start=chips_or_none(post.get("stack")),
            actor=actor,
            entry_id=whole_number_or_none(post.get("entry"), low=1),
        )
        return _("Bust reported; the floor is on the way.")
    if action == "floor":
        svc.call_floor(table=table, note=plain_text(post.get("note"), longest=200), actor=actor)
        return _("The floor has been called.")
    if action == "time":
        svc.time_call_start(
            table=table,
            seat=whole_number_or_none(post.get("seat"), low=1, high=10),
            actor=actor,
            now=tapped,
        )
    elif action == "time_cancel":
        svc.time_call_cancel(table=table, actor=actor)
    elif action == "shot_start":
        svc.shot_clock_start(table=table, version=_version(post, tapped), now=tapped)
    elif action == "shot_stop":
        svc.shot_clock_stop(table=table, version=_version(post, tapped))
    elif action == "time_bank":
        svc.time_bank_use(
            table=table,
            seat=whole_number(
                post.get("seat"), low=1, high=10, message=_("Choose the player's seat.")
            ),
            actor=actor,
            version=_version(post, tapped),
            now=tapped,
        )
    return ""


def _action_words(action: str, post: Any) -> str:
    """A tablet action in words, for the floor's report of one that was not applied."""
    seat = whole_number_or_none(post.get("seat"), low=1, high=10) if post.get("seat") else None
    hand = whole_number_or_none(post.get("hand"), low=0) if post.get("hand") else None
    if action == "hand":
        return _("Hand %(h)s done") % {"h": hand + 1} if hand is not None else _("Hand done")
    if action == "bust":
        return _("Bust in seat %(s)s") % {"s": seat}
    if action == "time":
        return _("Clock called on seat %(s)s") % {"s": seat} if seat else _("Clock called")
    if action == "time_bank":
        return _("Time-bank card for seat %(s)s") % {"s": seat}
    return str(
        {
            "floor": _("Call the floor"),
            "time_cancel": _("Clock call stopped"),
            "shot_start": _("Shot clock started"),
            "shot_stop": _("Shot clock stopped"),
            "counts": _("Chip counts"),
        }.get(action, action)
    )


class TableClosed(FloorError):
    status_code = 410


def tapped_at(request: HttpRequest) -> datetime | None:
    """When the dealer tapped an action the tablet kept offline and sends now: the
    `X-Floor-Queued` header, milliseconds since 1970 on the server's clock (the tablet keeps
    the offset). None for an action sent at once. A time in the future is now; one older than
    six hours is six hours ago."""
    raw = request.headers.get("X-Floor-Queued")
    if raw is None:
        return None
    now = timezone.now()
    try:
        ms = int(raw.strip())
        when = datetime.fromtimestamp(ms / 1000, tz=UTC)
    except (ValueError, OverflowError, OSError):
        return now
    return min(now, max(now - _TAPPED_WITHIN, when))


def keyed_tablet_action(
    request: HttpRequest,
    token: str,
    action: str,
    do: Callable[[Table, Actor, datetime | None], str],
) -> tuple[Table | None, Answer]:
    """A tablet action sent with its one-time key (`Idempotency-Key`): done once, its first
    answer kept and given again for the same key (tables/services/tablet_keys.py). A refused
    action the tablet had kept offline is reported to the floor with its reason."""
    try:
        key = tablet_key(request.headers.get("Idempotency-Key"))
    except FloorError as exc:
        return None, Answer(status=400, message=str(exc), code=exc.code)
    if not key:
        return None, Answer(
            status=400,
            message=_("The action key must be 1 to %(n)s printable characters.")
            % {"n": KEY_LENGTH},
            code="bad_key",
        )
    table = Table.objects.select_related("tournament").filter(dealer_token=token).first()
    if table is None:
        return None, Answer(
            status=404,
            message=_("This table link was revoked. Ask the floor for the new one."),
            code="revoked",
        )
    actor = Actor.from_request(request, label=f"dealer, table {table.number}")
    tapped = tapped_at(request)
    post = request.POST
    fields = [
        (k, str(v)) for k, values in post.lists() if k != "csrfmiddlewaretoken" for v in values
    ]

    def run() -> str:
        if not Table.objects.filter(pk=table.pk, is_open=True).exists():
            raise TableClosed(
                _("This table was broken. Ask the floor where to go next."), code="closed"
            )
        table.refresh_from_db()
        return do(table, actor, tapped)

    def report(exc: FloorError) -> None:
        svc.report_not_applied(
            table=table,
            what=_action_words(action, post),
            reason=str(exc),
            actor=actor,
            seat=whole_number_or_none(post.get("seat"), low=1, high=10),
            entry_id=whole_number_or_none(post.get("entry"), low=1),
        )

    try:
        answer = keyed_action(
            table=table,
            key=key,
            action=action,
            digest=fingerprint(action, fields),
            run=run,
            on_refusal=report if tapped is not None else None,
        )
    except FloorError as exc:  # the key was used for another action
        answer = Answer(status=exc.status_code, message=str(exc), code=exc.code)
    return table, answer


def keyed_answer(
    request: HttpRequest, table: Table | None, answer: Answer, html: str = ""
) -> JsonResponse:
    """The answer to a keyed tablet action, for the tablet's script: whether it was done, the
    message, whether it is a repeat, whether the floor was told, and the table to show."""
    response = JsonResponse(
        {
            "ok": answer.ok,
            "status": answer.status,
            "message": answer.message,
            "code": answer.code,
            "replayed": answer.replayed,
            "reported": answer.reported,
            "html": html,
        },
        status=answer.status,
    )
    response["Idempotent-Replayed"] = "true" if answer.replayed else "false"
    response["Cache-Control"] = "no-store"
    return response


@require_POST
def dealer_action(request: HttpRequest, token: str, action: str) -> HttpResponse:
    if action not in DEALER_ACTIONS:
        raise Http404
    if "Idempotency-Key" in request.headers:
        return _dealer_action_keyed(request, token, action)
    table = _table_by_token(token)
    actor = Actor.from_request(request, label=f"dealer, table {table.number}")
    try:
        message = _do_dealer_action(table, action, request.POST, actor)
        if message:
            messages.success(request, message)
    except FloorError as exc:
        messages.error(request, str(exc))
        if not getattr(request, "htmx", None):
            # A plain form post (no script) gets the tablet page with the reason and the
            # refusal's status; the tablet's own requests (htmx) swap only a 200, so they keep it.
            response = dealer(request, token)
            response.status_code = exc.status_code
            return response
    if getattr(request, "htmx", None):
        table.refresh_from_db()
        return render(request, "tables/_dealer.html", dealer_context(table))
    return redirect("dealer", token=token)


def _dealer_action_keyed(request: HttpRequest, token: str, action: str) -> HttpResponse:
    """The tablet's script sends each action with its key, at once or, after a Wi-Fi drop,
    from its queue (static/tables/tablet_queue.js): the answer is JSON with the table."""
    post = request.POST

    def do(table: Table, actor: Actor, tapped: datetime | None) -> str:
        return _do_dealer_action(table, action, post, actor, tapped)

    table, answer = keyed_tablet_action(request, token, action, do)
    html = ""
    if table is not None:
        table.refresh_from_db()
        if table.is_open:
            # A refusal reported to the floor shows on the tablet as "not applied", once.
            if answer.message and not answer.reported:
                (messages.success if answer.ok else messages.error)(request, answer.message)
            html = render_to_string("tables/_dealer.html", dealer_context(table), request=request)
    return keyed_answer(request, table, answer, html)
