"""A finished 500-player event exported, deleted, imported: identical."""

from __future__ import annotations

import json
import random

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from tables import services as seating
from tournament.errors import FloorError
from tournament.models import Entry, Event, Status, Tournament
from tournament.services.archive import tournament_export, tournament_import
from tournament.services.eliminations import BustReport, entries_bust

pytestmark = pytest.mark.django_db


def strip(export):
    return {k: v for k, v in export.items() if k != "exported_at"}


def finished_event(make_tournament, register, actor, n):
    t = make_tournament(status="registering", bounty_kind="progressive", bounty=2000)
    entries = [register(t) for _ in range(n)]
    seating.tables_create(tournament=t, count=-(-n // 9), actor=actor, area="Hall")
    seating.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(
        status=Status.RUNNING,
        registration_closed_at=timezone.now(),  # the field is final
    )
    t.refresh_from_db()
    rng = random.Random(3)
    alive = list(entries)
    while len(alive) > 1:
        out = alive.pop(rng.randrange(len(alive)))
        entries_bust(
            tournament=t,
            busts=[BustReport(entry=out, eliminated_by=(rng.choice(alive).number,))],
            actor=actor,
        )
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    return t


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="500 busts are slow on SQLite; CI runs PostgreSQL"
)
def test_finished_500_player_event_round_trips(make_tournament, register, actor, tmp_path):
    t = finished_event(make_tournament, register, actor, 500)
    before = tournament_export(t)
    assert sum(1 for o in before["objects"] if o["model"] == "tournament.entry") == 500
    events = Event.objects.filter(tournament=t).count()
    path = tmp_path / "cup.json"
    path.write_text(json.dumps(before))
    Tournament.objects.filter(pk=t.pk).delete()
    assert not Entry.objects.filter(tournament_id=t.pk).exists()
    call_command("floor_import", str(path))
    again = Tournament.objects.get(pk=t.pk)
    assert Event.objects.filter(tournament=again).count() == events
    after = tournament_export(again)
    assert strip(after) == strip(json.loads(path.read_text()))


def test_small_round_trip_and_refusals(make_tournament, register, actor):
    t = finished_event(make_tournament, register, actor, 12)
    before = tournament_export(t)
    with pytest.raises(FloorError, match="exists already"):
        tournament_import(before)
    with pytest.raises(FloorError, match="not a Floor"):
        tournament_import({"format": "something else"})
    with pytest.raises(FloorError, match="damaged"):
        tournament_import({"format": before["format"], "tournament": 99999, "objects": [{"x": 1}]})
    Tournament.objects.filter(pk=t.pk).delete()
    assert strip(tournament_export(tournament_import(before))) == strip(before)


def test_export_page_is_for_directors(client, director, floor_user, make_tournament):
    t = make_tournament()
    client.force_login(floor_user)
    assert client.get(f"/console/t/{t.pk}/export.json").status_code == 403
    client.force_login(director)
    response = client.get(f"/console/t/{t.pk}/export.json")
    assert response.status_code == 200
    assert response.json()["format"] == "floor-tournament/1"
