"""Console pages of the registration desk: register, search, rebuy, add-on, refund, bust,
undo, receipts, players and payouts."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from typing import Any

from django.contrib import messages
from django.db.models import Max
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from actions import registration as registering
from actions.bust import BustReport, bust_undo_last, entries_bust
from core.errors import FloorError
from core.inputs import amount, next_url, search_text, whole_number_or_none, whole_numbers
from core.links import public_url
from core.qr import qr_svg
from core.roles import director_required, floor_required
from tournament.correction_views import desk_same_name, players_known
from tournament.events import Actor
from tournament.field import field_is_final
from tournament.forms import RegisterForm, chips_or_none, entry_numbers
from tournament.models import Entry, EntryStatus, Player, Tournament
from tournament.selectors import (
    entries_found,
    entry_search,
    name_query,
    payout_amounts,
    players_by_name,
    satellite_seats,
    tournament_numbers,
)
from tournament.services import payouts, registration
from tournament.services.corrections import recent_corrections
from tournament.views import console_context, get_tournament


@floor_required
def desk(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    form = RegisterForm(request.POST or None)
    created: Entry | None = None
    if request.method == "POST" and form.is_valid():
        actor = Actor.from_request(request)
        data = form.cleaned_data
        existing_id = whole_number_or_none(request.POST.get("player"), low=1)
        # A name that exists already asks first: register the known player, or a new one.
        # A key sent before (a double click) answers with its entry, without asking again.
        try:
            key = registration.registration_key(request.POST.get("reg_key"))
        except FloorError:
            key = ""  # a form that was tampered with registers unprotected
        same_name = (
            []
            if request.POST.get("player")
            or request.POST.get("confirm_new")
            or registration.key_used(tournament, key)
            else desk_same_name(tournament, data["name"])
        )
        try:
            if same_name:
                pass
            elif request.POST.get("player"):
                player = get_object_or_404(Player, pk=existing_id or 0)
                created = registering.entry_register(
                    tournament=tournament,
                    player=player,
                    actor=actor,
                    idempotency_key=key,
                    method=data["method"],
                )
            else:
                created = registering.player_register(
                    tournament=tournament,
                    name=data["name"],
                    display_name=data["display_name"],
                    email=data["email"],
                    phone=data["phone"],
                    actor=actor,
                    idempotency_key=key,
                    method=data["method"],
                )
                player = created.player
        except FloorError as exc:
            form.add_error(None, str(exc))
        else:
            if created is None:
                return _desk_page(request, tournament, form, None, same_name=same_name)
            if created.status == EntryStatus.ALTERNATE:
                messages.warning(
                    request,
                    _("%(name)s is registered as alternate no. %(pos)s (#%(n)s).")
                    % {"name": player.name, "pos": created.alternate_position, "n": created.number},
                )
            else:
                messages.success(
                    request,
                    _("%(name)s registered as #%(n)s.")
                    % {"name": player.name, "n": created.number},
                )
            if not getattr(request, "htmx", None):
                return redirect(f"{request.path}?last={created.pk}")
            form = RegisterForm()
    return _desk_page(request, tournament, form, created)


def _desk_page(
    request: HttpRequest,
    tournament: Tournament,
    form: RegisterForm,
    created: Entry | None,
    same_name: Sequence[Player] = (),
) -> HttpResponse:
    query = search_text(request.GET.get("q"))
    results = entries_found(tournament, query, 25)
    htmx = getattr(request, "htmx", None)
    if htmx and htmx.target == "desk-results":
        # The search box asks while someone types: only the list, nothing else of the page.
        return render(
            request,
            "tournament/_desk_results.html",
            console_context(tournament, "desk", results=results, query=query),
        )
    last = None
    last_id = whole_number_or_none(request.GET.get("last"), low=1)
    if last_id is not None:
        last = tournament.entries.filter(pk=last_id).select_related("player", "seat__table").first()
    context = console_context(
        tournament,
        "desk",
        form=form,
        numbers=tournament_numbers(tournament),
        results=results,
        query=query,
        last=created or last,
        places_final=field_is_final(tournament),
        reg_key=secrets.token_urlsafe(18),
        same_name=same_name,
        corrections=recent_corrections(tournament, limit=5),
        # The bust "Undo last bust" means: the same form twice undoes it once.
        last_bust=tournament.entries.aggregate(m=Max("bust_sequence"))["m"],
    )
    return render(request, "tournament/desk.html", context)


@floor_required
def player_search(request: HttpRequest, pk: int) -> HttpResponse:
    """Existing players matching the typed name, to re-register a regular without retyping."""
    tournament = get_tournament(pk)
    q = search_text(request.GET.get("name"))
    players: list[Player] = []
    if len(q) >= 2:
        players = players_known(
            tournament, players_by_name(Player.objects.filter(name_query(q)), 8)
        )
    return render(request, "tournament/_player_matches.html", {"players": players, "pk": pk})


def _entry(request: HttpRequest, pk: int, entry_id: int) -> Entry:
    return get_object_or_404(
        Entry.objects.select_related("player", "tournament", "seat__table"),
        pk=entry_id,
        tournament_id=pk,
    )


def _back(request: HttpRequest, pk: int) -> HttpResponse:
    return redirect(next_url(request, default=reverse("desk", args=[pk])))


@require_POST
@floor_required
def entry_purchase(request: HttpRequest, pk: int, entry_id: int, kind: str) -> HttpResponse:
    entry = _entry(request, pk, entry_id)
    try:
        registration.entry_purchase(
            entry=entry,
            kind=kind,
            actor=Actor.from_request(request),
            method=request.POST.get("method", ""),
        )
    except FloorError as exc:
        messages.error(request, str(exc))
    else:
        label = _("Rebuy") if kind == "rebuy" else _("Add-on")
        messages.success(
            request, _("%(what)s for #%(n)s recorded.") % {"what": label, "n": entry.number}
        )
    return _back(request, pk)


@require_POST
@floor_required
def entry_unregister(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    entry = _entry(request, pk, entry_id)
    try:
        registering.entry_unregister(entry=entry, actor=Actor.from_request(request))
    except FloorError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("#%(n)s unregistered and refunded.") % {"n": entry.number})
    return _back(request, pk)


@floor_required
def entry_receipt(request: HttpRequest, pk: int, entry_id: int) -> HttpResponse:
    entry = _entry(request, pk, entry_id)
    seat_url = public_url(reverse("my-seat", args=[entry.public_token]), request)
    return render(
        request,
        "tournament/receipt.html",
        {
            "entry": entry,
            "tournament": entry.tournament,
            "qr": qr_svg(seat_url),
            "purchases": entry.purchases.filter(refunded=False),
            # The entry's seat (with its table) while the player is seated.
            "seat": getattr(entry, "seat", None) if entry.status == EntryStatus.ACTIVE else None,
        },
    )


@floor_required
def bust(request: HttpRequest, pk: int) -> HttpResponse:
    """Bust one or several players out in the same hand."""
    tournament = get_tournament(pk)
    alive = (
        tournament.entries.filter(status=EntryStatus.ACTIVE)
        .select_related("player", "seat__table")
        .order_by("number")
    )
    needs_close = False
    rows: Any = alive
    if request.method == "POST":
        # Refused, the page comes back with every tick, stack and number as typed.
        rows = _bust_rows_as_typed(alive, request)
        ids = whole_numbers(request.POST.getlist("entry"))
        reports = []
        try:
            for entry in alive.filter(pk__in=ids):
                reports.append(
                    BustReport(
                        entry=entry,
                        stack_at_hand_start=chips_or_none(request.POST.get(f"stack_{entry.pk}")),
                        eliminated_by=entry_numbers(request.POST.get(f"by_{entry.pk}", "")),
                    )
                )
            if len(reports) != len(ids):
                raise FloorError(_("Someone chosen is not in the tournament any more."))
            out = entries_bust(
                tournament=tournament, busts=reports, actor=Actor.from_request(request)
            )
        except ValueError:
            messages.error(request, _("Stacks are whole numbers of chips."))
        except FloorError as exc:
            messages.error(request, str(exc))
            needs_close = exc.code == "registration_open"
        else:
            final = field_is_final(tournament)
            for e in out:
                messages.success(request, finish_message(e, final=final))
            return _back(request, pk)
    return render(
        request,
        "tournament/bust.html",
        console_context(
            tournament,
            "desk",
            alive=rows,
            needs_close=needs_close,
            places_final=field_is_final(tournament),
        ),
        status=400 if request.method == "POST" else 200,  # reached here: refused
    )


def _bust_rows_as_typed(alive: Any, request: HttpRequest) -> list[Entry]:
    """The players still in, each with what was typed for them on the bust page."""
    ticked = set(request.POST.getlist("entry"))
    rows = list(alive)
    for e in rows:
        e.typed_ticked = str(e.pk) in ticked  # type: ignore[attr-defined]
        e.typed_stack = request.POST.get(f"stack_{e.pk}", "")[:20]  # type: ignore[attr-defined]
        e.typed_by = request.POST.get(f"by_{e.pk}", "")[:60]  # type: ignore[attr-defined]
    return rows


def finish_message(e: Entry, *, final: bool) -> str:
    """What the floor reads after a bust: the place, shared or provisional as it is."""
    values = {"n": e.number, "name": e.player.display_name, "place": e.place}
    shared = e.bust_group is not None and (
        e.tournament.entries.filter(bust_group=e.bust_group, place=e.place).count() > 1
    )
    if not final and shared:
        return (
            _(
                "#%(n)s %(name)s finishes in place %(place)s (shared; provisional: registration is open)."
            )
            % values
        )
    if not final:
        return (
            _("#%(n)s %(name)s finishes in place %(place)s (provisional: registration is open).")
            % values
        )
    if shared:
        return _("#%(n)s %(name)s finishes in place %(place)s (shared).") % values
    return _("#%(n)s %(name)s finishes in place %(place)s.") % values


@require_POST
@floor_required
def registration_close(request: HttpRequest, pk: int) -> HttpResponse:
    return _registration_change(
        request,
        pk,
        registration.registration_close,
        _("Registration closed: the field and its places are final."),
    )


@require_POST
@director_required
def registration_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    return _registration_change(
        request, pk, registration.registration_reopen, _("Registration is open again.")
    )


def _registration_change(
    request: HttpRequest, pk: int, change: Callable[..., object], done: str
) -> HttpResponse:
    try:
        change(tournament=get_tournament(pk), actor=Actor.from_request(request))
    except FloorError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done)
    return _back(request, pk)


@require_POST
@floor_required
def bust_undo(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    try:
        restored = bust_undo_last(
            tournament=tournament,
            actor=Actor.from_request(request),
            correct_payments=request.POST.get("correct_payments") == "1",
            sequence=whole_number_or_none(request.POST.get("sequence"), low=0),
        )
    except FloorError as exc:
        if exc.code == "paid":
            return render(
                request,
                "tournament/bust_undo_paid.html",
                console_context(
                    tournament, "desk", reason=str(exc), sequence=request.POST.get("sequence", "")
                ),
            )
        messages.error(request, str(exc))
    else:
        numbers = ", ".join(f"#{e.number}" for e in restored)
        messages.success(request, _("Bust undone: %(who)s back in.") % {"who": numbers})
    return _back(request, pk)


@floor_required
def players(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    status = request.GET.get("status", "")
    query = search_text(request.GET.get("q"))
    entries = entry_search(tournament, query)
    if status in EntryStatus.values:
        entries = entries.filter(status=status)
    entries = (
        entries.order_by("place", "number") if status == "busted" else entries.order_by("number")
    )
    return render(
        request,
        "tournament/players.html",
        console_context(
            tournament,
            "players",
            entries=entries[:1000],
            status=status,
            statuses=EntryStatus.choices,
            query=query,
            places_final=field_is_final(tournament),
        ),
    )


@floor_required
def payouts_page(request: HttpRequest, pk: int) -> HttpResponse:
    return _payouts_page(request, get_tournament(pk))


def _payouts_page(
    request: HttpRequest, tournament: Any, *, typed: list[str] | None = None, status: int = 200
) -> HttpResponse:
    """The payout table; `typed`: the editor's amounts as typed, shown again when refused."""
    numbers = tournament_numbers(tournament)
    amounts = payout_amounts(tournament, numbers)
    winners = {
        e.place: e for e in tournament.entries.filter(place__isnull=False).select_related("player")
    }
    rows = [(i + 1, a, winners.get(i + 1)) for i, a in enumerate(amounts)]
    return render(
        request,
        "tournament/payouts.html",
        console_context(
            tournament,
            "payouts",
            numbers=numbers,
            rows=rows,
            manual=tournament.payouts.exists(),
            satellite_seats=satellite_seats(tournament, numbers),
            typed_amounts=typed,
            # An event's flight pays nothing itself: its players' money is the Day 2's pool.
            day2=tournament.pool_to,
        ),
        status=status,
    )


@require_POST
@director_required
def payouts_edit(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    actor = Actor.from_request(request)
    try:
        if "reset" in request.POST:
            payouts.payouts_reset(tournament=tournament, actor=actor)
        else:
            typed = request.POST.getlist("amount")[:10_000]
            amounts = [amount(a) for a in typed if a.strip()]
            payouts.payouts_set(tournament=tournament, amounts=amounts, actor=actor)
    except FloorError as exc:
        messages.error(request, str(exc))
        if "reset" not in request.POST:
            # Refused: the editor comes back with the amounts as typed.
            kept = [a[:20] for a in request.POST.getlist("amount")[:500]]
            return _payouts_page(request, tournament, typed=kept, status=400)
    else:
        messages.success(request, _("Payouts saved."))
    return redirect("payouts", pk=pk)
