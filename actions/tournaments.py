"""Commands on a tournament's status and structure, which the clock follows: it stops when the
tournament ends, comes back (paused) when a director reopens it, and works out its next level
end again when the structure is edited.

Each command is one transaction: the tournament's service checks and writes (the tournament
row locked first), the clocks app's service follows, then the screens are told. The pages, the
API and the events with flights (festivals/) call these, never the tournament's service alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction

from clocks.selectors import forget_clock_screen
from clocks.services import clock_reopen, clock_reschedule, clock_stop
from tournament.domain.structure import LevelSpec
from tournament.events import Actor
from tournament.live import notify_board
from tournament.models import Status, Structure, Tournament
from tournament.services import tournaments


@transaction.atomic
def tournament_status_set(*, tournament: Tournament, status: str, actor: Actor) -> Tournament:
    """Move the tournament to `status` (refused with FloorError when its lifecycle does not
    allow it); a finished tournament's clock stops."""
    tournament = tournaments.tournament_status_set(
        tournament=tournament, status=status, actor=actor
    )
    if status == Status.FINISHED:
        clock_stop(tournament=tournament, actor=actor)
    notify_board(tournament.pk, "status", {"status": status})
    return tournament


@transaction.atomic
def tournament_reopen(*, tournament: Tournament, actor: Actor, reason: str = "") -> Tournament:
    """A director takes a finished tournament back into play; its clock comes back paused at
    the level and time it showed at the end."""
    tournament = tournaments.tournament_reopen(tournament=tournament, actor=actor, reason=reason)
    clock_reopen(tournament=tournament, actor=actor)
    notify_board(tournament.pk, "status", {"status": tournament.status})
    return tournament


@transaction.atomic
def structure_replace_levels(
    *, tournament: Tournament, levels: Sequence[LevelSpec], actor: Actor
) -> Structure:
    """Edit a tournament's levels (those played stay as they were); the clock's next level end
    follows, and the clock screens read the new levels."""
    structure = tournaments.structure_replace_levels(
        tournament=tournament, levels=levels, actor=actor
    )
    # The row read under the lock holds the structure: the clock reads its levels from it.
    tournament.structure = structure
    clock_reschedule(tournament=tournament)
    forget_clock_screen(tournament.pk)
    notify_board(tournament.pk, "structure", with_levels=True)
    return structure
