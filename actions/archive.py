"""A whole tournament as one JSON file, and back.

The export holds everything the tournament is made of: its structure and chip set, the players
in it (with their private contact data: keep the file safe), entries and purchases, payouts,
deals, the cash ledger, tables and seats, dealer reports, shot clocks and time banks, chip
counts, the clock and its history, rulings, and the full event log. The import writes it as a new tournament and never changes a row that is here already: rows whose
ids are free keep them (so an exported, deleted and re-imported tournament exports identically),
the others get new ids and every reference follows. It is meant for backups, for moving an event
to another installation, and for the record.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import IntegrityError, connection, transaction
from django.db.models import Case, Model, QuerySet, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from clocks.models import Clock, ClockEvent
from core.errors import FloorError
from counts.models import ChipCount
from rules_engine.models import ColourUp, Penalty, Ruling
from tables.models import (
    KeepApart,
    SeatAssignment,
    ShotClock,
    Table,
    TableReport,
    TimeBank,
    TimeCall,
)
from tournament import counters
from tournament.events import Actor, event_record
from tournament.models import (
    ChipDenomination,
    ChipSet,
    Deal,
    DealShare,
    Entry,
    Event,
    LedgerLine,
    Level,
    Payout,
    Player,
    Purchase,
    Structure,
    Tournament,
)
from tournament.selectors import IMPORT_RENUMBERED

FORMAT = "floor-tournament/1"


class _Exact(DjangoJSONEncoder):
    """Times to the microsecond (Django's encoder stops at milliseconds)."""

    def default(self, o: Any) -> Any:
        if isinstance(o, datetime.datetime):
            return o.isoformat()
        return super().default(o)


def _auto_fields(model: type[Model]) -> list[str]:
    return [
        f.name
        for f in model._meta.concrete_fields
        if getattr(f, "auto_now", False) or getattr(f, "auto_now_add", False)
    ]


def _restore_times(model: type[Model], items: list[tuple[Model, dict[str, Any]]]) -> None:
    """Put recorded timestamps back, in batches of one UPDATE each. The base QuerySet.update is
    called on purpose: the event log's own queryset refuses updates, and this is the one place
    that writes an event's recorded time (the import of a record, not a change to it)."""
    for start in range(0, len(items), 500):
        batch = items[start : start + 500]
        values = {
            name: Case(*[When(pk=obj.pk, then=Value(v[name])) for obj, v in batch])
            for name in batch[0][1]
        }
        qs = model._default_manager.filter(pk__in=[obj.pk for obj, _v in batch])
        QuerySet.update(qs, **values)


def _querysets(t: Tournament) -> list[QuerySet[Any]]:
    return [
        ChipSet.objects.filter(pk=t.chip_set_id),
        ChipDenomination.objects.filter(chip_set_id=t.chip_set_id),
        Structure.objects.filter(pk=t.structure_id),
        Level.objects.filter(structure_id=t.structure_id),
        Player.objects.filter(entries__tournament_id=t.pk).distinct(),
        Tournament.objects.filter(pk=t.pk),
        Entry.objects.filter(tournament_id=t.pk),
        Purchase.objects.filter(entry__tournament_id=t.pk),
        Payout.objects.filter(tournament_id=t.pk),
        LedgerLine.objects.filter(tournament_id=t.pk).order_by("id"),
        Deal.objects.filter(tournament_id=t.pk),
        DealShare.objects.filter(deal__tournament_id=t.pk),
        Table.objects.filter(tournament_id=t.pk),
        SeatAssignment.objects.filter(table__tournament_id=t.pk),
        KeepApart.objects.filter(tournament_id=t.pk),
        TableReport.objects.filter(table__tournament_id=t.pk),
        TimeCall.objects.filter(table__tournament_id=t.pk),
        ShotClock.objects.filter(table__tournament_id=t.pk),
        TimeBank.objects.filter(entry__tournament_id=t.pk),
        ChipCount.objects.filter(tournament_id=t.pk).order_by("id"),
        Clock.objects.filter(tournament_id=t.pk),
        ClockEvent.objects.filter(clock__tournament_id=t.pk),
        Ruling.objects.filter(tournament_id=t.pk),
        Penalty.objects.filter(tournament_id=t.pk),
        ColourUp.objects.filter(tournament_id=t.pk),
        Event.objects.filter(tournament_id=t.pk),
    ]


# The order in which the rows are written back: what a row points to comes before it.
MODELS: tuple[type[Model], ...] = tuple(qs.model for qs in _querysets(Tournament()))


def tournament_export(tournament: Tournament) -> dict[str, Any]:
    objects: list[dict[str, Any]] = []
    for qs in _querysets(tournament):
        rows = serializers.serialize("python", qs.order_by("pk"))
        objects += json.loads(json.dumps(rows, cls=_Exact))
    return {
        "format": FORMAT,
        "exported_at": timezone.now().isoformat(),
        "tournament": tournament.pk,
        "name": tournament.name,
        "objects": objects,
    }


# What the import does with a row whose id is taken on this installation (docs/backup.md):
# the shared rows (chip set, structure, players) are reused only when the row with that id is
# the very same record (every field equal; a structure also only while no other tournament uses
# it), and otherwise written as new rows; the tournament's own rows are always new rows. A model
# whose ids are all free keeps them, so a round trip onto a fresh installation is identical.
_CHILDREN: dict[type[Model], tuple[type[Model], str]] = {
    ChipSet: (ChipDenomination, "chip_set_id"),
    Structure: (Level, "structure_id"),
}


def _values(obj: Model, *, skip: tuple[str, ...] = ()) -> tuple[Any, ...]:
    return tuple(
        getattr(obj, f.attname)
        for f in obj._meta.concrete_fields
        if not f.primary_key and f.attname not in skip
    )


def _same_record(row: Model, children: list[Model]) -> bool:
    """Whether the row with this id on this installation is the exported record itself."""
    model = type(row)
    here = model._default_manager.filter(pk=row.pk).first()
    if here is None or _values(here) != _values(row):
        return False
    if model is Structure and Tournament.objects.filter(structure_id=row.pk).exists():
        return False  # each tournament owns its structure: never share one with another
    if model in _CHILDREN:
        child, parent = _CHILDREN[model]
        mine = sorted(_values(c, skip=(parent,)) for c in children)
        theirs = sorted(
            _values(c, skip=(parent,)) for c in child._default_manager.filter(**{parent: row.pk})
        )
        return mine == theirs
    return True


def _reuse_same_records(
    by_model: dict[type[Model], list[Model]], ids: dict[type[Model], dict[Any, Any]]
) -> None:
    """Take the shared rows that are already here out of the insert and point to them."""
    for model in (ChipSet, Structure, Player):
        keep: list[Model] = []
        for row in by_model.get(model, []):
            child, parent = _CHILDREN.get(model, (Player, ""))  # a player has no children
            children = (
                [c for c in by_model.get(child, []) if getattr(c, parent) == row.pk]
                if parent
                else []
            )
            if _same_record(row, children):
                ids.setdefault(model, {})[row.pk] = row.pk
                if parent:
                    by_model[child] = [c for c in by_model[child] if c not in children]
            else:
                keep.append(row)
        by_model[model] = keep


def _point_to_imported(obj: Model, ids: dict[type[Model], dict[Any, Any]], users: dict) -> None:
    """Rewrite every reference to the id its row got here; a reference to a row that is not in
    the file is refused (an export never points outside itself)."""
    user_model = get_user_model()
    for field in obj._meta.concrete_fields:
        if not field.is_relation or field.related_model is type(obj):
            continue  # a row pointing to a row of its own kind: set after (_self_references)
        old = getattr(obj, field.attname)
        if old is None:
            continue
        if field.related_model is user_model:
            # An account is the same only if it has the same name here; the label stays.
            if users.get(old) != getattr(obj, "actor_label", None):
                setattr(obj, field.attname, None)
            continue
        known = ids.get(field.related_model, {})  # type: ignore[arg-type]
        if old not in known:
            raise FloorError(
                _("The export is damaged: %(model)s points to a row that is not in the file.")
                % {"model": obj._meta.label_lower}
            )
        setattr(obj, field.attname, known[old])


def _self_references(objs: list[Model]) -> list[tuple[Model, str, Any]]:
    """The references of rows to rows of their own kind (a ledger correction to the line it
    corrects), taken off before the rows are written: the ids they point to are known after."""
    found = []
    for obj in objs:
        for field in obj._meta.concrete_fields:
            if field.is_relation and field.related_model is type(obj):
                old = getattr(obj, field.attname)
                if old is not None:
                    found.append((obj, field.attname, old))
                    setattr(obj, field.attname, None)
    return found


def _self_references_back(
    model: type[Model], found: list[tuple[Model, str, Any]], ids: dict[Any, Any]
) -> None:
    for obj, attname, old in found:
        if old not in ids:
            raise FloorError(
                _("The export is damaged: %(model)s points to a row that is not in the file.")
                % {"model": model._meta.label_lower}
            )
        # The base update: the ledger's own queryset refuses changes (the import writes it).
        QuerySet.update(model._default_manager.filter(pk=obj.pk), **{attname: ids[old]})


def _ids_taken(model: type[Model], pks: list[Any]) -> bool:
    return any(
        model._default_manager.filter(pk__in=pks[i : i + 500]).exists()
        for i in range(0, len(pks), 500)
    )


def _read_rows(data: Any) -> tuple[int, dict[type[Model], list[Model]]]:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise FloorError(_("This is not a Floor tournament export."))
    try:
        pk = int(data.get("tournament") or 0)
        rows = [row.object for row in serializers.deserialize("python", data.get("objects", []))]
    except (
        serializers.base.DeserializationError,
        TypeError,
        ValueError,
        KeyError,
        AttributeError,
    ) as exc:
        raise FloorError(_("The export is damaged: %(reason)s") % {"reason": exc}) from exc
    by_model: dict[type[Model], list[Model]] = {}
    for obj in rows:
        if type(obj) not in MODELS:  # an export holds nothing else (no accounts, no settings)
            raise FloorError(
                _("The export is damaged: %(reason)s")
                % {"reason": _("it holds %(model)s rows") % {"model": obj._meta.label_lower}}
            )
        by_model.setdefault(type(obj), []).append(obj)
    tournaments = by_model.get(Tournament, [])
    if len(tournaments) != 1 or tournaments[0].pk != pk:
        raise FloorError(_("The export holds no tournament."))
    return pk, by_model


@transaction.atomic
def tournament_import(data: dict[str, Any], *, actor: Actor | None = None) -> Tournament:
    """Write an exported tournament as a new tournament of this installation; nothing that is
    here already is changed. Rows whose ids are taken get new ids and every reference in the
    file follows them. Refused, with nothing written, when the file is not an export, is
    damaged, or when this very tournament is here already."""
    pk, by_model = _read_rows(data)
    exported = by_model[Tournament][0]
    assert isinstance(exported, Tournament)
    here = Tournament.objects.filter(pk=pk).first()
    if here is not None and (here.name, here.created_at) == (exported.name, exported.created_at):
        raise FloorError(_("Tournament %(pk)s exists already; nothing was imported.") % {"pk": pk})
    users = dict(get_user_model().objects.values_list("pk", "username"))
    ids: dict[type[Model], dict[Any, Any]] = {}
    _reuse_same_records(by_model, ids)
    stamped: dict[type[Model], list[tuple[Model, dict[str, Any]]]] = {}
    renumbered: list[str] = []
    try:
        for model in MODELS:
            objs = by_model.get(model, [])
            if not objs:
                continue
            old = [obj.pk for obj in objs]
            fresh = _ids_taken(model, old)  # all or none: new ids never meet kept ones
            auto = _auto_fields(model)
            own = _self_references(objs)
            for obj in objs:
                _point_to_imported(obj, ids, users)
                if auto:  # saving sets these to "now": put the recorded times back afterwards
                    stamped.setdefault(model, []).append((obj, {f: getattr(obj, f) for f in auto}))
                if fresh:
                    obj.pk = None
            if fresh:
                renumbered.append(model._meta.label_lower)
            model._default_manager.bulk_create(objs)
            ids.setdefault(model, {}).update(zip(old, (obj.pk for obj in objs), strict=True))
            _self_references_back(model, own, ids[model])
    except IntegrityError as exc:  # a dealer link or seat token that is here already
        raise FloorError(
            _("The export clashes with this installation (%(reason)s); nothing was imported.")
            % {"reason": exc}
        ) from exc
    for model, items in stamped.items():
        _restore_times(model, items)
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), list(MODELS)):
            cursor.execute(sql)
    tournament = Tournament.objects.get(pk=ids[Tournament][pk])
    if renumbered:
        # The ids inside earlier events' payloads name the rows as they were numbered before:
        # this event marks where that stops (undo refuses to reach across it).
        event_record(
            tournament=tournament,
            action=IMPORT_RENUMBERED,
            actor=actor or Actor.system("import"),
            payload={"from": pk, "renumbered": renumbered},
        )
    # The head counts came in with the rows and were counted again as the rows went in.
    counters.recount(tournament.pk)
    tournament.refresh_from_db()
    return tournament
