"""Create the demo: staff accounts, a chip set, structure templates, a tournament with 200
registered players, the Thursday Turbo at its final table after eight levels, the Main Event's
starting flights (one bagged, one in bag and tag, one registering) and a league's season of
eight nights imported from TD3 files: data every chart draws from. Safe to run twice (it does
nothing the second time; a demo made before the league gets the league)."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import partial
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
from actions.imports import td3_files_import
from actions.tables import final_table_draw
from clocks.services import clock_command, clocks_announce_due
from core.roles import DIRECTOR, FLOOR, ensure_role_groups
from counts.models import ChipCount, CountSource
from counts.services import counts_record
from festivals import services as fest
from festivals.models import Bagging
from imports.domain.td3_sample import SampleLeague, sample_night
from imports.models import Kind
from imports.services import external_record, td3_read
from leagues.services import league_update
from live.realtime import live_flush
from tables import services as seating
from tournament.domain.structure import TEMPLATES
from tournament.events import Actor
from tournament.models import Club, Entry, Player, Purchase, Structure, Tournament
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


# The club's Thursday league, kept in Tournament Director 3 until this season's files came to
# Floor: its nights are TD3 files (made by the importer's sample generator, with the demo's
# names) imported as a director would upload them, so the demo also shows an imported season.
LEAGUE = SampleLeague(
    league="Donnerstagsliga",
    season="",  # the year of its first night
    league_uuid="d3d3d3d3-0000-4000-8000-000000000001",
    season_uuid="d3d3d3d3-0000-4000-8000-000000000002",
    formula="n-r+1",
)
LEAGUE_NIGHTS = 8


def _league(actor: Actor, names: list[str]) -> bool:
    """The league's season: eight Thursdays up to last week, 10 to 14 of its 16 regulars each
    night; its standings public. False: there already."""
    if external_record(Kind.LEAGUE, LEAGUE.league_uuid) is not None:
        return False
    regulars = [f"d3d3d3d3-0000-4000-8000-{n:012d}" for n in range(100, 100 + len(names))]
    today = timezone.localtime().replace(hour=19, minute=30, second=0, microsecond=0)
    thursday = today - timedelta(days=(today.weekday() - 3) % 7 or 7)  # the last one before
    first = thursday - timedelta(weeks=LEAGUE_NIGHTS - 1)
    league = replace(LEAGUE, season=str(first.year))
    rng = random.Random(61)
    files = []
    for week in range(LEAGUE_NIGHTS):
        played = rng.sample(range(len(names)), rng.randint(10, 14))
        night = sample_night(
            600 + week,
            players=len(played),
            reentries=3,
            people=tuple(regulars[i] for i in played),
            league=league,
            start_ms=int((first + timedelta(weeks=week)).timestamp() * 1000),
        )
        text = night.text.replace(
            f'Title: "Night {600 + week}"', f'Title: "{LEAGUE.league} #{week + 1}"'
        )
        for n, i in enumerate(played):
            text = text.replace(f'Nickname: "Player {n}"', f'Nickname: "{names[i]}"')
        name = f"donnerstagsliga-{week + 1}.tdt"
        files.append((name, td3_read(text.encode(), name)))
    done = td3_files_import(files, actor=actor)
    link = done[0].link
    assert link is not None and link.league is not None
    league_update(league=link.league, name=link.league.name, public=True)
    # The demo's people open their public profiles (display names and results only: what the
    # profile shows, docs/players.md), so a player's charts can be seen without a login.
    Club.objects.filter(pk=Club.current().pk).update(public_profiles=True)
    return True


# The services stamp "now" on what they record: an entry's and a purchase's creation, a bust, a
# count, the close of registration, a bag and tag's opening and closing. The demo's nights
# were played in the past (the Thursday Turbo over the last three hours, the Main Event's
# flights yesterday and today), so the demo moves those instants back on the rows it has just
# made, and only here: the product itself never back-dates. The clock takes its instants from
# its commands (clock_command's `now`) and registration checks its level at `now` too. The
# event log and the cage's ledger are append-only: their lines keep the instant the demo ran.


def _backdate_entry(entry: Entry, at: datetime) -> None:
    Entry.objects.filter(pk=entry.pk).update(created_at=at)
    Purchase.objects.filter(entry_id=entry.pk).update(created_at=at)


@dataclass(frozen=True)
class _Plan:
    """How a night is played, row by row of its structure (rows count the breaks: the
    standard structure's row 4 is its first break)."""

    registered: int  # players in before the start
    last_row: int  # the row being played (or at whose end the clock stops for the bags)
    busts: Mapping[int, int]  # row -> busts in it
    late: Mapping[int, int] = field(default_factory=dict)  # row -> late registrations
    reenter: frozenset[int] = frozenset()  # the n-th bust (from 0) re-enters
    counted: frozenset[int] | None = None  # rows counted at their end (None: every level)
    close_at_first_break: bool = False  # registration closes at the end of the first break
    final_table: bool = False  # the final table drawn when one table is left


class _Night:
    """A night played through the services in time order from `start`: the players in, the
    clock started, then level by level the late entries, the busts (the short stacks go first,
    each to a bigger one: a bounty in a knockout), the re-entries and a count of every stack;
    the final table drawn with the clock paused for it. `now` is the real instant: nothing is
    played after it."""

    FINAL_PAUSE = timedelta(minutes=6)

    def __init__(
        self,
        tournament: Tournament,
        actor: Actor,
        names: Iterator[str],
        rng: random.Random,
        *,
        start: datetime,
        now: datetime,
    ) -> None:
        self.t = tournament
        self.actor = actor
        self.names = names
        self.rng = rng
        self.now = now
        self.start = start
        levels = list(tournament.structure.levels.all())
        self.minutes = [lv.minutes for lv in levels]
        self.breaks = [lv.is_break for lv in levels]
        self.shift = timedelta(0)  # the clock's pauses so far
        self.stacks: dict[int, float] = {}  # entry id -> chips (a model, scaled when counted)
        self.busts = 0
        self.players = 0

    def row_span(self, row: int) -> tuple[datetime, datetime]:
        begins = self.start + timedelta(minutes=sum(self.minutes[:row])) + self.shift
        ends = begins + timedelta(minutes=self.minutes[row])
        return begins, min(ends, self.now - timedelta(minutes=1))

    def at(self, row: int, fraction: float) -> datetime:
        begins, ends = self.row_span(row)
        return (begins + (ends - begins) * fraction).replace(microsecond=0)

    def enter(self, at: datetime, player: Player | None = None) -> Entry:
        if player is None:
            player = registration.player_create(name=next(self.names), actor=self.actor)
        entry = registering.entry_register(
            tournament=self.t,
            player=player,
            actor=self.actor,
            now=at,
            method=_paid_by(self.players),
        )
        self.players += 1
        _backdate_entry(entry, at)
        self.stacks[entry.pk] = float(self.t.starting_stack)
        return entry

    def bust(self, at: datetime) -> Entry:
        alive = list(self.stacks)
        victim = self.rng.choices(alive, [1 / self.stacks[e] ** 2 for e in alive])[0]
        others = [e for e in alive if e != victim]
        hunter = self.rng.choices(others, [self.stacks[e] for e in others])[0]
        got = Entry.objects.in_bulk([victim, hunter])
        entry, by = got[victim], got[hunter]
        entries_bust(
            tournament=self.t,
            busts=[BustReport(entry=entry, eliminated_by=(by.number,))],
            actor=self.actor,
        )
        Entry.objects.filter(pk=victim).update(busted_at=at)
        self.stacks[hunter] += self.stacks.pop(victim)
        self.busts += 1
        return entry

    def reenters(self, out: Entry) -> bool:
        """Whether the player out may buy another entry."""
        entries = Entry.objects.filter(tournament_id=self.t.pk, player_id=out.player_id).count()
        return entries < self.t.max_entries_per_player

    def counts(self) -> dict[int, int]:
        """Every stack, adding up to the chips in play (in whole hundreds)."""
        chips_in = Tournament.objects.get(pk=self.t.pk).chips_in
        total = sum(self.stacks.values())
        return {e: int(chips_in * s / total) // 100 * 100 for e, s in self.stacks.items()}

    def count(self, at: datetime) -> None:
        done = counts_record(tournament=self.t, counts=self.counts(), actor=self.actor)
        ChipCount.objects.filter(pk__in=[c.pk for c in done.counts]).update(recorded_at=at)

    def swing(self) -> None:
        """A level's play: every stack up or down, the chips in play the same."""
        before = sum(self.stacks.values())
        for e in self.stacks:
            self.stacks[e] *= math.exp(self.rng.gauss(0, 0.3))
        scale = before / sum(self.stacks.values())
        for e in self.stacks:
            self.stacks[e] *= scale

    def play(self, plan: _Plan, seat: Callable[[], Any]) -> None:
        opens = self.start - timedelta(minutes=45)
        for n in range(plan.registered):
            self.enter(opens + timedelta(minutes=n * 1.5))
        seat()
        clock_command(tournament=self.t, kind="start", actor=self.actor, now=self.start)
        owed = 0  # re-entries planned and not made yet (a player out of entries cannot)
        for row in range(plan.last_row + 1):
            clocks_announce_due(now=self.row_span(row)[0])
            if self.breaks[row]:
                if plan.close_at_first_break and self.t.registration_closed_at is None:
                    close = self.row_span(row)[1] - timedelta(minutes=1)
                    registration.registration_close(tournament=self.t, actor=self.actor)
                    Tournament.objects.filter(pk=self.t.pk).update(registration_closed_at=close)
                    self.t.refresh_from_db()
                continue
            self.swing()
            # What happens in the level, in time order: (fraction of the level, what).
            events = [(self.rng.uniform(0.05, 0.8), "bust") for _ in range(plan.busts.get(row, 0))]
            events += [(self.rng.uniform(0.1, 0.8), "late") for _ in range(plan.late.get(row, 0))]
            for fraction, what in sorted(events):
                at = self.at(row, fraction)
                if what == "late":
                    self.enter(at)
                    continue
                out = self.bust(at)
                owed += self.busts - 1 in plan.reenter
                if owed and self.reenters(out):
                    owed -= 1
                    self.enter(at + timedelta(minutes=2), out.player)
                if plan.final_table and len(self.stacks) == self.t.seats_per_table:
                    self.final_table(at)
            if plan.counted is None or row in plan.counted:
                self.count(self.at(row, 0.95))

    def final_table(self, at: datetime) -> None:
        """The clock paused while the final table is drawn."""
        clock_command(tournament=self.t, kind="pause", actor=self.actor, now=at)
        final_table_draw(tournament=self.t, actor=self.actor)
        clock_command(tournament=self.t, kind="resume", actor=self.actor, now=at + self.FINAL_PAUSE)
        self.shift += self.FINAL_PAUSE

    def pause(self, row: int) -> datetime:
        """The clock paused a minute before the end of `row` (the day's last level: the bags
        are counted now); the instant it was paused."""
        at = self.row_span(row)[1] - timedelta(minutes=1)
        clock_command(tournament=self.t, kind="pause", actor=self.actor, now=at)
        return at


# The Thursday Turbo (a progressive knockout): 24 players at the start, 3 late and 5 re-entries
# until the end of the first break, busts in every level down to its final table (drawn in
# level 7), a count of every stack at the end of each level; the clock in level 8 now.
TURBO = _Plan(
    registered=24,
    last_row=8,
    busts={0: 2, 1: 3, 2: 3, 3: 4, 5: 4, 6: 5, 7: 4, 8: 1},  # 6 left now
    late={0: 1, 1: 1, 2: 1},
    reenter=frozenset({1, 3, 5, 7, 9}),
    close_at_first_break=True,
    final_table=True,
)
# A Main Event flight's day: 18 players, 8 out over thirteen levels, the stacks counted before
# each break, then the bags at the end of level 13 (row 15).
FLIGHT = _Plan(
    registered=18,
    last_row=15,
    busts={0: 1, 2: 1, 3: 1, 6: 1, 7: 1, 10: 1, 12: 1, 15: 1},
    counted=frozenset({3, 8, 13}),
)


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
        """A second, smaller tournament (a progressive knockout) that has played eight levels
        and reached its final table: for the deal calculator, bounties and the payout desk, and
        for the charts drawn from a night's history (its story, its chip graphs)."""

        now = timezone.now().replace(second=0, microsecond=0)
        starts_at = now - timedelta(hours=3)
        tournament = tournaments.tournament_create(
            actor=actor,
            name="Thursday Turbo",
            venue="Spielbank Floor, Saal 2",
            starts_at=starts_at,
            buy_in=5000,
            fee=500,
            starting_stack=TEMPLATES["standard"].starting_stack,
            structure=template,
            chip_set=chip_set,
            seats_per_table=9,
            bounty_kind="progressive",
            bounty=2500,
            max_entries_per_player=2,
            reentry_until_level=4,
            late_registration_until_level=4,
        )
        commands.tournament_status_set(tournament=tournament, status="registering", actor=actor)
        night = _Night(
            tournament, actor, iter(names[-30:]), rng, start=now - timedelta(minutes=170), now=now
        )
        night.play(TURBO, lambda: cls._seat(tournament, actor, rng))

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
        now = timezone.now().replace(second=0, microsecond=0)
        for n, flight in enumerate(flights):
            commands.tournament_status_set(tournament=flight, status="registering", actor=boss)
            if n == 2:
                for i in range(10):
                    player = registration.player_create(name=next(pool), actor=boss)
                    registering.entry_register(
                        tournament=flight, player=player, actor=boss, method=_paid_by(i)
                    )
                break
            # The day played from five minutes after its start to the end of level 13, the
            # clock paused there for the bags.
            night = _Night(
                flight, boss, pool, rng, start=flight.starts_at + timedelta(minutes=5), now=now
            )
            night.play(FLIGHT, partial(seating.seats_draw, tournament=flight, actor=boss))
            paused = night.pause(FLIGHT.last_row)
            flight.refresh_from_db()
            bagging = fest.bagging_open(tournament=flight, actor=boss)
            counts = night.counts()
            seated = list(flight.entries.filter(status="active").select_related("seat__table"))
            tables: dict[int, dict[int, tuple[int, str]]] = {}
            for entry in seated:
                bag = f"{'AB'[n]}{entry.seat.table.number:02d}{entry.seat.seat}"
                tables.setdefault(entry.seat.table.number, {})[entry.pk] = (counts[entry.pk], bag)
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
                # Day 1A was bagged yesterday, in the half hour after its clock was paused.
                Bagging.objects.filter(pk=bagging.pk).update(
                    opened_at=paused, closed_at=paused + timedelta(minutes=30)
                )
                ChipCount.objects.filter(tournament=flight, bag_number__gt="").update(
                    recorded_at=paused + timedelta(minutes=15)
                )
                ChipCount.objects.filter(tournament=flight, verified_at__isnull=False).update(
                    verified_at=paused + timedelta(minutes=20)
                )

    help = (
        "Create demo staff, chip set, structure templates, a 200-player tournament, a final "
        "table, a festival's flights and a league's season."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--players", type=int, default=200)
        parser.add_argument(
            "--no-accounts",
            action="store_true",
            help="Only the demo's tournaments: no staff accounts with the published password "
            "(the venue's --demo, whose director was made at its first start).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        with transaction.atomic():
            made = self._make(options)
        # The live messages the demo's changes queued leave before the command exits (a send
        # at interpreter shutdown fails with a traceback on the newcomer's first start). They
        # are queued when the transaction commits: flushed after it.
        live_flush()
        self.stdout.write(self.style.SUCCESS(made) if made else "Demo already present.")

    def _make(self, options: dict[str, Any]) -> str:
        """The demo's data; its message, or "" when it is there already."""
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
        rng = random.Random(7)
        names = [f"{f} {last}" for f in FIRST for last in LAST]
        rng.shuffle(names)
        actor = Actor.system("demo")
        # The club's chip set first: the league's files bring TD3's own.
        chip_set = tournaments.starter_kit_ensure()
        # The league comes on its own: a demo made before it had one gets it too.
        league_made = _league(actor, names[250:266])
        if Tournament.objects.filter(name="Sunday Deepstack").exists():
            return f"Demo league “{LEAGUE.league}” created." if league_made else ""
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
        for i in range(options["players"]):
            name = names[i % len(names)]
            if i >= len(names):
                name = f"{name} {i // len(names) + 1}"
            player = registration.player_create(name=name, actor=actor)
            registering.entry_register(
                tournament=tournament, player=player, actor=actor, method=_paid_by(i)
            )
        self._seat(tournament, actor, rng)
        # Their own random draws: the same nights whatever the number of players above.
        self._final_table(template, chip_set, actor, names, random.Random(8))
        self._festival(template, chip_set, names[len(names) // 2 :], random.Random(9))
        return f"Demo tournament “{tournament.name}” with {options['players']} players created."
