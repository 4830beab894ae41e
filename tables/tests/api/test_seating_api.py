import pytest
from rest_framework.test import APIClient

from tables.models import SeatAssignment, Table


@pytest.fixture
def api(floor_user):
    client = APIClient()
    client.force_authenticate(floor_user)
    return client


@pytest.fixture
def seated(make_tournament, register):
    t = make_tournament(status="running", late_registration_until_level=6)
    for _ in range(18):
        register(t)
    return t


def test_anonymous_gets_nothing(seated):
    client = APIClient()
    assert client.get(f"/api/tournaments/{seated.pk}/tables/").status_code in (401, 403)
    assert client.post(f"/api/tournaments/{seated.pk}/seating/draw/").status_code in (401, 403)


def test_draw_plan_apply_and_lookup(api, seated):
    base = f"/api/tournaments/{seated.pk}"
    r = api.post(f"{base}/seating/draw/", {}, format="json")
    assert r.status_code == 200 and r.json() == {"seated": 18}
    tables = api.get(f"{base}/tables/").json()
    assert [len(t["players"]) for t in tables] == [9, 9]
    for t in tables:
        seat = t["players"][0]["seat"]
        assert api.post(f"{base}/tables/{t['number']}/button/", {"seat": seat}).status_code == 200
    # Two busts at table 1.
    victims = SeatAssignment.objects.filter(table__tournament=seated, table__number=1)[:2]
    for v in victims:
        r = api.post(f"{base}/busts/", {"busts": [{"entry": v.entry_id}]}, format="json")
        assert r.status_code in (200, 201), r.content
    plan = api.get(f"{base}/seating/plan/").json()
    assert len(plan["moves"]) == 1 and "→" in plan["moves"][0]["instruction"]
    stale = api.post(f"{base}/seating/plan/apply/", {"signature": "nope"}, format="json")
    assert stale.status_code == 409
    r = api.post(f"{base}/seating/plan/apply/", {"signature": plan["signature"]}, format="json")
    assert r.status_code == 200 and len(r.json()) == 1
    mover = r.json()[0]["entry"]
    seat = api.get(f"{base}/entries/{mover}/seat/").json()
    assert (seat["table"], seat["seat"]) == (r.json()[0]["to_table"], r.json()[0]["to_seat"])


def test_bad_requests_change_nothing(api, seated):
    base = f"/api/tournaments/{seated.pk}"
    api.post(f"{base}/seating/draw/", {}, format="json")
    before = list(SeatAssignment.objects.order_by("pk").values_list("table_id", "seat"))
    assert api.post(f"{base}/tables/99/break/").status_code == 400
    assert api.post(f"{base}/tables/1/button/", {"seat": 0}).status_code == 400
    row = SeatAssignment.objects.filter(table__tournament=seated).first()
    other = SeatAssignment.objects.filter(table__tournament=seated).exclude(pk=row.pk).first()
    r = api.post(
        f"{base}/entries/{row.entry_id}/seat/",
        {"table": other.table.number, "seat": other.seat},
        format="json",
    )
    assert r.status_code == 400
    assert before == list(SeatAssignment.objects.order_by("pk").values_list("table_id", "seat"))
    assert Table.objects.filter(tournament=seated, is_open=True).count() == 2


def test_schema_documents_seating(api):
    body = api.get("/api/schema/").content
    assert b"/api/tournaments/{id}/seating/plan/apply/" in body
