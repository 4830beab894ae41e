"""Events with flights in German: the event is an "Event", bag and tag speaks of Chipcounts,
and a day that cannot close names its players and tables in the right number."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from core.errors import FloorError
from festivals import services as fest
from festivals.tests.test_festival import flights, people, play
from festivals.tests.test_views import make_event
from tournament.events import Actor
from tournament.models import EntryStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def boss(director):
    c = Client(HTTP_ACCEPT_LANGUAGE="de")
    c.force_login(director)
    return c


@pytest.fixture
def event(make_tournament, actor):
    base = make_tournament(status="registering", seats_per_table=6)
    return fest.event_create(template=base, name="Main Event", flights=2, actor=actor)


def test_the_new_event_form_and_its_message_say_event(boss, make_tournament):
    base = make_tournament(status="registering", seats_per_table=6)
    page = boss.get(reverse("festivals")).content.decode()
    assert "Event erstellen" in page and "Neues Event mit Starttagen" in page
    assert "Turnier erstellen" not in page and "Turnier mit Starttagen" not in page
    make_event(boss, base)
    after = boss.get(reverse("festivals")).content.decode()
    assert "Event „Sommer Main“ erstellt." in after


def test_a_day_that_cannot_close_names_one_player_at_one_table(event, actor):
    a = play(flights(event)[0], actor, people(6), busts=0)  # one table of six
    bagging = fest.bagging_open(tournament=a, actor=actor)
    alive = list(a.entries.filter(status=EntryStatus.ACTIVE).order_by("number"))
    bags = {e.pk: (1_000, f"A-{e.number}") for e in alive[1:]}
    fest.bags_record(bagging=bagging, table_number=1, bags=bags, actor=actor)
    with translation.override("de"), pytest.raises(FloorError) as refused:
        fest.bagging_close(bagging=bagging, actor=actor)
    assert str(refused.value) == "1 Spieler hat noch keinen Beutel (Tisch 1)."
    with translation.override("en"), pytest.raises(FloorError) as refused:
        fest.bagging_close(bagging=bagging, actor=actor)
    assert str(refused.value) == "1 player has no bag yet (table 1)."


def test_a_day_that_cannot_close_names_many_players_at_many_tables(event, actor):
    a = play(flights(event)[0], actor, people(12), busts=2)
    bagging = fest.bagging_open(tournament=a, actor=actor)
    with translation.override("de"), pytest.raises(FloorError) as refused:
        fest.bagging_close(bagging=bagging, actor=actor)
    assert str(refused.value) == "10 Spieler haben noch keinen Beutel (Tische 1, 2)."


def test_a_count_waiting_for_a_second_person_is_one_chipcount(event, actor, floor_user):
    a = play(flights(event)[0], actor, people(6), busts=0)
    bagging = fest.bagging_open(tournament=a, actor=actor)
    alive = list(a.entries.filter(status=EntryStatus.ACTIVE).order_by("number"))
    bags = {e.pk: (1_000, f"B-{e.number}") for e in alive}
    fest.bags_record(bagging=bagging, table_number=1, bags=bags, actor=actor)
    second = Actor(user=floor_user, label="flo", source="127.0.0.1")
    others = [e.pk for e in alive[1:]]
    fest.bags_confirm(bagging=bagging, table_number=1, entry_ids=others, actor=second)
    with translation.override("de"), pytest.raises(FloorError) as refused:
        fest.bagging_close(bagging=bagging, actor=actor)
    assert str(refused.value) == "1 Chipcount wartet auf eine zweite Person (Tisch 1)."
