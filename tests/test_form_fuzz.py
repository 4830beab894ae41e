"""Hostile input to every form a person reaches: the site crawled as anonymous, floor and
director from the console and the public pages (tests/crawl.py), following the links of the
pages, so a form added tomorrow is fuzzed without anyone listing it.

- Every field of every form takes values that broke pages before (superscript and other
  scripts' digits, 20-digit and 2^70 numbers, NUL, 5,000 characters, empty, markup, two values
  where one is expected), one field at a time and all at once: nothing may answer 5xx.
- Every number field of every form takes "abc": a 4xx with the reason on the page, and not
  one row of any table changed.

Each request runs in a transaction that is rolled back, so every request meets the same
running tournament. The API has its own fuzzer (test_api_fuzz.py). No randomness: the values
are fixed, so a run is the same run. `FLOOR_FUZZ_EXAMPLES` (default 4) is how many of the
all-at-once values each form gets.
"""

from __future__ import annotations

import os
import re
from typing import Any

import pytest
from django.db import transaction
from django.test import Client

from tables import services as seating
from tables.models import Table
from tournament.models import Status, Tournament

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("FLOOR_FUZZ_EXAMPLES", "4"))
ROLES = ("director", "floor", "anonymous")  # a form found by several roles: the first


@pytest.fixture
def world(make_tournament, register, actor, director, floor_user):
    # Rebuys and add-ons on: the desk draws their menus (whose `next` once answered 500).
    t = make_tournament(
        status="registering",
        bounty_kind="progressive",
        bounty=2000,
        rebuys_max=1,
        rebuy_price=10000,
        rebuy_chips=20000,
        addons_max=1,
        addon_price=10000,
        addon_chips=20000,
    )
    entries = [register(t) for _ in range(14)]
    seating.tables_create(tournament=t, count=2, actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    t.refresh_from_db()
    clients = {"anonymous": Client(), "floor": Client(), "director": Client()}
    clients["floor"].force_login(floor_user)
    clients["director"].force_login(director)
    for c in clients.values():
        c.raise_request_exception = False
    return {"tournament": t, "entries": entries, "clients": clients}


# Forms left to their own tests: sign-in (throttled by axes) and the language switch.
FORM_SKIPPED = re.compile(r"^/(login|logout|i18n)/")
# Values for every field, one field at a time: what broke pages before.
FIELD_VALUES = ["²", "abc", "9" * 20, "", "x" * 5000, "a\x00b", "-1", "1.5", "٣", "<b>x</b>"]
# Values for every field of a form at once.
ALL_AT_ONCE = ["²", str(2**70), "x" * 3000, "\ufeff1"]
# Number fields whose refusal is not yet a 4xx on its page: (form pattern, field) -> why.
# Reported (printed), not failed; remove a line once its form answers 4xx.
KNOWN_WRONG_STATUS: dict[tuple[str, str], str] = {}


@pytest.fixture
def crawled(world):
    """Each role's crawl of the site from the console and the public pages, and the forms
    it found."""
    from tests.crawl import crawl

    t = world["tournament"]
    table = Table.objects.filter(tournament=t).order_by("number").first()
    entry = world["entries"][0]
    from leagues import services as leagues

    league = leagues.league_create(name="Freitagsliga", public=True)
    leagues.season_create(league=league, name="2026")
    # Pages no link leads to without a token: the tablet's and a player's own page.
    tokens = [f"/d/{table.dealer_token}/", f"/s/{entry.public_token}/"]
    starts = {
        "anonymous": ["/", f"/t/{t.pk}/", *tokens],
        "floor": ["/console/", f"/console/t/{t.pk}/"],
        "director": ["/console/", f"/console/t/{t.pk}/"],
    }
    found = {who: crawl(world["clients"][who], starts[who]) for who in ROLES}
    # Each form once, sent by the first role that found it (who may do most with it).
    forms: dict[Any, tuple[str, Any]] = {}
    for who in ROLES:
        for form in found[who].forms:
            if form.method in ("get", "post") and not FORM_SKIPPED.match(form.action):
                forms.setdefault(form.key(), (who, form))
    failures = [f"{who} {f}" for who in ROLES for f in found[who].failures]
    pages = sum(len(found[who].pages) for who in ROLES)
    return {"forms": list(forms.values()), "failures": failures, "pages": pages}


def _send(client, method: str, url: str, data: dict[str, Any]):
    import copy

    cookies = copy.deepcopy(client.cookies)  # a password change would log the client out
    with transaction.atomic():  # every request meets the same world
        response = getattr(client, method)(url, data)
        transaction.set_rollback(True)
    client.cookies = cookies
    return response


def test_every_form_found_by_crawling(world, crawled):
    """One crawl (it is the slow part) for both checks: hostile values answer no 5xx; a
    non-number in a number field is refused with a message and changes nothing."""
    hostile = _hostile_values(world, crawled)
    refusals = _non_numbers(world, crawled)
    assert not hostile, f"{len(hostile)} answered 5xx:\n" + "\n".join(hostile[:25])
    assert not refusals, f"{len(refusals)} number fields:\n" + "\n".join(refusals)


def _hostile_values(world, crawled) -> list[str]:
    from tests.crawl import pattern

    tried = {"pages": crawled["pages"], "forms": len(crawled["forms"]), "requests": 0}
    failures: list[str] = list(crawled["failures"])
    for n, (who, form) in enumerate(crawled["forms"]):
        client = world["clients"][who]
        base = form.values()
        names = sorted({f.name for f in form.fields if f.name != "csrfmiddlewaretoken"})
        attempts = [
            {**base, name: FIELD_VALUES[(n + i) % len(FIELD_VALUES)]}
            for i, name in enumerate(names)
        ]
        attempts += [{**base, **dict.fromkeys(names, v)} for v in ALL_AT_ONCE[:EXAMPLES]]
        attempts.append({**base, **{name: ["1", "²"] for name in names}})  # two values each
        for data in attempts:
            response = _send(client, form.method, form.action, data)
            tried["requests"] += 1
            if response.status_code >= 500:
                failures.append(
                    f"{who} {form.method.upper()} {pattern(form.action)} (from {form.page})"
                    f" {data!r:.200}"
                )
    print(f"crawled form fuzzer: {tried}")
    assert tried["forms"] >= 60, tried
    return failures


def _rows() -> tuple[Any, ...]:
    """What a refusal must leave as it was, in three statements: the number of rows of every
    table (sessions and sign-in attempts aside), the event log's last line (every change
    writes one) and the tournaments' rows (their settings)."""
    from django.db import connection

    tables = [
        t
        for t in sorted(connection.introspection.django_table_names(only_existing=True))
        if t != "django_session" and not t.startswith("axes_")
    ]
    q = connection.ops.quote_name
    with connection.cursor() as cursor:
        cursor.execute(
            " UNION ALL ".join(f"SELECT '{t}', COUNT(*) FROM {q(t)}" for t in tables)  # noqa: S608
        )
        counts = sorted(cursor.fetchall())
        cursor.execute("SELECT MAX(id) FROM tournament_event")
        last = cursor.fetchone()
        cursor.execute("SELECT * FROM tournament_tournament ORDER BY id")
        tournaments = [repr(row) for row in cursor.fetchall()]
    return counts, last, tournaments


MESSAGE = re.compile(r'class="[^"]*\b(error|errors|errorlist)\b|role="alert"')


def _non_numbers(world, crawled) -> list[str]:
    """Every number field of every form the crawl found, given "abc": a 4xx (docs/input.md),
    the reason on the page, and nothing changed."""
    from tests.crawl import pattern

    tried = 0
    failures: list[str] = []
    for who, form in crawled["forms"]:
        client = world["clients"][who]
        if form.method != "post":
            continue
        for field in form.fields:
            if not field.numeric or field.kind == "hidden":
                continue
            label = f"{who} POST {pattern(form.action)} {field.name}"
            known = KNOWN_WRONG_STATUS.get((pattern(form.action), field.name))
            data = {**form.values(), field.name: "abc"}
            with transaction.atomic():
                before = _rows()
                response = client.post(form.action, data)
                after = _rows()
                transaction.set_rollback(True)
            tried += 1
            body = response.content.decode("utf-8", "replace")
            found = []
            if not 400 <= response.status_code < 500:
                found.append(f"{label}: answered {response.status_code}")
            elif not MESSAGE.search(body):
                found.append(f"{label}: {response.status_code} without a message")
            if before != after:
                found.append(f"{label}: refused but changed the database")
            if known:
                print(*(f"known, {known}: {f}" for f in found), sep="\n")
            else:
                failures += found
    print(f"number fields tried: {tried}")
    assert tried >= 20
    return failures
