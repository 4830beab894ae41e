"""Console pages: dashboard, tournament set-up, structure editor, status."""

from __future__ import annotations

import json
from datetime import UTC, timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournament.csvexport import csv_response
from tournament.domain.lifecycle import ALLOWED
from tournament.domain.lifecycle import Status as DomainStatus
from tournament.domain.structure import (
    TEMPLATES,
    LevelSpec,
    StructureError,
    levels_from_csv,
    levels_from_json,
    levels_to_csv,
    levels_to_json,
)
from tournament.errors import FloorError
from tournament.events import Actor
from tournament.forms import (
    GenerateStructureForm,
    ImportStructureForm,
    NewTournamentForm,
    TournamentForm,
)
from tournament.inputs import search_text, whole_number_or_none
from tournament.models import Status, Structure, Tournament
from tournament.roles import director_required, floor_required
from tournament.selectors import TournamentNumbers, payout_amounts, tournament_numbers
from tournament.services import tournaments as svc
from tournament.validation import SettingsBroken


def get_tournament(pk: int) -> Tournament:
    try:
        return Tournament.objects.select_related("structure", "chip_set").get(pk=pk)
    except Tournament.DoesNotExist as exc:
        raise Http404(_("No such tournament.")) from exc


def console_context(tournament: Tournament, tab: str, **extra: Any) -> dict[str, Any]:
    return {"tournament": tournament, "tab": tab, **extra}


@floor_required
def console_home(request: HttpRequest) -> HttpResponse:
    tournaments = list(Tournament.objects.all()[:200])
    rows = [(t, numbers_or_none(t)) for t in tournaments]
    return render(request, "tournament/console_home.html", {"rows": rows})


def numbers_or_none(tournament: Tournament) -> TournamentNumbers | None:
    """The numbers of one row of a list; None when the row's stored settings break a rule, so
    the row shows a notice and every other row still shows."""
    try:
        return tournament_numbers(tournament)
    except SettingsBroken:
        return None


@director_required
def tournament_new(request: HttpRequest) -> HttpResponse:
    initial = {
        "starts_at": (timezone.localtime() + timedelta(hours=1)).replace(minute=0, second=0),
        "currency": "EUR",
        "starting_stack": 20000,
        "buy_in": 5000,
        "fee": 500,
        "payout_unit": 100,
    }
    form = NewTournamentForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        values = form.values()
        try:
            tournament = svc.tournament_create(
                actor=Actor.from_request(request),
                structure=form.cleaned_data["structure"],
                chip_set=form.cleaned_data["chip_set"],
                **values,
            )
        except FloorError as exc:
            form.add_error(exc.field, str(exc))
        else:
            messages.success(request, _("Tournament created."))
            return redirect("tournament-overview", pk=tournament.pk)
    return render(request, "tournament/tournament_form.html", {"form": form, "new": True})


