"""Create the demo: staff accounts, a chip set, structure templates and a tournament with 200
registered players. Safe to run twice (it does nothing the second time)."""

from __future__ import annotations

import random
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from actions import registration as registering
from actions import tournaments as commands
from actions.bust import BustReport, entries_bust
from core.roles import DIRECTOR, FLOOR, ensure_role_groups
from counts.models import CountSource
from festivals import services as fest
from live.realtime import live_flush
from tables import services as seating
from tournament.domain.structure import TEMPLATES
from tournament.events import Actor
from tournament.models import Structure, Tournament
from tournament.services import registration, tournaments

FIRST = [
    "Anna",
    "Ben",
    "Clara",
    "David",
    "Elif",
    "Felix",
    "Greta",
    "Hannes",
    "Ida",
    "Jonas",
    "Katrin",
    "Lukas",
    "Mia",
    "Noah",
    "Olga",
    "Paul",
    "Quentin",
    "Rosa",
    "Sven",
    "Tanja",
    "Ulrich",
    "Vera",
    "Wolfgang",
    "Xenia",
    "Yusuf",
    "Zoe",
    "Marco",
    "Lena",
    "Tim",
    "Sara",
]
LAST = [
    "Müller",
    "Schmidt",
    "Schneider",
    "Fischer",
    "Weber",
    "Meyer",
    "Wagner",
    "Becker",
    "Schulz",
    "Hoffmann",
    "Koch",
    "Richter",
    "Klein",
    "Wolf",
    "Neumann",
    "Schwarz",
    "Braun",
    "Zimmermann",
    "Krüger",
    "Hartmann",
    "Lange",
    "Werner",
    "Krause",
    "Lehmann",
    "Köhler",
]


def _paid_by(n: int) -> str:
    """How the demo's players paid: mostly cash, every fourth by card, one staff comp."""
    if n == 5:
        return "comp"
    return "card" if n % 4 == 3 else "cash"


