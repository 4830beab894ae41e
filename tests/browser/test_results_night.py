"""A whole tournament night played in real Chromium, the way the floor does it, under both
rulesets: 36 players registered at the desk, seats drawn, late entries and re-entries after the
first busts, a double bust from the bust page and one reported from a dealer tablet,
hand-for-hand at the bubble with one player out at each of two tables, registration closed when
the money is reached, a deal three-handed and the winner. At the end the places cover 1..40
(shared places under tda-de take their range, bdpv never shares one) and the prizes add up to
the payout table and the deal."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tables.models import SeatAssignment, Table
from tests.browser.conftest import login, screenshot
from tournament.domain.eliminations import places_are_complete
from tournament.models import Deal, Entry, EntryStatus, Status, Tournament
from tournament.selectors import payout_amounts

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = ["Anna", "Bernd", "Carla", "Dieter", "Elif", "Frank"]
LAST = ["Albers", "Brandt", "Conrad", "Dressler", "Engel", "Fuchs"]
NAMES = [f"{first} {last}" for first in FIRST for last in LAST]  # 36 players
LATE = ["Greta Hollmann", "Hakan Yilmaz"]
FIELD = 40


def _cents(text: str) -> int:
    """'€4,000' or '€1,234.50' (en) in cents."""
    amount = re.sub(r"[^0-9.]", "", text)
    units, _dot, cents = amount.partition(".")
    return int(units) * 100 + int((cents or "0").ljust(2, "0"))


class Floor:
    """The floor person's browser: the console pages of one tournament."""

    def __init__(self, page: Any, base: str, tournament: Tournament) -> None:
        self.page = page
        self.base = base
        self.t = tournament
        self.console = f"{base}/console/t/{tournament.pk}"

    def go(self, path: str) -> None:
        self.page.goto(f"{self.console}/{path}")

    def submit(self, selector: str, *, confirm: bool = False) -> list[str]:
        """Click a button that posts a form and return the messages of the page it leads to."""
        return self.submit_locator(self.page.locator(selector), confirm=confirm)

    def messages(self) -> list[str]:
        return self.page.locator(".messages li").all_inner_texts()

    def bust(self, players: list[tuple[Entry, int | None]]) -> list[str]:
        """Tick the players out in one hand on the bust page, with their stacks."""
        self.go("bust/")
        for entry, stack in players:
            self.page.check(f"#bust-{entry.pk}")
            if stack is not None:
                self.page.fill(f"input[name=stack_{entry.pk}]", str(stack))
        return self.submit("form:has(#bust-list) button[type=submit]")

    def settle_tables(self) -> None:
        """What the seating chart asks for after a bust: the final table, a table to break,
        balancing moves."""
        for _ in range(12):
            self.go("seating/")
            final = self.page.locator("form[action$='/seating/final/'] button")
            if final.count():
                assert "final table is drawn" in " ".join(self.submit_locator(final, confirm=True))
                continue
            if self.page.locator("#break-suggested").count():
                assert "broken" in " ".join(self.submit("#break-suggested", confirm=True))
                continue
            if self.page.locator("#apply-moves").count():
                assert "moved" in " ".join(self.submit("#apply-moves"))
                continue
            return
        raise AssertionError("the seating chart keeps asking for moves")

    def submit_locator(self, locator: Any, *, confirm: bool = False) -> list[str]:
        if confirm:
            self.page.once("dialog", lambda dialog: dialog.accept())
        with self.page.expect_navigation():
            locator.click()
        return self.messages()

    def set_button(self, number: int) -> None:
        """On the table page, put the button on the first occupied seat."""
        self.go(f"tables/{number}/")
        buttons = self.page.locator("form[action$='/seating/button/'] button")
        assert "Button set." in self.submit_locator(buttons.first)


def _seated(t: Tournament) -> list[SeatAssignment]:
    return list(
        SeatAssignment.objects.filter(table__tournament=t, table__is_open=True)
        .select_related("entry__player", "table")
        .order_by("table__number", "seat")
    )


