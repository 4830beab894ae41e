"""Console pages: dashboard, tournament set-up, structure editor, status."""

from __future__ import annotations

import json
from datetime import UTC, timedelta
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from actions import tournaments as commands
from actions.archive import tournament_export
from clocks.selectors import clock_state_for
from core.csvexport import csv_response
from core.errors import FloorError
from core.inputs import plain_text, search_text, whole_number_or_none
from core.links import public_url
from core.roles import director_required, floor_required
from eventlog.words import action_groups
from tournament.charts import story_figures
from tournament.domain.levels import RowLabel, level_reached, row_labels
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
from tournament.events import Actor
from tournament.forms import (
    GenerateStructureForm,
    ImportStructureForm,
    NewTournamentForm,
    TournamentForm,
)
from tournament.models import Status, Structure, Tournament
from tournament.selectors import TournamentNumbers, payout_amounts, tournament_numbers
from tournament.services import tournaments as svc
from tournament.services.privacy import contact_read_record
from tournament.structure_words import row_name, structure_error_text
from tournament.templatetags.levels import until_texts
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
    venue_console = public_url(reverse("console-home")) if settings.FLOOR_VENUE else ""
    return render(
        request, "tournament/console_home.html", {"rows": rows, "venue_console": venue_console}
    )


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
    refused = 400 if request.method == "POST" else 200
    return render(
        request, "tournament/tournament_form.html", {"form": form, "new": True}, status=refused
    )


