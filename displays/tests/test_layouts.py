"""Clock layouts: the editor (directors), what is refused, the venue's default and the
tournament's own, the big screen and a screen's clock in the layout, the chip leaders' view."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from counts.services import counts_record
from displays.domain.views import Figure, Kind, Layout, Step
from displays.layout_services import clock_layout_save
from displays.models import ClockLayout
from displays.services import display_assign
from displays.tests.domain.test_layouts import jpeg, png
from tables import services as seating
from tournament.models import Entry, Event, Status, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def night(make_tournament, register, actor):
    t = make_tournament(status="registering", venue="Casino")
    for i in range(12):
        register(t, name=f"Spieler {chr(65 + i)}")
    seating.tables_create(tournament=t, count=2, actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    return t


def form(**extra):
    data = {
        "arrangement": "standard",
        "figures": ["pool", "players", "entries"],
        "pos-pool": "1",
        "pos-players": "2",
        "pos-entries": "3",
        "background": "#1a237e",
        "accent": "#ffd54f",
    }
    data.update(extra)
    return data


def test_only_directors_edit_layouts(client, floor_user, night):
    client.force_login(floor_user)
    for url in (reverse("clock-layout", args=[night.pk]), reverse("venue-layout")):
        assert client.get(url).status_code in (302, 403)
        assert client.post(url, form()).status_code in (302, 403)
    assert not ClockLayout.objects.exists()


def test_a_director_saves_a_layout_with_a_logo_and_the_big_screen_uses_it(client, director, night):
    client.force_login(director)
    url = reverse("clock-layout", args=[night.pk])
    page = client.get(url)
    assert page.status_code == 200 and 'id="le-preview"' in page.content.decode()
    logo = SimpleUploadedFile("logo.png", png(200, 80), content_type="image/png")
    response = client.post(url, form(logo=logo, arrangement="logo"))
    assert response.status_code == 302
    row = ClockLayout.objects.get(tournament=night)
    assert row.figures == ["pool", "players", "entries"]
    assert (row.logo_type, row.logo_width, row.logo_height) == ("image/png", 200, 80)
    event = Event.objects.filter(action="layout.save").get()
    assert event.tournament_id == night.pk and event.payload["logo"] is True

    html = client.get(reverse("bigscreen", args=[night.pk])).content.decode()
    assert "dl-logo" in html and "dl-themed" in html and "dl-has-logo" in html
    assert f"/clock-layouts/{row.pk}.css?v={row.version}" in html
    assert f"/clock-layouts/{row.pk}/logo?v={row.version}" in html
    # The figures in the layout's order; the left-out ones stay in the page, hidden.
    assert html.index('data-figure="pool"') < html.index('data-figure="players"')
    assert html.index('data-figure="players"') < html.index('data-figure="entries"')
    assert "dl-no-average" in html and "dl-no-break" in html and "dl-no-leaders" in html

    css = client.get(f"/clock-layouts/{row.pk}.css")
    assert css["Content-Type"].startswith("text/css")
    assert "--dl-bg: #1a237e;" in css.content.decode()
    image = client.get(f"/clock-layouts/{row.pk}/logo")
    assert image["Content-Type"] == "image/png" and image["X-Content-Type-Options"] == "nosniff"
    assert bytes(image.content) == png(200, 80)


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        ({"background": "#777777"}, "too light for the white text"),
        ({"accent": "#1c2590"}, "too close to the background"),
        ({"background": "red"}, "#rrggbb"),
        ({"arrangement": "logo"}, "needs a logo"),
        ({"figures": [], "arrangement": "portrait"}, "at least one figure"),
        (
            {
                "logo": SimpleUploadedFile(
                    "x.svg", b"<svg><script>1</script></svg>", "image/svg+xml"
                )
            },
            "PNG or a JPEG",
        ),
        (
            {"logo": SimpleUploadedFile("big.png", png() + b"\0" * 600_000, "image/png")},
            "too large",
        ),
        ({"logo": SimpleUploadedFile("tiny.png", png(4, 4), "image/png")}, "pixels"),
    ],
)
def test_refused_with_a_clear_error_and_nothing_saved(client, director, night, extra, words):
    client.force_login(director)
    response = client.post(reverse("clock-layout", args=[night.pk]), form(**extra))
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not ClockLayout.objects.exists()
    assert not Event.objects.filter(action="layout.save").exists()


def test_the_venue_default_applies_until_the_tournament_has_its_own(
    client, director, night, make_tournament, actor
):
    client.force_login(director)
    other = make_tournament(name="Turbo")
    assert client.post(reverse("venue-layout"), form(background="#3b0a0a")).status_code == 302
    for t in (night, other):
        html = client.get(reverse("bigscreen", args=[t.pk])).content.decode()
        assert "dl-themed" in html
    venue = ClockLayout.objects.get(club_id=1)
    assert f"/clock-layouts/{venue.pk}.css" in client.get(f"/t/{night.pk}/clock/").content.decode()
    own = clock_layout_save(
        tournament=night,
        arrangement="portrait",
        figures=["break"],
        background="#004d40",
        accent="#ffffff",
        actor=actor,
    )
    html = client.get(f"/t/{night.pk}/clock/").content.decode()
    assert f"/clock-layouts/{own.pk}.css" in html and "dl-portrait" in html
    assert f"/clock-layouts/{venue.pk}.css" in client.get(f"/t/{other.pk}/clock/").content.decode()
    # Dropping the tournament's own layout brings the venue's back.
    assert client.post(reverse("clock-layout", args=[night.pk]), {"reset": "1"}).status_code == 302
    assert f"/clock-layouts/{venue.pk}.css" in client.get(f"/t/{night.pk}/clock/").content.decode()
    assert Event.objects.filter(action="layout.reset").count() == 1


def test_without_a_layout_the_big_screen_is_as_before(client, night):
    html = client.get(f"/t/{night.pk}/clock/").content.decode()
    assert "dl-themed" not in html and "bs-logo" not in html and "dl-standard" in html
    for figure in ("players", "average", "break", "pool"):
        assert f"dl-no-{figure}" not in html
    assert "dl-no-entries" in html and "dl-no-leaders" in html


def test_a_screen_showing_the_clock_loads_it_again_when_its_layout_is_saved(
    paired, night, actor, sent, django_capture_on_commit_callbacks
):
    _client, display = paired
    display_assign(
        display_id=display.pk,
        steps=[Step(Kind.CLOCK, tournament=night.pk, layout=Layout.EVENT, figures=())],
        actor=actor,
    )
    version = display.__class__.objects.get(pk=display.pk).version
    sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        clock_layout_save(
            tournament=night,
            arrangement="standard",
            figures=["players"],
            background="#000000",
            accent="#ffffff",
            logo=jpeg(300, 100),
            actor=actor,
        )
    assert [e for _g, e, _d in sent] == ["assignment"]
    assert sent[0][2]["version"] == version + 1


def test_a_screens_clock_in_the_saved_layout_or_its_own_arrangement(paired, night, actor):
    screen_client, display = paired
    clock_layout_save(
        tournament=night,
        arrangement="logo",
        figures=["leaders", "pool", "average"],
        background="#000000",
        accent="#ffffff",
        logo=png(),
        actor=actor,
    )
    display_assign(
        display_id=display.pk,
        steps=[Step(Kind.CLOCK, tournament=night.pk, layout=Layout.EVENT, figures=())],
        actor=actor,
    )
    html = screen_client.get("/display/view/0/").content.decode()
    assert "dv-ok" in html and "dl-logo" in html and "bs-logo-big" in html
    # No counts yet: the chip leaders' box is hidden.
    assert 'id="bs-leaders-box"' in html and "leaders-box.js" in html
    display_assign(
        display_id=display.pk,
        steps=[
            Step(
                Kind.CLOCK,
                tournament=night.pk,
                layout=Layout.PORTRAIT,
                figures=(Figure.PLAYERS, Figure.POOL),
            )
        ],
        actor=actor,
    )
    html = screen_client.get("/display/view/0/").content.decode()
    assert "dl-portrait" in html and "dl-no-leaders" in html and "dl-themed" in html
    # The step's figures in the saved layout's order: pool before players.
    assert html.index('data-figure="pool"') < html.index('data-figure="players"')


def test_the_chip_leaders_view(paired, night, actor):
    screen_client, display = paired
    display_assign(
        display_id=display.pk, steps=[Step(Kind.LEADERS, tournament=night.pk, top=5)], actor=actor
    )
    html = screen_client.get("/display/view/0/").content.decode()
    assert "dv-ok" in html and "No chip counts yet." in html
    entries = list(Entry.objects.filter(tournament=night).order_by("number"))
    counts_record(
        tournament=night,
        counts={e.pk: 10_000 + 1_000 * i for i, e in enumerate(entries)},
        actor=actor,
    )
    html = screen_client.get("/display/view/0/").content.decode()
    assert html.count('<td class="nm">') == 5
    top = entries[-1].player.display_name
    assert top in html and "21,000" in html.replace("\u202f", ",").replace(".", ",")
    with pytest.raises(Exception, match="between 3 and 100"):
        display_assign(
            display_id=display.pk,
            steps=[Step(Kind.LEADERS, tournament=night.pk, top=500)],
            actor=actor,
        )


def test_the_clock_beside_shows_the_leaders_once_counted(client, night, actor):
    clock_layout_save(
        tournament=night,
        arrangement="standard",
        figures=["players", "leaders"],
        background="#000000",
        accent="#ffffff",
        actor=actor,
    )
    entries = list(Entry.objects.filter(tournament=night))
    counts_record(tournament=night, counts={entries[0].pk: 55_555}, actor=actor)
    html = client.get(f"/t/{night.pk}/clock/").content.decode()
    box = html[html.index('id="bs-leaders-box"') - 80 :]
    assert " hidden" not in box[: box.index(">")]
    assert entries[0].player.display_name in html
