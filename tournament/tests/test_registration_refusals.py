"""A refused registration leaves no player row (with contact data) behind: desk form and API."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tournament.models import Player, Status, Tournament

pytestmark = pytest.mark.django_db

NEW = {"name": "Rita Refused", "email": "rita@example.org", "phone": "+49 170 1234567"}


def _closed(make_tournament, register, actor):
    t = make_tournament(status="registering")
    register(t)
    Tournament.objects.filter(pk=t.pk).update(status=Status.FINISHED)
    return t


def _registration_closed(make_tournament, register, actor):
    t = make_tournament(status="registering")
    register(t)
    Tournament.objects.filter(pk=t.pk).update(
        status=Status.RUNNING, registration_closed_at=timezone.now()
    )
    return t


REFUSALS = [_closed, _registration_closed]


def _desk(client, t, data):
    return client.post(f"/console/t/{t.pk}/desk/", data)


def _api(client, t, data):
    return client.post(
        f"/api/tournaments/{t.pk}/entries/",
        {"payment_method": "cash", **data},
        content_type="application/json",
    )


@pytest.mark.parametrize("refusal", REFUSALS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("send", [_desk, _api], ids=["desk", "api"])
def test_a_refused_registration_keeps_no_player(
    client, floor_user, make_tournament, register, actor, refusal, send
):
    t = refusal(make_tournament, register, actor)
    players = Player.objects.count()
    client.force_login(floor_user)
    response = send(client, t, NEW)
    assert response.status_code in (200, 400, 409)  # the desk shows its form again
    assert not t.entries.filter(player__name=NEW["name"]).exists()
    assert Player.objects.count() == players
    assert not Player.objects.filter(email=NEW["email"]).exists()


@pytest.mark.parametrize("send", [_desk, _api], ids=["desk", "api"])
@pytest.mark.parametrize(
    "data",
    [
        {**NEW, "name": "R"},  # too short
        {**NEW, "email": "not an address"},
        {**NEW, "name": "x" * 121},
    ],
    ids=["short name", "bad e-mail", "long name"],
)
def test_an_invalid_registration_keeps_no_player(client, floor_user, make_tournament, send, data):
    t = make_tournament(status="registering")
    client.force_login(floor_user)
    response = send(client, t, data)
    assert response.status_code in (200, 400)
    assert Player.objects.count() == 0


@pytest.mark.parametrize("send", [_desk, _api], ids=["desk", "api"])
def test_a_duplicate_registration_keeps_no_second_player(
    client, floor_user, make_tournament, register, send
):
    t = make_tournament(status="registering")
    entry = register(t)
    client.force_login(floor_user)
    data = (
        {"player": entry.player_id, **NEW} if send is _api else {**NEW, "player": entry.player_id}
    )
    response = send(client, t, data)
    assert response.status_code in (200, 400, 409)
    assert Player.objects.count() == 1
    assert t.entries.count() == 1
