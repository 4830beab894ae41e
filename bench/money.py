"""ICM time for a final table.

    python -m bench.money

Prints one JSON line: icm9_ms and icm10_ms (median of 20 exact Malmuth–Harville computations
with 9 and 10 players, rounded to the cent).
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import _calibrate
from tournament.domain.deals import propose


def median_ms(players: int, runs: int = 20) -> float:
    rng = random.Random(players)
    prizes = sorted((rng.randint(10, 500) * 100 for _ in range(players)), reverse=True)
    samples = []
    for _ in range(runs):
        stacks = [rng.randint(10, 400) * 1000 for _ in range(players)]
        t0 = time.perf_counter()
        propose("icm", stacks, prizes, unit=1)
        samples.append((time.perf_counter() - t0) * 1000)
    return round(statistics.median(samples), 2)


def main() -> None:
    print(_calibrate.line({"icm9_ms": median_ms(9), "icm10_ms": median_ms(10)}))


if __name__ == "__main__":
    main()
