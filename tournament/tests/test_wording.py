"""German that reads right: dates in the reader's form, event-log lines in words."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from django.template import Context, Template
from django.utils import translation

from eventlog.catalogue import KINDS as ACTION_NAMES
from eventlog.catalogue import WORDS as SENTENCES
from eventlog.words import action_groups

ROOT = Path(__file__).resolve().parents[2]
EVENING = datetime(2026, 11, 24, 21, 40, tzinfo=ZoneInfo("Europe/Berlin"))


@pytest.mark.parametrize(
    ("pattern", "de", "en"),
    [
        ("D j M Y, H:i", "Di., 24. Nov. 2026, 21:40", "Tue 24 Nov 2026, 21:40"),
        ("j M", "24. Nov.", "24 Nov"),
        ("j M Y", "24. Nov. 2026", "24 Nov 2026"),
        ("D H:i", "Di., 21:40", "Tue 21:40"),
    ],
)
def test_dates_read_as_each_language_writes_them(settings, pattern, de, en):
    settings.TIME_ZONE = "Europe/Berlin"
    template = Template('{% load floor %}{{ at|when:"' + pattern + '" }}')
    for language, expected in (("de", de), ("en", en)):
        with translation.override(language):
            assert template.render(Context({"at": EVENING})) == expected


def _actions_in_code() -> set[str]:
    found: set[str] = set()
    for path in ROOT.glob("*/**/*.py"):
        if ".venv" in path.parts or "tests" in path.parts or "migrations" in path.parts:
            continue
        found |= set(re.findall(r'action="([a-z_0-9]+\.[a-z_0-9]+)"', path.read_text()))
    return found


def test_every_action_the_code_records_has_a_sentence_and_a_filter_name():
    actions = _actions_in_code()
    assert len(actions) > 30
    assert actions - set(SENTENCES) == set()
    assert {a.split(".")[0] for a in actions} - set(ACTION_NAMES) == set()


def test_history_filter_names_kinds_in_words():
    with translation.override("de"):
        groups = dict(action_groups(["entry.bust", "entry.register", "clock.start"]))
    assert groups == {"entry.": "Anmeldungen und Ausscheiden", "clock.": "Uhr"}


def test_a_deal_refused_by_its_domain_says_why_in_german():
    from tournament.domain.deals import DealError
    from tournament.services.deals import _deal_error

    with translation.override("de"):
        assert _deal_error(DealError("a stack cannot be negative"), "EUR") == (
            "Der Deal geht nicht auf: ein Stack kann nicht negativ sein."
        )
        assert _deal_error(
            DealError("stacks", "stacks_sum", stacks=105010, chips=100000), "EUR"
        ) == (
            "Der Deal geht nicht auf: Die Stacks ergeben 105.010 Chips, im Spiel sind aber 100.000."
        )
