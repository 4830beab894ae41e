"""What the imports say in the event log (registered with eventlog/catalogue.py)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from eventlog.catalogue import declare_actions, declare_kinds, declare_words

declare_actions(
    {
        "import.td3": "a tournament was imported from a file of The Tournament Director (file, TD3 version, its UUID, players, entries, people found by their TD3 id, people matched by the director, people added, and each bust: entry number, place, TD3 level, instant, the hitmen's entry numbers)",
    }
)


def _td3(p: dict[str, Any]) -> str:
    return _(
        "Imported from The Tournament Director's file %(file)s (TD3 %(version)s): "
        "%(players)s players, %(entries)s entries"
    ) % {
        "file": p.get("file", "?"),
        "version": p.get("version", "?"),
        "players": p.get("players", "?"),
        "entries": p.get("entries", "?"),
    }


declare_words({"import.td3": lambda p: _td3(p)})

declare_kinds({"import": gettext_lazy("Imports from other programs")})
