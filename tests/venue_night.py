"""A night on a venue's own data, made before its server starts (tests/venue_server.py): the
database migrated and one tournament registering, its players seated, through Floor's own
services in a `manage.py shell` on the venue's settings and var directory. The server then only
serves what is there."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.venue_server import ROOT, venue_env

MARK = "VENUE-NIGHT "

_SCRIPT = """
import json
from datetime import timedelta

from django.core.management import call_command
from django.utils import timezone

call_command("migrate", interactive=False, verbosity=0)

from signups import services as signups
from tables.models import Table
from tables.services import seats_draw
from tournament.events import Actor
from tournament.models import Status, Structure, Tournament
from actions.registration import entry_register
from tournament.services.registration import player_create
from tournament.services.tournaments import starter_kit_ensure, tournament_create

asked = json.loads(ASKED)
actor = Actor.system("venue-night")
chips = starter_kit_ensure()
structure = Structure.objects.filter(is_template=True).order_by("pk").first()
t = tournament_create(
    actor=actor,
    name=asked["name"],
    starts_at=timezone.now() + timedelta(hours=1),
    buy_in=2000,
    fee=500,
    starting_stack=20000,
    structure=structure,
    chip_set=chips,
    seats_per_table=asked["seats"],
)
Tournament.objects.filter(pk=t.pk).update(status=Status.REGISTERING)
t.refresh_from_db()
entries = [
    entry_register(
        tournament=t, player=player_create(name=f"Player Number{i + 1}", actor=actor), actor=actor
    )
    for i in range(asked["players"])
]
seats_draw(tournament=t, actor=actor)
if asked["signups"]:
    signups.sheet_update(
        tournament=t, actor=actor, is_open=True, places=20, reserved=0, check_in_deadline=None
    )
night = {
    "tournament": t.pk,
    "seat_tokens": [e.public_token for e in entries],
    "tables": {str(n): tok for n, tok in Table.objects.filter(tournament=t).values_list("number", "dealer_token")},
}
print(MARK + json.dumps(night), flush=True)
"""


@dataclass(frozen=True)
class Night:
    tournament: int
    seat_tokens: list[str]  # the seated entries' my-seat tokens
    tables: dict[int, str]  # table number -> dealer token


def prepare(
    var_dir: Path,
    *,
    name: str = "Venue Cup",
    players: int = 6,
    seats: int = 9,
    signups: bool = True,
    timeout: float = 120,
) -> Night:
    """Migrate the venue's database in `var_dir` and make the night: `players` registered and
    seated at tables of `seats`, sign-ups open with places left when `signups`."""
    var_dir.mkdir(parents=True, exist_ok=True)
    asked = json.dumps({"name": name, "players": players, "seats": seats, "signups": signups})
    script = f"MARK = {MARK!r}\nASKED = {asked!r}\n{_SCRIPT}"
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", script],
        cwd=ROOT,
        env=venue_env(var_dir),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith(MARK)]
    if done.returncode != 0 or not lines:
        raise AssertionError(
            f"The night was not made (exit {done.returncode}):\n{done.stdout}\n{done.stderr}"
        )
    made = json.loads(lines[-1][len(MARK) :])
    return Night(
        tournament=int(made["tournament"]),
        seat_tokens=list(made["seat_tokens"]),
        tables={int(n): token for n, token in made["tables"].items()},
    )
