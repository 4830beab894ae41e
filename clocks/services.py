"""Writes of the clock: console commands and the exactly-once level announcer.

Commands append to the clock's history (never edit it); `clock_state` replays it. The announcer
advances `announced_level` with a conditional UPDATE, so two tickers, a retry or a restart never
announce a level twice.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils import timezone
from django.utils.translation import gettext as _

from clocks.domain.clock import ClockError, ClockState, clock_state, validate_command
from clocks.domain.clock import ClockEvent as DomainEvent
from clocks.models import Clock, ClockEvent
from clocks.selectors import clock_events, level_timings
from clocks.wakeup import wake
from core.errors import FloorError
from live.realtime import broadcast_on_commit, tournament_group
from tournament.domain.levels import level_reached, row_labels
from tournament.events import Actor, event_record
from tournament.locks import lock_tournament
from tournament.models import Level, Status, Tournament

COMMANDS = ("start", "pause", "resume", "add", "set_remaining", "jump")


def _message(exc: ClockError, kind: str) -> str:
    text = str(exc).lower()
    if "stopped" in text:
        return _("The tournament has ended: the clock is stopped.")
    if "not started" in text or "before start" in text or "not been started" in text:
        return _("The clock has not been started yet.")
    if "already" in text and kind == "start":
        return _("The clock is already running.")
    if kind == "pause":
        return _("The clock is not running.")
    if kind == "resume":
        return _("The clock is not paused.")
    if kind == "jump":
        return _("There is no such level.")
    if kind in ("add", "set_remaining"):
        return _("The remaining time cannot be negative or longer than the level.")
    return _("This clock command is not possible now: %(reason)s") % {"reason": exc}


@transaction.atomic
def clock_command(
    *,
    tournament: Tournament,
    kind: str,
    actor: Actor,
    seconds: int = 0,
    level: int = 0,
    now: datetime | None = None,
) -> ClockState:
    """Apply one console command (start, pause, resume, add ±seconds, set_remaining, jump).

    Refused commands raise FloorError and write nothing.
    """
    if kind not in COMMANDS:
        raise FloorError(_("Unknown clock command."))
    now = now or timezone.now()
    tournament = lock_tournament(tournament.pk, key=True)
    if tournament.status == Status.FINISHED:
        raise FloorError(_("The tournament has ended: the clock is stopped."))
    if tournament.status == Status.PLANNED:
        raise FloorError(_("Open registration before starting the clock."))
    clock, _created = Clock.objects.get_or_create(tournament=tournament)
    clock = Clock.objects.select_for_update().get(pk=clock.pk)
    levels = list(tournament.structure.levels.all())
    timings = level_timings(levels)
    history = clock_events(clock)
    if history and clock_state(timings, history, now).stopped:
        # The tournament was reopened and its clock was not: it comes back paused first.
        reopen = DomainEvent(kind="reopen", at=now)
        ClockEvent.objects.create(clock=clock, kind="reopen", at=now)
        event_record(
            tournament=tournament, action="clock.reopen", actor=actor, payload={"running": False}
        )
        history = [*history, reopen]
    command = DomainEvent(kind=kind, at=now, seconds=seconds, level=level)
    try:
        validate_command(timings, history, command)
    except ClockError as exc:
        raise FloorError(_message(exc, kind)) from exc
    ClockEvent.objects.create(clock=clock, kind=kind, at=now, seconds=seconds, level=level)
    state = clock_state(timings, [*history, command], now)
    if kind == "start" and tournament.status == Status.REGISTERING:
        tournament.status = Status.RUNNING
        tournament.save(update_fields=["status"])
        event_record(
            tournament=tournament,
            action="tournament.status",
            actor=actor,
            payload={"from": Status.REGISTERING, "to": Status.RUNNING},
        )
    announced = clock.announced_level
    if kind in ("jump", "start"):
        # A jump (or start) sets the level directly; the announcer must not repeat it.
        announced = state.level_index
    _schedule(clock.pk, due_at(state, announced, now), announced_level=announced)
    event_record(
        tournament=tournament,
        action=f"clock.{kind}",
        actor=actor,
        payload={
            "seconds": seconds,
            "level": level,
            "level_index": state.level_index,
            **_level_words(levels, state.level_index),
        },
    )
    broadcast_on_commit(
        tournament_group(tournament.pk), "clock", clock_payload(tournament, state, levels, now)
    )
    return state


def due_at(state: ClockState, announced_level: int, now: datetime) -> datetime | None:
    """When the announcer has to look at a clock next: now, when a level start is not announced
    yet; else the end of the running level; never while it is not started, stopped, paused or
    in its last level (nothing can become due without a command, which sets this again)."""
    if not state.started or state.stopped:
        return None
    if state.level_index > announced_level:
        return now
    return state.level_ends_at


def _schedule(clock_pk: int, when: datetime | None, **also: Any) -> None:
    Clock.objects.filter(pk=clock_pk).update(next_due_at=when, **also)
    if when is not None:
        transaction.on_commit(lambda: _wake_ticker(clock_pk, when))


def _schedule_as_read(clock: Clock, when: datetime | None) -> None:
    """`_schedule` for a clock read without its lock (the safety net, the announcer's pass):
    written only if no command changed the clock since `clock` and its events were read, so a
    command that commits in between keeps the due instant it set (a resumed clock's level end
    was overwritten with the paused clock's none and waited for the next safety net).

    `clock.events` must be the events `when` was worked out from (prefetched with the clock):
    the newest of them is what "changed since" is measured against."""
    newest = max((e.pk for e in clock.events.all()), default=0)
    newer = ClockEvent.objects.filter(clock_id=OuterRef("pk"), pk__gt=newest)
    written = (
        Clock.objects.filter(
            pk=clock.pk, next_due_at=clock.next_due_at, announced_level=clock.announced_level
        )
        .exclude(Exists(newer))
        .update(next_due_at=when)
    )
    if written and when is not None:
        transaction.on_commit(lambda: _wake_ticker(clock.pk, when))


def _wake_ticker(clock_pk: int, when: datetime) -> None:
    wake(clock_pk, when)


def clock_reschedule(*, tournament: Tournament, now: datetime | None = None) -> None:
    """Work out the clock's next due instant again (after its structure was edited)."""
    now = now or timezone.now()
    clock = Clock.objects.filter(tournament=tournament).first()
    if clock is None:
        return
    levels = list(tournament.structure.levels.all())
    state = clock_state(level_timings(levels), clock_events(clock), now)
    _schedule(clock.pk, due_at(state, clock.announced_level, now))


def clocks_reschedule_all(*, now: datetime | None = None) -> int:
    """The safety net: every running tournament's clock gets its due instant worked out from its
    history again (a clock imported or changed outside the services). Returns how many."""
    count, after = 0, 0
    while True:
        done, last = clocks_reschedule_some(after=after, limit=200, now=now)
        count += done
        if last is None:
            return count
        after = last


def clocks_reschedule_some(
    *, after: int, limit: int, now: datetime | None = None
) -> tuple[int, int | None]:
    """The safety net a slice at a time: the running clocks with an id above `after`, at most
    `limit` of them, by id. Returns (how many, the last id), the last id None when no running
    clock is left above it. The embedded ticker announces what is due between two slices, so a
    net over hundreds of clocks never holds a level end back for long."""
    now = now or timezone.now()
    count, last = 0, None
    for clock in (
        Clock.objects.filter(
            tournament__status__in=[Status.RUNNING, Status.FINAL_TABLE], pk__gt=after
        )
        .select_related("tournament__structure")
        .prefetch_related("events", "tournament__structure__levels")  # three queries a slice
        .order_by("pk")[:limit]
    ):
        levels = list(clock.tournament.structure.levels.all())
        state = clock_state(level_timings(levels), clock_events(clock), now)
        when = due_at(state, clock.announced_level, now)
        if when != clock.next_due_at:
            _schedule_as_read(clock, when)
        count, last = count + 1, clock.pk
    return count, (last if count == limit else None)


def next_due(now: datetime | None = None) -> datetime | None:
    """The soonest instant any running clock is due (one indexed read): the ticker sleeps
    until then."""
    return (
        Clock.objects.filter(
            tournament__status__in=[Status.RUNNING, Status.FINAL_TABLE], next_due_at__isnull=False
        )
        .order_by("next_due_at")
        .values_list("next_due_at", flat=True)
        .first()
    )


def _level_words(levels: list[Level], index: int) -> dict[str, int]:
    """What the event log names a row by: the level's number, or the level a break follows."""
    if not 0 <= index < len(levels):
        return {}
    reached = level_reached([x.is_break for x in levels], index)
    return {"after_level": reached} if levels[index].is_break else {"number": reached}


def clock_payload(
    tournament: Tournament, state: ClockState, levels: list[Level], now: datetime
) -> dict[str, Any]:
    """What every screen needs to draw the clock: instants as epoch milliseconds."""

    labels = row_labels([x.is_break for x in levels])

    def level_info(index: int | None) -> dict[str, Any] | None:
        if index is None or index >= len(levels):
            return None
        lv = levels[index]
        # Breaks are not levels: a break has no number, it follows level `after_level`.
        return {
            "index": index,
            "number": labels[index].number,
            "after_level": labels[index].after if lv.is_break else None,
            "is_break": lv.is_break,
            "small_blind": lv.small_blind,
            "big_blind": lv.big_blind,
            "ante": lv.ante,
            "big_blind_ante": lv.big_blind_ante,
            "minutes": lv.minutes,
            "color_up": lv.color_up,
        }

    return {
        "tournament": tournament.pk,
        "started": state.started,
        "running": state.running,
        "level": level_info(state.level_index if state.started else 0),
        "next": level_info(state.next_level_index if state.started else 1),
        "remaining_ms": int(state.remaining * 1000),
        "ends_at_ms": int(state.level_ends_at.timestamp() * 1000) if state.level_ends_at else None,
        "seconds_to_break": state.seconds_to_next_break,
        "on_last_level": state.on_last_level,
        "stopped": state.stopped,
        "server_ms": int(now.timestamp() * 1000),
    }


def clock_stop(*, tournament: Tournament, actor: Actor, now: datetime | None = None) -> bool:
    """Stop the clock because the tournament has ended (the last bust, or a director setting it
    finished): it no longer counts down, announces levels or takes commands. Recorded like any
    clock command (`stop`, event `clock.stop`) and sent to every screen.

    Call inside the transaction that finishes the tournament, with the tournament row locked.
    Returns False (and writes nothing) when there is nothing to stop: a clock never started or
    already stopped."""
    return _stop_or_reopen(tournament=tournament, kind="stop", actor=actor, now=now)


def clock_reopen(*, tournament: Tournament, actor: Actor, now: datetime | None = None) -> bool:
    """Take the stopped clock of a reopened tournament back: it stands paused at the level and
    time it showed when the tournament ended (the time it stood still does not count) until the
    floor resumes it. Recorded as `reopen` (event `clock.reopen`) and sent to every screen.

    Call inside the transaction that reopens the tournament. Returns False (and writes nothing)
    when the clock is not stopped. A floor that presses Resume on a stopped clock of a tournament
    no longer finished reopens it the same way first (`clock_command`)."""
    return _stop_or_reopen(tournament=tournament, kind="reopen", actor=actor, now=now)


@transaction.atomic
def _stop_or_reopen(
    *, tournament: Tournament, kind: str, actor: Actor, now: datetime | None
) -> bool:
    now = now or timezone.now()
    # Held already when called from the transaction that ends or reopens the tournament.
    lock_tournament(tournament.pk, only=("id",))
    clock = Clock.objects.select_for_update().filter(tournament=tournament).first()
    if clock is None:
        return False
    levels = list(tournament.structure.levels.all())
    timings = level_timings(levels)
    history = clock_events(clock)
    if not any(e.kind == "start" for e in history):
        return False
    command = DomainEvent(kind=kind, at=max(now, history[-1].at))
    try:
        validate_command(timings, history, command)
    except ClockError:
        return False  # already stopped, or not stopped: nothing to do
    ClockEvent.objects.create(clock=clock, kind=kind, at=command.at)
    state = clock_state(timings, [*history, command], command.at)
    _schedule(clock.pk, due_at(state, clock.announced_level, command.at))
    event_record(
        tournament=tournament,
        action=f"clock.{kind}",
        actor=actor,
        payload={
            "level_index": state.level_index,
            "remaining": int(state.remaining),
            "running": state.running,
        },
    )
    broadcast_on_commit(
        tournament_group(tournament.pk),
        "clock",
        clock_payload(tournament, state, levels, command.at),
    )
    return True


def clocks_announce_due(*, now: datetime | None = None) -> int:
    """Announce every level start that is due and not yet announced, exactly once each.

    Safe to call from any number of tickers at once. Returns how many level starts this call
    recorded.
    """
    fixed = now  # tests pass an instant; a real pass reads the time for each clock
    made = 0
    # Only the clocks whose due instant has come (an index on next_due_at): an idle pass is one
    # query, whatever the number of running clocks.
    clocks = (
        Clock.objects.filter(
            tournament__status__in=[Status.RUNNING, Status.FINAL_TABLE],
            next_due_at__lte=fixed or timezone.now(),
        )
        .select_related("tournament__structure")
        .prefetch_related("events")
    )
    for clock in clocks:
        # Each clock with its own `now`: one late in a long pass is not announced with the
        # instant the pass began.
        at = fixed or timezone.now()
        levels = list(clock.tournament.structure.levels.all())
        state = clock_state(level_timings(levels), clock_events(clock), at)
        if not state.started or state.level_index <= clock.announced_level:
            _schedule_as_read(clock, due_at(state, clock.announced_level, at))  # not due
            continue
        made += _announce(clock, at)
    return made


@transaction.atomic
def _announce(clock: Clock, now: datetime) -> int:
    """Record every level start since the last one announced, in order, each exactly once: a
    ticker that was down for longer than a level catches up without losing one (the ones it
    catches up on are marked late). Screens get the current level once."""
    # The tournament first, as every action on it (tournament/locks.py): a clock command holds
    # the tournament and then wants the clock; taking the clock first deadlocked with it.
    lock_tournament(clock.tournament_id, only=("id",))
    locked = Clock.objects.select_for_update().filter(pk=clock.pk).first()
    if locked is None:
        return 0
    # Read again under the lock: a command (a jump back, a pause) or a structure edit that
    # committed since the caller's read decides what is due now.
    levels = list(clock.tournament.structure.levels.all())
    state = clock_state(level_timings(levels), clock_events(locked), now)
    if not state.started or locked.announced_level >= state.level_index:
        return 0  # another ticker announced it first, or it is no longer due
    first = locked.announced_level + 1
    Clock.objects.filter(pk=clock.pk).update(
        announced_level=state.level_index, next_due_at=due_at(state, state.level_index, now)
    )
    tournament = clock.tournament
    for index in range(max(first, 0), state.level_index + 1):
        level = levels[index]
        event_record(
            tournament=tournament,
            action="clock.break" if level.is_break else "clock.level",
            actor=Actor.system("clock"),
            payload={
                "level_index": index,
                **_level_words(levels, index),
                "announced_at": now.isoformat(),
                "late": index < state.level_index,
            },
        )
    payload = clock_payload(tournament, state, levels, now)
    # tda-de 23: the new level applies from the next hand; the dealer tablets take this same
    # message (they are in the tournament's audience) and say so.
    broadcast_on_commit(tournament_group(tournament.pk), "level", payload)
    return state.level_index + 1 - max(first, 0)


__all__ = [
    "clock_command",
    "clock_payload",
    "clock_reopen",
    "clock_reschedule",
    "clock_stop",
    "clocks_announce_due",
    "clocks_reschedule_all",
    "clocks_reschedule_some",
    "due_at",
    "next_due",
]
