"""Phones at 360, 390 and 414 px: every console page (as the director) and every public page
of a night that has everything (seated players, busts, payouts, an event with flights and bag
and tag, sign-ups, a league) opens without the document scrolling sideways, and every button,
link and field is wholly visible: inside the screen, or reachable inside the box it scrolls in,
never cut by a box that clips it.

The pages are found, not listed: the test starts from the accessibility test's pages of the
night and follows every link it finds, and then checks that every page the URL configuration
has was reached, or is named below with the reason it is not a phone page. A page added
tomorrow is either reached and checked, or fails this test until it is."""

from __future__ import annotations

import re
from collections import deque
from typing import Any
from urllib.parse import urljoin, urlsplit

import pytest
from django.urls import Resolver404, URLPattern, URLResolver, get_resolver, resolve

from tests.browser.conftest import ARTIFACTS
from tests.browser.test_accessibility import CONSOLE, PUBLIC, Night, _director, _night

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WIDTHS = (360, 390, 414)
# The console pages a floor works from on a phone whose controls show without scrolling any box
# sideways (elsewhere on the console a wide table may scroll inside its card, its controls reached
# by scrolling it).
UNSCROLLED = {"desk", "bust", "console-clock"}
# Boxes made to scroll sideways on a phone: the console's tabs, the tournament's header links,
# the sub-navigation of a tab.
STRIPS = (".tabs", ".t-head .actions", ".subnav", "nav")

# URL names that are not pages a phone opens, each with why. Everything else in the URL
# configuration must be reached by the crawl.
NOT_PHONE_PAGES: dict[str, str] = {
    # Data, files and APIs.
    **{
        name: "data, not a page"
        for name in (
            "javascript-catalog", "api-schema", "api-docs", "api-redoc", "server-time",
            "clock-json", "announcement-audio", "table-public-json", "rulings-csv",
            "season-csv", "season-public-csv", "season-standings-json", "clock-layout-css",
            "clock-layout-logo", "counts-json", "player-export", "structure-export",
            "history-csv", "tournament-export", "results-csv", "results-json", "results-database-csv",
            "results-database-json", "my-seat-json", "report-pdf", "festival-report-pdf",
            "player-search", "healthz", "readyz", "story-chart",
            # Chip graphs: pictures shown inside the counts pages and the my-seat page.
            "counts-leaders-svg", "counts-player-svg", "counts-console-leaders-svg",
            "counts-console-player-svg", "my-stack-svg",
        )
    },
    # Actions: they answer a form's POST (GET is refused or goes back to the page).
    **{
        name: "an action (POST), not a page"
        for name in (
            "set_language", "logout", "announcements-test", "console-clock-command",
            "seating-action", "dealer-action", "display-rename", "display-remove",
            "tournament-status", "tournament-reopen", "structure-generate",
            "structure-template", "structure-import", "entry-purchase", "entry-unregister",
            "correction-undo", "bust-undo", "registration-close", "registration-reopen",
            "payouts-edit", "payout-paid", "payout-collected", "cage-method", "cage-difference",
            "player-erase", "venue-restored-dismiss", "people-import-confirm",
            "webhook-active", "webhook-test", "webhook-delete",
        )
    },
    # Reached only with a file uploaded first: tests/browser/test_people_import.py opens it at
    # 390 px.
    "people-import-map": "a step after an upload",
    # Printed on paper (A4 sheets; seen on screen before printing).
    **{
        name: "printed on paper"
        for name in ("print-seat-cards", "print-table-cards", "print-seat-list", "bag-slips")
    },
    # Screens in the room, made for televisions (tests/browser/test_bigscreen.py,
    # test_displays.py, test_league_screen.py, test_chip_counts.py).
    **{
        name: "a screen in the room"
        for name in ("bigscreen", "display-screen", "display-view", "counts-screen", "season-screen")
    },
    # The league's charts: pictures (SVG) inside the standings and the person pages.
    **{
        name: "a chart, shown in a page"
        for name in ("season-race-svg", "player-chart-svg", "console-player-chart-svg")
    },
}  # fmt: skip


