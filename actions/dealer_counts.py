"""Chip counts from a dealer tablet (`/d/<table token>/counts/`): the table's seated players
with their last count, one big field each (a numeric keypad on phones and tablets), blank:
unchanged. Recorded through counts.services with `source="dealer"`.

This page combines two apps, so it lives in the layer above them: the tables app knows the
tablet (its token is its only authentication, as on every tablet page), the counts app records
counts. A tablet counts only the players seated at its own table; any other player is refused
and nothing is written. docs/counts.md, "From the dealer tablet"."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import Conflict, FloorError
from counts.models import CountSource
from counts.selectors import big_blind_now, latest_counts_of
from counts.services import table_counts_record
from counts.views import chips_typed
from tables.dealer_view import queue_texts, tablet_table
from tables.models import Table
from tables.views import keyed_answer, keyed_tablet_action
from tournament.events import Actor

FIELD = "count_"


def _seated(table: Table) -> list[Any]:
    """The table's seat rows in seat order, each with `last` (the latest count or None)."""
    rows = list(table.assignments.select_related("entry__player").order_by("seat"))
    latest = {
        c.entry_id: c for c in latest_counts_of(table.tournament_id, [r.entry_id for r in rows])
    }
    for r in rows:
        r.last = latest.get(r.entry_id)  # type: ignore[attr-defined]
    return rows


def _typed_counts(post: Any, seated: dict[int, int]) -> dict[int, int | None]:
    """{entry id: chips or None} from the form (`seated`: entry id -> player number). A field
    for a player not seated at this table (a forged form) is refused before anything is
    written; a player who moved since the page was drawn is refused by the service."""
    counts: dict[int, int | None] = {}
    for key, raw in post.items():
        if not key.startswith(FIELD):
            continue
        try:
            entry_id = int(key.removeprefix(FIELD))
        except ValueError:
            raise FloorError(_("Only the players at this table can be counted here.")) from None
        if entry_id not in seated:
            if raw.strip():
                raise FloorError(_("Only the players at this table can be counted here."))
            continue
        counts[entry_id] = chips_typed(raw, number=seated[entry_id])
    return counts


def _record(request: HttpRequest, table: Table, actor: Actor) -> str:
    """Record the typed counts of `table`'s players; the confirmation."""
    rows = _seated(table)
    counts = _typed_counts(request.POST, {r.entry_id: r.entry.number for r in rows})
    recorded = table_counts_record(
        tournament=table.tournament,
        table_number=table.number,
        counts=counts,
        actor=actor,
        source=CountSource.DEALER,
    )
    return ngettext(
        "Table %(t)s: %(n)s count recorded.",
        "Table %(t)s: %(n)s counts recorded.",
        len(recorded.counts),
    ) % {"t": table.number, "n": len(recorded.counts)}


def _counts_keyed(request: HttpRequest, token: str) -> HttpResponse:
    """The tablet's script sends the counts with a one-time key, at once or from its queue
    after a Wi-Fi drop (static/tables/tablet_queue.js): recorded once, the answer in JSON. The
    confirmation waits for the page the tablet shows next."""
    table, answer = keyed_tablet_action(
        request, token, "counts", lambda table, actor, _tapped: _record(request, table, actor)
    )
    if answer.ok and answer.message:
        messages.success(request, answer.message)
    return keyed_answer(request, table, answer)


def dealer_counts(request: HttpRequest, token: str) -> HttpResponse:
    if request.method == "POST" and "Idempotency-Key" in request.headers:
        return _counts_keyed(request, token)
    table = tablet_table(request, token)
    if isinstance(table, HttpResponse):
        return table
    rows = _seated(table)
    status = 200
    typed: dict[str, str] = {}
    if request.method == "POST":
        typed = {k: str(v)[:20] for k, v in request.POST.items() if k.startswith(FIELD)}
        try:
            message = _record(
                request, table, Actor.from_request(request, label=f"dealer, table {table.number}")
            )
        except FloorError as exc:
            messages.error(request, str(exc))
            status = 409 if isinstance(exc, Conflict) else 400
            rows = _seated(table)
        else:
            messages.success(request, message)
            # Back to this page, not the table: the tablet's page fetches its table again as
            # soon as its socket is up, and the confirmation would vanish with it. Here the
            # dealer sees the message and every player's new count, then goes back.
            return redirect("dealer-counts", token=token)
    elif request.method not in ("GET", "HEAD"):
        return HttpResponse(status=405)
    for r in rows:
        r.typed = typed.get(f"{FIELD}{r.entry_id}", "")
    response = render(
        request,
        "counts/dealer.html",
        {
            "table": table,
            "tournament": table.tournament,
            "rows": rows,
            "big_blind": big_blind_now(table.tournament),
            "queue_texts": queue_texts(),
        },
        status=status,
    )
    response["Cache-Control"] = "no-store"
    response["X-Robots-Tag"] = "noindex"
    return response
