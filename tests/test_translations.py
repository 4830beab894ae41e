"""German is complete: every message has a translation, none is fuzzy, placeholders match,
and the compiled catalogue is current."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import polib
from django.core.management import call_command

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


# Where the code's messages are: the apps, the settings and the templates (tests, docs and the
# benches hold none a person reads).
SOURCES = (".py", ".html", ".txt")
SKIPPED = {".venv", ".git", "tests", "docs", "bench", "deploy", "static", "locale", "node_modules"}


def _copy_sources(root: Path, into: Path) -> None:
    for path in root.rglob("*"):
        relative = path.relative_to(root)
        if set(relative.parts) & SKIPPED or any(p.startswith(".") for p in relative.parts):
            continue
        if path.is_file() and path.suffix in SOURCES:
            target = into / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)


def test_every_message_in_the_code_is_in_the_german_catalogue(tmp_path, monkeypatch, settings):
    """makemessages over a copy of the sources, into a locale directory of its own (never the
    real one): every message it finds must be in django.po, translated and not fuzzy. A msgid
    changed in the code without its entry would otherwise show English to a German reader."""
    root = LOCALE.parent.parent.parent
    copy = tmp_path / "src"
    _copy_sources(root, copy)
    (copy / "locale").mkdir()
    monkeypatch.chdir(copy)
    settings.LOCALE_PATHS = [str(copy / "locale")]
    call_command("makemessages", locale=["de"], keep_pot=True, verbosity=0, no_obsolete=True)
    pot = polib.pofile(str(copy / "locale" / "django.pot"))
    assert len(pot) > 1000
    po = polib.pofile(str(LOCALE / "django.po"))
    done = {(e.msgctxt, e.msgid, e.msgid_plural or None) for e in po.translated_entries()}
    done -= {(e.msgctxt, e.msgid, e.msgid_plural or None) for e in po.fuzzy_entries()}
    missing = [
        f"{e.msgctxt + ' | ' if e.msgctxt else ''}{e.msgid} ({e.occurrences[0][0]})"
        for e in pot
        if (e.msgctxt, e.msgid, e.msgid_plural or None) not in done
    ]
    assert not missing, "\n".join(missing)


def _german(entry: polib.POEntry) -> str:
    return entry.msgstr + " ".join(entry.msgstr_plural.values())


def test_german_terms_are_the_catalogues_own():
    """One German word for one thing: a chip count is a "Chipcount" (never a bare "Count"),
    staff log in and out ("Login", "einloggen", "ausloggen": "anmelden" is a player's sign-up
    and registration), an entry is never an "Einsatz" (a bet), a seat is a "Sitz"."""
    po = polib.pofile(str(LOCALE / "django.po"))
    bare_count = re.compile(r"(?<![\w-])Counts?\b")
    wrong: list[str] = []
    for entry in po.translated_entries():
        german = _german(entry)
        english = entry.msgid + " " + (entry.msgid_plural or "")
        if bare_count.search(german):
            wrong.append(f"bare Count: {entry.msgid}")
        if re.search(r"\blog(?:ged)? ?(?:in|out)\b|\blogins?\b", english, re.I) and re.search(
            r"[aA]n(?:ge)?meld|[aA]b(?:ge)?meld", german
        ):
            wrong.append(f"login as Anmeldung: {entry.msgid}")
        if re.search(r"\bentr(?:y|ies)\b", english, re.I) and re.search(
            r"Einsatz|Einsätze", german
        ):
            wrong.append(f"entry as Einsatz: {entry.msgid}")
        if re.search(r"\bseat %\(\w+\)s", english) and "Platz" in german:
            wrong.append(f"seat as Platz: {entry.msgid}")
    assert not wrong, "\n".join(wrong)