def _url_names() -> set[str]:
    names: set[str] = set()

    def walk(patterns: list[Any], prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                if not str(p.pattern).startswith(("admin/", "api/")):
                    walk(p.url_patterns, prefix + str(p.pattern))
            elif (
                isinstance(p, URLPattern)
                and p.name
                and not (prefix + str(p.pattern)).startswith("api/")
            ):
                names.add(p.name)

    walk(get_resolver().url_patterns, "")
    return names


# Measured in the page: the document's width, and every control that is cut off. A control
# inside a box that scrolls sideways is fine where scrolling that box reaches all of it; a box
# that clips (overflow hidden or clip) must hold all of it; anything else must be inside the
# screen.
CHECK = """([unscrolled, reflow]) => {
  const vw = document.documentElement.clientWidth;
  const doc = document.documentElement.scrollWidth;
  const cut = [];
  const name = (el) => {
    const text = (el.innerText || el.value || el.getAttribute("aria-label") || el.name || "").trim();
    const cls = typeof el.className === "string" && el.className ? "." + el.className.split(" ").join(".") : "";
    return `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : cls} "${text.slice(0, 30)}"`;
  };
  // Strips of links or buttons made to scroll sideways on a phone (the tabs, the tournament's
  // header links): what is in them is reached by scrolling.
  const strip = (box) => box.matches(STRIPS);
  const scrolls = (box) => ["auto", "scroll"].includes(getComputedStyle(box).overflowX);
  const controls = document.querySelectorAll(
    "a[href], button, input:not([type=hidden]), select, textarea, summary");
  for (const el of controls) {
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    if (el.closest(".sr-only, [aria-hidden=true]")) continue;  // for nobody's eyes (a trap field)
    const r = el.getBoundingClientRect();
    if (r.width < 2 || r.height < 2) continue;
    let left = r.left, right = r.right, reason = "";
    for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
      const ox = getComputedStyle(box).overflowX;
      if (ox === "visible") continue;
      const b = box.getBoundingClientRect();
      const inside = left >= b.left - 1 && right <= b.right + 1;
      if (scrolls(box)) {
        // Reachable by scrolling the box: where the control sits in the box's content.
        const from = left - b.left + box.scrollLeft, to = right - b.left + box.scrollLeft;
        if (from < -1 || to > box.scrollWidth + 1) reason = `cut by its scroll box ${name(box)}`;
        else if (unscrolled && !inside && !strip(box)) reason = `shown only by scrolling ${name(box)} sideways`;
        // Scrolled into view, it shows within the box: the boxes around are asked about that.
        left = Math.max(left, b.left); right = Math.min(right, b.right);
      } else if (!inside) {
        reason = `${Math.round(Math.min(right, b.right) - Math.max(left, b.left))} of ${Math.round(r.width)} px shown in ${name(box)}`;
      }
      if (reason) break;
    }
    // A button's or link's own words run out of it (nowrap in a box narrower than them).
    if (!reason && !["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName) && el.clientWidth > 0
        && el.scrollWidth > el.clientWidth + 1) {
      reason = `its words are cut (${el.scrollWidth} px in ${el.clientWidth})`;
    }
    if (!reason && (left < -1 || right > vw + 1)) {
      reason = `off the screen (${Math.round(r.left)}–${Math.round(r.right)} px)`;
    }
    if (reason) cut.push(`${name(el)}: ${reason}`);
  }
  // A public page reflows: nothing but a strip scrolls sideways.
  if (reflow) {
    for (const box of document.querySelectorAll("body *")) {
      if (scrolls(box) && !strip(box) && box.scrollWidth > box.clientWidth + 1
          && box.checkVisibility()) {
        cut.push(`${name(box)} scrolls sideways: ${box.scrollWidth - box.clientWidth} px too wide`);
      }
    }
  }
  return { vw, doc, cut };
}""".replace("STRIPS", repr(", ".join(STRIPS)))


def _page_key(url: str) -> str | None:
    """The URL name of a same-site page, or None for what is not followed."""
    parts = urlsplit(url)
    try:
        match = resolve(parts.path)
    except Resolver404:
        return None
    return match.url_name


def _check_all(
    page: Any, base: str, seeds: list[tuple[str, str]], public: bool
) -> tuple[dict[str, str], list[str]]:
    """Open each seed, then (on the console) every page linked from them not yet seen by URL
        name; check each at every width. The public pages, which are to reflow, may have no box
        that scrolls sideways but a strip, and no control that shows only when a box is scrolled (nor
    may the console pages of UNSCROLLED). Returns the names seen (-> URL) and the failures."""
    seen: dict[str, str] = {}
    failures: list[str] = []
    queue: deque[tuple[str, str]] = deque(seeds)
    done: set[str] = set()
    while queue:
        label, url = queue.popleft()
        if url in done:
            continue
        done.add(url)
        key = _page_key(url[len(base) :])
        if key is None or key in NOT_PHONE_PAGES:
            continue
        if key in seen and label.startswith("link"):
            continue
        answer = page.goto(url)
        if (
            answer is None
            or answer.status >= 400
            or "text/html" not in (answer.headers.get("content-type", ""))
        ):
            continue
        seen.setdefault(key, url)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 800})
            page.wait_for_timeout(50)  # a frame for anything laid out by script
            found = page.evaluate(CHECK, [public or key in UNSCROLLED, public])
            problems = []
            if found["doc"] > found["vw"]:
                problems.append(f"the page is {found['doc']} px wide")
            problems += found["cut"][:6]
            if problems:
                failures.append(f"{label} {url[len(base) :]} at {width} px: " + "; ".join(problems))
                if width == WIDTHS[0]:
                    slug = re.sub(r"[^a-z0-9]+", "-", key.lower())
                    ARTIFACTS.mkdir(exist_ok=True)
                    page.screenshot(path=str(ARTIFACTS / f"width-{slug}.png"))
        if not public:
            for href in page.eval_on_selector_all(
                "a[href]", "(links) => links.map((a) => a.getAttribute('href'))"
            ):
                target = urljoin(url, href).split("#", 1)[0]
                if target.startswith(base) and not target.startswith(
                    (f"{base}/logout", f"{base}/admin/")  # Django's admin is not Floor's console
                ):
                    queue.append((f"link from {key}", target))
    return seen, failures


