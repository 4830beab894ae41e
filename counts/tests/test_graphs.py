"""The chip graphs read from the database and drawn: each count placed in the level the clock
was in, the leaders found by the database the same as by the domain, the pictures (type, their
own policy, public names only) and the refusals (400, 404), the pages that show them."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from clocks.models import Clock, ClockEvent
from counts.domain.graphs import CountPoint, Runner, leaders_chart
from counts.models import ChipCount
from counts.selectors import leaders_graph, stack_graph
from tournament.models import Entry, EntryStatus, Level, Player, Status, Tournament
from tournament.services.registration import player_create

pytestmark = pytest.mark.django_db

# The test template (tests/makers.py): levels 1 and 2 of 20 minutes, a 10-minute break, then
# levels 3 to 6 of 20 minutes. The clock started 95 minutes ago: now in level 4.
STARTED = 95


@pytest.fixture
def night(make_tournament, actor):
    """Six players, running, the clock started STARTED minutes ago; no counts yet."""
    t = make_tournament(status="registering")
    for i in range(1, 7):
        player = player_create(name=f"Fullname Secret{i}", display_name=f"Pat {i}.", actor=actor)
        Entry.objects.create(tournament=t, player=player, number=i, status=EntryStatus.ACTIVE)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    clock = Clock.objects.create(tournament=t)
    ClockEvent.objects.create(clock=clock, kind="start", at=ago(STARTED))
    return t


def ago(minutes: float):
    return timezone.now() - timedelta(minutes=minutes)


def at_minute(minute: float):
    """An instant `minute` minutes after the clock's start."""
    return ago(STARTED - minute)


def entry(t, number):
    return Entry.objects.get(tournament=t, number=number)


def count(t, number, chips, minute, bag=""):
    return ChipCount.objects.create(
        tournament=t,
        entry=entry(t, number),
        count=chips,
        recorded_at=at_minute(minute),
        bag_number=bag,
    )


def test_each_count_falls_in_the_level_the_clock_was_in_a_break_in_the_level_before(night):
    count(night, 1, 20_000, -5)  # before the start
    count(night, 1, 25_000, 10)  # level 1
    count(night, 1, 31_000, 45)  # the break after level 2
    count(night, 1, 33_000, 52)  # level 3
    chart = stack_graph(night, entry(night, 1).pk)
    assert chart is not None
    assert [(s.level, v) for s, v in chart.rows] == [
        (0, 20_000),
        (1, 25_000),
        (2, 31_000),
        (3, 33_000),
    ]


def test_the_database_finds_the_same_leaders_as_the_domain(night):
    # Every player counted in levels 1 to 3, some not every level; player 6 busted in level 3.
    chips = {
        1: (20_000, 30_000, 12_000),
        2: (24_000, None, 60_000),
        3: (18_000, 26_000, 26_000),
        4: (30_000, 30_000, None),
        5: (20_000, 14_000, 31_000),
        6: (28_000, 90_000, None),
    }
    minutes = (10, 30, 60)
    points = []
    for number, row in chips.items():
        for level, (c, minute) in enumerate(zip(row, minutes, strict=True), start=1):
            if c is not None:
                made = count(night, number, c, minute)
                points.append(CountPoint(made.id, made.entry_id, c, level))
    Entry.objects.filter(tournament=night, number=6).update(
        status=EntryStatus.BUSTED, busted_at=at_minute(65)
    )
    runners = {
        e.pk: Runner(e.pk, e.number, e.player.display_name, 3 if e.number == 6 else None)
        for e in Entry.objects.filter(tournament=night).select_related("player")
    }
    for upto in (0, 1, 2, 3, None):
        read = leaders_graph(night, upto=upto, limit=3)
        want = leaders_chart(points, runners, upto=upto, limit=3)
        assert read is not None and want is not None
        assert [(r.runner.number, r.chips) for r in read.rows] == [
            (r.runner.number, r.chips) for r in want.rows
        ], upto
        assert [line.values for line in read.lines] == [line.values for line in want.lines]
    through_2 = leaders_graph(night, upto=2, limit=3)
    assert [r.runner.number for r in through_2.rows] == [6, 1, 4]  # 6 still in after level 2
    assert 6 not in [r.runner.number for r in leaders_graph(night, limit=3).rows]


def test_a_bag_and_tag_is_its_own_position(night):
    count(night, 1, 30_000, 30)
    count(night, 1, 32_500, 35, bag="A-17")
    chart = stack_graph(night, entry(night, 1).pk)
    assert [(s.level, s.day) for s in chart.slots] == [(2, 0), (2, 1)]


def test_nothing_counted_and_no_levels_draw_something(night, client):
    assert leaders_graph(night) is None
    response = client.get(reverse("counts-leaders-svg", args=[night.pk]))
    assert response.status_code == 200 and b"nothing to draw" in response.content
    Level.objects.filter(structure=night.structure).delete()
    count(night, 2, 20_000, 10)
    chart = leaders_graph(night)
    assert chart is not None and [s.level for s in chart.slots] == [0]  # all before a level
    assert client.get(reverse("counts-leaders-svg", args=[night.pk])).status_code == 200


def test_the_leaders_picture_public_names_own_policy_and_304(night, client):
    count(night, 1, 20_000, 10)
    count(night, 2, 40_000, 30)
    url = reverse("counts-leaders-svg", args=[night.pk])
    response = client.get(url + "?upto=2")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("image/svg+xml")
    assert "script-src 'none'" in response["Content-Security-Policy"]
    body = response.content.decode()
    assert "Pat 2. (#2)" in body and "Secret" not in body and "<script" not in body
    again = client.get(url + "?upto=2", HTTP_IF_NONE_MATCH=response["ETag"])
    assert again.status_code == 304


