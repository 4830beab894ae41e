"""German is complete: every message has a translation, none is fuzzy, placeholders match,
and the compiled catalogue is current."""

from __future__ import annotations

import re
from pathlib import Path

import polib

LOCALE = Path(__file__).resolve().parent.parent / "locale" / "de" / "LC_MESSAGES"
PLACEHOLDER = re.compile(r"%\(\w+\)[sd]")


def test_german_catalogue_is_complete_and_compiled():
    po = polib.pofile(str(LOCALE / "django.po"))
    assert not po.untranslated_entries(), [e.msgid for e in po.untranslated_entries()][:10]
    assert not po.fuzzy_entries(), [e.msgid for e in po.fuzzy_entries()][:10]
    for entry in po.translated_entries():
        if entry.msgid_plural:
            want = set(PLACEHOLDER.findall(entry.msgid_plural))
            assert set(PLACEHOLDER.findall(entry.msgstr_plural[1])) == want, entry.msgid
        else:
            want = set(PLACEHOLDER.findall(entry.msgid))
            assert set(PLACEHOLDER.findall(entry.msgstr)) == want, entry.msgid
    mo = polib.mofile(str(LOCALE / "django.mo"))
    compiled = {e.msgid: e.msgstr or e.msgstr_plural for e in mo}
    for entry in po.translated_entries():
        assert entry.msgid in compiled, f"django.mo is stale: run compilemessages ({entry.msgid})"
