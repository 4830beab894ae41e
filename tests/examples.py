"""How many examples a slow property test runs: fewer in every run of `floor.py test`, the
full number in the deep run.

A property test whose examples are whole tournaments played through the services (or
thousands of hands) gives most of what it finds in its first examples; its full count made it
one of the longest tests of the suite on both databases. Such a test declares both numbers,
`max_examples=examples(8, deep=25)`, with the reason beside it. The deep run,
`FLOOR_DEEP=1 python3 floor.py test` (nightly, and before a release), runs the full number;
every other run the smaller one. `floor.py test --fast` caps every test at 10 (conftest.py).

No Django here: the domain cores' tests use it too.
"""

from __future__ import annotations

import os

DEEP = os.environ.get("FLOOR_DEEP", "").lower() in {"1", "true", "yes", "on"}


def examples(every_run: int, *, deep: int) -> int:
    """`every_run` examples, or `deep` in the deep run (FLOOR_DEEP=1)."""
    return deep if DEEP else every_run
