"""The dealer's felt places seats from a stylesheet written out per table size (no style
attribute on the page: CSP style-src-attr 'none'); it must say what `seat_position` says."""

from __future__ import annotations

import re
from pathlib import Path

from tables.views import seat_position

FELT = Path(__file__).resolve().parents[2] / "static" / "tables" / "felt.css"


def test_every_seat_of_every_table_size_is_placed_as_the_function_says():
    found = re.findall(
        r'\.felt\[data-size="(\d+)"\] \.seat\[data-seat="(\d+)"\] \{ ([^}]*); \}',
        FELT.read_text(),
    )
    rules = {(int(size), int(seat)): style for size, seat, style in found}
    expected = {
        (size, n): seat_position(n, size) for size in range(2, 11) for n in range(1, size + 1)
    }
    assert rules == expected