@pytest.mark.parametrize("upto", ["x", "-1", "1.5", "99999999", "²"])
def test_a_bad_upto_is_refused_with_its_message(night, client, upto):
    response = client.get(reverse("counts-leaders-svg", args=[night.pk]), {"upto": upto})
    assert response.status_code == 400
    assert response["Content-Type"].startswith("image/svg+xml")
    assert b"whole number" in response.content


def test_unknown_tournament_player_or_link_answer_404(night, client):
    assert client.get(reverse("counts-leaders-svg", args=[999_999])).status_code == 404
    for number in ("99", "abc", "0"):
        response = client.get(reverse("counts-player-svg", args=[night.pk, number]))
        assert response.status_code == 404, number
        assert b"No such player" in response.content
    assert client.get(reverse("my-stack-svg", args=["no-such-link"])).status_code == 404
    page = client.get(reverse("counts-public", args=[night.pk]), {"player": "99"})
    assert page.status_code == 404


def test_a_player_with_one_count_and_one_without(night, client):
    count(night, 3, 21_000, 30)
    one = client.get(reverse("counts-player-svg", args=[night.pk, 3])).content.decode()
    assert "Stack of Pat 3. (#3)" in one and "Secret" not in one
    none = client.get(reverse("counts-player-svg", args=[night.pk, 4])).content.decode()
    assert "nothing to draw" in none


def test_the_public_page_shows_the_chart_its_playback_and_a_players_chart(night, client):
    count(night, 1, 20_000, 10)
    count(night, 1, 26_000, 30)
    page = client.get(reverse("counts-public", args=[night.pk])).content.decode()
    assert 'class="playback-range"' in page and 'min="1" max="2"' in page
    assert reverse("counts-leaders-svg", args=[night.pk]) in page
    assert "?player=1#cl-player" in page
    mine = client.get(reverse("counts-public", args=[night.pk]), {"player": "1"}).content.decode()
    assert reverse("counts-player-svg", args=[night.pk, 1]) in mine and "26,000" in mine
    assert "Secret" not in mine


def test_the_console_shows_the_leaders_and_a_players_chart(night, client, director):
    count(night, 5, 20_000, 10)
    client.force_login(director)
    page = client.get(reverse("counts-console", args=[night.pk]), {"player": "5"})
    assert page.status_code == 200
    body = page.content.decode()
    assert reverse("counts-console-leaders-svg", args=[night.pk]) in body
    assert reverse("counts-console-player-svg", args=[night.pk, 5]) in body
    missing = client.get(reverse("counts-console", args=[night.pk]), {"player": "77"})
    assert missing.status_code == 404
    svg = client.get(reverse("counts-console-player-svg", args=[night.pk, 5]))
    assert svg.status_code == 200 and svg["Content-Type"].startswith("image/svg+xml")


def test_the_console_pictures_need_the_floor(night, client):
    response = client.get(reverse("counts-console-leaders-svg", args=[night.pk]))
    assert response.status_code == 302


def test_my_seat_shows_the_players_own_chart_once_out(night, client):
    count(night, 2, 20_000, 10)
    count(night, 2, 9_000, 30)
    player = entry(night, 2)
    url = reverse("my-seat", args=[player.public_token])
    assert "seat-stack-chart" not in client.get(url).content.decode()
    Entry.objects.filter(pk=player.pk).update(status=EntryStatus.BUSTED, busted_at=at_minute(35))
    page = client.get(url).content.decode()
    assert reverse("my-stack-svg", args=[player.public_token]) in page and "9,000" in page
    svg = client.get(reverse("my-stack-svg", args=[player.public_token])).content.decode()
    assert "Stack of Pat 2. (#2)" in svg


def test_a_big_field_the_same_few_queries(night, django_assert_max_num_queries, actor):
    """The leaders come from the database in the same few queries whatever the field's size
    (no query per player): 3,000 entries here; 30,000 measured in docs/counts.md."""
    count(night, 1, 500, 10)
    with django_assert_max_num_queries(12) as small:
        leaders_graph(night)
    players = Player.objects.bulk_create(
        Player(name=f"Big {i}", display_name=f"Big {i}") for i in range(3_000)
    )
    big = Entry.objects.bulk_create(
        Entry(tournament=night, player=p, number=100 + i, status=EntryStatus.ACTIVE)
        for i, p in enumerate(players)
    )
    ChipCount.objects.bulk_create(
        ChipCount(tournament=night, entry=e, count=1_000 + i, recorded_at=at_minute(10 + i % 60))
        for i, e in enumerate(big)
    )
    with django_assert_max_num_queries(len(small.captured_queries)):
        chart = leaders_graph(night)
    assert chart is not None and len(chart.lines) == 10
    assert chart.rows[0].chips == 1_000 + 2_999


def test_after_a_jump_back_a_count_belongs_to_the_level_played_again(night):
    clock = Clock.objects.get(tournament=night)
    ClockEvent.objects.create(clock=clock, kind="jump", at=at_minute(25), level=0)
    count(night, 1, 30_000, 22)  # level 2
    count(night, 1, 27_000, 30)  # level 1 again (the jump back at minute 25)
    count(night, 2, 29_000, 30)
    chart = stack_graph(night, entry(night, 1).pk)
    assert [(s.level, v) for s, v in chart.rows] == [(1, 27_000), (2, 30_000)]
    through_1 = leaders_graph(night, upto=1)
    assert [(r.runner.number, r.chips) for r in through_1.rows] == [(2, 29_000), (1, 27_000)]
