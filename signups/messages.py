"""What sign-ups say on the live feeds and in the event log (registered with live/catalogue.py and
eventlog/catalogue.py)."""

from __future__ import annotations

from typing import TypedDict

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from eventlog.catalogue import declare_actions, declare_kinds, declare_words
from live.catalogue import Audience, Message, declare


class _SignupsOrder(TypedDict, total=False):
    waiting: list[int]


class SignupsPayload(_SignupsOrder):
    """Sign-ups changed (signups/services.py): numbers only, no names. `moved` the arrival
    numbers that just got a place, `waiting_count` how many wait, `waiting` the waiting list in
    order when positions changed (a sign-up's page finds its own position in it; a new sign-up
    only joins the end, so its message leaves the list out and every page keeps its position),
    `free` the places left, `open` whether sign-ups are open."""

    moved: list[int]
    waiting_count: int
    free: int
    open: bool


declare(
    Message(Audience.TOURNAMENT, "signups", SignupsPayload, "sign-ups, cancellations, move-ups"),
)

declare_actions(
    {
        "signup.sheet": "a director changed the sign-up sheet (open, places, held back, deadline)",
        "signup.create": "a sign-up arrived (arrival number, name, place or waiting list)",
        "signup.cancel": "a sign-up was cancelled (by the player or a director; contact erased or not)",
        "signup.move": "a director moved a sign-up to the top of the waiting list",
        "signup.move_up": "waiting sign-ups got a place (arrival numbers)",
        "signup.check_in": "a sign-up was checked in at the desk (its entry)",
        "signup.person": "a director linked a sign-up to a person record",
        "signup.deadline": "the check-in deadline passed: no-shows (arrival numbers)",
    }
)


declare_words(
    {
        "signup.sheet": lambda p: (
            _("Sign-ups opened: %(n)s places")
            if p.get("open")
            else _("Sign-ups closed: %(n)s places")
        )
        % {"n": p.get("places")},
        "signup.create": lambda p: (
            _("Sign-up #%(s)s %(name)s: has a place")
            if p.get("status") == "confirmed"
            else _("Sign-up #%(s)s %(name)s: waiting list")
        )
        % {"s": p.get("sequence"), "name": p.get("name", "")},
        "signup.cancel": lambda p: _("Sign-up #%(s)s cancelled") % {"s": p.get("sequence")},
        "signup.move": lambda p: _("Sign-up #%(s)s moved to the top of the waiting list")
        % {"s": p.get("sequence")},
        "signup.move_up": lambda p: _("Moved up from the waiting list: %(s)s")
        % {"s": ", ".join(f"#{n}" for n in p.get("sequences", []))},
        "signup.check_in": lambda p: _("Sign-up #%(s)s checked in") % {"s": p.get("sequence")},
        "signup.person": lambda p: _("Sign-up linked to a person record"),
        "signup.deadline": lambda p: _("Check-in deadline: %(n)s no-shows")
        % {"n": len(p.get("no_shows", []))},
    }
)

declare_kinds(
    {
        "signup": gettext_lazy("Sign-ups and check-in"),
    }
)
