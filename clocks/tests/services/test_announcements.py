"""Spoken announcements: the venue's texts, the floor's announcements sent as `announce` when
the change commits, the console page and who may use it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from actions.bust import BustReport, entries_bust
from clocks.announcements import announcement_texts, announcement_texts_save, default_text
from clocks.models import AnnouncementText
from core.errors import FloorError
from live import realtime
from tables import services as seating
from tables.models import SeatAssignment, Table
from tournament.models import Event

pytestmark = pytest.mark.django_db


def announced(sent, t) -> list[dict[str, Any]]:
    group = realtime.tournament_group(t.pk)
    return [d for g, e, d in sent if g == group and e == "announce"]


@pytest.fixture
def seated(make_tournament, register, actor):
    t = make_tournament(status="running", seats_per_table=6)
    entries = [register(t) for _ in range(14)]
    seating.seats_draw(tournament=t, actor=actor)  # three tables of 5, 5 and 4
    return t, entries


# --- Texts ------------------------------------------------------------------------------------


def test_defaults_until_the_venue_writes_its_own(actor):
    assert announcement_texts("en")["table_break"] == default_text("table_break", "en")
    changed = announcement_texts_save(
        language="de", texts={"table_break": "Tisch {table} wird aufgelöst."}, actor=actor
    )
    assert changed == ["table_break"]
    assert announcement_texts("de")["table_break"] == "Tisch {table} wird aufgelöst."
    assert announcement_texts("en")["table_break"] == default_text("table_break", "en")
    event = Event.objects.get(action="announcements.edit")
    assert event.payload == {"language": "de", "kinds": ["table_break"]}
    # Empty goes back to the default.
    announcement_texts_save(language="de", texts={"table_break": "  "}, actor=actor)
    assert not AnnouncementText.objects.exists()


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("<b>Tisch</b> {table}", "markup"),
        ("Tisch {table} &amp; mehr", "markup"),
        ("Tisch {table} in Level {level}", "{level}"),
        ("Tisch {table", "brace"),
        ("Tisch {table}\x00", "cannot be spoken"),
    ],
)
def test_a_bad_text_changes_nothing_and_says_why(actor, text, reason):
    with pytest.raises(FloorError) as caught:
        announcement_texts_save(
            language="de",
            texts={"test": "Ein guter Text.", "table_break": text},
            actor=actor,
        )
    assert reason in str(caught.value)
    assert not AnnouncementText.objects.exists()
    assert not Event.objects.filter(action="announcements.edit").exists()


def test_unknown_language_or_announcement_is_refused(actor):
    with pytest.raises(FloorError):
        announcement_texts_save(language="xx", texts={"test": "Hallo"}, actor=actor)
    with pytest.raises(FloorError):
        announcement_texts_save(language="de", texts={"jingle": "Hallo"}, actor=actor)


# --- From the floor ---------------------------------------------------------------------------


def test_a_table_break_is_announced_in_every_language(
    seated, actor, sent, django_capture_on_commit_callbacks
):
    t, _entries = seated
    announcement_texts_save(
        language="de", texts={"table_break": "Tisch {table} wird aufgelöst."}, actor=actor
    )
    number = Table.objects.filter(tournament=t, is_open=True).order_by("-number")[0].number
    others = SeatAssignment.objects.filter(table__tournament=t).exclude(table__number=number)
    for row in list(others)[:2]:  # room for the broken table's players
        entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=actor)
    with django_capture_on_commit_callbacks(execute=True):
        seating.table_break(tournament=t, number=number, actor=actor)
    (message,) = [m for m in announced(sent, t) if m["kind"] == "table_break"]
    assert message["texts"]["de"] == f"Tisch {number} wird aufgelöst."
    assert str(number) in message["texts"]["en"]


def test_hand_for_hand_on_is_announced_and_off_is_not(
    seated, actor, sent, django_capture_on_commit_callbacks
):
    t, _entries = seated
    with django_capture_on_commit_callbacks(execute=True):
        seating.hand_for_hand_set(tournament=t, on=True, actor=actor)
    with django_capture_on_commit_callbacks(execute=True):
        seating.hand_for_hand_set(tournament=t, on=False, actor=actor)
    assert [m["kind"] for m in announced(sent, t)] == ["hand_for_hand"]


def test_the_bubble_and_the_money_are_announced_once_each(
    make_tournament, register, actor, sent, django_capture_on_commit_callbacks
):
    t = make_tournament(status="running", places_paid=3)
    entries = [register(t) for _ in range(6)]
    kinds = []
    for victim in entries[:3]:  # 6 → 5 → 4 (the bubble) → 3 (in the money)
        sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            entries_bust(tournament=t, busts=[BustReport(entry=victim)], actor=actor)
        kinds.append([m["kind"] for m in announced(sent, t)])
    assert kinds == [[], ["bubble"], ["in_the_money"]]


def test_a_bust_far_above_the_bubble_does_not_read_the_payouts(
    make_tournament, register, actor, sent, django_capture_on_commit_callbacks, monkeypatch
):
    """At 30,000 entries every bust asked the payout table whether it was the bubble; the bust
    knows the places paid at most, so only a bust near them asks."""
    from clocks import announcements

    asked: list[int] = []
    real = announcements._places_paid
    monkeypatch.setattr(announcements, "_places_paid", lambda pk: asked.append(pk) or real(pk))
    t = make_tournament(status="running", places_paid=2)
    entries = [register(t) for _ in range(9)]
    kinds = []
    for victim in entries[:7]:  # places 9, 8, 7, 6 (far: more than 2 + 3), then 5, 4 (bubble), 3
        sent.clear()
        with django_capture_on_commit_callbacks(execute=True):
            entries_bust(tournament=t, busts=[BustReport(entry=victim)], actor=actor)
        kinds.append([m["kind"] for m in announced(sent, t)])
    assert kinds == [[], [], [], [], [], ["bubble"], ["in_the_money"]]
    assert len(asked) == 3  # places 5, 4 and 3 only


def test_the_final_table_is_announced(
    make_tournament, register, actor, sent, django_capture_on_commit_callbacks
):
    t = make_tournament(status="running", seats_per_table=6, final_table_size=6)
    entries = [register(t) for _ in range(8)]
    seating.seats_draw(tournament=t, actor=actor)
    for victim in entries[:2]:
        entries_bust(tournament=t, busts=[BustReport(entry=victim)], actor=actor)
    with django_capture_on_commit_callbacks(execute=True):
        seating.final_table_draw(tournament=t, actor=actor)
    assert [m["kind"] for m in announced(sent, t)] == ["final_table"]


# --- The console page -------------------------------------------------------------------------


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


def test_the_page_shows_every_text_with_a_preview(director_client, make_tournament):
    t = make_tournament(status="running")
    response = director_client.get(reverse("announcements", args=[t.pk]) + "?lang=en")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="text-table_break"' in html and 'id="preview-table_break"' in html
    assert "Table 12" in html  # the preview's example values


def test_saving_a_bad_text_on_the_page_changes_nothing(director_client, make_tournament):
    t = make_tournament(status="running")
    url = reverse("announcements", args=[t.pk])
    response = director_client.post(
        url, {"language": "de", "text-test": "Gut.", "text-bubble": "<script>x</script>"}
    )
    assert response.status_code == 400
    assert "markup" in response.content.decode()
    assert not AnnouncementText.objects.exists()
    # A preview saves nothing either.
    response = director_client.post(url, {"language": "de", "text-test": "Gut.", "preview": "1"})
    assert response.status_code == 200 and not AnnouncementText.objects.exists()
    response = director_client.post(url, {"language": "de", "text-test": "Gut."})
    assert response.status_code == 302
    assert AnnouncementText.objects.get().text == "Gut."


def test_the_test_button_sends_a_test_announcement(
    director_client, make_tournament, sent, django_capture_on_commit_callbacks
):
    t = make_tournament(status="running")
    with django_capture_on_commit_callbacks(execute=True):
        response = director_client.post(reverse("announcements-test", args=[t.pk]))
    assert response.status_code == 302
    assert [m["kind"] for m in announced(sent, t)] == ["test"]
    assert Event.objects.filter(tournament=t, action="announcements.test").exists()


def test_floor_staff_and_visitors_may_not_edit_or_test(client, floor_user, make_tournament):
    t = make_tournament(status="running")
    urls = [reverse("announcements", args=[t.pk]), reverse("announcements-test", args=[t.pk])]
    for url in urls:
        assert client.post(url, {"language": "de", "text-test": "x"}).status_code == 302
    client.force_login(floor_user)
    for url in urls:
        assert client.post(url, {"language": "de", "text-test": "x"}).status_code == 403
    assert not AnnouncementText.objects.exists()
    assert not Event.objects.filter(action__startswith="announcements.").exists()


def test_only_a_big_screen_with_sound_gets_the_speech_config(client, make_tournament):
    t = make_tournament(status="running", late_registration_until_level=4)
    quiet = client.get(reverse("bigscreen", args=[t.pk])).content.decode()
    assert "speech-config" not in quiet and "speech.js" not in quiet
    loud = client.get(reverse("bigscreen", args=[t.pk]) + "?sound=1").content.decode()
    assert 'id="speech-config"' in loud and 'id="bs-caption"' in loud
    config = loud.split('id="speech-config" type="application/json">')[1].split("</script>")[0]
    data = json.loads(config)
    assert data["lateUntil"] == 4 and "level_start" in data["texts"]
    assert "table_break" not in data["texts"]  # the floor's come with their message


def test_a_balance_announces_each_move_from_table_to_table(
    seated, actor, sent, django_capture_on_commit_callbacks
):
    from tables.selectors import balance_plan

    t, _entries = seated
    first = Table.objects.filter(tournament=t, is_open=True).order_by("number")[0]
    for row in list(SeatAssignment.objects.filter(table=first))[:3]:  # 5 → 2 players
        entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=actor)
    plan = balance_plan(t)
    assert plan.moves
    with django_capture_on_commit_callbacks(execute=True):
        seating.balance_apply(tournament=t, signature=plan.signature, actor=actor)
    moves = [m for m in announced(sent, t) if m["kind"] == "players_move"]
    pairs = {(m.from_table, m.to_table) for m in plan.moves}
    assert len(moves) == len(pairs)
    (from_table, to_table) = sorted(pairs)[0]
    assert f"{from_table}" in moves[0]["texts"]["en"] and f"{to_table}" in moves[0]["texts"]["en"]


# --- Texts and the end of late registration reach the screens live ------------------------------


def speech(sent, t) -> list[dict[str, Any]]:
    group = realtime.tournament_group(t.pk)
    return [d for g, e, d in sent if g == group and e == "speech"]


def test_edited_clock_texts_go_to_every_tournament_still_to_play(
    make_tournament, actor, sent, django_capture_on_commit_callbacks
):
    running = make_tournament(status="running", late_registration_until_level=4)
    planned = make_tournament(status="planned")
    over = make_tournament(status="finished")
    with django_capture_on_commit_callbacks(execute=True):
        announcement_texts_save(
            language="de", texts={"level_start": "Stufe {level}: {small_blind}/{big_blind}."},
            actor=actor,
        )  # fmt: skip
    (message,) = speech(sent, running)
    assert message["texts"]["de"]["level_start"] == "Stufe {level}: {small_blind}/{big_blind}."
    assert message["texts"]["en"]["level_start"] == default_text("level_start", "en")
    assert "table_break" not in message["texts"]["de"]  # the floor's come with their message
    assert message["late_until"] == 4
    assert len(speech(sent, planned)) == 1 and speech(sent, over) == []
    # A floor announcement's text only: nothing to send, its message carries the words.
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        announcement_texts_save(
            language="de", texts={"table_break": "Tisch {table} zu."}, actor=actor
        )
    assert speech(sent, running) == []


def test_registration_closed_or_reopened_by_hand_goes_to_the_screens(
    make_tournament, register, actor, sent, django_capture_on_commit_callbacks
):
    from tournament.services.registration import registration_close, registration_reopen
    from tournament.services.tournaments import tournament_update

    t = make_tournament(status="running", late_registration_until_level=4)
    register(t)
    with django_capture_on_commit_callbacks(execute=True):
        registration_close(tournament=t, actor=actor)
    assert [m["late_until"] for m in speech(sent, t)] == [None]
    with django_capture_on_commit_callbacks(execute=True):
        registration_reopen(tournament=t, actor=actor)
    assert [m["late_until"] for m in speech(sent, t)] == [None, 4]
    t.refresh_from_db()
    t2 = make_tournament(status="registering", late_registration_until_level=4)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_update(tournament=t2, actor=actor, late_registration_until_level=6)
        tournament_update(tournament=t2, actor=actor, name="Renamed")  # nothing for the screens
    assert [m["late_until"] for m in speech(sent, t2)] == [6]
