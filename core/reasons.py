"""A pure domain's reason for a refusal, in the reader's language.

The domain cores (`*/domain/`) import no framework, so their errors say why in English. A page
that shows one puts it in a sentence of its own ("The button cannot go there: %(reason)s"); the
reason is looked up here: a fixed text by its words, a text with figures by a pattern whose
named groups fill the translation. A reason not listed stays as it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any


def reason_text(
    exc: Exception,
    words: Mapping[str, Any],
    patterns: Sequence[tuple[re.Pattern[str], Any]] = (),
) -> str:
    text = str(exc)
    if text in words:
        return str(words[text])
    for pattern, message in patterns:
        found = pattern.fullmatch(text)
        if found:
            return str(message) % found.groupdict()
    return text
