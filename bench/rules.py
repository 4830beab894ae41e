"""Rules engine timings (pure Python, no database).

    python -m bench.rules

Prints one JSON line with medians in microseconds:
- `pots_us`: main and side pots for 10 players with 4 all-ins (and an uncalled bet);
- `hand_us`: a whole 9-player No-Limit hand through the betting state (blinds, legal options at
  every turn, raises, short all-ins, to the end).
- `interpret_us`: one silent push of several chips against a raise, interpreted (tda-de 50/47).
The showdown helper is not built yet: `showdown_us` is reported as null.
"""

from __future__ import annotations

import json
import random
import statistics
import time

from rules_engine.domain.betting import Action, Hand, Kind
from rules_engine.domain.interpret import Declared, Situation, interpret
from rules_engine.domain.pots import pots_from


def median_us(fn, runs: int) -> float:
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) * 1e6)
    return round(statistics.median(samples), 1)


def main() -> None:
    contributions = {
        1: 500,
        2: 1200,
        3: 1200,
        4: 3000,
        5: 3000,
        6: 800,
        7: 8000,
        8: 8000,
        9: 200,
        10: 9500,
    }
    folded = {6, 9}

    def pots() -> None:
        pots_from(contributions, folded)

    rng = random.Random(1)
    stacks = [(s, rng.randint(2000, 20000)) for s in range(1, 10)]

    def hand() -> None:
        h = Hand.start(stacks, button=9, small_blind=50, big_blind=100, big_blind_ante=100)
        while not h.over and h.to_act is not None:
            o = h.options()
            r = rng.random()
            if o.can_raise and r < 0.25:
                h.apply(Action(Kind.BET, rng.randint(o.min_to, o.max_to)))
            elif o.call and r < 0.45:
                h.apply(Action(Kind.FOLD))
            else:
                h.apply(Action(Kind.CALL if o.call else Kind.CHECK))
        pots_from(h.contributions(), h.folded())

    situation = Situation(1100, 0, 700, 20_000, 200)
    chips = Declared(chips=[1000, 500, 100, 25])

    def interpretation() -> None:
        interpret(situation, chips)

    print(
        json.dumps(
            {
                "pots_us": median_us(pots, 20000),
                "hand_us": median_us(hand, 2000),
                "interpret_us": median_us(interpretation, 20000),
                "showdown_us": None,
            }
        )
    )


if __name__ == "__main__":
    main()
