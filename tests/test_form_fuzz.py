"""Hostile input to the pages: every page route of the URL configuration, fuzzed with
hypothesis as floor, director, dealer (the table's token) and anonymous.

Each request sends generated values (NUL bytes, digits of other scripts, numbers beyond any
column, negatives, empty and very long strings, lists where one value is expected) in the
field names the pages read: the names in the templates, the fields of the console's forms and
the names the views read by hand. GET requests carry them as query parameters, POST requests
as form data. Nothing may answer 5xx. Each request runs in a transaction that is rolled back,
so every example meets the same tournament. The API has its own fuzzer (test_api_fuzz.py).
"""

from __future__ import annotations

import inspect
import os
import re
from pathlib import Path
from typing import Any

import pytest
from django import forms
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tables import services as seating
from tables.models import Table
from tournament.models import Event, Status, Tournament

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = int(os.environ.get("FLOOR_FUZZ_EXAMPLES", "5"))  # per route, after the sweep
# Left to their own tests: the API (schemathesis), the admin, sign-in (throttled), the
# language switch and the JavaScript catalogue.
SKIPPED = re.compile(r"^(api/|admin/|i18n/|jsi18n/|login/|logout/|healthz|readyz)")
# Route parameters that are words: the values the pages know, and one they do not.
WORDS = {
    "action": [
        "draw",
        "open",
        "balance",
        "break",
        "final",
        "h4h",
        "undo",
        "button",
        "move",
        "report",
        "hand",
        "bust",
        "floor",
        "time",
        "time_cancel",
        "renew",
        "nonsense",
    ],
    "kind": [
        "plus",
        "minus",
        "next",
        "previous",
        "set_remaining",
        "jump",
        "start",
        "pause",
        "rebuy",
        "addon",
        "x",
    ],
    "fmt": ["json", "csv", "xml"],
}
HOSTILE = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "²",
    "٣",
    "১২",
    "1²",
    "-1",
    "-0",
    "0",
    "1",
    "2",
    "9",
    "10",
    "1.5",
    "1,5",
    "1e9",
    "NaN",
    "inf",
    str(2**31),
    str(2**40),
    str(2**63),
    str(2**70),
    "9" * 400,
    "x" * 5000,
    "#1, #2",
    "12:30",
    "99:99",
    "-5:00",
    "on",
    "true",
    "<b>x</b>",
    "https://evil.example/",
    "//evil.example",
    "/\\evil.example",
    "' OR 1=1 --",
    "🂡",
    "\u202e",
    "\ufeff1",
    "EUR",
    "ÄÖÜ",
    "2030-01-01T19:00",
    "1" * 19,
]
# The values that broke pages before, sent to every name a page reads.
SWEEP = ["a\x00b", "²", "٣", str(2**70), "-1", "x" * 5000]
values = st.one_of(
    st.sampled_from(HOSTILE),
    st.sampled_from(HOSTILE),
    st.integers(min_value=-(2**80), max_value=2**80).map(str),
    st.text(max_size=40),
)


NAME_IN_TEMPLATE = re.compile(r'name="([a-z_]+)(\{\{)?')
NAME_IN_CODE = re.compile(r'\.(?:get|getlist)\((f?)"([a-z_]+)')
TEMPLATE_IN_CODE = re.compile(r'"([a-z_/]+\.html)"')
INCLUDE = re.compile(r'\{% include "([^"]+)"')
NOT_FIELDS = {"csrfmiddlewaretoken", "viewport", "robots", "htmx", "language"}


def _template_names(template: str, seen: set[str]) -> tuple[set[str], set[str]]:
    """Field names (and `name_{{ id }}` prefixes) in a template and the ones it includes."""
    path = ROOT / "templates" / template
    if template in seen or not path.exists():
        return set(), set()
    seen.add(template)
    text = path.read_text()
    names: set[str] = set()
    prefixes: set[str] = set()
    for name, is_prefix in NAME_IN_TEMPLATE.findall(text):
        (prefixes if is_prefix else names).add(name)
    for included in INCLUDE.findall(text):
        more, more_prefixes = _template_names(included, seen)
        names |= more
        prefixes |= more_prefixes
    return names, prefixes


def _view_names(view: Any) -> tuple[set[str], set[str]]:
    """The field names one view reads: by hand in its code (and in the helpers of its module
    it calls), the fields of the forms it builds, and the names in the templates it renders."""
    func = inspect.unwrap(getattr(view, "view_class", view))
    module = inspect.getmodule(func)
    try:
        code = inspect.getsource(func)
    except (OSError, TypeError):
        return set(), set()
    for name, helper in inspect.getmembers(module, inspect.isfunction):
        if helper is not func and helper.__module__ == func.__module__ and f"{name}(" in code:
            code += inspect.getsource(helper)
    names: set[str] = set()
    prefixes: set[str] = set()
    for f, name in NAME_IN_CODE.findall(code):
        (prefixes if f and name.endswith("_") else names).add(name)
    for name, member in inspect.getmembers(module, inspect.isclass):
        if issubclass(member, forms.BaseForm) and f"{name}(" in code:
            names.update(getattr(member, "base_fields", {}))
    seen: set[str] = set()
    for template in TEMPLATE_IN_CODE.findall(code):
        more, more_prefixes = _template_names(template, seen)
        names |= more
        prefixes |= more_prefixes
    return names - NOT_FIELDS, {p for p in prefixes if p.endswith("_")}