def _fullest_table(t: Tournament) -> list[SeatAssignment]:
    by_table: dict[int, list[SeatAssignment]] = {}
    for row in _seated(t):
        by_table.setdefault(row.table.number, []).append(row)
    number = max(sorted(by_table), key=lambda n: len(by_table[n]))
    return by_table[number]


def _next_out(t: Tournament) -> Entry:
    """Who loses the next hand: the player in the highest seat of the fullest table."""
    return _fullest_table(t)[-1].entry


def _left(t: Tournament) -> int:
    return t.entries.filter(status=EntryStatus.ACTIVE).count()


def _entry(pk: int) -> Entry:
    return Entry.objects.select_related("player").get(pk=pk)


def _tap_out(tablet: Any, seat: int, stack: int) -> None:
    """On the dealer tablet: tap the seat, type the stack, "Player is out"."""
    tablet.click(f"button.seat[data-seat='{seat}']")
    tablet.wait_for_selector("#seat-sheet[open]")
    tablet.fill("#bust-stack", str(stack))
    tablet.click("#report-bust")
    tablet.wait_for_selector(f"button.seat.reported[data-seat='{seat}']")


def _hand_done(tablet: Any, table_pk: int) -> None:
    """The dealer taps "Hand done"; the tablet shows the next hand."""
    hand = Table.objects.get(pk=table_pk).hand_number
    tablet.click("#hand-done")
    tablet.wait_for_function(
        f"() => document.querySelector('.d-level .sub').textContent.includes('Hand {hand + 2}')"
    )


def _dealer_link(floor: Floor, number: int) -> str:
    floor.go(f"tables/{number}/")
    link = floor.page.get_attribute("#dealer-link", "href")
    assert link and "/d/" in link
    return link


