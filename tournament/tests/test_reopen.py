"""A finished tournament goes back into play only by the director's explicit reopen; the overview
names each status change in words and asks before it."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils.timezone import now

from actions.bust import BustReport, entries_bust
from tournament.models import Status, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished(make_tournament, register, actor):
    t = make_tournament(status="registering")
    a, b = register(t, "Anna Schäfer"), register(t, "Paul Hartmann")
    Tournament.objects.filter(pk=t.pk).update(status="running", registration_closed_at=now())
    entries_bust(tournament=t, busts=[BustReport(entry=a)], actor=actor)
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    return t, a, b


def test_desk_undo_after_the_end_is_refused_and_says_how(client, floor_user, finished):
    t, _a, _b = finished
    client.force_login(floor_user)
    page = client.get(reverse("desk", args=[t.pk])).content.decode()
    assert reverse("bust-undo", args=[t.pk]) not in page
    assert "Only the director can reopen it" in page
    response = client.post(reverse("bust-undo", args=[t.pk]), follow=True)
    assert "reopen" in response.content.decode()
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    assert t.entries.filter(place=1).count() == 1


def test_only_the_director_reopens(client, floor_user, director, finished):
    t, _a, _b = finished
    client.force_login(floor_user)
    assert client.post(reverse("tournament-reopen", args=[t.pk])).status_code == 403
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    client.force_login(director)
    page = client.get(reverse("tournament-overview", args=[t.pk])).content.decode()
    assert 'id="reopen"' in page and "data-confirm" in page
    response = client.post(
        reverse("tournament-reopen", args=[t.pk]), {"reason": "wrong bust"}, follow=True
    )
    assert response.status_code == 200
    t.refresh_from_db()
    assert t.status == Status.RUNNING
    history = client.get(reverse("history", args=[t.pk])).content.decode()
    assert "Finished tournament reopened (Running): wrong bust" in history
    # Now the desk offers the undo, and it works.
    client.post(reverse("bust-undo", args=[t.pk]))
    assert not t.entries.filter(place__isnull=False).exists()


def test_reopen_refuses_a_bad_reason_and_changes_nothing(client, director, finished):
    t, _a, _b = finished
    client.force_login(director)
    client.post(reverse("tournament-reopen", args=[t.pk]), {"reason": "x\x00y"})
    t.refresh_from_db()
    assert t.status == Status.FINISHED
    assert not t.events.filter(action="tournament.reopen").exists()


def test_status_buttons_say_what_they_do_and_ask_first(client, director, make_tournament):
    t = make_tournament(status="registering")
    client.force_login(director)
    page = client.get(reverse("tournament-overview", args=[t.pk])).content.decode()
    assert "Start the tournament</button>" in page
    assert "Back to planned</button>" in page
    assert page.count("data-confirm=") >= 2
    assert "Registration is open; the tournament has not started." in page
    # The forward step comes first; the step back sits apart below it.
    assert page.index("Start the tournament") < page.index("status-back")
    assert page.index("status-back") < page.index("Back to planned")


def test_status_change_reads_in_words(client, director, make_tournament):
    t = make_tournament(status="registering")
    client.force_login(director)
    client.post(reverse("tournament-status", args=[t.pk]), {"status": "running"})
    history = client.get(reverse("history", args=[t.pk])).content.decode()
    assert "Status changed: Registering → Running" in history


def test_api_reopen_is_for_the_director(client, floor_user, director, finished):
    t, _a, _b = finished
    url = reverse("api-reopen", args=[t.pk])
    client.force_login(floor_user)
    assert client.post(url, {"reason": "x"}, content_type="application/json").status_code == 403
    client.force_login(director)
    undo = client.post(reverse("api-bust-undo", args=[t.pk]), {}, content_type="application/json")
    assert undo.status_code == 400 and "reopen" in undo.json()["detail"]
    response = client.post(url, {"reason": "wrong bust"}, content_type="application/json")
    assert response.status_code == 200 and response.json()["status"] == "running"
    again = client.post(url, {}, content_type="application/json")
    assert again.status_code == 400