def _routes() -> list[tuple[str, tuple[str, ...], Any]]:
    """(route with {param} holes, parameter names, view) of every page route."""
    found: list[tuple[str, tuple[str, ...], Any]] = []

    def walk(patterns: list[Any], prefix: str) -> None:
        for p in patterns:
            route = prefix + str(p.pattern)
            if isinstance(p, URLResolver):
                walk(p.url_patterns, route)
            elif isinstance(p, URLPattern) and not SKIPPED.match(route):
                params = tuple(re.findall(r"<(?:\w+:)?(\w+)>", route))
                found.append((re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route), params, p.callback))

    walk(get_resolver().url_patterns, "")
    return sorted(found, key=lambda r: r[0])


@pytest.fixture
def world(make_tournament, register, actor, director, floor_user):
    t = make_tournament(status="registering", bounty_kind="progressive", bounty=2000)
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
    table = Table.objects.filter(tournament=t).order_by("number").first()
    return {
        "tournament": t,
        "entries": entries,
        "clients": clients,
        "params": {
            "pk": [t.pk, t.pk + 1000],
            "entry_id": [entries[0].pk, entries[-1].pk, 10**9],
            "player_id": [entries[0].player_id, 10**9],
            "number": [1, 2, 99],
            "event_id": [Event.objects.filter(tournament=t).last().pk, 10**9],
            "token": [table.dealer_token, entries[0].public_token, "x" * 40],
            **WORDS,
        },
    }


def test_fuzzed_pages_never_answer_5xx(world):
    ids = [str(e.pk) for e in world["entries"][:3]] + ["1", "2", "3"]
    routes = _routes()
    clients = world["clients"]
    params = world["params"]
    tried = {"requests": 0, "routes": len(routes), "fields": 0}
    failures: list[str] = []
    every: set[str] = set()
    per_route: dict[str, list[str]] = {}
    for route, _holes, view in routes:
        names, prefixes = _view_names(view)
        per_route[route] = sorted(names | {p + i for p in prefixes for i in ids})
        every.update(per_route[route])
    tried["fields"] = len(every)

    def send(who: str, method: str, url: str, data: dict[str, Any], htmx: bool) -> None:
        extra = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        with transaction.atomic():  # every request meets the same tournament
            response = getattr(clients[who], method)(url, data, **extra)
            transaction.set_rollback(True)
        tried["requests"] += 1
        key = f"{who}:{response.status_code // 100}xx"
        tried[key] = tried.get(key, 0) + 1
        if response.status_code >= 500:
            failures.append(f"{who} {method.upper()} {url} {data!r:.150}")

    def roles(route: str) -> list[str]:
        # Mostly the role the route is for; sometimes the others (access control too).
        if route.startswith("console/"):
            return ["floor", "director", "floor", "anonymous"]
        return ["anonymous", "anonymous", "floor"]

    def sweep(route: str, holes: tuple[str, ...]) -> None:
        """Every name the page reads at once, with each of the worst values, by its role."""
        own = per_route[route] or sorted(every)
        path = {h: params.get(h, ["x"])[0] for h in holes}
        url = "/" + route.format(**path)
        who = roles(route)[0]
        for i, value in enumerate(SWEEP):
            for method in ("get", "post"):
                send(who, method, url, dict.fromkeys(own, value), htmx=i % 2 == 1)

    def fuzz_route(route: str, holes: tuple[str, ...]) -> None:
        own = per_route[route] or sorted(every)

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        @given(
            who=st.sampled_from(roles(route)),
            method=st.sampled_from(["get", "post"]),
            path=st.fixed_dictionaries({h: st.sampled_from(params.get(h, ["x"])) for h in holes}),
            # Mostly the names this page reads, sometimes any page's.
            data=st.dictionaries(
                st.one_of(
                    st.sampled_from(own), st.sampled_from(own), st.sampled_from(sorted(every))
                ),
                st.one_of(values, st.lists(values, min_size=2, max_size=4)),
                max_size=8,
            ),
            htmx=st.booleans(),
        )
        def one(who: str, method: str, path: dict[str, Any], data: dict[str, Any], htmx: bool):
            send(who, method, "/" + route.format(**path), data, htmx)

        one()

    for route, holes, _view in routes:
        sweep(route, holes)
        fuzz_route(route, holes)
    print(f"form fuzzer: {tried}")
    assert tried["routes"] >= 40
    assert not failures, f"{len(failures)} of {tried['requests']} answered 5xx:\n" + "\n".join(
        failures[:25]
    )
