"""Showdown: who wins each pot from the board and the hands shown, and how it is split.

Hand strength comes from `phevaluator` (Apache-2.0, a C extension: about 5 µs for a seven-card
hand here, against 15 µs for `treys` and 360 µs for `pokerkit`; see docs/rules_engine.md). The
engine does not evaluate hands itself: it validates the cards, asks the library for the rank of
each hand (1 is a royal flush, 7462 the worst high card) and applies the rules:

- only hands shown in full can win (`tda-de` 13, `bdpv` showdown 1);
- every pot is awarded on its own, to the best hand among the players eligible for it
  (`tda-de` 21, `bdpv` split pot 3);
- a tie splits the pot; chips that cannot be split go as the ruleset says (`tda-de` 20,
  `bdpv` split pot 2; the dealer course: one smallest chip each) — see `pots.split_pot`;
- suits never break a tie (`bdpv` split pot 1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum

from phevaluator import evaluate_cards

from rules_engine.domain.pots import OddChips, Pot, clockwise_from_button, split_pot
from rules_engine.domain.rulesets import ruleset

RANKS = "23456789TJQKA"
SUITS = "cdhs"


class ShowdownError(ValueError):
    """Cards or pots that cannot be a showdown."""


class Category(StrEnum):
    STRAIGHT_FLUSH = "straight_flush"
    FOUR_OF_A_KIND = "four_of_a_kind"
    FULL_HOUSE = "full_house"
    FLUSH = "flush"
    STRAIGHT = "straight"
    THREE_OF_A_KIND = "three_of_a_kind"
    TWO_PAIR = "two_pair"
    ONE_PAIR = "one_pair"
    HIGH_CARD = "high_card"


# The library's rank numbers fall into the 7,462 distinct five-card hands in these blocks.
_CATEGORY_UPPER = (
    (10, Category.STRAIGHT_FLUSH),
    (166, Category.FOUR_OF_A_KIND),
    (322, Category.FULL_HOUSE),
    (1599, Category.FLUSH),
    (1609, Category.STRAIGHT),
    (2467, Category.THREE_OF_A_KIND),
    (3325, Category.TWO_PAIR),
    (6185, Category.ONE_PAIR),
    (7462, Category.HIGH_CARD),
)


def category_of(rank: int) -> Category:
    for upper, category in _CATEGORY_UPPER:
        if rank <= upper:
            return category
    raise ShowdownError(f"no hand has rank {rank}")


def card(text: str) -> str:
    """Normalise one card: "As", "td", "10h" → "As", "Td", "Th"."""
    t = text.strip()
    if t[:2] == "10":
        t = "T" + t[2:]
    if len(t) != 2 or t[0].upper() not in RANKS or t[1].lower() not in SUITS:
        raise ShowdownError(f"{text!r} is not a card (rank 2-9, T, J, Q, K, A and suit s h d c)")
    return t[0].upper() + t[1].lower()


def cards(text: str | Sequence[str]) -> tuple[str, ...]:
    """Parse "As Kd", "AsKd" or ["As", "Kd"]."""
    if isinstance(text, str):
        parts = text.replace(",", " ").split()
        if len(parts) == 1 and len(parts[0]) > 3:
            word = parts[0].replace("10", "T")
            parts = [word[i : i + 2] for i in range(0, len(word), 2)]
    else:
        parts = list(text)
    return tuple(card(p) for p in parts)


@dataclass(frozen=True)
class ShownHand:
    seat: int
    cards: tuple[str, ...]
    rank: int  # the library's rank: lower is better
    category: Category


@dataclass(frozen=True)
class PotAward:
    pot: Pot
    winners: tuple[int, ...]  # clockwise from the button
    shares: dict[int, int]
    rank: int | None  # None: nobody eligible showed, the pot is not decided here


@dataclass(frozen=True)
class Showdown:
    hands: tuple[ShownHand, ...]  # best first
    awards: tuple[PotAward, ...]
    rules: tuple[str, ...]

    def won(self) -> dict[int, int]:
        total: dict[int, int] = {}
        for award in self.awards:
            for seat, chips in award.shares.items():
                total[seat] = total.get(seat, 0) + chips
        return total


def rank_hands(board: Sequence[str], shown: Mapping[int, Sequence[str]]) -> list[ShownHand]:
    """Each shown Hold'em hand with the library's rank, best first. Board: five cards."""
    b = tuple(card(c) for c in board)
    if len(b) != 5:
        raise ShowdownError(f"the board must have five cards, not {len(b)}")
    seen: dict[str, str] = {c: "the board" for c in b}
    if len(seen) != len(b):
        raise ShowdownError("a card is on the board twice")
    out = []
    for seat, hole in shown.items():
        h = tuple(card(c) for c in hole)
        if len(h) != 2:
            raise ShowdownError(f"seat {seat} must show two cards, not {len(h)}")
        for c in h:
            if c in seen:
                raise ShowdownError(f"{c} of seat {seat} is also in {seen[c]}")
            seen[c] = f"seat {seat}"
        rank = evaluate_cards(*b, *h)
        out.append(ShownHand(seat, h, rank, category_of(rank)))
    out.sort(key=lambda x: (x.rank, x.seat))
    return out


def showdown(
    board: Sequence[str],
    shown: Mapping[int, Sequence[str]],
    pots: Sequence[Pot],
    *,
    button: int,
    table_seats: int,
    smallest_chip: int = 1,
    odd_chips: OddChips = "first",
    ruleset_id: str = "tda-de",
    version: str | None = None,
) -> Showdown:
    """Award every pot to the best shown hand(s) among its eligible players, citing the rules of
    `ruleset_id` in `version` (the newest when None)."""
    try:
        cite = ruleset(ruleset_id, version).cite
    except KeyError as exc:
        raise ShowdownError(str(exc)) from None
    if not 2 <= table_seats <= 10:
        raise ShowdownError("a table has 2 to 10 seats")
    for seat in [*shown, button]:
        if not 1 <= seat <= table_seats:
            raise ShowdownError(f"seat {seat} is not at a {table_seats}-seat table")
    if not pots:
        raise ShowdownError("there is no pot to award")
    hands = rank_hands(board, shown)
    by_seat = {h.seat: h for h in hands}
    awards = []
    for pot in pots:
        contenders = [by_seat[s] for s in pot.eligible if s in by_seat]
        if not contenders:
            awards.append(PotAward(pot, (), {}, None))
            continue
        best = min(h.rank for h in contenders)
        winners = clockwise_from_button(
            [h.seat for h in contenders if h.rank == best], button, table_seats
        )
        shares = split_pot(pot.amount, winners, smallest_chip=smallest_chip, odd_chips=odd_chips)
        awards.append(PotAward(pot, tuple(winners), shares, best))
    split = any(len(a.winners) > 1 for a in awards)
    rules = [cite["show"], cite["cards_speak"]]
    if len(pots) > 1:
        rules.append(cite["side_pots"])
    if split:
        rules.append(cite["odd_chips"])
    return Showdown(tuple(hands), tuple(awards), tuple(dict.fromkeys(rules)))
