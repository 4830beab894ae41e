"""A whole tournament as one JSON file, and back.

The export holds everything the tournament is made of: its structure and chip set, the players
in it (with their private contact data: keep the file safe), entries and purchases, payouts,
deals, tables and seats, dealer reports, the clock and its history, rulings, and the full event
log. The
import writes it back with the same ids, so an exported, deleted and re-imported tournament
exports identically. It is meant for backups, for moving an event to another installation, and
for the record.
"""

from __future__ import annotations

import datetime
import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.json import DjangoJSONEncoder
from django.db import connection, transaction
from django.db.models import Case, Model, QuerySet, Value, When
from django.utils import timezone
from django.utils.translation import gettext as _

from clocks.models import Clock, ClockEvent
from rules_engine.models import ColourUp, Penalty, Ruling
from tables.models import KeepApart, SeatAssignment, Table, TableReport, TimeCall
from tournament import counters
from tournament.errors import FloorError
from tournament.models import (
    ChipDenomination,
    ChipSet,
    Deal,
    DealShare,
    Entry,
    Event,
    Level,
    Payout,
    Player,
    Purchase,
    Structure,
    Tournament,
)

FORMAT = "floor-tournament/1"

# Shared rows are written with update-or-insert; the tournament's own rows are inserted in bulk
# (the event log refuses updates by design).
SHARED: tuple[type[Model], ...] = (ChipSet, ChipDenomination, Structure, Level, Player)


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
        Deal.objects.filter(tournament_id=t.pk),
        DealShare.objects.filter(deal__tournament_id=t.pk),
        Table.objects.filter(tournament_id=t.pk),
        SeatAssignment.objects.filter(table__tournament_id=t.pk),
        KeepApart.objects.filter(tournament_id=t.pk),
        TableReport.objects.filter(table__tournament_id=t.pk),
        TimeCall.objects.filter(table__tournament_id=t.pk),
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


@transaction.atomic
def tournament_import(data: dict[str, Any]) -> Tournament:
    """Write an exported tournament back. Refused, with nothing written, when the file is not
    an export or when the tournament (by id) is still there."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise FloorError(_("This is not a Floor tournament export."))
    try:
        pk = int(data.get("tournament") or 0)
    except (TypeError, ValueError):
        pk = 0
    if Tournament.objects.filter(pk=pk).exists():
        raise FloorError(_("Tournament %(pk)s exists already; nothing was imported.") % {"pk": pk})
    try:
        rows = list(serializers.deserialize("python", data.get("objects", [])))
    except (serializers.base.DeserializationError, TypeError, KeyError, AttributeError) as exc:
        raise FloorError(_("The export is damaged: %(reason)s") % {"reason": exc}) from exc
    users = set(get_user_model().objects.values_list("pk", flat=True))
    batches: dict[type[Model], list[Model]] = {}
    stamped: dict[type[Model], list[tuple[Model, dict[str, Any]]]] = {}
    for row in rows:
        obj = row.object
        auto = _auto_fields(type(obj))
        if auto:  # saving sets these to "now": put the recorded times back afterwards
            stamped.setdefault(type(obj), []).append((obj, {f: getattr(obj, f) for f in auto}))
        if isinstance(obj, Event) and obj.actor_id not in users:
            obj.actor_id = None  # the account is not on this installation; the label stays
        if isinstance(obj, SHARED):
            row.save()
        else:
            batches.setdefault(type(obj), []).append(obj)
    for model in MODELS:
        if model in batches:
            model._default_manager.bulk_create(batches[model])
    for model, items in stamped.items():
        _restore_times(model, items)
    with connection.cursor() as cursor:
        for sql in connection.ops.sequence_reset_sql(no_style(), list(MODELS)):
            cursor.execute(sql)
    tournament = Tournament.objects.filter(pk=pk).first()
    if tournament is None:
        raise FloorError(_("The export holds no tournament."))
    # The head counts came in with the rows and were counted again as the rows went in.
    counters.recount(tournament.pk)
    tournament.refresh_from_db()
    return tournament
