"""The shot clock of a table and the players' time-bank cards, without the database.

A shot clock gives the player whose turn it is a fixed number of seconds per decision; a
time-bank card adds its seconds to the running clock. Neither rulebook has one (the called clock
of tda-de 29 and bdpv NL 12 is a different thing and works beside it): the seconds, the cards
and when they come back are settings of the tournament.

Times are whole milliseconds since the epoch (the server's clock); the tablet counts down from
the same instants, so a reload shows the same second.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

# The tablet warns this many seconds before the end.
WARN_SECONDS = 10


class ShotClockRefused(Exception):
    """An action the shot clock does not allow; `reason` names it (see the subclasses)."""

    reason = "refused"


class NotRunning(ShotClockRefused):
    reason = "not_running"


class TimeIsUp(ShotClockRefused):
    reason = "time_up"


class NoCardsLeft(ShotClockRefused):
    reason = "no_cards"


class Phase(StrEnum):
    IDLE = "idle"
    RUNNING = "running"
    WARNING = "warning"  # WARN_SECONDS or fewer left
    TIME_UP = "time_up"


@dataclass(frozen=True)
class TimeBankRules:
    """What the tournament set: seconds per decision, cards per player and their length."""

    seconds: int
    cards: int
    card_seconds: int


@dataclass(frozen=True)
class ShotClock:
    """One table's shot clock. `started_ms` None: idle (no decision being timed).

    `seconds` is the time of this decision, time-bank cards included; `seat` the player the
    last card was used for (None: nobody named); `cards_used` the cards used on this decision.
    """

    started_ms: int | None = None
    seconds: int = 0
    seat: int | None = None
    cards_used: int = 0

    @property
    def running(self) -> bool:
        return self.started_ms is not None

    @property
    def ends_ms(self) -> int | None:
        if self.started_ms is None:
            return None
        return self.started_ms + self.seconds * 1000


def start(rules: TimeBankRules, now_ms: int) -> ShotClock:
    """A new decision: the full seconds from `now_ms`. The same whether the clock was idle,
    running or out of time (the dealer's "next decision")."""
    return ShotClock(started_ms=now_ms, seconds=rules.seconds)


def stop() -> ShotClock:
    """No decision is being timed (between hands, a pause at the table)."""
    return ShotClock()


def remaining_ms(clock: ShotClock, now_ms: int) -> int | None:
    """Milliseconds left of the decision (never below 0); None when idle."""
    ends = clock.ends_ms
    if ends is None:
        return None
    return max(0, ends - now_ms)


def seconds_shown(clock: ShotClock, now_ms: int) -> int | None:
    """The whole seconds the tablet shows: rounded up, so 0 means the time is up."""
    left = remaining_ms(clock, now_ms)
    if left is None:
        return None
    return -(-left // 1000)


def phase(clock: ShotClock, now_ms: int, warn_seconds: int = WARN_SECONDS) -> Phase:
    left = remaining_ms(clock, now_ms)
    if left is None:
        return Phase.IDLE
    if left == 0:
        return Phase.TIME_UP
    if left <= warn_seconds * 1000:
        return Phase.WARNING
    return Phase.RUNNING


def cards_left(rules: TimeBankRules, used: int) -> int:
    """A player's cards still to use (never below 0, also after the setting was lowered)."""
    return max(0, rules.cards - used)


def use_card(
    clock: ShotClock, rules: TimeBankRules, *, used: int, seat: int | None, now_ms: int
) -> ShotClock:
    """A player at `seat` who has used `used` cards since the last reset plays one: its seconds
    are added to the running clock. Refused when the clock is idle (`NotRunning`), when the
    time is up already (`TimeIsUp`: a card is played before the clock runs out) and when the
    player has none left (`NoCardsLeft`). The caller adds one to the player's count."""
    if not clock.running:
        raise NotRunning
    if remaining_ms(clock, now_ms) == 0:
        raise TimeIsUp
    if cards_left(rules, used) <= 0:
        raise NoCardsLeft
    return replace(
        clock,
        seconds=clock.seconds + rules.card_seconds,
        seat=seat,
        cards_used=clock.cards_used + 1,
    )


class ResetAt(StrEnum):
    """When the cards come back (the tournament's `time_bank_reset`)."""

    DAY_AND_FINAL_TABLE = "day_and_final_table"
    DAY = "day"
    FINAL_TABLE = "final_table"
    NEVER = "never"


def resets_on(setting: str, occasion: str) -> bool:
    """Whether the cards come back on `occasion` ("day": a director starts a new day;
    "final_table": the final table is drawn) under the tournament's setting."""
    try:
        at = ResetAt(setting)
    except ValueError:
        return False
    if occasion == "day":
        return at in (ResetAt.DAY_AND_FINAL_TABLE, ResetAt.DAY)
    if occasion == "final_table":
        return at in (ResetAt.DAY_AND_FINAL_TABLE, ResetAt.FINAL_TABLE)
    return False
