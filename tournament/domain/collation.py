"""People in alphabetical order as a German reader expects it (DIN 5007, variant 1).

Ä sorts with A, Ö with O, Ü with U, ß as ss; accents (é), then case, only decide between
names that are otherwise the same: Anna, Ärne, Bernd, Émile, Max, Olaf, Ömer, Straße, Ulla, Zoe
(code-point order puts Ärne and Ömer after Zoe). Every list of people by name (seating lists,
the alphabetical seat list, players, results and standings where places are shared, the CSV
exports that follow them) sorts with `name_key`, or with `by_name`, from here and nowhere else.

The key is the Unicode Collation Algorithm's (DUCET, the root order that German shares) from
**pyuca**: pure Python, a pinned wheel that installs wherever Python 3.11 does. PyICU would do
the same faster, but it has no wheel on PyPI (it builds against the system's ICU headers, which
neither the slim Docker image nor a laptop install has), so it is not used. pyuca builds its
table once per process (about 2 s on the shared 2-core machine; `config.warmup` starts that in
the background when a process starts) and a key takes some 0.2 ms, so keys are cached per name.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Protocol, TypeVar

T = TypeVar("T")


class _Collator(Protocol):
    def sort_key(self, string: str) -> tuple[int, ...]: ...


_lock = threading.Lock()
_loaded: list[_Collator] = []


def collator() -> _Collator:
    """The process's collator, built on first use (once, whichever thread asks first)."""
    if not _loaded:
        with _lock:
            if not _loaded:
                from pyuca import Collator  # inside: heavy, loaded with the table on first use

                built: _Collator = Collator()
                _loaded.append(built)
    return _loaded[0]


@lru_cache(maxsize=65_536)
def name_key(name: str) -> tuple[int, ...]:
    """The sort key of a person's name in German order; runs of white space count as one
    space, and a name that is otherwise equal sorts by its accents, then its case."""
    return tuple(collator().sort_key(" ".join(str(name).split())))


def by_name(items: Iterable[T], name: Callable[[T], str]) -> list[T]:
    """`items` in German order of `name(item)`. The sort is stable: items of the same name keep
    the order they came in (give them by number to break ties by number)."""
    return sorted(items, key=lambda item: name_key(name(item)))
