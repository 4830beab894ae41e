"""Who shows first at the showdown, and which hands are turned face up at once.

Input: the seats still holding cards when the betting is over, the button, the table size, the
seat that made the last bet or raise on the last betting round (None when nobody bet on it) and
the seats that are all-in. Output: a `ShowOrder` — every seat in the order the dealer asks them
to show, the hands that go face up at once whatever that order, and the rules it rests on.

- `tda-de` 17: without an all-in, the last player to bet or raise on the final betting round
  shows first; with no bet on that round, the player who would act first in a betting round —
  the first one left of the button — shows first. The others follow clockwise.
- `tda-de` 16: once someone is all-in and the betting is over, every hand still in is turned
  face up; nobody may muck unseen.
- `bdpv` 2.5.5: with a bet on the last round, the last bettor or raiser shows first. For a round
  without a bet the BDPV book sets no order: the floor decides (`bdpv` 1.1.1); Floor suggests
  the betting order, as `tda-de` 17 does.
- `bdpv` 6.27: all hands go face up when all players, or all but one, are all-in; with two or
  more players who still had chips, the order above applies to every hand.

Where the books differ is a parameter of the ruleset (`all_in_show`, `show_order_without_bet`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from enum import StrEnum

from rules_engine.domain.pots import clockwise_from_button
from rules_engine.domain.rulesets import ruleset


class ShowOrderError(ValueError):
    """Seats that cannot be a showdown."""


class FirstBecause(StrEnum):
    LAST_AGGRESSOR = "last_aggressor"  # made the last bet or raise on the last round
    FIRST_LEFT_OF_BUTTON = "first_left_of_button"  # nobody bet on the last round


@dataclass(frozen=True)
class ShowOrder:
    order: tuple[int, ...]  # every seat in the hand, in the order they are asked to show
    first_because: FirstBecause
    face_up: tuple[int, ...]  # turned face up at once, whatever the order (all-in); clockwise
    floor_sets_order: bool  # the book names no order here: `order` is a suggestion
    rules: tuple[str, ...]

    @property
    def first(self) -> int:
        return self.order[0]

    @property
    def all_face_up(self) -> bool:
        return len(self.face_up) == len(self.order)


def show_order(
    seats: Collection[int],
    *,
    button: int,
    table_seats: int,
    aggressor: int | None = None,
    all_in: Collection[int] = (),
    ruleset_id: str = "tda-de",
    version: str | None = None,
) -> ShowOrder:
    """The showing order for a showdown (tda-de 16-17, bdpv 2.5.5, 6.27). `seats`: the players
    still in the hand; `aggressor`: the last bet or raise on the last betting round, or None;
    `all_in`: the seats among them that are all-in. A dead button (an empty seat) is fine.
    `version`: the ruleset's version in force (the newest when None)."""
    try:
        rs = ruleset(ruleset_id, version)
    except KeyError as exc:
        raise ShowOrderError(str(exc)) from None
    in_hand = _check(seats, button=button, table_seats=table_seats)
    if aggressor is not None and aggressor not in in_hand:
        raise ShowOrderError(f"seat {aggressor} made the last bet but is not in the hand")
    all_in_seats = set(all_in)
    outside = sorted(all_in_seats - in_hand)
    if outside:
        raise ShowOrderError(f"seat {outside[0]} is all-in but not in the hand")

    clockwise = clockwise_from_button(in_hand, button, table_seats)
    if aggressor is not None:
        # tda-de 17, bdpv 2.5.5: the last aggressor first, then on clockwise.
        at = clockwise.index(aggressor)
        order = clockwise[at:] + clockwise[:at]
        because = FirstBecause.LAST_AGGRESSOR
        floor_sets = False
        order_rule = rs.cite["show_order"]
    else:
        order = clockwise
        because = FirstBecause.FIRST_LEFT_OF_BUTTON
        floor_sets = rs.show_order_without_bet == "floor"
        order_rule = rs.cite["show_order_without_bet"]

    if _all_face_up(rs.all_in_show, in_hand, all_in_seats):
        # tda-de 16, bdpv 6.27: every hand is shown; the order only says where to start.
        return ShowOrder(tuple(order), because, tuple(clockwise), False, (rs.cite["all_in_show"],))
    return ShowOrder(tuple(order), because, (), floor_sets, (order_rule, rs.cite["show"]))


def _all_face_up(mode: str, in_hand: set[int], all_in: set[int]) -> bool:
    if not all_in:
        return False
    if mode == "any_all_in":
        return True
    if mode == "no_betting_left":
        return len(in_hand - all_in) <= 1
    raise ShowOrderError(f"unknown all-in showdown mode {mode!r}")


def _check(seats: Collection[int], *, button: int, table_seats: int) -> set[int]:
    if not 2 <= table_seats <= 10:
        raise ShowOrderError("a table has 2 to 10 seats")
    if not 1 <= button <= table_seats:
        raise ShowOrderError(f"the button (seat {button}) is not at a {table_seats}-seat table")
    in_hand = set(seats)
    if len(in_hand) != len(list(seats)):
        raise ShowOrderError("a seat is listed twice")
    for seat in sorted(in_hand):
        if not 1 <= seat <= table_seats:
            raise ShowOrderError(f"seat {seat} is not at a {table_seats}-seat table")
    if len(in_hand) < 2:
        raise ShowOrderError("a showdown needs two or more hands; one hand left wins unshown")
    return in_hand
