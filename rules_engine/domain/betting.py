"""No-Limit betting for one hand: blinds and antes, whose turn it is, what they may do, how much
a call costs, the minimum bet and raise, and whether a short all-in reopens the betting.

Pure Python, no framework. Amounts are chips. The game is No-Limit Hold'em; the structure (a
list of seats in clockwise order, streets, a betting round that ends when everybody still able to
act has matched the bet) is what another game would reuse.

The rules, in short:

- The first bet of a round is at least the big blind; a raise adds at least as much as the
  largest bet or raise before it in the same round (`tda-de` 47, `bdpv` No-Limit 2).
- A player may always go all-in for less. Such an all-in that is less than a full raise does
  not change the minimum raise, and it does not reopen the betting for a player who has already
  acted and now faces less than a full raise in total (`tda-de` 48, `bdpv` No-Limit 3). Several
  short all-ins that together make a full raise do reopen it.
- Heads-up the button posts the small blind and acts first before the flop, last after it
  (`tda-de` 34).
- With a big-blind ante, the big blind's chips go to the blind first and the ante second; the
  ante is dead money and does not count towards calling (`tda-de` 2024 practice; a setting).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum


class BettingError(ValueError):
    """An action or a state that is not possible. `code` names the problem for translation."""

    def __init__(self, message: str, code: str) -> None:
        super().__init__(message)
        self.code = code


class Street(StrEnum):
    PREFLOP = "preflop"
    FLOP = "flop"
    TURN = "turn"
    RIVER = "river"
    SHOWDOWN = "showdown"


NEXT_STREET = {
    Street.PREFLOP: Street.FLOP,
    Street.FLOP: Street.TURN,
    Street.TURN: Street.RIVER,
    Street.RIVER: Street.SHOWDOWN,
}


class Kind(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"  # bet or raise: `amount` is the total the player has in front this round
    ALL_IN = "all_in"


@dataclass(frozen=True)
class Action:
    kind: Kind
    amount: int = 0  # for BET: the total this round ("raise to")


@dataclass
class PlayerState:
    seat: int
    stack: int  # chips behind
    bet: int = 0  # in front of the player this round
    total: int = 0  # put in over the whole hand (antes and blinds included)
    folded: bool = False
    acted: bool = False  # has acted in this round
    faced: int = 0  # the bet the player matched or made when they last acted
    raise_when_acted: int = 0  # the full-raise size in force when they last acted

    @property
    def all_in(self) -> bool:
        return self.stack == 0 and not self.folded

    @property
    def can_act(self) -> bool:
        return not self.folded and self.stack > 0


@dataclass(frozen=True)
class Options:
    """What the player to act may do."""

    seat: int
    can_check: bool
    call: int  # chips it costs to call (0 when a check is possible)
    can_raise: bool  # bet or raise (a full one, or all-in for less)
    min_to: int  # the smallest total this round for a bet or raise (all-in may be less)
    max_to: int  # everything the player has (No-Limit)
    reopened: bool  # False: a player who acted faces only a short all-in and may just call


@dataclass
class Hand:
    """One hand of No-Limit. Create it with `Hand.start`, then `apply` actions in turn."""

    players: list[PlayerState]  # clockwise by seat
    button: int
    big_blind: int
    street: Street = Street.PREFLOP
    current_bet: int = 0
    last_raise: int = 0  # size of the last full bet or raise this round
    to_act: int | None = None  # index into players
    history: list[tuple[Street, int, Action]] = field(default_factory=list)

    # --- setting up --------------------------------------------------------------------

    @classmethod
    def start(
        cls,
        stacks: Sequence[tuple[int, int]],
        *,
        button: int,
        small_blind: int,
        big_blind: int,
        ante: int = 0,
        big_blind_ante: int = 0,
        small_blind_seat: int | None = None,
        big_blind_seat: int | None = None,
    ) -> Hand:
        """Seat the players (`(seat, stack)` pairs), post antes and blinds, and find who acts
        first. Without explicit blind seats the blinds are the next players after the button
        (heads-up: the button is the small blind). A dead small blind is `small_blind_seat=0`."""
        if len(stacks) < 2:
            raise BettingError("a hand needs at least two players", "players")
        seats = [s for s, _ in stacks]
        if len(set(seats)) != len(seats):
            raise BettingError("a seat is listed twice", "seats")
        if any(st < 0 for _, st in stacks) or all(st == 0 for _, st in stacks):
            raise BettingError("stacks must not be negative and someone must have chips", "stack")
        if min(small_blind, big_blind, ante, big_blind_ante) < 0 or big_blind <= 0:
            raise BettingError("blinds and antes must be positive amounts", "blinds")
        players = [PlayerState(seat=s, stack=st) for s, st in sorted(stacks)]
        hand = cls(players=players, button=button, big_blind=big_blind)
        order = hand._clockwise_from(button)
        if big_blind_seat is None:
            if len(players) == 2:
                sb_i, bb_i = hand._index(button), order[0]
            else:
                sb_i, bb_i = order[0], order[1]
        else:
            bb_i = hand._index(big_blind_seat)
            sb_i = hand._index(small_blind_seat) if small_blind_seat else -1
        for p in players:
            if ante:
                hand._post(p, ante, dead=True)
        bb = players[bb_i]
        if sb_i >= 0:
            hand._post(players[sb_i], small_blind, dead=False)
        hand._post(bb, big_blind, dead=False)
        if big_blind_ante:
            hand._post(bb, big_blind_ante, dead=True)
        # Everyone owes the full big blind, even when the big blind is short and all-in.
        hand.current_bet = max(big_blind, *(p.bet for p in players))
        hand.last_raise = big_blind
        # First to act before the flop: the player after the big blind.
        hand.to_act = hand._next_to_act(bb_i)
        if hand._round_over():
            hand._close_round()
        return hand

    def _post(self, p: PlayerState, amount: int, *, dead: bool) -> None:
        paid = min(amount, p.stack)
        p.stack -= paid
        p.total += paid
        if not dead:
            p.bet += paid

    # --- seats -------------------------------------------------------------------------

    def _index(self, seat: int) -> int:
        for i, p in enumerate(self.players):
            if p.seat == seat:
                return i
        raise BettingError(f"nobody sits in seat {seat}", "seat")

    def _clockwise_from(self, seat: int) -> list[int]:
        """Indexes of the players after `seat`, clockwise (seat itself last if seated)."""
        n = len(self.players)
        start = next((i for i, p in enumerate(self.players) if p.seat > seat), 0)
        return [(start + k) % n for k in range(n)]

    def _next_to_act(self, after: int) -> int | None:
        n = len(self.players)
        for k in range(1, n + 1):
            p = self.players[(after + k) % n]
            if p.can_act and not self._done(p) and self._has_decision(p):
                return (after + k) % n
        return None

    def _has_decision(self, p: PlayerState) -> bool:
        """A player with nothing to call and nobody left who could answer a raise has no
        decision to make (e.g. the big blind when everyone else is all-in)."""
        if p.bet < self.current_bet:
            return True
        return any(q.can_act for q in self.players if q is not p)

    def _done(self, p: PlayerState) -> bool:
        return p.acted and p.bet == self.current_bet

    # --- what may the player do --------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.street == Street.SHOWDOWN or len(self.live) <= 1

    @property
    def live(self) -> list[PlayerState]:
        return [p for p in self.players if not p.folded]

    def options(self) -> Options:
        if self.to_act is None or self.over:
            raise BettingError("nobody is to act: the betting is over", "over")
        p = self.players[self.to_act]
        call = min(self.current_bet - p.bet, p.stack)
        reopened = (not p.acted) or (self.current_bet - p.faced >= p.raise_when_acted)
        # A raise needs an opponent who can match more than the current bet (all above what
        # anyone can match comes back as uncalled; the player may still push it all in).
        others_max = max(q.bet + q.stack for q in self.players if q is not p and not q.folded)
        max_to = p.bet + p.stack
        can_raise = reopened and min(max_to, others_max) > self.current_bet
        min_to = self.current_bet + self.last_raise
        return Options(
            seat=p.seat,
            can_check=self.current_bet == p.bet,
            call=call,
            can_raise=can_raise,
            min_to=min(min_to, max_to, others_max),
            max_to=max_to,
            reopened=reopened,
        )

    # --- acting ------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        o = self.options()
        assert self.to_act is not None
        i = self.to_act
        p = self.players[i]
        kind = action.kind
        if kind == Kind.ALL_IN:
            if o.can_raise:
                kind, amount = Kind.BET, o.max_to
            else:
                kind, amount = Kind.CALL, 0
        else:
            amount = action.amount
        if kind == Kind.FOLD:
            p.folded = True
        elif kind == Kind.CHECK:
            if not o.can_check:
                raise BettingError(f"seat {p.seat} cannot check: {o.call} to call", "check")
        elif kind == Kind.CALL:
            if o.call == 0:
                raise BettingError(f"seat {p.seat} has nothing to call", "call")
            self._put(p, o.call)
        elif kind == Kind.BET:
            if not o.can_raise:
                raise BettingError(f"seat {p.seat} may not raise now", "raise")
            if amount > o.max_to:
                raise BettingError(f"seat {p.seat} has only {o.max_to} in all", "amount")
            if amount < o.min_to and amount != o.max_to:
                raise BettingError(f"the bet or raise must be to at least {o.min_to}", "amount")
            if amount - self.current_bet >= self.last_raise:  # a full bet or raise
                self.last_raise = amount - self.current_bet
            self._put(p, amount - p.bet)
            self.current_bet = max(self.current_bet, amount)
        else:  # pragma: no cover - the enum is closed
            raise BettingError(f"unknown action {kind}", "action")
        p.acted = True
        p.faced = self.current_bet
        p.raise_when_acted = self.last_raise
        self.history.append((self.street, p.seat, Action(kind, amount if kind == Kind.BET else 0)))
        self.to_act = self._next_to_act(i)
        if self._round_over():
            self._close_round()

    def _put(self, p: PlayerState, chips: int) -> None:
        p.stack -= chips
        p.bet += chips
        p.total += chips

    def _round_over(self) -> bool:
        if len(self.live) <= 1:
            return True
        return self.to_act is None

    def _close_round(self) -> None:
        """Bets go to the pot; the next street starts left of the button, unless fewer than
        two players can still bet (then the board is dealt out to the showdown)."""
        self.to_act = None
        if len(self.live) <= 1:
            return
        for p in self.players:
            p.bet = 0
            p.acted = False
            p.faced = 0
            p.raise_when_acted = 0
        self.current_bet = 0
        self.last_raise = self.big_blind
        can_bet = [p for p in self.players if p.can_act]
        if len(can_bet) < 2:
            self.street = Street.SHOWDOWN
            return
        self.street = NEXT_STREET[self.street]
        if self.street == Street.SHOWDOWN:
            return
        # Heads-up the button acts last after the flop: start after the button in all cases.
        order = self._clockwise_from(self.button)
        self.to_act = next((i for i in order if self.players[i].can_act), None)

    # --- reading -----------------------------------------------------------------------

    def contributions(self) -> dict[int, int]:
        return {p.seat: p.total for p in self.players}

    def folded(self) -> set[int]:
        return {p.seat for p in self.players if p.folded}

    def last_aggressor(self) -> int | None:
        """The seat that made the last bet or raise (an all-in raise included) on the last
        betting round played, or None when nobody bet on it: who shows first (tda-de 17,
        bdpv 2.5.5, see `show_order`). Posted blinds are no bet."""
        if not self.history:
            return None
        last_round = self.history[-1][0]
        for street, seat, action in reversed(self.history):
            if street != last_round:
                break
            if action.kind == Kind.BET:
                return seat
        return None
