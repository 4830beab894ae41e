"""Hostile input: the OpenAPI schema fuzzed with schemathesis against a running server.

Every operation of `/api/schema/` (no list: an operation added tomorrow is fuzzed too) gets
generated requests as an anonymous client, a logged-in floor user and a director:

- schemathesis's valid requests and its deliberately broken ones (negative mode: wrong types,
  missing fields, out-of-range numbers);
- requests where one parameter or body field, or one fact of a ruling's facts (the schema
  lists them, rules_engine/api.py `FactsSerializer`), holds a value that broke the server
  before: a superscript digit, a word, a 20-digit number, an object or a list, NUL;
- every body the server took (a generated one, or the schema's example) again with one field
  at a time, at any depth, spoiled: this is what finds a fact read only when all the others
  are there (finding 8 of issue 55).

Nothing may answer 5xx; an answer that says it is JSON is JSON, and a success is one of the
answers the schema documents; a refused request (4xx) changes nothing (the event log, which
records every change, stays as it was). The examples are derandomized: every run sends the same
requests. The pages have their own fuzzer (test_form_fuzz.py).
"""

from __future__ import annotations

import json
import os

import pytest
import requests
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from tables import services as seating
from tournament.models import Event, Status, Tournament

# Runs in the PostgreSQL pass only: on the SQLite pass the fuzzer now and then gets an HTML
# answer the HTTP client cannot parse (BadStatusLine), not yet understood; see the issue note.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

EXAMPLES = int(os.environ.get("FLOOR_FUZZ_EXAMPLES", "10"))  # per operation and mode
# What broke the server before, put into one field at a time.
HOSTILE = ["²", "abc", "1" * 20, {"a": [1]}, [1, [2]], "a\x00b", -1, 2**70, "", None, True]


def _session(base: str, username: str | None, password: str | None) -> requests.Session:
    s = requests.Session()
    if username:
        s.get(f"{base}/login/", timeout=10)
        r = s.post(
            f"{base}/login/",
            data={
                "username": username,
                "password": password,
                "csrfmiddlewaretoken": s.cookies["csrftoken"],
            },
            headers={"Referer": f"{base}/login/"},
            timeout=10,
        )
        assert r.ok
        s.headers["X-CSRFToken"] = s.cookies["csrftoken"]
        s.headers["Referer"] = f"{base}/"
    return s


@pytest.fixture
def world(make_tournament, register, actor):
    t = make_tournament(status="registering", late_registration_until_level=6)
    for _ in range(12):
        register(t)
    seating.tables_create(tournament=t, count=2, actor=actor)
    seating.seats_draw(tournament=t, actor=actor)
    Tournament.objects.filter(pk=t.pk).update(status=Status.RUNNING)
    return t


