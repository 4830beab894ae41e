"""The night's story on the pages: its SVGs (content type, 404s, nothing to draw), the public
tournament page and the console's overview with the charts and their tables, and the interface
the printed report uses (tournament.charts)."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import translation

from tournament.charts import STORY_KINDS, story_svg, story_tables
from tournament.models import Structure, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def floor_client(client, floor_user):
    client.force_login(floor_user)
    return client


@pytest.fixture
def night(make_tournament, register, actor):
    from actions.bust import BustReport, entries_bust

    t = make_tournament(status="running")
    entries = [register(t, f"Spieler Nummer{i}") for i in range(6)]
    entries_bust(tournament=t, busts=[BustReport(entry=entries[0])], actor=actor)
    return t


@pytest.mark.parametrize("kind", STORY_KINDS)
def test_each_chart_is_an_svg(client, night, kind):
    response = client.get(reverse("story-chart", args=[night.pk, kind]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    assert b"<svg" in response.content


def test_a_narrower_picture_for_a_phone(client, night):
    url = reverse("story-chart", args=[night.pk, "field"])
    assert b'viewBox="0 0 400 320"' in client.get(url + "?w=400").content
    assert b'viewBox="0 0 320 320"' in client.get(url + "?w=5").content
    assert b'viewBox="0 0 800 400"' in client.get(url + "?w=lots").content


def test_an_unknown_chart_or_tournament_is_404(client, night):
    assert client.get(reverse("story-chart", args=[night.pk, "nope"])).status_code == 404
    assert client.get(reverse("story-chart", args=[night.pk + 999, "field"])).status_code == 404
    assert client.get(f"/t/{night.pk}/story/field.png").status_code == 404


def test_nothing_to_draw_yet_is_said_not_failed(client, make_tournament):
    t = make_tournament(status="registering")
    for kind in STORY_KINDS:
        response = client.get(reverse("story-chart", args=[t.pk, kind]))
        assert response.status_code == 200
        assert b"Nothing to draw yet" in response.content
    Tournament.objects.filter(pk=t.pk).update(structure=Structure.objects.create(name="Empty"))
    t.refresh_from_db()
    cache.clear()  # kept per version of the log: the structure changed without a log line here
    assert "no levels" in story_svg(t, "field")


def test_the_tables_beside_the_charts(night):
    tables = story_tables(night)
    assert set(tables) == set(STORY_KINDS)
    headers, rows = tables["field"]
    assert headers[:2] == ["Level", "Players left"]
    assert rows[-1][1] == "5"  # 6 in, 1 out
    headers, rows = tables["entries"]
    assert rows[0][1] == "6"
    headers, rows = tables["prizes"]
    assert rows[-1][0] == "Prize pool"
    assert rows[-1][2] == "€600"  # the money code writes whole amounts without cents


def test_the_tables_in_german(night):
    with translation.override("de"):
        headers, rows = story_tables(night)["field"]
    assert headers[1] == "Spieler übrig"
    assert rows[0][0] == "Level 1"


def test_an_unknown_kind_is_refused_by_the_interface(night):
    with pytest.raises(ValueError):
        story_svg(night, "nope")


def test_the_public_page_shows_the_story_without_names(client, night):
    page = client.get(reverse("tournament-public", args=[night.pk])).content.decode()
    for kind in STORY_KINDS:
        assert reverse("story-chart", args=[night.pk, kind]) in page
    assert "Spieler Nummer" not in page
    assert "floor/charts.js" in page


def test_the_overview_shows_the_story(floor_client, night):
    page = floor_client.get(reverse("tournament-overview", args=[night.pk])).content.decode()
    for kind in STORY_KINDS:
        assert reverse("story-chart", args=[night.pk, kind]) in page
