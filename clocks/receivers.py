"""The clock follows the tournament: it stops when the tournament ends, comes back (paused)
when a director reopens it, and works out its next level end again when the structure is
edited."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from clocks.services import clock_reopen, clock_reschedule, clock_stop
from tournament.status_signals import (
    structure_changed,
    tournament_finished,
    tournament_reopened,
)


@receiver(tournament_finished, dispatch_uid="clocks.stop_on_finish")
def _stop(sender: Any, *, tournament: Any, actor: Any, **kwargs: Any) -> None:
    clock_stop(tournament=tournament, actor=actor)


@receiver(tournament_reopened, dispatch_uid="clocks.reopen")
def _reopen(sender: Any, *, tournament: Any, actor: Any, **kwargs: Any) -> None:
    clock_reopen(tournament=tournament, actor=actor)


@receiver(structure_changed, dispatch_uid="clocks.reschedule")
def _reschedule(sender: Any, *, tournament: Any, **kwargs: Any) -> None:
    clock_reschedule(tournament=tournament)