class Command(BaseCommand):
    @staticmethod
    def _seat(tournament: Tournament, actor: Actor, rng: random.Random) -> None:
        """Open tables in two rooms, draw the seats and draw for the button at every table."""

        needed = -(-tournament.entries.filter(status="active").count() // 9)
        first = (needed + 1) // 2
        seating.tables_create(tournament=tournament, count=first, actor=actor, area="Saal 1")
        if needed > first:
            seating.tables_create(
                tournament=tournament, count=needed - first, actor=actor, area="Saal 2"
            )
        seating.seats_draw(tournament=tournament, actor=actor)
        for table in tournament.tables.filter(is_open=True):
            seats = sorted(table.assignments.values_list("seat", flat=True))
            if len(seats) >= 2:
                seating.button_set(table=table, seat=rng.choice(seats), actor=actor)

    @classmethod
    def _final_table(
        cls,
        template: Structure,
        chip_set: Any,
        actor: Actor,
        names: list[str],
        rng: random.Random,
    ) -> None:
        """A second, smaller tournament (a progressive knockout) that has reached its final
        table: for the deal calculator, bounties and the payout desk."""

        tournament = tournaments.tournament_create(
            actor=actor,
            name="Thursday Turbo",
            venue="Spielbank Floor, Saal 2",
            starts_at=timezone.now().replace(second=0, microsecond=0) - timedelta(hours=3),
            buy_in=5000,
            fee=500,
            starting_stack=TEMPLATES["standard"].starting_stack,
            structure=template,
            chip_set=chip_set,
            seats_per_table=9,
            bounty_kind="progressive",
            bounty=2500,
        )
        commands.tournament_status_set(tournament=tournament, status="registering", actor=actor)
        entries = []
        for n, name in enumerate(names[-27:]):
            player = registration.player_create(name=name, actor=actor)
            entries.append(
                registering.entry_register(
                    tournament=tournament, player=player, actor=actor, method=_paid_by(n)
                )
            )
        cls._seat(tournament, actor, rng)
        commands.tournament_status_set(tournament=tournament, status="running", actor=actor)
        # The field is final before anyone reaches the money (27 entries pay 4 places).
        registration.registration_close(tournament=tournament, actor=actor)
        tournament.refresh_from_db()
        rng.shuffle(entries)
        alive = list(entries)
        for entry in entries[:21]:
            alive.remove(entry)
            hunter = rng.choice(alive)
            entries_bust(
                tournament=tournament,
                busts=[BustReport(entry=entry, eliminated_by=(hunter.number,))],
                actor=actor,
            )
        seating.final_table_draw(tournament=tournament, actor=actor)

    @classmethod
    def _festival(
        cls, template: Structure, chip_set: Any, names: list[str], rng: random.Random
    ) -> None:
        """An event with three starting flights (festivals/): Day 1A bagged and closed, Day 1B
        in bag and tag (two tables done, one with a count to recount), Day 1C registering."""

        # The demo's staff, or (the venue's --demo, without them) its own director for both.
        users = get_user_model().objects
        director = (
            users.filter(username="director").first()
            or users.filter(groups__name=DIRECTOR).order_by("pk").first()
        )
        assert director is not None, "the demo needs a director"
        # A count is confirmed by a second person: without the demo's floor account, a demo
        # colleague who cannot log in (no password) confirms them.
        floor = users.filter(username="floor").first()
        if floor is None:
            floor, created = users.get_or_create(
                username="demo-colleague", defaults={"is_active": False}
            )
            if created:
                floor.set_unusable_password()
                floor.save()
        boss = Actor(user=director, label="director")
        second = Actor(user=floor, label="floor")
        start = timezone.now().replace(second=0, microsecond=0) - timedelta(days=1, hours=6)
        base = tournaments.tournament_create(
            actor=boss,
            name="Main Event",
            venue="Spielbank Floor, Saal 1",
            starts_at=start,
            buy_in=50000,
            fee=5000,
            starting_stack=TEMPLATES["standard"].starting_stack,
            structure=template,
            chip_set=chip_set,
            seats_per_table=9,
            guarantee=2500000,
        )
        event = fest.event_create(template=base, name="Main Event", flights=3, actor=boss)
        flights = [f.tournament for f in event.flights.order_by("position")]
        pool = iter(names[:60])
        for n, (flight, players) in enumerate(zip(flights, (18, 18, 10), strict=True)):
            commands.tournament_status_set(tournament=flight, status="registering", actor=boss)
            for i in range(players):
                player = registration.player_create(name=next(pool), actor=boss)
                registering.entry_register(
                    tournament=flight, player=player, actor=boss, method=_paid_by(i)
                )
            if n == 2:
                break
            seating.seats_draw(tournament=flight, actor=boss)
            commands.tournament_status_set(tournament=flight, status="running", actor=boss)
            alive = list(flight.entries.filter(status="active").order_by("?"))
            for entry in alive[:8]:
                entries_bust(tournament=flight, busts=[BustReport(entry=entry)], actor=boss)
            flight.refresh_from_db()
            bagging = fest.bagging_open(tournament=flight, actor=boss)
            seated = list(flight.entries.filter(status="active").select_related("seat__table"))
            # Stacks around the average, in whole hundreds, adding up to the chips in play.
            weights = [rng.uniform(0.3, 2.2) for _ in seated]
            stacks = [int(flight.chips_in * w / sum(weights)) // 100 * 100 for w in weights]
            stacks[0] += flight.chips_in - sum(stacks)
            tables: dict[int, dict[int, tuple[int, str]]] = {}
            for entry, stack in zip(seated, stacks, strict=True):
                bag = f"{'AB'[n]}{entry.seat.table.number:02d}{entry.seat.seat}"
                tables.setdefault(entry.seat.table.number, {})[entry.pk] = (stack, bag)
            for k, (number, bags) in enumerate(sorted(tables.items())):
                if n == 1 and k == 0:
                    first = next(iter(bags))
                    bags[first] = (bags[first][0] + 30, bags[first][1])  # a typo to recount
                fest.bags_record(
                    bagging=bagging,
                    table_number=number,
                    bags=dict(bags),
                    actor=boss,
                    source=CountSource.DEALER if k % 2 else CountSource.FLOOR,
                )
                if n == 0 or k == 0:
                    fest.bags_confirm(
                        bagging=bagging, table_number=number, entry_ids=None, actor=second
                    )
            if n == 0:
                fest.bagging_close(bagging=bagging, actor=boss)

    help = "Create demo staff, chip set, structure templates and a 200-player tournament."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--players", type=int, default=200)
        parser.add_argument(
            "--no-accounts",
            action="store_true",
            help="Only the demo's tournaments: no staff accounts with the published password "
            "(the venue's --demo, whose director was made at its first start).",
        )

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        ensure_role_groups()
        password = settings.FLOOR_DEMO_PASSWORD
        user_model = get_user_model()
        accounts = (
            ()
            if options["no_accounts"]
            else (("director", DIRECTOR, True), ("floor", FLOOR, False))
        )
        for username, role, is_super in accounts:
            user, created = user_model.objects.get_or_create(
                username=username, defaults={"is_staff": is_super, "is_superuser": is_super}
            )
            if created:
                user.set_password(password)
                user.save()
            user.groups.add(Group.objects.get(name=role))
        if Tournament.objects.filter(name="Sunday Deepstack").exists():
            self.stdout.write("Demo already present.")
            return
        actor = Actor.system("demo")
        chip_set = tournaments.starter_kit_ensure()
        template = Structure.objects.get(name="Standard", is_template=True)
        tournament = tournaments.tournament_create(
            actor=actor,
            name="Sunday Deepstack",
            venue="Spielbank Floor, Saal 1",
            starts_at=timezone.now().replace(second=0, microsecond=0) + timedelta(minutes=30),
            buy_in=10000,
            fee=1000,
            starting_stack=TEMPLATES["standard"].starting_stack,
            structure=template,
            chip_set=chip_set,
            seats_per_table=9,
            max_entries_per_player=2,
            reentry_until_level=6,
            late_registration_until_level=6,
            addons_max=1,
            addon_price=5000,
            addon_chips=10000,
            addon_until_level=6,
            guarantee=2000000,
        )
        commands.tournament_status_set(tournament=tournament, status="registering", actor=actor)
        rng = random.Random(7)
        names = [f"{f} {last}" for f in FIRST for last in LAST]
        rng.shuffle(names)
        for i in range(options["players"]):
            name = names[i % len(names)]
            if i >= len(names):
                name = f"{name} {i // len(names) + 1}"
            player = registration.player_create(name=name, actor=actor)
            registering.entry_register(
                tournament=tournament, player=player, actor=actor, method=_paid_by(i)
            )
        self._seat(tournament, actor, rng)
        self._final_table(template, chip_set, actor, names, rng)
        self._festival(template, chip_set, names[len(names) // 2 :], rng)
        # The live messages the demo's changes queued leave before the command exits (a send
        # at interpreter shutdown fails with a traceback on the newcomer's first start).
        live_flush()
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo tournament “{tournament.name}” with {options['players']} players created."
            )
        )
