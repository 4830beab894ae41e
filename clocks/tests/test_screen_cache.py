"""A clock screen's poll costs no query when warm (#27): the structure, the clock's history and
the numbers are kept in the cache, the time left is worked out per request, and every clock
command, structure edit and logged change forgets what was kept."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from actions.tournaments import structure_replace_levels
from clocks.selectors import cached_clock_screen, clock_screen_parts, forget_clock_screen
from clocks.services import clock_command
from tournament.services.tournaments import level_specs

pytestmark = pytest.mark.django_db


@pytest.fixture
def running(make_tournament, register, actor):
    t = make_tournament(status="registering", late_registration_until_level=3)
    register(t)
    register(t)
    clock_command(
        tournament=t, kind="start", actor=actor, now=timezone.now() - timedelta(seconds=30)
    )
    t.refresh_from_db()
    return t


def _poll(client, t):
    return client.get(reverse("clock-json", args=[t.pk])).json()


def test_a_warm_poll_costs_no_query(client, running, django_assert_max_num_queries):
    _poll(client, running)  # the first poll of a tournament keeps nothing yet
    cold = _poll(client, running)
    with django_assert_max_num_queries(0):
        warm = _poll(client, running)
    assert warm["levels"] == cold["levels"] and warm["entries"] == cold["entries"] == 2
    # The time left is worked out per request, not kept.
    assert warm["clock"]["running"]
    assert warm["clock"]["server_ms"] >= cold["clock"]["server_ms"]
    assert warm["clock"]["remaining_ms"] <= cold["clock"]["remaining_ms"]
    assert warm["clock"]["ends_at_ms"] == cold["clock"]["ends_at_ms"]


def test_the_big_screen_snapshot_uses_the_same_kept_data(
    client, running, django_assert_max_num_queries
):
    page = client.get(reverse("bigscreen", args=[running.pk]))
    assert page.status_code == 200
    assert client.get(reverse("bigscreen", args=[running.pk])).status_code == 200
    with django_assert_max_num_queries(0):
        _poll(client, running)


def test_pause_and_resume_are_seen_at_once(client, running, actor):
    assert _poll(client, running)["clock"]["running"]
    clock_command(tournament=running, kind="pause", actor=actor)
    paused = _poll(client, running)["clock"]
    assert not paused["running"] and paused["ends_at_ms"] is None
    clock_command(tournament=running, kind="resume", actor=actor)
    assert _poll(client, running)["clock"]["running"]


def test_an_adjustment_is_seen_at_once(client, running, actor):
    before = _poll(client, running)["clock"]["ends_at_ms"]
    clock_command(tournament=running, kind="add", seconds=-60, actor=actor)
    after = _poll(client, running)["clock"]["ends_at_ms"]
    assert before - after == pytest.approx(60_000, abs=50)


def test_a_structure_edit_is_seen_at_once(client, running, actor):
    assert _poll(client, running)["levels"][1]["big_blind"] != 450
    specs = level_specs(running.structure)
    edited = [*specs[:1], specs[1].__class__(**{**specs[1].__dict__, "big_blind": 450})]
    structure_replace_levels(tournament=running, levels=[*edited, *specs[2:]], actor=actor)
    assert _poll(client, running)["levels"][1]["big_blind"] == 450


def test_a_new_entry_is_seen_at_once(client, running, register):
    assert _poll(client, running)["entries"] == 2
    register(running)
    assert _poll(client, running)["entries"] == 3


def test_data_read_before_a_change_is_not_kept_past_it(running):
    built = []

    def build():
        # The change commits while this reader still works with what it read before it.
        screen = clock_screen_parts(running, {"n": len(built)})
        built.append(screen)
        forget_clock_screen(running.pk)
        return screen

    cached_clock_screen(running.pk, build)
    cached_clock_screen(running.pk, build)
    assert len(built) == 2  # the first one was never used again

    def quiet():
        built.append(clock_screen_parts(running, {}))
        return built[-1]

    cached_clock_screen(running.pk, quiet)
    cached_clock_screen(running.pk, quiet)
    assert len(built) == 3


def test_a_missing_tournament_leaves_nothing_in_the_cache(client):
    from django.core.cache import cache

    assert client.get(reverse("clock-json", args=[987654])).status_code == 404
    assert cache.get("clocks.screen.gen.987654") is None


def test_a_level_announcement_keeps_the_kept_data(client, running, django_assert_max_num_queries):
    from clocks.services import clocks_announce_due

    _poll(client, running)
    _poll(client, running)
    clocks_announce_due(now=timezone.now() + timedelta(minutes=20))
    assert running.events.filter(action__in=["clock.level", "clock.break"]).exists()
    # The clock is worked out from its history: an announcement changes none of its inputs.
    with django_assert_max_num_queries(0):
        _poll(client, running)


def test_kept_copies_expire_at_spread_moments(running, monkeypatch):
    """Screens built in the same second (a restart, a festival's screens coming up) are not all
    built again in one later second: each copy lives one to two minutes, at random."""
    from clocks import selectors

    lives: list[int] = []
    real_set = selectors.cache.set

    def recording_set(key, value, timeout=None, **kwargs):
        if key.startswith("clocks.screen.") and not key.startswith("clocks.screen.gen."):
            lives.append(timeout)
        return real_set(key, value, timeout, **kwargs)

    monkeypatch.setattr(selectors.cache, "set", recording_set)
    for _ in range(40):
        forget_clock_screen(running.pk)  # a new generation: the next read builds and keeps
        cached_clock_screen(running.pk, lambda: clock_screen_parts(running, {}))
    assert len(lives) == 40
    assert all(selectors.SCREEN_SECONDS <= life < 2 * selectors.SCREEN_SECONDS for life in lives)
    assert len(set(lives)) > 5


@pytest.mark.django_db(transaction=True)
def test_a_change_is_told_to_the_cache_once_it_commits(running):
    """Inside the transaction that made a change, the screen's kept data is read afresh
    through a generation of the transaction's own; the cache's generation changes once, after
    the commit (no round trip inside the transaction). A rollback drops the mark."""
    from django.core.cache import cache
    from django.db import transaction

    from clocks import selectors

    gen_key = selectors._generation_key(running.pk)
    built = []

    def build():
        built.append(clock_screen_parts(running, {}))
        return built[-1]

    cached_clock_screen(running.pk, build)
    cached_clock_screen(running.pk, build)
    before = cache.get(gen_key)
    assert before is not None
    built.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        forget_clock_screen(running.pk)
        assert cache.get(gen_key) == before  # not yet: nothing is committed
        cached_clock_screen(running.pk, build)  # this transaction reads its own change
        assert len(built) == 1
        raise RuntimeError  # rolled back: the change never happened
    assert selectors._changed_here(running.pk) is None
    assert cache.get(gen_key) == before
    cached_clock_screen(running.pk, build)
    cached_clock_screen(running.pk, build)
    assert len(built) == 2  # the copy of the rolled-back transaction is not read
    with transaction.atomic():
        forget_clock_screen(running.pk)
        forget_clock_screen(running.pk)  # two changes: one forget at the commit
        cached_clock_screen(running.pk, build)
        cached_clock_screen(running.pk, build)  # kept within the transaction
        assert len(built) == 3
        assert cache.get(gen_key) == before
    after = cache.get(gen_key)
    assert after not in (None, before)
    assert selectors._changed_here(running.pk) is None
    cached_clock_screen(running.pk, build)  # the committed change: built again
    assert len(built) == 4
