"""A finished 500-player event exported, deleted, imported: identical."""

from __future__ import annotations

import json
import random

import pytest
from django.core.management import call_command
from django.db import connection
from django.utils import timezone

from actions.archive import MODELS, tournament_export, tournament_import
from actions.bust import BustReport, bust_undo_last, entries_bust
from actions.tournaments import tournament_reopen
from core.errors import FloorError
from tables import services as seating
from tournament.models import Entry, Event, Player, Status, Tournament

# Every counter the database keeps agrees with a full recount after each test (imports too).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("counters_agree")]


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


@pytest.mark.postgres  # 500 busts are slow on SQLite; the PostgreSQL pass runs it
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


def _rows_of(t):
    """Every row the tournament is made of, as the database holds it."""
    return strip(tournament_export(t))


def _from_elsewhere(export):
    """The same ids, other contents: what another installation's export of its own event looks
    like here."""
    other = json.loads(json.dumps(export))
    for obj in other["objects"]:
        fields = obj["fields"]
        if obj["model"] == "tournament.tournament":
            fields["name"] = "Elsewhere Open"
            fields["created_at"] = "2020-01-01T12:00:00+00:00"
        elif obj["model"] == "tournament.player":
            fields["email"] = "someone.else@example.org"
            fields["phone"] = "+49 170 0000000"
        elif obj["model"] == "tournament.level":
            fields["small_blind"] = fields["small_blind"] * 10 + 1
            fields["big_blind"] = fields["big_blind"] * 10 + 2
        elif obj["model"] == "tournament.chipset":
            fields["name"] = "Their chips"
        elif obj["model"] in ("tournament.entry", "tables.table"):
            token = "public_token" if "public_token" in fields else "dealer_token"
            fields[token] = f"x{obj['pk']}-{fields[token]}"[:40]
    return other


def test_colliding_ids_change_nothing_here(make_tournament, register, actor):
    running = finished_event(make_tournament, register, actor, 12)
    before = _rows_of(running)
    players = {p.pk: (p.email, p.phone) for p in Player.objects.all()}
    imported = tournament_import(_from_elsewhere(tournament_export(running)))
    assert imported.pk != running.pk
    assert _rows_of(running) == before  # blinds, chip set, players, entries, log: untouched
    assert {p.pk: (p.email, p.phone) for p in Player.objects.filter(pk__in=players)} == players
    assert imported.name == "Elsewhere Open"
    assert imported.structure_id != running.structure_id
    assert imported.chip_set_id != running.chip_set_id
    assert imported.entries.count() == 12
    assert set(imported.entries.values_list("player__email", flat=True)) == {
        "someone.else@example.org"
    }
    assert not imported.entries.filter(player_id__in=players).exists()
    first = imported.structure.levels.exclude(is_break=True).order_by("position").first()
    assert first.small_blind % 10 == 1
    # The ids in the imported log's payloads name the rows as they were: undo refuses.
    assert Event.objects.filter(tournament=imported, action="tournament.import").exists()
    tournament_reopen(tournament=imported, actor=actor)
    with pytest.raises(FloorError, match="before the tournament was imported"):
        bust_undo_last(tournament=imported, actor=actor)


def test_a_refused_import_writes_nothing(make_tournament, register, actor):
    t = finished_event(make_tournament, register, actor, 6)
    export = _from_elsewhere(tournament_export(t))
    counts = {m: m._default_manager.count() for m in MODELS}
    broken = json.loads(json.dumps(export))
    broken["objects"][-1]["fields"]["tournament"] = 999999  # the last event points outside
    with pytest.raises(FloorError, match="damaged"):
        tournament_import(broken)
    foreign = json.loads(json.dumps(export))
    entry = next(o for o in foreign["objects"] if o["model"] == "tournament.entry")
    entry["fields"]["player"] = 999999  # someone else's player row
    with pytest.raises(FloorError, match="damaged"):
        tournament_import(foreign)
    sneaky = json.loads(json.dumps(export))
    sneaky["objects"].append(
        {"model": "auth.user", "pk": 999, "fields": {"username": "x", "password": "x"}}
    )
    with pytest.raises(FloorError, match="damaged"):
        tournament_import(sneaky)
    assert {m: m._default_manager.count() for m in MODELS} == counts


def test_an_event_by_another_account_with_the_same_id_loses_the_link(
    make_tournament, register, actor
):
    t = finished_event(make_tournament, register, actor, 4)
    export = _from_elsewhere(tournament_export(t))
    for obj in export["objects"]:
        if obj["model"] == "tournament.event":
            obj["fields"]["actor_label"] = "somebody-there"
    imported = tournament_import(export)
    assert not Event.objects.filter(tournament=imported, actor__isnull=False).exists()
    assert Event.objects.filter(tournament=imported, actor_label="somebody-there").exists()


def test_the_cash_ledger_with_a_correction_travels_with_the_tournament(
    make_tournament, register, actor
):
    from tournament.ledger_selectors import tournament_cage
    from tournament.services import ledger

    t = finished_event(make_tournament, register, actor, 6)
    first = t.ledger.order_by("id").first()
    ledger.method_change(tournament=t, line_id=first.pk, method="card", reason="card", actor=actor)
    lines = list(t.ledger.values_list("kind", "method", "amount", "corrects_id"))
    imported = tournament_import(_from_elsewhere(tournament_export(t)))
    again = list(imported.ledger.order_by("id").values_list("kind", "method", "amount"))
    assert again == [(k, m, a) for k, m, a, _c in lines]
    corrected = imported.ledger.filter(corrects__isnull=False)
    assert corrected.count() == 2
    assert {c.corrects.method for c in corrected} == {"cash"}
    assert all(c.corrects.tournament_id == imported.pk for c in corrected)
    assert tournament_cage(imported).report.held == tournament_cage(t).report.held


def test_chip_counts_and_time_banks_travel_with_the_tournament(make_tournament, register, actor):
    from counts.services import count_record
    from tables.models import TimeBank

    t = make_tournament(status="registering")
    entries = [register(t) for _ in range(9)]
    seating.tables_create(tournament=t, count=1, actor=actor, area="Hall")
    seating.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    count_record(tournament=t, entry=entries[0], count=23_500, actor=actor)
    TimeBank.objects.create(entry=entries[1], used=1)
    imported = tournament_import(_from_elsewhere(tournament_export(t)))
    assert list(imported.chip_counts.values_list("count", flat=True)) == [23_500]
    assert TimeBank.objects.filter(entry__tournament=imported, used=1).count() == 1
