"""Every action the event log records, with what it records, its words and its kind.

Each app registers its own from its messages.py (live/apps.py imports them all when Django
starts): `declare_actions` what each action records, `declare_words` the history's sentence for
it (a function of the row's payload, in the reader's language), `declare_kinds` the history
filter's name for a family of actions (the part before the dot). `check_action` is called for
every row written (tournament/events.py): an undeclared action fails the change at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from live.catalogue import UndeclaredEvent

# action -> what it records (docs/architecture.md lists them)
LOG_ACTIONS: dict[str, str] = {}
# action -> the history's sentence for a payload
WORDS: dict[str, Callable[[dict[str, Any]], str]] = {}
# the part of an action before the dot -> the history filter's name for it
KINDS: dict[str, Any] = {}


def _add(registry: dict[str, Any], items: dict[str, Any], what: str) -> None:
    for key, value in items.items():
        if key in registry and registry[key] is not value and registry[key] != value:
            raise ValueError(f"{what} {key!r} is declared twice")
        registry[key] = value


def declare_actions(actions: dict[str, str]) -> None:
    """Register event-log actions (name: what it records)."""
    _add(LOG_ACTIONS, actions, "event-log action")


def declare_words(words: dict[str, Callable[[dict[str, Any]], str]]) -> None:
    """Register the history's sentence of each action."""
    _add(WORDS, words, "the words of action")


def declare_kinds(kinds: dict[str, Any]) -> None:
    """Register the history filter's name of a family of actions (a lazy translation)."""
    for prefix, name in kinds.items():
        KINDS.setdefault(prefix, name)


def check_action(action: str) -> None:
    if action not in LOG_ACTIONS:
        raise UndeclaredEvent(f"event-log action {action!r} is not declared")
