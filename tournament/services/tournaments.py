"""Writes for tournaments, their lifecycle, structures and chip sets."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from clocks.selectors import clock_state_for
from core.errors import FloorError
from rules_engine.domain.rulesets import ruleset as ruleset_named
from tournament.domain.levels import level_reached
from tournament.domain.lifecycle import LifecycleError, check_transition, reopen_target
from tournament.domain.structure import (
    TEMPLATES,
    LevelSpec,
    StructureError,
    generate_structure,
    structure_from_template,
    validate_levels,
)
from tournament.events import Actor, event_record
from tournament.live import notify_board
from tournament.locks import lock_tournament
from tournament.models import (
    TOURNAMENT_SETTINGS,
    ChipDenomination,
    ChipSet,
    Level,
    Status,
    Structure,
    Tournament,
    status_label,
)
from tournament.structure_words import structure_error_text
from tournament.validation import merged_values, settings_check

TOURNAMENT_FIELDS = frozenset(TOURNAMENT_SETTINGS)

# Fields fixed once money has been taken: changing them would change what players paid for.
FROZEN_AFTER_START = {
    "buy_in",
    "fee",
    "currency",
    "starting_stack",
    "game",
    "bounty_kind",
    "bounty",
}


def default_final_table_size(seats_per_table: int | None) -> int:
    """tda-de 11: the final table is one full table of the event (nine at a nine-handed event,
    six at six-max), never more than ten."""
    seats = seats_per_table or Tournament._meta.get_field("seats_per_table").get_default()
    return min(int(seats), 10)


def ruleset_version_checked(ruleset_id: str, version: str | None) -> str:
    """The version of `ruleset_id` a tournament records: `version` when the registry holds it,
    the newest when none is named."""
    try:
        return ruleset_named(ruleset_id, version).version
    except KeyError as exc:
        if not version:
            raise FloorError(
                _("Unknown ruleset %(ruleset)s.") % {"ruleset": ruleset_id}, field="ruleset"
            ) from exc
        raise FloorError(
            _("The ruleset %(ruleset)s has no version %(version)s.")
            % {"ruleset": ruleset_id, "version": version},
            field="ruleset_version",
        ) from exc


@transaction.atomic
def structure_create(
    *, name: str, levels: Sequence[LevelSpec], is_template: bool = False
) -> Structure:
    try:
        validate_levels(levels)
    except StructureError as exc:
        raise FloorError(
            _("The structure is not valid: %(reason)s") % {"reason": structure_error_text(exc)}
        ) from exc
    structure = Structure.objects.create(name=name, is_template=is_template)
    Level.objects.bulk_create(_level_rows(structure, levels, start=1))
    return structure


def _level_rows(structure: Structure, levels: Sequence[LevelSpec], start: int) -> list[Level]:
    return [
        Level(
            structure=structure,
            position=start + i,
            is_break=spec.is_break,
            small_blind=spec.small_blind,
            big_blind=spec.big_blind,
            ante=spec.ante,
            big_blind_ante=spec.big_blind_ante,
            minutes=spec.minutes,
            color_up=list(spec.color_up),
        )
        for i, spec in enumerate(levels)
    ]


def level_specs(structure: Structure) -> list[LevelSpec]:
    return [level_spec(lv) for lv in structure.levels.all()]


def level_spec(lv: Level) -> LevelSpec:
    return LevelSpec(
        small_blind=lv.small_blind,
        big_blind=lv.big_blind,
        ante=lv.ante,
        big_blind_ante=lv.big_blind_ante,
        minutes=lv.minutes,
        is_break=lv.is_break,
        color_up=tuple(lv.color_up or ()),
    )


def structure_copy(*, structure: Structure, name: str, is_template: bool = False) -> Structure:
    return structure_create(name=name, levels=level_specs(structure), is_template=is_template)


@transaction.atomic
def structure_generate(
    *,
    name: str,
    starting_stack: int,
    level_minutes: int,
    target_minutes: int,
    chip_set: ChipSet,
    break_every: int = 4,
    break_minutes: int = 15,
    big_blind_ante: bool = True,
    is_template: bool = False,
) -> Structure:
    try:
        levels = generate_structure(
            starting_stack=starting_stack,
            level_minutes=level_minutes,
            target_minutes=target_minutes,
            denominations=chip_set.values(),
            break_every=break_every,
            break_minutes=break_minutes,
            big_blind_ante=big_blind_ante,
        )
    except StructureError as exc:
        raise FloorError(
            _("Cannot build a structure: %(reason)s") % {"reason": structure_error_text(exc)}
        ) from exc
    return structure_create(name=name, levels=levels, is_template=is_template)


def _played_levels(tournament: Tournament) -> int:
    """How many levels (breaks included) are history: those before the running one."""

    state = clock_state_for(tournament)
    return state.level_index if state.started else 0


@transaction.atomic
def structure_replace_levels(
    *, tournament: Tournament, levels: Sequence[LevelSpec], actor: Actor
) -> Structure:
    """Edit a tournament's structure. Levels already played (before the running one) are history:
    they must come back unchanged; the running level and everything after may change.

    The tournament's part of `actions.tournaments.structure_replace_levels`, which then has the
    clock work out its next level end and tells the screens."""
    tournament = lock_tournament(tournament.pk, key=True)
    structure = tournament.structure
    current = list(structure.levels.all())
    played = _played_levels(tournament)
    if [level_spec(lv) for lv in current[:played]] != list(levels[:played]):
        # Named by level number: breaks are not levels.
        n = level_reached([lv.is_break for lv in current], played - 1)
        raise FloorError(_("Levels 1 to %(n)s have been played and cannot change.") % {"n": n})
    try:
        validate_levels(levels)
    except StructureError as exc:
        raise FloorError(
            _("The structure is not valid: %(reason)s") % {"reason": structure_error_text(exc)}
        ) from exc
    if played and len(levels) <= played - 1:
        raise FloorError(_("The running level cannot be removed."))
    structure.levels.filter(position__gt=played).delete()
    Level.objects.bulk_create(_level_rows(structure, list(levels)[played:], start=played + 1))
    event_record(
        tournament=tournament,
        action="structure.edit",
        actor=actor,
        payload={"levels": len(levels), "kept_history": played},
    )
    return structure


@transaction.atomic
def chip_set_create(*, name: str, denominations: Sequence[tuple[int, str, str]]) -> ChipSet:
    values = [value for value, _colour, _label in denominations]
    if not values or any(v <= 0 for v in values) or len(set(values)) != len(values):
        raise FloorError(_("A chip set needs distinct positive denominations."))
    chip_set = ChipSet.objects.create(name=name)
    ChipDenomination.objects.bulk_create(
        ChipDenomination(chip_set=chip_set, value=v, colour=c, label=lbl)
        for v, c, lbl in denominations
    )
    return chip_set


# The chip set and structure templates a new installation starts with (the venue's first start
# and the demo): a club can create its night's tournament at once and edit them later.
STARTER_CHIPS: list[tuple[int, str, str]] = [
    (25, "#2e7d32", "green"),
    (100, "#111111", "black"),
    (500, "#6a1b9a", "purple"),
    (1000, "#f9a825", "yellow"),
    (5000, "#c62828", "red"),
    (25000, "#1565c0", "blue"),
]


@transaction.atomic
def starter_kit_ensure() -> ChipSet:
    """The starter chip set ("Club set") and one structure template per standard template,
    each made only if the installation has none yet; returns the chip set to use."""
    chip_set = ChipSet.objects.order_by("pk").first() or chip_set_create(
        name="Club set", denominations=STARTER_CHIPS
    )
    if not Structure.objects.filter(is_template=True).exists():
        values = [value for value, _colour, _label in STARTER_CHIPS]
        for name in sorted(TEMPLATES):
            structure_create(
                name=name.capitalize(),
                levels=structure_from_template(name, values),
                is_template=True,
            )
    return chip_set


@transaction.atomic
def tournament_create(
    *,
    actor: Actor,
    name: str,
    starts_at: datetime,
    buy_in: int,
    starting_stack: int,
    structure: Structure,
    chip_set: ChipSet,
    **options: Any,
) -> Tournament:
    """Create a tournament with its own copy of `structure` (templates stay untouched)."""
    unknown = set(options) - TOURNAMENT_FIELDS
    if unknown:
        raise FloorError(_("Unknown fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    values = {"buy_in": buy_in, "starting_stack": starting_stack, **options}
    if values.get("final_table_size") is None:
        values["final_table_size"] = default_final_table_size(values.get("seats_per_table"))
    settings_check(merged_values(None, {**values, "name": name}))
    # The tournament keeps the version it starts with when a newer one is added.
    values["ruleset_version"] = ruleset_version_checked(
        values.get("ruleset") or Tournament._meta.get_field("ruleset").get_default(),
        values.get("ruleset_version"),
    )
    own = structure_copy(structure=structure, name=name)
    tournament = Tournament.objects.create(
        name=name,
        starts_at=starts_at,
        structure=own,
        chip_set=chip_set,
        **values,
    )
    event_record(
        tournament=tournament,
        action="tournament.create",
        actor=actor,
        payload={"name": name, "buy_in": buy_in, "structure": structure.name},
    )
    return tournament


@transaction.atomic
def tournament_update(*, tournament: Tournament, actor: Actor, **values: Any) -> Tournament:
    tournament = lock_tournament(tournament.pk, key=True)
    unknown = set(values) - TOURNAMENT_FIELDS
    if unknown:
        raise FloorError(_("Unknown fields: %(f)s") % {"f": ", ".join(sorted(unknown))})
    changed = {k: v for k, v in values.items() if getattr(tournament, k) != v}
    # The whole row after the change obeys the rules that read a changed field.
    settings_check(merged_values(tournament, changed), changed=changed)
    if "ruleset" in changed or "ruleset_version" in changed:
        # A new ruleset starts at its newest version, unless a version is picked with it.
        version = ruleset_version_checked(
            changed.get("ruleset", tournament.ruleset), changed.get("ruleset_version")
        )
        changed.pop("ruleset_version", None)
        if version != tournament.ruleset_version:
            changed["ruleset_version"] = version
    if tournament.status not in (Status.PLANNED, Status.REGISTERING):
        frozen = sorted(set(changed) & FROZEN_AFTER_START)
        if frozen:
            raise FloorError(
                _("These cannot change once the tournament runs: %(f)s") % {"f": ", ".join(frozen)}
            )
    if tournament.entries.exists():
        frozen = sorted(set(changed) & {"buy_in", "fee", "currency"})
        if frozen:
            raise FloorError(
                _("Players have paid already; these cannot change: %(f)s")
                % {"f": ", ".join(frozen)}
            )
    for key, value in changed.items():
        setattr(tournament, key, value)
    if changed:
        tournament.save(update_fields=list(changed))
        event_record(
            tournament=tournament,
            action="tournament.update",
            actor=actor,
            payload={"changed": sorted(changed)},
        )
        notify_board(tournament.pk, "tournament")
    return tournament


@transaction.atomic
def tournament_status_set(*, tournament: Tournament, status: str, actor: Actor) -> Tournament:
    """Move the tournament to `status`, if its lifecycle allows. The tournament's part of
    `actions.tournaments.tournament_status_set`, which then stops the clock of a finished
    tournament and tells the screens."""
    tournament = lock_tournament(tournament.pk, key=True)
    try:
        check_transition(tournament.status, status)
    except LifecycleError as exc:
        raise FloorError(
            _("The tournament cannot go from “%(a)s” to “%(b)s”.")
            % {"a": Status(tournament.status).label, "b": status_label(status)}
        ) from exc
    previous = tournament.status
    tournament.status = status
    tournament.save(update_fields=["status"])
    event_record(
        tournament=tournament,
        action="tournament.status",
        actor=actor,
        payload={"from": previous, "to": status},
    )
    return tournament


def _status_before_finish(tournament: Tournament) -> str | None:
    """The status the tournament had when it finished: from the last bust (which records it)
    or the last status change to finished, whichever came last."""
    event = (
        tournament.events.filter(action__in=["entry.bust", "tournament.status"])
        .order_by("-id")
        .only("action", "payload")
        .first()
    )
    if event is None:
        return None
    payload = event.payload or {}
    if event.action == "tournament.status":
        return payload.get("from") if payload.get("to") == Status.FINISHED else None
    return payload.get("previous_status")


@transaction.atomic
def tournament_reopen(*, tournament: Tournament, actor: Actor, reason: str = "") -> Tournament:
    """A director takes a finished tournament back into play, explicitly and on the record, so
    that a bust can be undone after the end. Places, prizes and payments stay as they are until
    the floor changes them (an undo of the last bust, a correction). The tournament's part of
    `actions.tournaments.tournament_reopen`, which then brings the clock back paused and tells
    the screens."""
    tournament = lock_tournament(tournament.pk, key=True)
    if tournament.status != Status.FINISHED:
        raise FloorError(_("Only a finished tournament can be reopened."))
    target = reopen_target(
        _status_before_finish(tournament),
        alive=tournament.players_left,  # kept by the database: the entries still active
        final_table_size=tournament.final_table_size,
    )
    tournament.status = target.value
    tournament.save(update_fields=["status"])
    event_record(
        tournament=tournament,
        action="tournament.reopen",
        actor=actor,
        payload={"from": Status.FINISHED.value, "to": target.value, "reason": reason[:500]},
    )
    return tournament