@floor_required
def tournament_overview(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    numbers = tournament_numbers(tournament)
    payouts = payout_amounts(tournament, numbers)
    # A Day 2 before its draw waits for the event's Day-2 draw, which opens and seats it.
    waits_for_draw = tournament.pooled and tournament.status == Status.PLANNED
    next_statuses = [] if waits_for_draw else status_actions(tournament.status)
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
            waits_for_draw=waits_for_draw,
            recent=recent,
            # drawn when the page opens: the overview has no live feed
            story=story_figures(
                tournament,
                lambda kind: reverse("story-chart", args=[pk, kind]) + "?w=640",
                live=False,
            ),
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
    form.show_until_texts(until_texts(tournament))
    return render(
        request,
        "tournament/tournament_form.html",
        console_context(tournament, "settings", form=form, new=False),
        status=400 if request.method == "POST" else 200,  # reached here: refused
    )


# What each status change does, as the button says it and as the question before it says it.
# Forward steps come first; a step back is set apart (it undoes something).
_STATUS_ACTIONS: dict[tuple[str, str], tuple[Any, Any, bool]] = {
    ("planned", "registering"): (
        gettext_lazy("Open registration"),
        gettext_lazy("Open registration? Players can be registered from now on."),
        True,
    ),
    ("registering", "running"): (
        gettext_lazy("Start the tournament"),
        gettext_lazy(
            "Start the tournament? Registrations from now on are late entries; the clock is "
            "started separately."
        ),
        True,
    ),
    ("registering", "planned"): (
        gettext_lazy("Back to planned"),
        gettext_lazy(
            "Set the tournament back to planned? Registration closes until it is opened again."
        ),
        False,
    ),
    ("running", "final_table"): (
        gettext_lazy("Final table reached"),
        gettext_lazy("Mark the final table as reached? Late registration and re-entry end."),
        True,
    ),
    ("running", "finished"): (
        gettext_lazy("End the tournament"),
        gettext_lazy(
            "End the tournament now? Nobody can be registered or busted any more, and only the "
            "director can reopen it."
        ),
        False,
    ),
    ("final_table", "finished"): (
        gettext_lazy("End the tournament"),
        gettext_lazy(
            "End the tournament now? Nobody can be registered or busted any more, and only the "
            "director can reopen it."
        ),
        True,
    ),
    ("final_table", "running"): (
        gettext_lazy("Back to running"),
        gettext_lazy("Set the tournament back from the final table to running?"),
        False,
    ),
}


def status_actions(current: str) -> list[dict[str, Any]]:
    """The status changes open from `current`, each with its button words and its question."""
    actions = []
    for target in sorted(ALLOWED.get(DomainStatus(current), frozenset())):
        label, question, forward = _STATUS_ACTIONS.get(
            (current, target.value), (Status(target.value).label, "", False)
        )
        actions.append(
            {"value": target.value, "label": label, "confirm": question, "forward": forward}
        )
    actions.sort(key=lambda a: not a["forward"])
    return actions


@require_POST
@director_required
def tournament_reopen(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    try:
        done = commands.tournament_reopen(
            tournament=tournament,
            actor=Actor.from_request(request),
            reason=plain_text(request.POST.get("reason"), longest=500, field="reason"),
        )
    except FloorError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _(
                "The tournament is open again (%(status)s). The clock is back, paused: resume it when play goes on."
            )
            % {"status": Status(done.status).label},
        )
    return redirect("tournament-overview", pk=pk)


@require_POST
@director_required
def tournament_status(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    try:
        commands.tournament_status_set(
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


def _posted_rows(request: HttpRequest) -> list[dict[str, Any]]:
    """The editor's rows as typed, for reading them and for showing them again when refused."""
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
    return [
        {
            "is_break": kind == "break",
            "small_blind": sb,
            "big_blind": bb,
            "ante": ante,
            "big_blind_ante": str(i) in bb_ante,
            "minutes": minutes,
            "color_up": color_up,
        }
        for i, (kind, sb, bb, ante, minutes, color_up) in enumerate(rows, start=1)
    ]


def _row_name(label: RowLabel) -> str:
    """A row as the floor names it: "Level 5", "Break after level 4" (breaks are not levels)."""
    return row_name(number=label.number, after=label.after)


def _levels_from_rows(rows: list[dict[str, Any]]) -> list[LevelSpec]:
    """Read the editor's rows. Raises FloorError naming the level at fault."""
    levels = []
    labels = row_labels([row["is_break"] for row in rows])
    for label, row in zip(labels, rows, strict=True):
        try:
            if row["is_break"]:
                chips = tuple(int(c) for c in row["color_up"].replace(",", " ").split() if c)
                levels.append(LevelSpec(0, 0, 0, False, int(row["minutes"]), True, chips))
            else:
                levels.append(
                    LevelSpec(
                        int(row["small_blind"]),
                        int(row["big_blind"]),
                        int(row["ante"] or 0),
                        row["big_blind_ante"],
                        int(row["minutes"]),
                    )
                )
        except ValueError as exc:
            raise FloorError(
                _("%(row)s: enter whole numbers.") % {"row": _row_name(label)}
            ) from exc
    return levels


def _editor_rows(
    rows: list[dict[str, Any]], *, played: int, current_index: int | None
) -> list[dict[str, Any]]:
    """The rows for the editor's table, each with its level number (None for a break), the
    level a break follows, and whether it is history (played) or running now."""
    labels = row_labels([row["is_break"] for row in rows])
    return [
        {
            **row,
            "number": label.number,
            "after": label.after,
            "past": label.index < played,
            "current": label.index == current_index,
            "position": label.index + 1,
        }
        for label, row in zip(labels, rows, strict=True)
    ]


def _stored_rows(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {
            "is_break": lv.is_break,
            "small_blind": lv.small_blind,
            "big_blind": lv.big_blind,
            "ante": lv.ante,
            "big_blind_ante": lv.big_blind_ante,
            "minutes": lv.minutes,
            "color_up": " ".join(str(c) for c in lv.color_up or ()),
        }
        for lv in tournament.structure.levels.all()
    ]


@floor_required
def structure_editor(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    if request.method == "POST":
        posted = _posted_rows(request)
        try:
            specs = _levels_from_rows(posted)
            commands.structure_replace_levels(
                tournament=tournament, levels=specs, actor=Actor.from_request(request)
            )
        except FloorError as exc:
            # Refused: the page comes back with every row as typed, and says why.
            messages.error(request, str(exc))
            return _editor_page(request, tournament, rows=posted, status=400)
        messages.success(request, _("Structure saved."))
        return redirect("structure-editor", pk=pk)
    return _editor_page(request, tournament)


def _editor_page(
    request: HttpRequest,
    tournament: Tournament,
    *,
    rows: list[dict[str, Any]] | None = None,
    generate_form: GenerateStructureForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The structure editor; a refused form comes back with what was typed (`rows` of the
    levels table, or the generator's form with its errors)."""
    state = clock_state_for(tournament)
    played = state.level_index if state.started else 0
    if rows is None:
        rows = _stored_rows(tournament)
    stored_breaks = [lv.is_break for lv in tournament.structure.levels.all()]
    context = console_context(
        tournament,
        "structure",
        rows=_editor_rows(
            rows, played=played, current_index=state.level_index if state.started else None
        ),
        played=played,
        played_levels=level_reached(stored_breaks, played - 1) if played else 0,
        generate_form=generate_form
        or GenerateStructureForm(
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
    return render(request, "tournament/structure.html", context, status=status)


@require_POST
@floor_required
def structure_generate(request: HttpRequest, pk: int) -> HttpResponse:
    tournament = get_tournament(pk)
    form = GenerateStructureForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Check the generator's values."))
        return _editor_page(request, tournament, generate_form=form, status=400)
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
        try:
            _replace_from(request, tournament, svc.level_specs(generated))
        finally:
            generated.delete()
    except FloorError as exc:
        messages.error(request, str(exc))
        return _editor_page(request, tournament, generate_form=form, status=400)
    messages.success(request, _("Structure generated."))
    return redirect("structure-editor", pk=pk)


def _replace_from(request: HttpRequest, tournament: Tournament, levels: list[LevelSpec]) -> None:
    state = clock_state_for(tournament)
    played = state.level_index if state.started else 0
    history = svc.level_specs(tournament.structure)[:played]
    commands.structure_replace_levels(
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
            request,
            _("The file is not a valid structure: %(reason)s")
            % {"reason": structure_error_text(exc)},
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
    actions = action_groups(sorted(set(tournament.events.values_list("action", flat=True))))
    return render(
        request,
        "tournament/history.html",
        console_context(tournament, "history", events=events[:500], actions=actions, action=action),
    )


@director_required
def tournament_export_view(request: HttpRequest, pk: int) -> HttpResponse:
    """The whole tournament as one JSON file (directors only: it holds contact data)."""
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
