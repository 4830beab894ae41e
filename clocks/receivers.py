"""A clock screen's kept data (clocks/selectors.py) is forgotten on every change it shows:
a clock command, a structure edit, and every logged change of the tournament (entries, busts,
payouts, settings, status).

The clock's following of the tournament (it stops at the end, comes back paused when reopened,
takes an edited structure) is called by the commands: actions/tournaments.py, actions/bust.py."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from clocks.models import ClockEvent
from clocks.selectors import forget_clock_screen
from tournament.models import Event, Tournament

# Logged changes no clock screen shows: a level announcement changes no input of the clock
# (it is worked out from the history), and the tables' own business.
QUIET_ACTIONS = frozenset(
    {
        "clock.level",
        "clock.break",
        "table.hand",
        "table.button",
        "table.call_floor",
        "table.tablet_conflict",
        "table.time_call",
        "table.time_call_cancel",
        "table.token_renew",
        # Sign-ups before the night: no clock screen shows them (a check-in's entry is logged
        # as a registration, which is not quiet). A sign-up is written in one statement
        # (signups/services.py), no model's save runs for it: this keeps the two paths alike.
        "signup.sheet",
        "signup.create",
        "signup.cancel",
        "signup.move",
        "signup.move_up",
        "signup.person",
        "signup.deadline",
    }
)


@receiver(post_save, sender=ClockEvent, dispatch_uid="clocks.screen.command")
def _command(sender: Any, instance: ClockEvent, **kwargs: Any) -> None:
    forget_clock_screen(instance.clock.tournament_id)


# Every app's services write the event log for every change: which lines a clock screen shows
# is this app's business, not each writer's, so the cache listens to the log itself.
@receiver(post_save, sender=Event, dispatch_uid="clocks.screen.logged")
def _logged(sender: Any, instance: Event, **kwargs: Any) -> None:
    if instance.tournament_id is not None and instance.action not in QUIET_ACTIONS:
        forget_clock_screen(instance.tournament_id)


@receiver(post_save, sender=Tournament, dispatch_uid="clocks.screen.tournament")
def _tournament(sender: Any, instance: Tournament, **kwargs: Any) -> None:
    forget_clock_screen(instance.pk)
