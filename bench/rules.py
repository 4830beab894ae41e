"""Rules engine timings (pure Python, no database).

    python -m bench.rules

Prints one JSON line with medians in microseconds:
- `pots_us`: main and side pots for 10 players with 4 all-ins (and an uncalled bet);
- `hand_us`: a whole 9-player No-Limit hand through the betting state (blinds, legal options at
  every turn, raises, short all-ins, to the end).
- `interpret_us`: one silent push of several chips against a raise, interpreted (tda-de 50/47).
- `showdown_us`: one pot awarded among 9 shown hands (validating the cards, ranking the nine
  seven-card hands with phevaluator, splitting with odd chips), per pot.
- `showdown_3pots_us`: the same nine hands with a main pot and two side pots.
"""

from __future__ import annotations

import random
import statistics
import time

from bench import _calibrate
from rules_engine.domain.betting import Action, Hand, Kind
from rules_engine.domain.interpret import Declared, Situation, interpret
from rules_engine.domain.pots import Pot, pots_from
from rules_engine.domain.showdown import showdown


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

    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    deals = []
    for _ in range(200):
        cards = rng.sample(deck, 23)
        deals.append(
            (cards[:5], {seat: cards[5 + 2 * i : 7 + 2 * i] for i, seat in enumerate(range(1, 10))})
        )
    one_pot = [Pot(90_000, frozenset(range(1, 10)))]
    three = pots_from(
        {1: 500, 2: 2000, 3: 2000, 4: 9000, 5: 9000, 6: 9000, 7: 9000, 8: 9000, 9: 9000}
    ).pots
    state = {"i": 0}

    def one() -> None:
        board, hands = deals[state["i"] % len(deals)]
        state["i"] += 1
        showdown(board, hands, one_pot, button=9, table_seats=9, smallest_chip=25)

    def several() -> None:
        board, hands = deals[state["i"] % len(deals)]
        state["i"] += 1
        showdown(board, hands, three, button=9, table_seats=9, smallest_chip=25)

    print(
        _calibrate.line(
            {
                "pots_us": median_us(pots, 20000),
                "hand_us": median_us(hand, 2000),
                "interpret_us": median_us(interpretation, 20000),
                "showdown_us": median_us(one, 20000),
                "showdown_3pots_us": median_us(several, 20000),
            }
        )
    )


if __name__ == "__main__":
    main()
