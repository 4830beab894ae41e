"""A tournament stored with broken settings (rows written before the rules were checked) never
breaks another page: lists render each row on its own, its own pages show a notice."""

from __future__ import annotations

import pytest

from tournament.models import Tournament

pytestmark = pytest.mark.django_db

BROKEN = [
    {"bounty_kind": "fixed", "bounty": 999999},
    {"places_paid": 0},
    {"currency": "ÄÖÜ"},
]


@pytest.mark.parametrize("bad", BROKEN)
def test_a_bad_row_breaks_no_page(client, director, make_tournament, register, bad):
    t = make_tournament(status="registering", name="Broken Cup")
    for _ in range(5):
        register(t)
    fine = make_tournament(name="Fine Cup")
    Tournament.objects.filter(pk=t.pk).update(**bad)
    client.raise_request_exception = False

    public = client.get("/")
    assert public.status_code == 200 and b"Fine Cup" in public.content
    assert client.get(f"/t/{t.pk}/").status_code == 200
    assert client.get(f"/t/{t.pk}/clock/").status_code == 200
    snap = client.get(f"/t/{t.pk}/clock.json")
    assert snap.status_code == 200
    client.force_login(director)
    console = client.get("/console/")
    assert console.status_code == 200
    assert b"Fine Cup" in console.content and b"Broken Cup" in console.content
    for url in (
        f"/api/tournaments/{t.pk}/payouts/",
        f"/api/tournaments/{t.pk}/numbers/",
        f"/console/t/{t.pk}/",
        f"/console/t/{t.pk}/payouts/",
        f"/console/t/{t.pk}/desk/",
        f"/console/t/{t.pk}/deal/",
        f"/console/t/{t.pk}/payouts/desk/",
        f"/console/t/{t.pk}/settings/",
        "/api/tournaments/",
        f"/console/t/{fine.pk}/",
    ):
        assert client.get(url).status_code < 500, url


def test_the_broken_row_shows_a_notice(client, director, make_tournament, register):
    t = make_tournament(status="registering", name="Broken Cup")
    register(t)
    Tournament.objects.filter(pk=t.pk).update(bounty_kind="fixed", bounty=999999)
    assert client.get(f"/t/{t.pk}/clock.json").json()["notice"]
    assert client.get(f"/t/{t.pk}/").context["notice"]
    client.force_login(director)
    r = client.get(f"/api/tournaments/{t.pk}/payouts/")
    assert r.status_code == 409 and r.json()["detail"]
    page = client.get(f"/console/t/{t.pk}/")  # a refusal no page caught: a 4xx with the notice
    assert page.status_code == 409 and "Broken Cup" in page.content.decode()
    rows = client.get("/console/").context["rows"]
    assert [n for row, n in rows if row.pk == t.pk] == [None]
