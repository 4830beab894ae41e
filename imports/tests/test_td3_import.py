"""The TD3 import end to end: a file becomes a finished tournament with its people, entries,
purchases, places, prizes, bounties and the log's line; the next file finds the same people; the
same tournament is refused the second time; a likely duplicate joins a record only when the
director says so; a refused file writes nothing."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from core.errors import FloorError
from imports.models import ExternalId, ImportedTournament
from imports.services import td3_import, td3_preview, td3_read
from tournament.models import Entry, Event, Payout, Player, Purchase, Status, Tournament

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("counters_agree")]

FILES = Path(__file__).resolve().parent / "files"
V30 = FILES / "club-night-3.0.tdt"
V343 = FILES / "club-night-3.4.3.tdt"
V372 = FILES / "club-night-3.7.2.tdt"


def load(path):
    return td3_read(path.read_bytes(), path.name)


def test_a_file_becomes_a_finished_tournament(actor):
    t = td3_import(load(V372), file_name=V372.name, actor=actor)
    assert t.status == Status.FINISHED and t.name == "Thursday 2025-01-16"
    assert (t.buy_in, t.fee, t.starting_stack, t.bounty) == (18000, 2000, 10000, 5000)
    entries = list(t.entries.select_related("player").order_by("place"))
    assert [(e.place, e.player.display_name, e.prize, e.is_reentry) for e in entries] == [
        (1, "Ida", 70000, False),
        (2, "Jan", 40000, False),
        (3, "Kai", 10000, True),
        (4, 'Mo "the Rock"', 0, False),
        (5, "Lea", 0, False),
        (6, "Kai", 0, False),
    ]
    assert entries[0].status == "active" and all(e.status == "busted" for e in entries[1:])
    assert entries[0].player.name == "Ida Sommer" and entries[0].player.email == "ida@example.org"
    assert [e.bounties_won for e in entries] == [12500, 7500, 5000, 0, 0, 0]
    # Who knocked out whom: the hits a league formula counts (h). The file gives full credit
    # for a split pot (FullCreditHit): Kai's second entry counts for Ida and for Jan.
    assert [e.hits for e in entries] == [3, 2, 1, 0, 0, 0]
    kinds = sorted(Purchase.objects.filter(entry__tournament=t).values_list("kind", "price", "fee"))
    assert kinds == sorted(
        [("buyin", 18000, 2000)] * 5
        + [("reentry", 18000, 2000), ("rebuy", 10000, 0), ("addon", 5000, 0)]
    )
    t.refresh_from_db()
    assert (t.entries_counted, t.players_left) == (6, 1)
    assert list(Payout.objects.filter(tournament=t).values_list("place", "amount")) == [
        (1, 70000),
        (2, 40000),
        (3, 10000),
    ]
    # The test file records no levels: one level of unknown blinds, as long as the night.
    levels = list(t.structure.levels.values_list("small_blind", "big_blind", "is_break"))
    assert levels == [(0, 0, False)]
    imported = ImportedTournament.objects.get(tournament=t)
    assert (imported.league_name, imported.season_name, imported.version) == (
        "Thursday League",
        "2025",
        "3.7.2",
    )
    assert imported.points_formula.startswith('assign ("points", 1)')
    assert imported.imported_by == actor.user
    line = Event.objects.get(tournament=t, action="import.td3")
    assert line.payload["file"] == "club-night-3.7.2.tdt" and line.payload["added"] == 5
    # Who knocked out whom, in the order they went out: entry numbers in buy-in order
    # (Ida 1, Jan 2, Kai 3, Lea 4, Mo 5, Kai's re-entry 6).
    assert [(b["number"], b["place"], b["round"], b["by"]) for b in line.payload["busts"]] == [
        (3, 6, 2, [2]),
        (4, 5, 4, [6]),
        (5, 4, 5, [1]),
        (6, 3, 6, [1, 2]),
        (2, 2, 8, [1]),
    ]


def test_the_next_file_finds_the_same_people_and_the_same_file_is_refused(actor):
    td3_import(load(V343), file_name=V343.name, actor=actor)
    people = Player.objects.count()
    again = load(V343)
    preview = td3_preview(again, V343.name)
    assert preview.already is not None and len(preview.known) == 3 and preview.new_people == 0
    with pytest.raises(FloorError, match="imported already"):
        td3_import(again, file_name="copy.tdt", actor=actor)
    assert Tournament.objects.count() == 1 and Player.objects.count() == people
    # Another night of the same players (its own UUID): the same three people, no new ones.
    other = V343.read_text(encoding="utf-8").replace("000000000343", "000000000344")
    td3_import(td3_read(other.encode(), "next.tdt"), file_name="next.tdt", actor=actor)
    assert Player.objects.count() == people
    assert ExternalId.objects.count() == 3
    fritz = ExternalId.objects.get(value="c0000001-23d2-11e4-0aa0-000000000001").player
    assert fritz.entries.count() == 4  # two entries in each night


def test_likely_duplicates_join_only_when_confirmed(actor):
    hugo = Player.objects.create(name="Hugo Lang", display_name="Hugo")
    anna = Player.objects.create(name="Someone Else", display_name="A", email="anna@example.org")
    preview = td3_preview(load(V343), V343.name)
    assert [(x.td3_name, x.player.pk) for x in preview.likely] == [("Hugo", hugo.pk)]
    assert [r.value for r in preview.likely[0].reasons] == ["name"]
    # Without the director's word: a new record.
    td3_import(load(V30), file_name=V30.name, actor=actor)
    assert Player.objects.filter(email="anna@example.org").count() == 2
    # With it: the same person, and the TD3 id kept for the next file.
    t = td3_import(
        load(V343),
        file_name=V343.name,
        actor=actor,
        matches={"c0000003-23d2-11e4-0aa0-000000000003": hugo.pk},
    )
    assert t.entries.filter(player=hugo).count() == 1
    assert ExternalId.objects.get(value="c0000003-23d2-11e4-0aa0-000000000003").player == hugo
    assert anna.pk


def test_bad_matches_are_refused_and_nothing_is_written(actor):
    p = Player.objects.create(name="X Y", display_name="X")
    for matches, words in (
        ({"not-in-the-file": p.pk}, "not in the file"),
        ({"c0000003-23d2-11e4-0aa0-000000000003": 999999}, "does not exist"),
        (
            {
                "c0000003-23d2-11e4-0aa0-000000000003": p.pk,
                "c0000002-23d2-11e4-0aa0-000000000002": p.pk,
            },
            "one person",
        ),
    ):
        with pytest.raises(FloorError, match=words):
            td3_import(load(V343), file_name=V343.name, actor=actor, matches=matches)
    assert Tournament.objects.count() == 0 and Player.objects.count() == 1
    assert not ExternalId.objects.exists()


def test_the_3_0_file_pays_by_place(actor):
    t = td3_import(load(V30), file_name=V30.name, actor=actor)
    assert list(t.entries.order_by("place").values_list("place", "prize", "bounties_won")) == [
        (1, 9500, 1000),
        (2, 4000, 0),
        (3, 0, 0),
    ]
    assert t.bounty_kind == "fixed" and t.fee == 500 and t.buy_in == 4500


def test_command_imports_and_refuses(tmp_path, db):
    out = StringIO()
    call_command("floor_import_td", str(V30), str(V372), stdout=out)
    assert "Freeze-out Thursday" in out.getvalue() and "winner Ida" in out.getvalue()
    assert Tournament.objects.count() == 2
    with pytest.raises(CommandError, match="imported already"):
        call_command("floor_import_td", str(V372), stdout=StringIO())
    broken = tmp_path / "broken.tdt"
    broken.write_bytes(V343.read_bytes()[:500])
    with pytest.raises(CommandError, match="truncated"):
        call_command("floor_import_td", str(broken), stdout=StringIO())
    dry = StringIO()
    call_command("floor_import_td", "--dry-run", str(V343), stdout=dry)
    assert "Would import" in dry.getvalue()
    assert Tournament.objects.count() == 2 and Entry.objects.count() == 9


def test_the_pages_of_an_imported_tournament_without_levels_open(actor, client, director):
    """Every page of the clock reads the structure's levels: an import gives it one."""
    t = td3_import(load(V30), file_name=V30.name, actor=actor)
    assert client.get(f"/t/{t.pk}/").status_code == 200
    client.force_login(director)
    for page in ("", "structure/", "clock/", "rulings/", "phone/"):
        assert client.get(f"/console/t/{t.pk}/{page}").status_code == 200, page


def test_a_players_country_is_kept_when_it_reads_as_one(actor, tmp_path):
    # TD3's PlayerInfo.Country is free text: "Deutschland" becomes DE, "Mars" is left out.
    text = V372.read_text(encoding="utf-8")
    first, second = (
        text.index('Country: ""'),
        text.index('Country: ""', text.index('Country: ""') + 1),
    )
    text = (
        text[:first]
        + 'Country: "Deutschland"'
        + text[first + len('Country: ""') : second]
        + 'Country: "Mars"'
        + text[second + len('Country: ""') :]
    )
    t = td3_import(td3_read(text.encode(), V372.name), file_name=V372.name, actor=actor)
    countries = set(Player.objects.filter(entries__tournament=t).values_list("country", flat=True))
    assert countries == {"", "DE"}
    assert Player.objects.get(name="Ida Sommer").country == "DE"
