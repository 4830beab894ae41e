"""Shared fixtures: staff users, a demo chip set and structure, a tournament factory."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.db.backends.signals import connection_created
from django.dispatch import receiver
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests.makers import (
    chip_set_made,
    director_made,
    registrar,
    template_made,
    tournament_maker,
)
from tests.services import CI

# Property tests check what holds, not how fast: the speed is measured in bench/. Hypothesis's
# default deadline (200 ms an example) and its "input generation is slow" check failed tests on
# a machine busy with other work.
hypothesis_settings.register_profile(
    "floor", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("floor")


def pytest_report_header(config: Any) -> str:
    from django.conf import settings as s

    engine = s.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    return f"floor: database={engine} CI={CI}"


# The longest test files first (seconds each on PostgreSQL on a two-core machine, 2026-11-29):
# pytest-xdist hands a worker a whole file at a time (`--dist loadfile`, started by floor.py
# with `--no-loadscope-reorder`, which keeps this order), so a long file handed out last ran
# alone at the end while the other worker waited. The rest keep their collection order.
LONGEST_FIRST = (
    # Not here: tests/test_venue.py, test_continuity.py and test_venue_lan.py (465, 379 and 72 s
    # under a load of about 10). Put first, one worker's venues started while the other's did,
    # and the mDNS test found its venue refusing at the LAN address (twice in two full runs,
    # never alone). pytest-django leaves them at the end, where they ran green before.
    "tests/browser/test_displays.py",  # 239
    "tests/browser/test_results_night.py",  # 156
    "tests/browser/test_accessibility.py",  # 145
    "tests/test_faults.py",  # 72
    "tests/test_api_fuzz.py",  # 59
    "tests/browser/test_friday_night.py",  # 55
    "tests/browser/test_endscreens.py",  # 41
    "rules_engine/tests/domain/test_betting_differential.py",  # 37
    "tests/browser/test_speech.py",  # 35
    "tests/browser/test_people.py",  # 34
    "tests/browser/test_shot_clock.py",  # 31
    "tests/browser/test_league_screen.py",  # 29
    "tests/test_results_property.py",  # 27
    "tests/browser/test_speech_fallback.py",  # 24
    "tests/browser/test_dealer_counts.py",  # 24
    "actions/tests/test_archive.py",  # 22
    # Measured 2026-12-08 under a load of about 10 (divide by two to three for a quiet machine).
    "tournament/tests/services/test_corrections.py",  # 149 under load (50 with 8 examples)
    "tests/test_form_fuzz.py",  # 51 under load
    "tournament/tests/services/test_counters.py",  # 42 under load
    "tables/tests/services/test_seat_foreign_keys.py",  # 42 under load
)


# `floor.py test --fast` (the inner loop) runs the property tests with at most this many
# examples each; the full command runs each with its own number.
FAST_EXAMPLES = 10


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.nodeid.split("::", 1)[0], len(rank)))
    if os.environ.get("FLOOR_FAST") == "1":
        _fewer_examples(items)


if os.environ.get("FLOOR_FAST") == "1" and settings.SQLITE_PASS:

    @pytest.fixture(scope="session")
    def django_db_modify_db_settings(request: Any) -> None:
        """The fast loop's database is kept in a file between runs (tests/fastdb.py)."""
        from tests import fastdb

        worker = getattr(request.config, "workerinput", {}).get("workerid", "main")
        settings.DATABASES["default"]["TEST"]["NAME"] = str(fastdb.database(worker))

    @pytest.fixture(scope="session")
    def django_db_keepdb() -> bool:
        return True

    def pytest_sessionfinish(session: Any, exitstatus: int) -> None:
        from tests import fastdb

        fastdb.finished(int(exitstatus))


def _fewer_examples(items: list[pytest.Item]) -> None:
    for item in items:
        obj = getattr(item, "obj", None)
        test = getattr(obj, "__func__", obj)  # a method's function
        own = getattr(test, "_hypothesis_internal_use_settings", None)
        if own is not None and own.max_examples > FAST_EXAMPLES:
            # Read by Hypothesis when the test runs (hypothesis/core.py).
            test._hypothesis_internal_use_settings = hypothesis_settings(  # type: ignore[union-attr]
                own, max_examples=FAST_EXAMPLES
            )


