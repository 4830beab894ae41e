"""The season's race and a person's history in real Chromium: the public standings page at 1366
and 390 px in English and German, the big screen (dark), the public profile and the console's
player page; each chart's picture loads, its data opens as a table, and axe finds nothing.
Screenshots in test-artifacts/race-*.png (docs/leagues.md, docs/players.md)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from django.utils import timezone

from leagues import services as svc
from tests.browser.conftest import login, screenshot
from tests.browser.test_accessibility import audit
from tournament.models import Club, Entry, EntryStatus, Player, Status, Tournament

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = [
    "Anna Albers", "Bernd Brandt", "Carla Conrad", "Dieter Dressler", "Elif Engel",
    "Frank Fuchs", "Greta Hollmann", "Hakan Yilmaz", "Ines Jung", "Jonas Krause",
    "Katrin Lorenz", "Lars Möller", "Mia Neumann", "Nils Ober",
]  # fmt: skip


def _season(make_tournament: Any) -> tuple[Any, list[Player]]:
    people = [
        Player.objects.create(name=n, display_name=f"{n.split()[0]} {n.split()[1][0]}.")
        for n in NAMES
    ]
    league = svc.league_create(name="Club League", public=True)
    season = svc.season_create(league=league, name="2026")
    for k in range(6):
        who = people[k % 3 :][: 11 + k % 3]
        who = who[k:] + who[:k]
        t = make_tournament(
            name=f"Friday {k + 1}", starts_at=timezone.now() - timedelta(days=40 - 7 * k)
        )
        Entry.objects.bulk_create(
            Entry(
                tournament=t,
                player=p,
                number=i + 1,
                status=EntryStatus.ACTIVE if i == 0 else EntryStatus.BUSTED,
                place=i + 1,
                elimination_rank=len(who) - i,
            )
            for i, p in enumerate(who)
        )
        Tournament.objects.filter(pk=t.pk).update(status=Status.FINISHED)
        svc.season_tournament_add(season=season, tournament=t)
    season = svc.season_update(
        season=season, name="2026", scoring="dpsb", best_n=4, participation="10"
    )
    Club.objects.update_or_create(pk=1, defaults={"public_profiles": True})
    return season, people


def _loaded(page: Any, selector: str) -> None:
    page.wait_for_function(
        "(s) => { const i = document.querySelector(s); return i && i.complete && i.naturalWidth > 0; }",
        arg=selector,
    )


def test_the_race_and_a_persons_history(asgi_server, browser, director, make_tournament):
    season, people = _season(make_tournament)
    axe = Axe()
    public = f"{asgi_server}/seasons/{season.pk}/"
    for width, height in ((1366, 900), (390, 844)):
        for locale in ("en-GB", "de-DE"):
            ctx = browser.new_context(
                viewport={"width": width, "height": height},
                locale=locale,
                is_mobile=width < 500,
                has_touch=width < 500,
            )
            page = ctx.new_page()
            page.set_default_timeout(15000)
            page.goto(public)
            _loaded(page, "#race-chart img")
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            page.click("#race-chart summary")
            table = page.text_content("#race-chart table")
            assert "Anna A." in table and "Anna Albers" not in table
            where = f"{width} {locale[:2]}"
            audit(axe, page, f"race {where}")
            screenshot(page, f"race-standings-{width}-{locale[:2]}")
            who = people[3].pk
            page.goto(f"{asgi_server}/players/{who}/")
            _loaded(page, "#person-finishes img")
            _loaded(page, "#person-points img")
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            audit(axe, page, f"person {where}")
            screenshot(page, f"race-person-{width}-{locale[:2]}")
            ctx.close()
    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="de-DE")
    screen = ctx.new_page()
    screen.goto(f"{public}screen/")
    screen.wait_for_selector("#ls-rows tr")
    _loaded(screen, "#ls-race img")
    audit(axe, screen, "race screen")
    screen.screenshot(path="test-artifacts/race-screen-1920-de.png")
    # A corrected result: the screen's next fetch of the standings redraws the race too.
    before = screen.get_attribute("#ls-race img", "src")
    t = Tournament.objects.filter(name="Friday 6").get()
    first, last = (Entry.objects.get(tournament=t, place=p) for p in (1, 11))
    Entry.objects.filter(pk=first.pk).update(place=11)
    Entry.objects.filter(pk=last.pk).update(place=1)
    screen.evaluate("() => document.dispatchEvent(new Event('visibilitychange'))")
    screen.wait_for_function(
        "(b) => { const i = document.querySelector('#ls-race img');"
        " return i.getAttribute('src') !== b && i.complete && i.naturalWidth > 0; }",
        arg=before,
    )
    ctx.close()
    director.set_password("pw-director-123")
    director.save()
    ctx = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-GB")
    page = ctx.new_page()
    login(page, asgi_server, "dir", "pw-director-123")
    page.goto(f"{asgi_server}/console/players/{people[3].pk}/")
    _loaded(page, "#person-finishes img")
    audit(axe, page, "console person")
    screenshot(page, "race-console-person-1366-en")
    ctx.close()