@floor_required
def tournament_overview(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    numbers = tournament_numbers(tournament)
    payouts = payout_amounts(tournament, numbers)
    next_statuses = [
        Status(s)
        for s in sorted(ALLOWED.get(DomainStatus(tournament.status), frozenset()))
        if s in Status.values
    ]
    recent = tournament.events.select_related("actor").order_by("-id")[:12]
    return render(
        request,
        "tournament/overview.html",
        console_context(
            tournament,
            "overview",
            numbers=numbers,
            payouts=payouts[:10],
            next_statuses=next_statuses,
            recent=recent,
        ),
    )


@director_required
def tournament_settings(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            svc.tournament_update(
                tournament=tournament, actor=Actor.from_request(request), **form.values()
            )
        except FloorError as exc:
            form.add_error(exc.field, str(exc))
        else:
            messages.success(request, _("Settings saved."))
            return redirect("tournament-overview", pk=pk)
    if request.method == "POST":
        tournament.refresh_from_db()
    return render(
        request,
        "tournament/tournament_form.html",
        console_context(tournament, "settings", form=form, new=False),
    )


@require_POST
@director_required
def tournament_status(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    try:
        svc.tournament_status_set(
            tournament=tournament,
            status=request.POST.get("status", ""),
            actor=Actor.from_request(request),
        )
    except FloorError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Status changed."))
    return redirect("tournament-overview", pk=pk)


# --- Structure ---------------------------------------------------------------------------------


def _levels_from_post(request: HttpRequest) -> list[LevelSpec]:
    """Read the editor's rows. Raises FloorError naming the row at fault."""
    rows = zip(
        request.POST.getlist("kind"),
        request.POST.getlist("small_blind"),
        request.POST.getlist("big_blind"),
        request.POST.getlist("ante"),
        request.POST.getlist("minutes"),
        request.POST.getlist("color_up"),
        strict=False,
    )
    bb_ante = set(request.POST.getlist("bb_ante"))
    levels = []
    for i, (kind, sb, bb, ante, minutes, color_up) in enumerate(rows, start=1):
        try:
            if kind == "break":
                chips = tuple(int(c) for c in color_up.replace(",", " ").split() if c)
                levels.append(LevelSpec(0, 0, 0, False, int(minutes), True, chips))
            else:
                levels.append(
                    LevelSpec(int(sb), int(bb), int(ante or 0), str(i) in bb_ante, int(minutes))
                )
        except ValueError as exc:
            raise FloorError(_("Row %(row)s: enter whole numbers.") % {"row": i}) from exc
    return levels


@floor_required
def structure_editor(request: HttpRequest, pk: int) -> HttpResponse:
    from clocks.selectors import clock_state_for

    tournament = get_tournament(pk)
    state = clock_state_for(tournament)
    played = state.level_index if state.started else 0
    if request.method == "POST":
        try:
            specs = _levels_from_post(request)
            svc.structure_replace_levels(
                tournament=tournament, levels=specs, actor=Actor.from_request(request)
            )
        except FloorError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Structure saved."))
            return redirect("structure-editor", pk=pk)
    levels = list(tournament.structure.levels.all())
    context = console_context(
        tournament,
        "structure",
        levels=levels,
        played=played,
        current_index=state.level_index if state.started else None,
        generate_form=GenerateStructureForm(
            initial={
                "starting_stack": tournament.starting_stack,
                "level_minutes": 20,
                "target_hours": 5,
            }
        ),
        import_form=ImportStructureForm(),
        templates=sorted(TEMPLATES),
        template_structures=Structure.objects.filter(is_template=True),
    )
    return render(request, "tournament/structure.html", context)


@require_POST
@floor_required
def structure_generate(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    form = GenerateStructureForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Check the generator's values."))
        return redirect("structure-editor", pk=pk)
    data = form.cleaned_data
    try:
        generated = svc.structure_generate(
            name=f"{tournament.name} (generated)",
            starting_stack=data["starting_stack"],
            level_minutes=data["level_minutes"],
            target_minutes=int(data["target_hours"] * 60),
            chip_set=tournament.chip_set,
            break_every=data["break_every"],
            break_minutes=data["break_minutes"],
            big_blind_ante=data["big_blind_ante"],
        )
        _replace_from(request, tournament, svc.level_specs(generated))
        generated.delete()
    except FloorError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Structure generated."))
    return redirect("structure-editor", pk=pk)


def _replace_from(request: HttpRequest, tournament: Tournament, levels: list[LevelSpec]) -> None:
    from clocks.selectors import clock_state_for

    state = clock_state_for(tournament)
    played = state.level_index if state.started else 0
    history = svc.level_specs(tournament.structure)[:played]
    svc.structure_replace_levels(
        tournament=tournament, levels=history + levels[played:], actor=Actor.from_request(request)
    )


@require_POST
@floor_required
def structure_load_template(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    template = get_object_or_404(
        Structure, pk=whole_number_or_none(request.POST.get("template"), low=1), is_template=True
    )
    try:
        _replace_from(request, tournament, svc.level_specs(template))
    except FloorError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Template “%(name)s” loaded.") % {"name": template.name})
    return redirect("structure-editor", pk=pk)


@require_POST
@floor_required
def structure_import(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    form = ImportStructureForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose a JSON or CSV file."))
        return redirect("structure-editor", pk=pk)
    upload = form.cleaned_data["file"]
    if upload.size > settings.FLOOR_UPLOAD_MAX_BYTES:
        messages.error(request, _("The file is too large."))
        return redirect("structure-editor", pk=pk)
    try:
        text = upload.read().decode("utf-8-sig")
        if upload.name.lower().endswith(".json") or text.lstrip().startswith(("[", "{")):
            levels = list(levels_from_json(text))
        else:
            levels = list(levels_from_csv(text))
        _replace_from(request, tournament, levels)
    except UnicodeDecodeError:
        messages.error(request, _("The file is not UTF-8 text."))
    except StructureError as exc:
        messages.error(
            request, _("The file is not a valid structure: %(reason)s") % {"reason": exc}
        )
    except FloorError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Structure imported."))
    return redirect("structure-editor", pk=pk)


@floor_required
def structure_export(request: HttpRequest, pk: int, fmt: str) -> HttpResponse:
    tournament = get_tournament(pk)
    levels = svc.level_specs(tournament.structure)
    if fmt == "json":
        body, ctype = levels_to_json(levels), "application/json"
    elif fmt == "csv":
        body, ctype = levels_to_csv(levels), "text/csv"
    else:
        raise Http404
    response = HttpResponse(body, content_type=f"{ctype}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="structure-{pk}.{fmt}"'
    return response


# --- History -----------------------------------------------------------------------------------


@floor_required
def history(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    events = tournament.events.select_related("actor").order_by("-id")
    action = search_text(request.GET.get("action"), longest=60)
    if action:
        events = events.filter(action__startswith=action)
    actions = sorted(set(tournament.events.values_list("action", flat=True)))
    return render(
        request,
        "tournament/history.html",
        console_context(tournament, "history", events=events[:500], actions=actions, action=action),
    )


@director_required
def tournament_export_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole tournament as one JSON file (directors only: it holds contact data)."""
    from tournament.services.archive import tournament_export
    from tournament.services.privacy import contact_read_record

    tournament = get_tournament(pk)
    export = tournament_export(tournament)
    contact_read_record(
        actor=Actor.from_request(request),
        what=f"tournament.export:{tournament.pk}",
        count=sum(1 for o in export["objects"] if o["model"] == "tournament.player"),
    )
    response = HttpResponse(
        json.dumps(export, ensure_ascii=False),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = f'attachment; filename="tournament-{tournament.pk}.json"'
    return response


@floor_required
def history_csv(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    rows = (
        [
            e.pk,
            e.at.astimezone(UTC).isoformat(),
            e.actor_label,
            e.source,
            e.action,
            json.dumps(e.payload, sort_keys=True),
        ]
        for e in tournament.events.select_related("actor").order_by("id").iterator()
    )
    header = ["id", "at_utc", "actor", "source", "action", "payload"]
    return csv_response(f"events-{pk}.csv", header, rows)
