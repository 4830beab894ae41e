"""Sign-ups meeting the desk (docs/signups.md): a signed-up player checks in at the door and
becomes a paid entry, seated as any registration. The other way round, a seat the desk frees
goes to the waiting list: the commands that free one (actions/registration.py,
actions/corrections.py) call `signups.services.seat_freed`.

One transaction, read top to bottom: check (the tournament's lock, then the sheet's), do (the
player and the entry by the registration's command, then the sign-up), notify (the sign-up
pages, by the sign-ups' service).
"""

from __future__ import annotations

from django.db import transaction

from actions.registration import entry_register
from signups.models import SignUp
from signups.services import signup_check_in_check, signup_checked_in
from tournament.events import Actor
from tournament.services.registration import player_create


@transaction.atomic
def signup_check_in(
    *, signup: SignUp, actor: Actor, method: str = "cash", director: bool = False
) -> SignUp:
    """The player is at the door: their sign-up becomes a paid entry, seated as any registration
    (auto-seat, keep-apart, special needs). Refused for a sign-up without a place, and for a
    barred person unless a director checks them in."""
    check_in = signup_check_in_check(signup=signup, actor=actor, director=director)
    signup = check_in.signup
    player = signup.player
    if player is None:
        player = player_create(
            name=signup.display_name,
            display_name=signup.display_name,
            email=signup.email,
            phone=signup.phone,
            actor=actor,
        )
    # The entry takes the place the sign-up held: the places held for sign-ups do not refuse it.
    entry = entry_register(
        tournament=check_in.tournament,
        player=player,
        actor=actor,
        method=method,
        checking_in=True,
    )
    return signup_checked_in(check_in=check_in, player=player, entry=entry, actor=actor)
