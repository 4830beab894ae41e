"""Tournament status lifecycle and who may buy what, when (pure rules, no storage)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Status(StrEnum):
    PLANNED = "planned"
    REGISTERING = "registering"
    RUNNING = "running"
    FINAL_TABLE = "final_table"
    FINISHED = "finished"


ALLOWED: dict[Status, frozenset[Status]] = {
    Status.PLANNED: frozenset({Status.REGISTERING}),
    Status.REGISTERING: frozenset({Status.PLANNED, Status.RUNNING}),
    Status.RUNNING: frozenset({Status.FINAL_TABLE, Status.FINISHED}),
    Status.FINAL_TABLE: frozenset({Status.RUNNING, Status.FINISHED}),
    Status.FINISHED: frozenset(),
}


class LifecycleError(ValueError):
    """A status change the lifecycle does not allow."""


# A finished tournament goes back only by an explicit reopen (a director's act, recorded), never
# by a plain status change or as a side effect of undoing a bust.
REOPEN_TO = frozenset({Status.RUNNING, Status.FINAL_TABLE})


def reopen_target(previous: str | None, *, alive: int, final_table_size: int) -> Status:
    """The status a finished tournament reopens to: the one it had before it finished, when
    that was a playing status; otherwise the final table when the players still in (the
    winner counted) fit it, else running."""
    try:
        before = Status(previous) if previous else None
    except ValueError:
        before = None
    if before in REOPEN_TO:
        return before
    return Status.FINAL_TABLE if alive <= final_table_size else Status.RUNNING


def check_transition(current: str, target: str) -> None:
    try:
        a, b = Status(current), Status(target)
    except ValueError as exc:
        raise LifecycleError(f"unknown status: {exc}") from exc
    if b not in ALLOWED[a]:
        raise LifecycleError(f"{a.value} -> {b.value} is not allowed")


@dataclass(frozen=True)
class EntryRules:
    """A tournament's purchase rules. Levels are 1-based playing levels; None = no limit by level
    for rebuys/add-ons, and for late registration: open until the clock starts only."""

    max_entries_per_player: int = 1
    reentry_until_level: int | None = None
    rebuys_max: int = 0
    rebuy_until_level: int | None = None
    addons_max: int = 0
    addon_until_level: int | None = None
    late_registration_until_level: int | None = None
    # The floor closed registration (late entries and re-entries) by hand.
    registration_closed: bool = False


class RegistrationError(ValueError):
    """A refused purchase; `code` and `params` let the caller word it in the user's language."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params


OPEN_FOR_ENTRY = (Status.REGISTERING, Status.RUNNING)
PLAYING = (Status.RUNNING, Status.FINAL_TABLE)


def _after(level: int | None, until: int | None) -> bool:
    """True when the playing level is past the last level allowed."""
    if level is None:
        return False
    if until is None:
        return True
    return level > until


def check_purchase(
    kind: str,
    *,
    rules: EntryRules,
    status: str,
    current_level: int | None,
    purchases_so_far: dict[str, int],
    player_is_alive: bool,
    player_has_active_entry: bool,
) -> None:
    """Raise RegistrationError unless `kind` ('buyin', 'reentry', 'rebuy', 'addon') is allowed.

    `current_level` is the 1-based playing level, None before the clock starts.
    tda-de 7: late entries and re-entries start with a full stack at a random seat.
    """
    state = Status(status)
    if kind in ("buyin", "reentry"):
        if state not in OPEN_FOR_ENTRY:
            raise RegistrationError("status")
        if rules.registration_closed:
            raise RegistrationError("registration_closed")
        if player_has_active_entry:
            raise RegistrationError("active_entry")
        if _after(current_level, rules.late_registration_until_level):
            raise RegistrationError(
                "late_registration_closed", level=rules.late_registration_until_level or 0
            )
        if kind == "reentry":
            if rules.max_entries_per_player <= 1:
                raise RegistrationError("entry_limit", limit=rules.max_entries_per_player)
            until = rules.reentry_until_level or rules.late_registration_until_level
            if _after(current_level, until):
                raise RegistrationError("reentry_closed", level=until or 0)
        if purchases_so_far.get("entries", 0) >= rules.max_entries_per_player:
            raise RegistrationError("entry_limit", limit=rules.max_entries_per_player)
        return
    if kind in ("rebuy", "addon"):
        limit = rules.rebuys_max if kind == "rebuy" else rules.addons_max
        until = rules.rebuy_until_level if kind == "rebuy" else rules.addon_until_level
        if limit <= 0:
            raise RegistrationError("not_offered", kind=kind)
        if state not in PLAYING and state != Status.REGISTERING:
            raise RegistrationError("status")
        if not player_is_alive:
            raise RegistrationError("not_alive")
        if until is not None and current_level is not None and current_level > until:
            raise RegistrationError(f"{kind}_closed", level=until)
        if purchases_so_far.get(kind, 0) >= limit:
            raise RegistrationError(f"{kind}_limit", limit=limit)
        return
    raise RegistrationError("not_offered", kind=kind)


def field_may_grow(*, rules: EntryRules, status: str, current_level: int | None) -> bool:
    """True while new entries or re-entries can still join, so that finishing places given so
    far are provisional (they move down by one with every new entry). `current_level` is the
    1-based playing level, None before the clock starts."""
    state = Status(status)
    if rules.registration_closed or state in (Status.FINAL_TABLE, Status.FINISHED):
        return False
    return not _after(current_level, rules.late_registration_until_level)
