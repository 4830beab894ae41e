"""Pairing a screen, telling it what to show, and what it is sent (displays/services.py)."""

from __future__ import annotations

import pytest

from core.errors import FloorError
from displays.domain.views import Kind, Layout, Step
from displays.models import Display, token_hash
from displays.selectors import display_rows
from displays.services import (
    MAX_UNPAIRED,
    display_assign,
    display_open,
    display_pair,
    display_remove,
    display_rename,
)
from live.catalogue import check_message
from live.realtime import display_group
from tournament.models import Event

pytestmark = pytest.mark.django_db


def test_a_new_screen_gets_a_code_and_a_token_kept_only_as_its_hash():
    display, token = display_open()
    assert len(display.code) == 6 and not display.paired
    assert display.token_hash == token_hash(token) != token
    other, _ = display_open()
    assert other.code != display.code


def test_pairing_by_code_names_the_screen_and_tells_it(
    actor, sent, django_capture_on_commit_callbacks
):
    display, _token = display_open()
    with django_capture_on_commit_callbacks(execute=True):
        paired = display_pair(
            code=f" {display.code[:3].lower()}-{display.code[3:]} ", name="  Bar  ", actor=actor
        )
    assert paired.paired and paired.name == "Bar" and paired.code == ""
    [(group, event, data)] = sent
    assert (group, event) == (display_group(display.pk), "assignment")
    assert data == {"display": display.pk, "name": "Bar", "paired": True, "version": 1, "views": []}
    assert Event.objects.filter(action="display.pair", payload__name="Bar").exists()
    # The code is used up.
    with pytest.raises(FloorError, match="No screen shows"):
        display_pair(code=display.code, name="Again", actor=actor)


def test_a_wrong_code_or_no_name_is_refused(actor):
    display, _token = display_open()
    with pytest.raises(FloorError, match="No screen shows"):
        display_pair(code="ZZZZZZ", name="Bar", actor=actor)
    with pytest.raises(FloorError, match="name"):
        display_pair(code=display.code, name="  ", actor=actor)
    assert not Display.objects.get(pk=display.pk).paired


def test_assigning_a_rotation_reaches_the_screen_after_the_commit(
    make_tournament, actor, sent, django_capture_on_commit_callbacks
):
    t = make_tournament(status="running")
    display, _token = display_open()
    display = display_pair(code=display.code, name="Bar", actor=actor)
    steps = [
        Step(Kind.CLOCK, tournament=t.pk, layout=Layout.PORTRAIT, seconds=30),
        Step(Kind.SEATING, tournament=t.pk, seconds=15),
        Step(Kind.SLIDE, title="Happy hour", text="Drinks half price until 9", seconds=10),
    ]
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        display_assign(display_id=display.pk, steps=steps, actor=actor)
        assert not sent  # nothing leaves before the commit
    assert len(callbacks) == 1
    [(_group, event, data)] = sent
    assert event == "assignment" and data["version"] == 2
    assert [v["kind"] for v in data["views"]] == ["clock", "seating", "slide"]
    assert [v["seconds"] for v in data["views"]] == [30, 15, 10]
    assert data["views"][0]["url"] == "/display/view/0/?v=2"
    check_message(display_group(display.pk), "assignment", data)
    stored = Display.objects.get(pk=display.pk)
    assert stored.steps[0] == {
        "kind": "clock",
        "seconds": 30,
        "tournament": t.pk,
        "layout": "portrait",
        "figures": ["players", "average", "break", "pool"],
        "sound": False,
    }
    assert Event.objects.filter(action="display.assign", payload__tournaments=[t.pk]).exists()


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        ([], "at least one view"),
        ([Step(Kind.SLIDE, title="<b>Bar</b>")], "plain text"),
        (
            [Step(Kind.CLOCK, tournament=1, seconds=3), Step(Kind.SLIDE, title="x")],
            "between 5 and 600",
        ),
        ([Step(Kind.CLOCK, tournament=987654)], "no longer exists"),
        ([Step(Kind.STANDINGS, season=987654)], "public league"),
    ],
)
def test_what_cannot_be_shown_is_refused_and_the_screen_keeps_its_view(
    make_tournament, actor, sent, django_capture_on_commit_callbacks, steps, message
):
    t = make_tournament()
    display, _token = display_open()
    display = display_pair(code=display.code, name="Bar", actor=actor)
    display_assign(display_id=display.pk, steps=[Step(Kind.PAYOUTS, tournament=t.pk)], actor=actor)
    before = Display.objects.get(pk=display.pk)
    with django_capture_on_commit_callbacks(execute=True), pytest.raises(FloorError, match=message):
        display_assign(display_id=display.pk, steps=steps, actor=actor)
    after = Display.objects.get(pk=display.pk)
    assert (after.steps, after.version) == (before.steps, before.version)
    assert not sent


def test_a_deleted_tournament_is_a_problem_in_the_console(make_tournament, actor):
    t = make_tournament()
    display, _token = display_open()
    display = display_pair(code=display.code, name="Bar", actor=actor)
    display_assign(display_id=display.pk, steps=[Step(Kind.CLOCK, tournament=t.pk)], actor=actor)
    [row] = display_rows([Display.objects.get(pk=display.pk)])
    assert row.problems == [] and "Test Cup" in row.lines[0].label
    gone = t.pk
    t.delete()
    [row] = display_rows([Display.objects.get(pk=display.pk)])
    assert len(row.problems) == 1 and "is gone" in row.problems[0]
    # The screen's assignment is kept: it keeps showing its last good view.
    assert Display.objects.get(pk=display.pk).steps[0]["tournament"] == gone


def test_rename_and_remove(actor, sent, django_capture_on_commit_callbacks):
    display, _token = display_open()
    display = display_pair(code=display.code, name="Bar", actor=actor)
    with django_capture_on_commit_callbacks(execute=True):
        display_rename(display_id=display.pk, name="Lounge", actor=actor)
        display_remove(display_id=display.pk, actor=actor)
    assert [e for _g, e, _d in sent] == ["assignment", "removed"]
    assert sent[0][2]["name"] == "Lounge"
    assert not Display.objects.filter(pk=display.pk).exists()
    assert Event.objects.filter(action="display.remove", payload__name="Lounge").exists()


def test_an_unpaired_screen_cannot_be_assigned(actor):
    display, _token = display_open()
    with pytest.raises(FloorError, match="Pair"):
        display_assign(display_id=display.pk, steps=[Step(Kind.SLIDE, title="x")], actor=actor)


def test_too_many_waiting_screens_are_refused(monkeypatch):
    from displays import services

    monkeypatch.setattr(services, "MAX_UNPAIRED", 2)
    display_open()
    display_open()
    with pytest.raises(FloorError, match="Too many"):
        display_open()
    assert MAX_UNPAIRED > 2