def test_fuzzed_api_never_fails_and_refusals_change_nothing(
    live_server, floor_user, director, world
):
    import schemathesis

    base = live_server.url
    schema = schemathesis.openapi.from_url(f"{base}/api/schema/")
    sessions = {
        "anonymous": _session(base, None, None),
        "floor": _session(base, "flo", "pw-floor-123"),
        # Settings, status and payouts take writes from a director only.
        "director": _session(base, "dir", "pw-director-123"),
    }
    failures: list[str] = []
    tried = {"requests": 0, "refused": 0, "operations": 0}
    entry_ids = list(world.entries.values_list("pk", flat=True))
    valid = {
        "id": [world.pk, world.pk + 1000],  # the schema calls the tournament's pk "id"
        "number": [1, 2, 3],
        "entry_id": [*entry_ids[:4], max(entry_ids) + 1000],
    }

    from schemathesis.generation import GenerationMode

    def fuzzer(operation, mode):
        documented = {str(code) for code in operation.definition.raw.get("responses", {})}

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            derandomize=True,
            suppress_health_check=list(HealthCheck),
        )
        @given(
            case=operation.as_strategy(mode), who=st.sampled_from(sorted(sessions)), data=st.data()
        )
        def fuzz(case, who, data):
            # Mostly real ids (so requests get past the look-up), sometimes the generated ones.
            for name, choices in valid.items():
                if (
                    case.path_parameters
                    and name in case.path_parameters
                    and data.draw(st.integers(0, 4))
                ):
                    case.path_parameters[name] = data.draw(st.sampled_from(choices))
            if who != "anonymous":
                # The schema's cookie and basic-auth schemes make schemathesis send made-up
                # credentials; the floor client uses its real session instead. (The anonymous
                # client keeps the made-up ones: hostile input too.)
                case.cookies = {}
                if case.headers:
                    case.headers.pop("Authorization", None)
            _spoil_one_field(case, data)
            before = Event.objects.count()
            response = case.call(session=sessions[who], base_url=base, timeout=20)
            tried["requests"] += 1
            key = f"{who}:{response.status_code}"
            tried[key] = tried.get(key, 0) + 1
            label = f"{who} {operation.method.upper()} {case.formatted_path}"
            if response.status_code >= 500:
                failures.append(f"{label}: {response.status_code} {response.text[:200]}")
                return
            if "json" in response.headers.get("Content-Type", "") and response.content:
                try:
                    json.loads(response.content)
                except ValueError:
                    failures.append(f"{label}: {response.status_code} says JSON, is not")
            if response.status_code >= 400:
                tried["refused"] += 1
                if Event.objects.count() != before:
                    failures.append(f"{label}: refused with {response.status_code} but changed")
                return
            if documented - {"default"} and str(response.status_code) not in documented:
                failures.append(f"{label}: {response.status_code} not in the schema")
            if response.status_code < 300 and isinstance(case.body, dict):
                accepted.setdefault(operation.label, []).append((who, case))

        return fuzz

    accepted: dict[str, list] = {}  # operation -> (client, case) the server took

    def spoil_accepted(operation) -> None:
        """A body the server took (generated, or the schema's own example), sent again with
        one field at a time, at any depth, holding each hostile value: the facts of a ruling
        are read only when every other fact is there."""
        taken = accepted.get(operation.label, [])[:2]
        content = (
            operation.definition.raw.get("requestBody", {})
            .get("content", {})
            .get("application/json", {})
        )
        for example in content.get("examples", {}).values():
            case = operation.Case(
                path_parameters={k: valid[k][0] for k in valid if "{" + k + "}" in operation.path},
                body=example.get("value"),
                media_type="application/json",
            )
            taken.append(("floor", case))
        for who, case in taken:
            for body in _one_field_spoiled(case.body):
                case.body = body
                case.cookies = {}
                before = Event.objects.count()
                response = case.call(session=sessions[who], base_url=base, timeout=20)
                tried["requests"] += 1
                tried["spoiled"] = tried.get("spoiled", 0) + 1
                label = f"{who} {operation.method.upper()} {case.formatted_path} {body!r:.200}"
                if response.status_code >= 500:
                    failures.append(f"{label}: {response.status_code} {response.text[:200]}")
                elif response.status_code >= 400 and Event.objects.count() != before:
                    failures.append(f"{label}: refused with {response.status_code} but changed")

    for result in schema.get_all_operations():
        tried["operations"] += 1
        operation = result.ok()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            try:
                fuzzer(operation, mode)()
            except Unsatisfiable:
                # Negative mode on an operation with nothing to break (no body, no query).
                assert mode == GenerationMode.NEGATIVE, operation.label
                tried["nothing to break"] = tried.get("nothing to break", 0) + 1
        spoil_accepted(operation)
    assert tried["operations"] >= 15
    assert not failures, "\n".join(failures[:20])
    print(tried)


def _spoil_one_field(case, data) -> None:
    """Now and then one query parameter, body field or ruling fact holds a hostile value."""
    if not data.draw(st.integers(0, 2)):
        return
    places = []
    if case.query:
        places.append(case.query)
    body = getattr(case, "body", None)
    if isinstance(body, dict):
        places.append(body)
        if isinstance(body.get("facts"), dict):
            places.append(body["facts"])
    places = [p for p in places if p]
    if not places:
        return
    where = data.draw(st.sampled_from(places))
    name = data.draw(st.sampled_from(sorted(where, key=str)))
    value = data.draw(st.sampled_from(HOSTILE))
    if where is case.query and not isinstance(value, str | int):
        value = str(value)
    where[name] = value


SPOILERS = ["²", "abc", {"a": [1]}, 2**70]


def _one_field_spoiled(body, spoilers=SPOILERS):
    """Copies of a JSON body, each with one field (at any depth) holding one hostile value."""
    import copy

    def paths(value, prefix=()):
        if isinstance(value, dict):
            for k, v in value.items():
                yield (*prefix, k)
                yield from paths(v, (*prefix, k))

    for path in list(paths(body)):
        for spoiler in spoilers:
            spoiled = copy.deepcopy(body)
            where = spoiled
            for k in path[:-1]:
                where = where[k]
            where[path[-1]] = spoiler
            yield spoiled
