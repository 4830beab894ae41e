"""The tests' standard rows made by plain functions: the fixtures of conftest.py call them, and so
does a module that makes its data once for all its tests (tests/browser/conftest.py
`made_once`), which cannot ask for function-scoped fixtures."""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone


def director_made() -> Any:
    """The director "dir" (password pw-director-123)."""
    from core.roles import DIRECTOR, ensure_role_groups

    ensure_role_groups()
    user = get_user_model().objects.create_user("dir", password="pw-director-123")
    user.groups.add(Group.objects.get(name=DIRECTOR))
    return user


def chip_set_made() -> Any:
    """The chip set of the tests (also for a module's data made once: tests/browser)."""
    from tournament.services.tournaments import chip_set_create

    return chip_set_create(
        name="Test set",
        denominations=[
            (25, "#2e7d32", "green"),
            (100, "#111111", "black"),
            (500, "#6a1b9a", "purple"),
            (1000, "#f9a825", "yellow"),
            (5000, "#c62828", "red"),
        ],
    )


def template_made() -> Any:
    """The structure template of the tests."""
    from tournament.domain.structure import LevelSpec
    from tournament.services.tournaments import structure_create

    levels = [
        LevelSpec(100, 200, 0, False, 20),
        LevelSpec(200, 400, 0, False, 20),
        LevelSpec(0, 0, 0, False, 10, True, (25,)),
        LevelSpec(300, 600, 0, True, 20),
        LevelSpec(400, 800, 0, True, 20),
        LevelSpec(500, 1000, 0, True, 20),
        LevelSpec(600, 1200, 0, True, 20),
    ]
    return structure_create(name="Test template", levels=levels, is_template=True)


def tournament_maker(actor: Any, chip_set: Any, template: Any) -> Callable[..., Any]:
    """`make(**options)`: a tournament on the test chip set and template, in `status`."""
    from tournament.services.tournaments import tournament_create

    def make(**options: Any) -> Any:
        values: dict[str, Any] = {
            "name": "Test Cup",
            "starts_at": timezone.now() + timedelta(hours=1),
            "buy_in": 10000,
            "starting_stack": 20000,
            "fee": 1000,
        }
        values.update(options)
        status = values.pop("status", None)
        t = tournament_create(actor=actor, structure=template, chip_set=chip_set, **values)
        if status:
            from tournament.models import Tournament

            Tournament.objects.filter(pk=t.pk).update(status=status)
            t.refresh_from_db()
        return t

    return make


def registrar(actor: Any) -> Callable[..., Any]:
    """`reg(tournament, name=None)`: a new player registered at the desk."""
    from actions.registration import entry_register
    from tournament.services.registration import player_create

    counter = {"n": 0}

    def reg(tournament: Any, name: str | None = None) -> Any:
        counter["n"] += 1
        player = player_create(name=name or f"Player Number{counter['n']}", actor=actor)
        return entry_register(tournament=tournament, player=player, actor=actor)

    return reg
