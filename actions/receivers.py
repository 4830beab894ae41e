"""The one flow from one app into others that travels by signal: an event-log row written.

Every action that spans apps is a command (actions/bust.py, registration.py, corrections.py,
signups.py, tournaments.py, penalties.py, tables.py) that calls each app's services in turn and
sends no signal. One signal stays on purpose: every service of every app writes event-log
rows, and what the room hears follows the row, whoever wrote it (a table broken, a balance,
hand-for-hand on, the final table drawn; registration closed or reopened by hand, the
late-registration level changed: the screens that speak announce it or take the new end of
late registration, clocks.announcements.announce_logged). A writer that had to know the clocks'
announcements would have to be each of them. The receiver runs inside the transaction that
wrote the row, so both commit or roll back together.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from clocks.announcements import announce_logged
from tournament.models import Event


@receiver(post_save, sender=Event)
def announce_in_the_room(*, instance: Event, created: bool, **_: Any) -> None:
    if created:
        announce_logged(instance)
