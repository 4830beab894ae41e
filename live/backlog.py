"""How far the live updates lag behind the room, and telling the floor when they do.

Live updates queue in two places (docs/architecture.md, "Live updates"): the floor's process
builds the payloads of a change after its commit on one thread (live/realtime.py), and
each server process writes a tournament's feed to its sockets (live/hub.py). Both measure how
long what they hand on has waited since the commit and note it here, per tournament:

- when the wait reaches `BEHIND_S`, the tournament's consoles get a `behind` message (the
  seating chart shows it: the room is busier than the servers deliver; screens skip to the
  newest state as they catch up), again every `REPORT_EVERY` seconds while it lasts;
- once the wait is under `CAUGHT_UP_S` again, one `behind` message with `seconds` 0.

Each process reports for itself (`process`), so a console tells one slow process from another.
`totals` keeps the process's figures since it started (the benchmarks read them).

Pure bookkeeping: the callers send what `note` returns.
"""

from __future__ import annotations

import os
import socket
import threading
import time
from dataclasses import dataclass
from typing import Any

BEHIND_S = 2.0  # a wait this long is told to the consoles
CAUGHT_UP_S = 0.5  # ... and one this short ends it
REPORT_EVERY = 2.0  # seconds between two reports while it lasts

PROCESS = f"{socket.gethostname()}:{os.getpid()}"


@dataclass
class _Lag:
    behind: bool = False
    reported: float = 0.0  # monotonic time of the last report


_lock = threading.Lock()
_lags: dict[tuple[int, str], _Lag] = {}
totals: dict[str, float] = {
    "built": 0,  # payloads the builder thread handed on
    "skipped": 0,  # ... and left out, a newer one of the same group and name waiting
    "max_wait_s": 0.0,  # the longest an item waited for the builder thread
    "max_waiting": 0,  # the most items waiting at once
    "reports": 0,  # `behind` messages with seconds > 0
}


def tournament_of(group: str) -> int | None:
    """The tournament a group belongs to, where its name says (its feed, its consoles)."""
    kind, _, rest = group.partition(".")
    if kind in ("tournament", "console") and rest.isdigit():
        return int(rest)
    return None


def note(tournament_id: int, where: str, wait_s: float, waiting: int) -> dict[str, Any] | None:
    """A wait of `wait_s` seconds seen at `where` ("builder", "sockets") for the tournament,
    with `waiting` items still queued there: the `behind` payload to send its consoles now, or
    None."""
    now = time.monotonic()
    with _lock:
        lag = _lags.setdefault((tournament_id, where), _Lag())
        if wait_s >= BEHIND_S:
            if lag.behind and now - lag.reported < REPORT_EVERY:
                return None
            lag.behind, lag.reported = True, now
            totals["reports"] += 1
            return _payload(wait_s, waiting, where)
        if wait_s < CAUGHT_UP_S and lag.behind:
            lag.behind, lag.reported = False, now
            return _payload(0.0, waiting, where)
        return None


def built(group: str, wait_s: float, waiting: int, skipped: bool) -> dict[str, Any] | None:
    """The builder thread took an item of `group` that waited `wait_s`; `skipped`: a newer one
    of the same group and name waits behind it. Returns what `note` returns."""
    with _lock:
        totals["skipped" if skipped else "built"] += 1
        totals["max_wait_s"] = max(totals["max_wait_s"], wait_s)
        totals["max_waiting"] = max(totals["max_waiting"], waiting)
    tournament_id = tournament_of(group)
    if tournament_id is None:
        return None
    return note(tournament_id, "builder", wait_s, waiting)


def caught_up(where: str) -> list[tuple[int, dict[str, Any]]]:
    """Nothing waits at `where` any more: the caught-up payload of every tournament reported
    behind there."""
    now = time.monotonic()
    found = []
    with _lock:
        for (tournament_id, place), lag in _lags.items():
            if place == where and lag.behind:
                lag.behind, lag.reported = False, now
                found.append((tournament_id, _payload(0.0, 0, where)))
    return found


def _payload(wait_s: float, waiting: int, where: str) -> dict[str, Any]:
    return {"seconds": round(wait_s, 1), "waiting": waiting, "where": where, "process": PROCESS}


def reset() -> None:
    """Forget every tournament's state and the totals (tests, benchmarks)."""
    with _lock:
        _lags.clear()
        for key in totals:
            totals[key] = 0