@receiver(connection_created)
def _commit_without_waiting_for_the_disk(connection: Any, **kwargs: Any) -> None:
    """A test database need not outlive a crash: on PostgreSQL a commit does not wait for its
    write-ahead log to reach the disk (2-9 ms a commit on the machines the suite runs on, a
    tenth of a millisecond without), for the tests' connections and their servers' threads. What
    a commit makes visible, and when, is unchanged."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET synchronous_commit TO off")
    elif connection.vendor == "sqlite" and connection.settings_dict["NAME"] != ":memory:":
        # The fast loop's database in a file (tests/fastdb.py): no waiting for the disk either.
        with connection.cursor() as cursor:
            cursor.execute("PRAGMA synchronous = OFF")


@pytest.fixture(scope="session", autouse=True)
def _quick_flush() -> None:
    """After a transactional test on PostgreSQL only the tables that hold rows are emptied
    (tests/flush.py): the next test starts from the database Django's flush would leave."""
    from tests import flush

    flush.install()


@pytest.fixture(autouse=True)
def _require_postgres_under_ci() -> None:
    # Under CI the suite runs on PostgreSQL, then once more on SQLite by request (SQLITE_PASS).
    if CI and not settings.TEST_ON_POSTGRES and not settings.SQLITE_PASS:
        pytest.fail("Under CI the tests must run on PostgreSQL.")


@pytest.fixture
def director(db: Any) -> Any:
    return director_made()


@pytest.fixture
def floor_user(db: Any) -> Any:
    from core.roles import FLOOR, ensure_role_groups

    ensure_role_groups()
    user = get_user_model().objects.create_user("flo", password="pw-floor-123")
    user.groups.add(Group.objects.get(name=FLOOR))
    return user


@pytest.fixture
def actor(director: Any) -> Any:
    from tournament.events import Actor

    return Actor(user=director, label="dir", source="127.0.0.1")


@pytest.fixture
def chip_set(db: Any) -> Any:
    return chip_set_made()


@pytest.fixture
def template(db: Any) -> Any:
    return template_made()


@pytest.fixture
def make_tournament(actor: Any, chip_set: Any, template: Any) -> Callable[..., Any]:
    return tournament_maker(actor, chip_set, template)


@pytest.fixture
def register(actor: Any) -> Callable[..., Any]:
    return registrar(actor)


@pytest.fixture
def counters_agree(db: Any) -> Any:
    """After the test, every counter the database keeps equals a full recount of its rows (what
    `manage.py floor_recount --check` checks). Use it on a test or a module:
    `pytestmark = pytest.mark.usefixtures("counters_agree")`."""
    from tournament import counters

    yield
    differences = counters.check().differences
    assert not differences, "\n".join(str(d) for d in differences)


@pytest.fixture(autouse=True)
def _event_lines_locked(request: Any) -> Any:
    """Every event-log line a test's code writes is written under its tournament's row lock,
    taken by that code (tests/lock_watch.py). PostgreSQL only; the test's own thread only."""
    marker = request.node.get_closest_marker("django_db")
    names = set(request.fixturenames)
    uses_db = marker is not None or names & {"db", "transactional_db", "_django_db_helper"}
    if not (uses_db and settings.TEST_ON_POSTGRES) or request.node.get_closest_marker("browser"):
        yield
        return
    transactional = bool(
        (marker is not None and marker.kwargs.get("transaction"))
        or names & {"transactional_db", "live_server"}
    )
    request.getfixturevalue("transactional_db" if transactional else "db")
    from django.db import connection

    from tests.lock_watch import watching

    with watching(connection, transactional=transactional):
        yield


@pytest.fixture(autouse=True)
def _language_reset() -> Any:
    """A request in German leaves German active in the test's thread (LocaleMiddleware
    activates it and the test client runs in the same thread): every test starts in the
    default language, whatever ran before it on the worker."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def one_rate_window(monkeypatch: Any) -> float:
    """Pin core/ratelimit.py's clock: its windows are fixed (a count starts afresh when a
    minute turns), so a test that counts up to a refusal would pass its calls' limit again if
    the minute turned during it."""
    from types import SimpleNamespace

    from core import ratelimit

    now = float(int(ratelimit.time.time()))
    monkeypatch.setattr(ratelimit, "time", SimpleNamespace(time=lambda: now))
    return now


@pytest.fixture
def sent(monkeypatch: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """Every live message that leaves, as (group, event, data), round-tripped through JSON."""
    import json

    from live import realtime

    out: list[tuple[str, str, dict[str, Any]]] = []

    def record(group: str, message: dict[str, Any]) -> None:
        decoded = json.loads(message["text"])
        out.append((group, decoded["event"], decoded["data"]))

    monkeypatch.setattr(realtime, "_send", record)
    # As if every table had its tablet and every player their phone open: the payloads a
    # screen would get are built (live/realtime.py `listened`).
    monkeypatch.setattr(realtime, "listened_of", lambda groups: set(groups))
    return out