@pytest.fixture
def everything(transactional_db: Any, made_once: Any) -> Night:
    def build() -> Night:
        from core.errors import FloorError
        from displays import services as displays
        from leagues import services as leagues
        from tournament.events import Actor
        from tournament.models import Entry, Tournament
        from tournament.services.deals import prize_paid
        from webhooks.services import endpoint_create

        night = _night()
        actor = Actor.system("test")
        # A screen paired (its console page), a prize paid (its receipt).
        waiting, _token = displays.display_open()
        displays.display_pair(code=waiting.code, name="Bar", actor=actor)
        for entry in Entry.objects.filter(tournament_id=night.final).order_by("number"):
            try:
                prize_paid(tournament=entry.tournament, entry_id=entry.pk, actor=actor)
            except FloorError:
                continue  # nothing owed to this one
            break
        league = leagues.league_create(name="Club League", public=True)
        season = leagues.season_create(league=league, name="2026")
        for pk in (night.running, night.final):
            leagues.season_tournament_add(season=season, tournament=Tournament.objects.get(pk=pk))
        # A webhook endpoint (its page with its deliveries); a public address given as such,
        # nothing is sent to it here.
        endpoint_create(url="https://93.184.216.34/hook", kinds=["player.out"], description="Club")
        return night

    return made_once(build)


def test_every_page_fits_a_phone(asgi_server, everything, new_page):
    from leagues.models import Season

    night = everything
    season = Season.objects.get(league__name="Club League")  # not the demo's own league
    extra = [
        ("league", f"/console/leagues/{season.league_id}/"),
        ("season", f"/console/seasons/{season.pk}/"),
        ("season-public", f"/seasons/{season.pk}/"),
        ("dealer", f"/d/{night.dealer_token}/"),
        ("results", f"/t/{night.final}/results/"),
        ("dealer-bags", f"/d/{night.bag_token}/bag/"),
    ]
    base = asgi_server
    # The public pages, as anybody (no session), in both languages; then the console as the
    # director, in German (the longer words: a floor at 360 px works in German).
    seen: dict[str, str] = {}
    failures: list[str] = []
    for locale in ("en-GB", "de-DE"):
        public = new_page({"width": 390, "height": 800}, locale=locale, phone=True)
        seeds = [(f"public {n}", base + p(night)) for n, p in PUBLIC]
        seeds += [(f"public {n}", base + p) for n, p in extra if not p.startswith("/console")]
        found, failed = _check_all(public, base, seeds, public=True)
        seen.update(found)
        failures += [f"{locale[:2]}: {f}" for f in failed]
        public.context.close()
    console = new_page({"width": 390, "height": 800}, locale="de-DE", phone=True)
    _director(console, base)
    seeds = [(f"console {n}", base + p(night)) for n, p in CONSOLE]
    seeds += [(f"console {n}", base + p) for n, p in extra if p.startswith("/console")]
    # A search at the desk, and the bust page of a bounty tournament (who knocked them out).
    seeds += [
        ("console desk search", f"{base}/console/t/{night.running}/desk/?q={night.search}"),
        ("console bounty bust", f"{base}/console/t/{night.final}/bust/"),
    ]
    found, failed = _check_all(console, base, seeds, public=False)
    seen.update(found)
    failures += failed
    missed = _url_names() - set(seen) - set(NOT_PHONE_PAGES)
    if missed:
        failures.append(f"pages never reached (link them from a page, or say why not): {missed}")
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures)