@pytest.mark.parametrize("ruleset", ["tda-de", "bdpv"])
def test_a_whole_night_in_the_browser(
    live_server, browser, page, floor_user, director, make_tournament, ruleset
):
    page.set_default_timeout(10000)
    t = make_tournament(
        status="registering",
        ruleset=ruleset,
        max_entries_per_player=2,
        late_registration_until_level=6,
        # Six-handed: at the bubble (6 of 40 paid) two tables are still playing hand-for-hand.
        seats_per_table=6,
    )
    login(page, live_server.url, "flo", "pw-floor-123")
    floor = Floor(page, live_server.url, t)

    # 1. The desk registers 36 players with the keyboard: "n", the name, Enter.
    floor.go("desk/")
    for name in NAMES:
        page.keyboard.press("n")
        page.keyboard.type(name)
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert any(name in m and "registered as #" in m for m in floor.messages()), name
    assert t.entries.filter(status=EntryStatus.ACTIVE).count() == 36

    floor.go("seating/")
    assert "36 players seated." in floor.submit("#draw-seats")
    tables = list(Table.objects.filter(tournament=t, is_open=True).order_by("number"))
    assert len(tables) == 6

    # The director starts the tournament on the overview page.
    boss_ctx = browser.new_context(viewport={"width": 1366, "height": 900}, locale="en-GB")
    boss = boss_ctx.new_page()
    boss.set_default_timeout(10000)
    login(boss, live_server.url, "dir", "pw-director-123")
    boss.goto(f"{floor.console}/")
    boss.once("dialog", lambda dialog: dialog.accept())  # "Start the tournament?" asks first
    with boss.expect_navigation():
        boss.click("form[action$='/status/'] button:has-text('Start the tournament')")
    assert "Status changed." in boss.locator(".messages li").all_inner_texts()
    boss_ctx.close()
    t.refresh_from_db()
    assert t.status == Status.RUNNING

    for table in tables:
        floor.set_button(table.number)

    # 2. The first four out, one by one; places are provisional while registration is open.
    first_out: list[Entry] = []
    for expected in (36, 35, 34, 33):
        victim = _next_out(t)
        said = floor.bust([(victim, None)])
        assert f"finishes in place {expected} (provisional: registration is open)." in " ".join(
            said
        )
        first_out.append(victim)
        floor.settle_tables()

    # Two late players and two re-entries at the desk.
    floor.go("desk/")

    def new_player() -> None:
        """ "n" jumps to the name field; after a registration the cursor is there already."""
        if page.evaluate("() => document.activeElement.id") != "id_name":
            page.keyboard.press("n")
        assert page.input_value("#id_name") == ""

    for name in LATE:
        new_player()
        page.keyboard.type(name)
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert any(name in m for m in floor.messages())
    for busted in (first_out[0], first_out[2]):
        new_player()
        page.keyboard.type(busted.player.name)
        page.click(f"#player-matches button[data-player='{busted.player_id}']")
        assert page.input_value("#existing-player") == str(busted.player_id)
        said = floor.submit("#register-form button[type=submit]")
        assert any(busted.player.name in m and "registered as #" in m for m in said)
    assert t.entries.count() == FIELD
    assert t.entries.filter(is_reentry=True).count() == 2
    stats = page.locator(".stats .stat .value").all_inner_texts()
    assert stats[:2] == [str(FIELD), "36"]  # entries, players left
    assert "re-entry" in page.inner_text("#desk-results")
    assert "Registration is open." in page.inner_text("#registration-state")
    screenshot(page, f"night-{ruleset}-desk-late-entries")
    # The field grew by four: every place given so far moved down by four.
    assert sorted(
        Entry.objects.filter(pk__in=[e.pk for e in first_out]).values_list("place", flat=True)
    ) == [37, 38, 39, 40]
    assert _left(t) == 36 and len(_seated(t)) == 36
    floor.go("players/?status=busted")
    cells = page.locator("table.list tbody tr td:nth-child(5)").all_inner_texts()
    assert cells == [f"{p} provisional" for p in (37, 38, 39, 40)], cells
    floor.settle_tables()

    # 3a. Two players out in one hand at one table, from the bust page, with equal stacks:
    # tda-de shares the place; bdpv 6.28 puts the player nearer the button (clockwise) higher.
    rows = _fullest_table(t)
    a, b = rows[0], rows[1]
    table = Table.objects.get(pk=a.table_id)
    distance = {r.entry_id: (r.seat - table.button_seat) % table.seats for r in (a, b)}
    said = floor.bust([(a.entry, 15000), (b.entry, 15000)])
    assert len(said) == 2 and all("provisional: registration is open)" in m for m in said), said
    pa, pb = _entry(a.entry_id).place, _entry(b.entry_id).place
    if ruleset == "tda-de":
        assert pa == pb == 35  # 36 left, two out with equal stacks: they share 35th (35-36)
    else:
        nearer, further = sorted((a, b), key=lambda r: distance[r.entry_id])
        assert _entry(nearer.entry_id).place == 35
        assert _entry(further.entry_id).place == 36
    floor.settle_tables()

    # 3b. Two players out in one hand reported from the dealer tablet; the floor confirms the
    # grouped reports on the seating chart.
    rows = [r for r in _fullest_table(t) if not r.must_wait]
    small, big = rows[0], rows[1]
    link = _dealer_link(floor, small.table.number)
    tablet_ctx = browser.new_context(viewport={"width": 1180, "height": 820}, locale="en-GB")
    tablet = tablet_ctx.new_page()
    tablet.set_default_timeout(10000)
    tablet.goto(link)
    _tap_out(tablet, small.seat, 8000)
    _tap_out(tablet, big.seat, 25000)
    _hand_done(tablet, small.table_id)
    floor.go("seating/")
    group = page.locator(".report-group")
    assert group.count() == 1
    stacks = group.locator("input[name^=stack_]")
    assert sorted(stacks.nth(i).input_value() for i in range(2)) == ["25000", "8000"]
    assert "ranked together" in page.inner_text(".report-hand")
    screenshot(page, f"night-{ruleset}-seating-grouped-reports")
    said = floor.submit("text=Confirm 2 busts")
    assert "finishes in place 33" in " ".join(said) and "finishes in place 34" in " ".join(said), (
        said
    )
    assert _entry(big.entry_id).place == 33 and _entry(small.entry_id).place == 34
    floor.settle_tables()

    # More single busts down to nine players, on two tables.
    while _left(t) > 9:
        said = floor.bust([(_next_out(t), None)])
        assert f"finishes in place {_left(t) + 1} (provisional" in " ".join(said), said
        floor.settle_tables()
    open_tables = list(Table.objects.filter(tournament=t, is_open=True).order_by("number"))
    assert len(open_tables) == 2

    # 4. Hand-for-hand near the money. Round 1: one player out at each table, one reported
    # from the tablet, one busted on the bust page.
    floor.go("seating/")
    assert "Hand-for-hand is on." in floor.submit("button:has-text('Start hand-for-hand')")
    table_a, table_b = open_tables
    at_a = [r for r in _seated(t) if r.table_id == table_a.pk]
    at_b = [r for r in _seated(t) if r.table_id == table_b.pk]
    out_a, out_b = at_a[-1], at_b[-1]
    tablet.goto(_dealer_link(floor, table_a.number))
    _tap_out(tablet, out_a.seat, 30000)
    _hand_done(tablet, table_a.pk)
    assert tablet.is_disabled("#hand-done")  # hand-for-hand: this table waits for the other
    said = floor.bust([(out_b.entry, 50000)])
    assert "finishes in place 9 (provisional" in " ".join(said), said
    tablet.goto(_dealer_link(floor, table_b.number))
    _hand_done(tablet, table_b.pk)
    t.refresh_from_db()
    assert t.h4h_round == 2  # both tables are done: the next round is dealt
    floor.go("seating/")
    assert page.locator(".report-group").count() == 1
    said = floor.submit(".report-group button[type=submit].primary")
    tablet_ctx.close()
    # The report joins the round's bust recorded on the bust page: one hand for the ranking.
    pa, pb = _entry(out_a.entry_id).place, _entry(out_b.entry_id).place
    # The message names both players of the round, the one recorded before included.
    if ruleset == "tda-de":
        assert " ".join(said).count("finishes in place 8 (shared; provisional") == 2, said
        assert pa == pb == 8  # out in the same round at two tables: they tie (8th and 9th)
    else:
        assert "finishes in place 8 (provisional" in " ".join(said), said
        assert "finishes in place 9 (provisional" in " ".join(said), said
        assert (pb, pa) == (8, 9)  # bdpv 6.28: the larger stack finishes higher
    floor.settle_tables()
    assert _left(t) == 7

    # Round 2, at the bubble: one player out at each table, both ticked on the bust page.
    at_a = [r for r in _seated(t) if r.table_id == table_a.pk]
    at_b = [r for r in _seated(t) if r.table_id == table_b.pk]
    big_out, small_out = at_a[0].entry, at_b[0].entry
    said = floor.bust([(big_out, 60000), (small_out, 20000)])
    # 5. The money is reached while registration is open: refused, and the page offers the
    # close.
    assert any("Close registration first" in m for m in said), said
    close = page.locator("#registration-state form[action$='/registration/close'] button")
    assert "primary" in (close.get_attribute("class") or "")
    assert _left(t) == 7
    screenshot(page, f"night-{ruleset}-bust-close-registration")
    said = floor.submit_locator(close, confirm=True)
    assert any("Registration closed" in m for m in said), said
    said = floor.bust([(big_out, 60000), (small_out, 20000)])
    if ruleset == "tda-de":
        assert sum("finishes in place 6 (shared)." in m for m in said) == 2, said
        assert _entry(big_out.pk).place == _entry(small_out.pk).place == 6
    else:
        assert any(f"#{big_out.number} " in m and "finishes in place 6." in m for m in said), said
        assert any(f"#{small_out.number} " in m and "finishes in place 7." in m for m in said), said
    floor.go("seating/")
    assert "Hand-for-hand is off." in floor.submit("button:has-text('End hand-for-hand')")
    floor.settle_tables()  # five left: the final table
    t.refresh_from_db()
    assert t.status == Status.FINAL_TABLE
    final_table = Table.objects.get(tournament=t, is_open=True)
    floor.set_button(final_table.number)

    # 6. Down to three, a deal, then the winner.
    for expected in (5, 4):
        said = floor.bust([(_next_out(t), None)])
        assert f"finishes in place {expected}." in " ".join(said), said
    floor.go("deal/")
    chips = int(page.input_value("#chips_in_play"))
    assert chips == FIELD * 20000
    split = [chips // 2, chips // 3, chips - chips // 2 - chips // 3]
    stacks = page.locator("input[name^=stack_]")
    assert stacks.count() == 3
    for i, amount in enumerate(split):
        stacks.nth(i).fill(str(amount))
    with page.expect_navigation():
        page.click("button[value=compare]")
    boxes = page.locator("input[name^=agree_]")
    for i in range(boxes.count()):
        boxes.nth(i).check()
    said = floor.submit("button[value=record]", confirm=True)
    assert any("deal is recorded" in m for m in said), said
    deal = Deal.objects.get(tournament=t)
    shares = {s.entry_id: s.amount for s in deal.shares.all()}
    for expected in (3, 2):
        said = floor.bust([(_next_out(t), None)])
        assert f"finishes in place {expected}." in " ".join(said), said
    t.refresh_from_db()
    assert t.status == Status.FINISHED

    # 7. The results, as the players list shows them.
    floor.go("players/?status=busted")
    screenshot(page, f"night-{ruleset}-players-final")
    listed = page.evaluate(
        "() => [...document.querySelectorAll('table.list tbody tr')].map("
        "r => [...r.querySelectorAll('td')].map(c => c.innerText.trim()))"
    )
    floor.go("players/?status=active")
    listed += page.evaluate(
        "() => [...document.querySelectorAll('table.list tbody tr')].map("
        "r => [...r.querySelectorAll('td')].map(c => c.innerText.trim()))"
    )
    assert len(listed) == FIELD
    places = [int(row[4]) for row in listed]
    prizes = {int(row[0]): _cents(row[5]) if row[5] else 0 for row in listed}
    assert not any("provisional" in row[4] for row in listed)
    assert places_are_complete(places, FIELD), sorted(places)
    shared = sorted({p for p in places if places.count(p) > 1})
    if ruleset == "tda-de":
        assert shared == [6, 8, 35], shared
    else:
        assert shared == [] and sorted(places) == list(range(1, FIELD + 1))
    db = {e.number: e for e in t.entries.all()}
    assert {n: e.place for n, e in db.items()} == {int(r[0]): int(r[4]) for r in listed}
    assert prizes == {n: e.prize for n, e in db.items()}

    table_amounts = payout_amounts(t)
    assert len(table_amounts) == 6
    floor.go("payouts/")
    shown = [_cents(c) for c in page.locator("table.list tbody td.num").all_inner_texts()]
    assert shown == table_amounts
    pool = sum(table_amounts)
    assert sum(prizes.values()) == pool
    by_place: dict[int, list[int]] = {}
    for e in db.values():
        by_place.setdefault(e.place, []).append(e.prize)
    assert by_place[4] == [table_amounts[3]] and by_place[5] == [table_amounts[4]]
    assert sum(by_place[6]) == table_amounts[5]
    # The three who made the deal get their shares; the deal shares what first to third pay.
    assert sum(shares.values()) == sum(table_amounts[:3])
    assert {e.pk: e.prize for e in db.values() if e.pk in shares} == shares

    floor.go("payouts/desk/")
    labels = page.locator(".stats .stat .label").all_text_contents()
    values = [_cents(v) for v in page.locator(".stats .stat .value").all_inner_texts()]
    totals = dict(zip(labels, values, strict=True))
    assert totals["Owed"] == totals["Prize pool"] == pool
    assert totals["Still to pay"] == pool
    desk_rows = page.locator("table.list tbody tr")
    assert (
        desk_rows.count()
        == len([p for p in prizes.values() if p])
        == (7 if ruleset == "tda-de" else 6)
    )
    screenshot(page, f"night-{ruleset}-payout-desk")
