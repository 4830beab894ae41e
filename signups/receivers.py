"""Walk-ins after the waiting list (docs/signups.md): while sign-ups hold places (a place not yet
checked in, or a place on the waiting list), a registration at the desk that is not a check-in
takes only the places left after them; the places held back are the desk's."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver
from django.utils.translation import gettext as _

from signups.services import checking_in, held_places
from tournament.errors import FloorError
from tournament.status_signals import entry_registering


@receiver(entry_registering, dispatch_uid="signups.walk_ins")
def walk_ins_after_the_list(*, tournament: Any, player: Any, **_kw: Any) -> None:
    if checking_in.get():
        return
    held, total = held_places(tournament)
    if held and tournament.players_left + held >= total:
        raise FloorError(
            _(
                "Every place is held for a sign-up (%(n)s not checked in yet or waiting): "
                "walk-ins take the places left after the waiting list."
            )
            % {"n": held},
            code="held_for_signups",
        )
