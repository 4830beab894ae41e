"""What sign-ups say on the live feeds and in the event log (registered with live/catalogue.py)."""

from __future__ import annotations

from typing import TypedDict

from live.catalogue import Audience, Message, declare, declare_actions


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
