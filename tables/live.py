"""What the tables' screens are sent when seats, a button or a hand change.

A dealer tablet gets its whole table, rendered (the same fragment its page shows) in its page's
language; it swaps it in and asks for nothing. A table is rendered only in the languages of the
tablets listening to it now (live/realtime.py `listened`, one group per table and
language); a tablet that connects later loads its table then.
The console gets the numbers of the changed tables and fetches only those. Both are built when
the transaction commits, from what is committed (live/realtime.py send_on_commit); the
messages are declared in live/catalogue.py.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.template.loader import render_to_string
from django.utils import translation

from live import realtime
from live.realtime import (
    broadcast_on_commit,
    console_group,
    public_table_group,
    send_on_commit,
    table_group,
)
from tables.dealer_view import dealer_contexts, tournament_clock
from tables.messages import TableView
from tables.models import Table
from tables.selectors import public_table_views


def table_view(
    table: Table, context: dict[str, Any], languages: Iterable[str] | None = None
) -> TableView:
    """The tablet's fragment of `table` in `languages` (default: every language the product
    speaks), from the table's `dealer_context` (read once for several languages). Forms carry no
    CSRF token here (the page's token rides on every htmx request, tables/dealer.html)."""
    html: dict[str, str] = {}
    codes = [code for code, _name in settings.LANGUAGES] if languages is None else languages
    for code in codes:
        with translation.override(code):
            html[code] = render_to_string("tables/_dealer.html", context)
    return {"table": table.number, "html": html, "hand_level": table.hand_level}


def notify_tables(tournament_id: int, table_ids: Iterable[int], *, console: bool = True) -> None:
    """Send the changed tables' views to their tablets and their numbers to the console, when
    the transaction commits. Closed tables get no view (their tablets were told to close); the
    console is given their numbers too, and drops them."""
    ids = sorted(set(table_ids))
    if not ids:
        return
    tables: dict[int, Table] = {}
    # The first view built finds out, in one round trip, which of the tables' groups a tablet
    # listens to, and reads all of those tables' views' rows together (a break or a balancing
    # move changes several tables at once; their views are built one after the other on the
    # builder thread): the later builders of the same change use what it read.
    listening: set[str] | None = None
    contexts: dict[int, dict[str, Any]] = {}  # a table's dealer context, for every language

    def load() -> None:
        if not tables:
            rows = Table.objects.filter(pk__in=ids).select_related("tournament")
            tables.update({t.pk: t for t in rows})
            # One copy of the tournament for every table, so its structure is read once.
            first = next(iter(tables.values()), None)
            if first is not None:
                for t in tables.values():
                    t.tournament = first.tournament

    public: dict[int, dict[str, Any]] = {}  # a table's public page view, by table id

    def load_contexts() -> None:
        nonlocal listening
        groups = [table_group(pk, code) for pk in ids for code, _name in settings.LANGUAGES]
        # The tables' public pages are asked about in the same question.
        found = realtime.listened_of(groups + [public_table_group(pk) for pk in ids])
        if found:
            load()
            wanted = [
                t
                for pk, t in tables.items()
                if t.is_open
                and any(table_group(pk, code) in found for code, _n in settings.LANGUAGES)
            ]
            if wanted:
                # Only a rendered table shows the clock: the console's numbers do without it.
                clock = tournament_clock(wanted[0].tournament)
                contexts.update(dealer_contexts(wanted, clock))
            shown = [t for pk, t in tables.items() if public_table_group(pk) in found]
            if shown:
                public.update({pk: dict(view) for pk, view in public_table_views(shown).items()})
        # Only once read: a read that failed (SQLite busy, the pool's timeout) is made again by
        # the retry or by the change's next view, not skipped by all of them.
        listening = found

    def public_of(table_id: int) -> Any:
        def build() -> dict[str, Any] | None:
            if listening is None:
                load_contexts()
            return public.get(table_id)  # None: no public page open at the table

        return build

    def view_of(table_id: int, language: str) -> Any:
        def build() -> dict[str, Any] | None:
            if listening is None:
                load_contexts()
            assert listening is not None
            if table_group(table_id, language) not in listening or table_id not in contexts:
                # No tablet in this language when the change's first view was built (one that
                # connects later loads the table), or the table is closed.
                return None
            return dict(table_view(tables[table_id], contexts[table_id], languages=[language]))

        return build

    for table_id in ids:
        for language, _name in settings.LANGUAGES:
            send_on_commit(table_group(table_id, language), "table", view_of(table_id, language))
        send_on_commit(public_table_group(table_id), "seats", public_of(table_id))
    if console:

        def numbers() -> dict[str, Any] | None:
            if not realtime.listened(console_group(tournament_id)):
                return None  # no console open; one that opens reads the whole chart
            # The numbers only: the tables' rows are read when a tablet's view needs them.
            numbers = (
                [t.number for t in tables.values()]
                if tables
                else Table.objects.filter(pk__in=ids).values_list("number", flat=True)
            )
            return {"tables": sorted(numbers), "all": False}

        send_on_commit(console_group(tournament_id), "seating", numbers)


def notify_public_tables(table_ids: Iterable[int]) -> None:
    """Send the tables' seats to their public pages (the QR on the table card), when the
    transaction commits; the seats are read, in one go, only for the tables such a page is open
    at (a break's closed table; `notify_tables` sends them with the tablets' views)."""
    ids = sorted(set(table_ids))
    views: dict[int, dict[str, Any]] | None = None

    def seats_of(table_id: int) -> Any:
        def build() -> dict[str, Any] | None:
            nonlocal views
            if views is None:
                found = realtime.listened_of([public_table_group(pk) for pk in ids])
                shown = Table.objects.filter(
                    pk__in=[pk for pk in ids if public_table_group(pk) in found]
                ).select_related("tournament")
                views = {pk: dict(view) for pk, view in public_table_views(list(shown)).items()}
            return views.get(table_id)

        return build

    for table_id in ids:
        send_on_commit(public_table_group(table_id), "seats", seats_of(table_id))


def notify_chart(tournament_id: int) -> None:
    """The whole chart changed (a draw, a redraw): the console reloads it."""
    broadcast_on_commit(console_group(tournament_id), "seating", {"tables": [], "all": True})


def tablets_close(table_ids: Iterable[int]) -> None:
    """Tell the dealer tablets of tables being closed (a break, the final table, a redraw) that
    their table is gone: their sockets close and the tablet says to ask the floor (on commit)."""
    ids = list(table_ids)
    for pk in ids:
        broadcast_on_commit(table_group(pk), "table_closed", {})
    notify_public_tables(ids)  # the public page says the table is closed
