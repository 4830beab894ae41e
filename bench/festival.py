"""An event with starting flights from registration to the Day-2 draw, through the real services.

    python -m bench.festival --flights 3 --entries-per-flight 5000

Makes one event (`festivals.services.event_create`) from a 9-handed tournament. Each flight
registers `entries-per-flight` entries (bulk), opens its tables, draws the seats, runs and plays
down to `--survive` of its field through the bust service, several players of one table out in
one hand (none of this timed). Then every flight is bagged table by table through the count
service: `bags_record` by a director (timed: bag_table_*), `bags_confirm` by a floor user. The
stacks share the flight's chips in play at random, in multiples of the smallest chip (25) and to
the exact chip, so nothing is flagged. Then the end-of-day report of the largest flight
(`bagging_report`, median of 5), every day closed (`bagging_close`, timed: it carries the
flight's bags into the Day 2 as entries, carried chips and counts, merged by the event's policy),
the whole Day-2 draw (`day2_draw_run`, seeded: reads the carried field, opens the tables, seats
everyone with their stacks) and the pure draw alone (`festivals.domain.day2`, median of 5 on the
same survivors).

Checks: chips_conserved (the Day-2 counts, the survivors' bags and the Day 2's chips in play are
the same sum); violations = seats held twice on the Day 2 + survivors without a count + what
`draw_violations` finds in the seeded Day-2 seats + Day-2 players left without a seat.

Prints one JSON line: flights, entries, day2_players, bag_table_p50_ms, bag_table_p99_ms,
end_of_day_report_ms, day_close_max_ms (the slowest of the flights' day closes), day2_draw_ms,
day2_draw_domain_ms, chips_conserved, violations, database. `--profile` prints the costliest
statements of the bagging, the closes and the draw to stderr.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from bench import _calibrate, _django

DATABASE = "postgres://postgres@127.0.0.1:5432/floor_bench_festival"
SMALLEST_CHIP = 25
STARTING_STACK = 20_000
BUY_IN = 1_000
# Players out in one hand at one table during the untimed play-down.
OUT_PER_HAND = 7


def percentile(samples: list[float], p: float) -> float:
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def deal_stacks(total: int, players: int, rng: random.Random) -> list[int]:
    """`total` chips over `players` stacks at random, each a multiple of the smallest chip and
    at least one chip, summing to `total` exactly (`total` a multiple of the smallest chip)."""
    units = total // SMALLEST_CHIP
    weights = [rng.uniform(0.2, 3.0) for _ in range(players)]
    scale = (units - players) / sum(weights)
    shares = [1 + int(w * scale) for w in weights]
    for i in rng.choices(range(players), k=units - sum(shares)):
        shares[i] += 1
    return [s * SMALLEST_CHIP for s in shares]


class StatementProfile:
    """Time per SQL statement (first 150 characters) while `active`."""

    def __init__(self) -> None:
        self.time: Counter[str] = Counter()
        self.calls: Counter[str] = Counter()
        self.active = False
        self.python: cProfile.Profile | None = None

    @contextmanager
    def paused(self) -> Iterator[None]:
        """Leave out what runs inside (the confirmation between two timed counts)."""
        active, self.active = self.active, False
        if self.python is not None:
            self.python.disable()
        try:
            yield
        finally:
            self.active = active
            if self.python is not None:
                self.python.enable()

    def __call__(self, execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        if not self.active:
            return execute(sql, params, many, context)
        t0 = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            key = " ".join(sql.split())[:150]
            self.time[key] += time.perf_counter() - t0
            self.calls[key] += 1

    @contextmanager
    def measuring(self, title: str, per: int, on: bool) -> Iterator[None]:
        self.time.clear()
        self.calls.clear()
        self.active = on
        python = self.python = cProfile.Profile() if on else None
        if python is not None:
            python.enable()
        try:
            yield
        finally:
            self.active = False
            self.python = None
            if python is not None:
                python.disable()
        if python is not None:
            print(f"--- {title}: Python, cumulative over {per} calls", file=sys.stderr)
            pstats.Stats(python, stream=sys.stderr).sort_stats("cumulative").print_stats(25)
            print(f"--- {title}: SQL per call ({per} calls)", file=sys.stderr)
        if on:
            for key, spent in self.time.most_common(12):
                print(
                    f"{spent * 1000 / per:8.2f} ms {self.calls[key] / per:6.1f}x  {key}",
                    file=sys.stderr,
                )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--flights", type=int, default=3)
    parser.add_argument("--entries-per-flight", type=int, default=5000)
    parser.add_argument("--seats", type=int, default=9)
    parser.add_argument("--survive", type=float, default=0.2, help="share of a flight bagging")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--profile", action="store_true", help="costliest statements to stderr")
    args = parser.parse_args()

    if _django._postgres_reachable():
        os.environ.setdefault("DATABASE_URL", DATABASE)
    url = _django.setup(fresh=True)
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.db import connection
    from django.utils import timezone

    from core.roles import DIRECTOR, FLOOR, ensure_role_groups
    from counts.models import ChipCount
    from festivals import services as fest
    from festivals.domain.day2 import (
        Seat,
        Survivor,
        day2_draw,
        draw_violations,
        merge_survivors,
    )
    from festivals.models import Advance, Bagging
    from festivals.selectors import bagging_report
    from live.realtime import live_flush
    from tables import services as seating
    from tables.domain.seating import tables_needed
    from tables.models import SeatAssignment
    from tournament.domain.structure import LevelSpec
    from tournament.events import Actor
    from tournament.models import (
        Entry,
        EntryStatus,
        Player,
        Purchase,
        PurchaseKind,
        Status,
        Tournament,
    )
    from tournament.selectors import tournament_numbers
    from tournament.services.registration import registration_close
    from tournament.services.tournaments import (
        chip_set_create,
        structure_create,
        tournament_create,
    )

    rng = random.Random(args.seed)
    ensure_role_groups()
    users = get_user_model().objects
    director = users.create_user("bench-director")
    director.groups.add(Group.objects.get(name=DIRECTOR))
    floor = users.create_user("bench-floor")
    floor.groups.add(Group.objects.get(name=FLOOR))
    actor = Actor(user=director, label="director", source="127.0.0.1")
    second = Actor(user=floor, label="floor", source="127.0.0.1")

    def analyze() -> None:
        # Autovacuum analyzes freshly written rows within a minute on a live database.
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE")

    chip_set = chip_set_create(
        name="bench",
        denominations=[
            (SMALLEST_CHIP, "#2e7d32", "green"),
            (100, "#111111", "black"),
            (500, "#6a1b9a", "purple"),
            (1000, "#f9a825", "yellow"),
            (5000, "#c62828", "red"),
        ],
    )
    template = tournament_create(
        actor=actor,
        name="Bench festival",
        starts_at=timezone.now(),
        buy_in=BUY_IN,
        fee=0,
        starting_stack=STARTING_STACK,
        structure=structure_create(name="bench", levels=[LevelSpec(100, 200, minutes=60)]),
        chip_set=chip_set,
        seats_per_table=args.seats,
    )
    event = fest.event_create(
        template=template, name="Bench Main Event", flights=args.flights, actor=actor
    )
    flights = [f.tournament for f in event.flights.order_by("position")]
    labels = [f.label for f in event.flights.order_by("position")]

    # --- Each flight: registration, draw, play down (not timed) ------------------------------
    setup_started = time.perf_counter()
    for position, flight in enumerate(flights):
        Tournament.objects.filter(pk=flight.pk).update(status=Status.REGISTERING)
        players = Player.objects.bulk_create(
            Player(name=f"Player {position}-{i}", display_name=f"P{position}-{i}")
            for i in range(args.entries_per_flight)
        )
        entries = Entry.objects.bulk_create(
            Entry(tournament=flight, player=p, number=i + 1, status=EntryStatus.ACTIVE)
            for i, p in enumerate(players)
        )
        Purchase.objects.bulk_create(
            Purchase(entry=e, kind=PurchaseKind.BUYIN, price=BUY_IN, fee=0, chips=STARTING_STACK)
            for e in entries
        )
        needed = tables_needed(args.entries_per_flight, args.seats)
        while (have := flight.tables.count()) < needed:
            seating.tables_create(tournament=flight, count=min(1000, needed - have), actor=actor)
        seating.seats_draw(tournament=flight, actor=actor)
        Tournament.objects.filter(pk=flight.pk).update(status=Status.RUNNING)
        registration_close(tournament=Tournament.objects.get(pk=flight.pk), actor=actor)
        analyze()
        _play_down(flight, args, rng, actor)
    analyze()
    setup_s = time.perf_counter() - setup_started

    # --- Bag and tag: every table of every flight ---------------------------------------------
    profile = StatementProfile()
    record_samples: list[float] = []
    baggings: list[Bagging] = []
    with connection.execute_wrapper(profile):
        tables_bagged = 0
        for position, flight in enumerate(flights):
            flight = Tournament.objects.get(pk=flight.pk)
            bagging = fest.bagging_open(tournament=flight, actor=actor)
            baggings.append(bagging)
            seated = list(
                SeatAssignment.objects.filter(table__tournament=flight)
                .order_by("table__number", "seat")
                .values_list("table__number", "entry_id", "entry__number")
            )
            stacks = deal_stacks(tournament_numbers(flight).chips_in_play, len(seated), rng)
            by_table: dict[int, dict[int, tuple[int | None, str]]] = {}
            for (table, entry_id, number), chips in zip(seated, stacks, strict=True):
                by_table.setdefault(table, {})[entry_id] = (chips, f"{labels[position]}-{number}")
            last = position == len(flights) - 1
            with profile.measuring(
                "bags_record (last flight)", len(by_table), args.profile and last
            ):
                for table, bags in by_table.items():
                    t0 = time.perf_counter()
                    fest.bags_record(bagging=bagging, table_number=table, bags=bags, actor=actor)
                    record_samples.append(time.perf_counter() - t0)
                    with profile.paused():
                        fest.bags_confirm(
                            bagging=bagging, table_number=table, entry_ids=None, actor=second
                        )
            tables_bagged += len(by_table)

        # --- End of day: the report of the largest flight, then every day closed -------------
        largest = max(
            baggings, key=lambda b: Tournament.objects.get(pk=b.tournament_id).players_left
        )
        report_samples: list[float] = []
        with profile.measuring("bagging_report", 5, args.profile):
            for _ in range(5):
                t0 = time.perf_counter()
                report = bagging_report(largest)
                report_samples.append(time.perf_counter() - t0)
        assert report.complete and not report.findings, report.findings[:5]
        # The floor closes the days and draws the Day 2 from a web process, as
        # bench/seating.py times its draw: one that holds none of the setup's model instances
        # and has frozen its settled heap out of full garbage collections
        # (config.wsgi.serve). Here a full collection walked the setup's 15,000 entries'
        # worth of objects (a second of the draw at load 5).
        del players, entries
        gc.collect()
        gc.freeze()
        # Closing a flight's day carries its bags into the Day 2 (entries, carried chips,
        # counts): timed, as the part of the merge that moved out of the draw.
        close_samples: list[float] = []
        with profile.measuring("bagging_close", len(baggings), args.profile):
            for bagging in baggings:
                t0 = time.perf_counter()
                fest.bagging_close(bagging=bagging, actor=actor)
                close_samples.append(time.perf_counter() - t0)
        analyze()

        # --- The Day-2 draw: the pure draw on the same survivors, then the whole service -----
        event.refresh_from_db()
        survivors, flight_bags, missing = _survivors(flights, baggings)
        merged = merge_survivors(survivors, best_stack=event.advance == Advance.BEST)
        day2 = Tournament.objects.get(pk=event.day2_id)
        tables = [
            (n, day2.seats_per_table)
            for n in range(1, tables_needed(len(merged.advancing), day2.seats_per_table) + 1)
        ]
        domain_samples: list[float] = []
        for i in range(5):
            t0 = time.perf_counter()
            day2_draw(merged.advancing, tables=tables, seeded=True, rng=random.Random(i))
            domain_samples.append(time.perf_counter() - t0)
        with profile.measuring("day2_draw_run", 1, args.profile):
            t0 = time.perf_counter()
            drawn = fest.day2_draw_run(event=event, seeded=True, actor=actor)
            draw_s = time.perf_counter() - t0

    # --- Checks ---------------------------------------------------------------------------------
    day2 = Tournament.objects.get(pk=event.day2_id)
    counted = sum(ChipCount.objects.filter(tournament=day2).values_list("count", flat=True))
    in_play = tournament_numbers(day2).chips_in_play
    seats = list(
        SeatAssignment.objects.filter(table__tournament=day2).values_list(
            "entry_id", "entry__player_id", "table_id", "table__number", "seat", "stack"
        )
    )
    doubled = sum(n - 1 for n in Counter((t, s) for _e, _p, t, _n, s, _c in seats).values())
    day2_counts = dict(ChipCount.objects.filter(tournament=day2).values_list("entry_id", "count"))
    uncounted = sum(1 for e, *_rest in seats if e not in day2_counts)
    placed = {e: Seat(table=n, seat=s) for e, _p, _t, n, s, _c in seats}
    day2_survivors = [
        Survivor(player_id=p, entry_id=e, flight=0, chips=day2_counts.get(e, 0), bag="")
        for e, p, _t, _n, _s, _c in seats
    ]
    problems = draw_violations(placed, day2_survivors, tables=tables, seeded=True)
    if problems:
        print("\n".join(problems[:10]), file=sys.stderr)
    unseated = day2.players_left - len(seats)  # carried into the Day 2 but given no seat
    violations = doubled + missing + uncounted + unseated + len(problems)
    print(
        f"setup {setup_s:.0f} s; {tables_bagged} tables bagged; "
        f"{drawn.players} players on {drawn.tables} Day-2 tables",
        file=sys.stderr,
    )
    print(
        _calibrate.line(
            {
                "flights": args.flights,
                "entries": args.flights * args.entries_per_flight,
                "day2_players": drawn.players,
                "bag_table_p50_ms": _ms(statistics.median(record_samples)),
                "bag_table_p99_ms": _ms(percentile(record_samples, 99)),
                "end_of_day_report_ms": _ms(statistics.median(report_samples)),
                "day_close_max_ms": _ms(max(close_samples)),
                "day2_draw_ms": _ms(draw_s),
                "day2_draw_domain_ms": _ms(statistics.median(domain_samples)),
                "chips_conserved": counted == flight_bags == in_play,
                "violations": violations,
                "database": url.split(":", 1)[0],
            }
        )
    )
    live_flush(10)  # the broadcasts queued on commit, before the interpreter goes


def _play_down(flight: Any, args: argparse.Namespace, rng: random.Random, actor: Any) -> None:
    """Bust players until `args.survive` of the field is left: random players, several of one
    table out in one hand (their stacks at the start of the hand rank them)."""
    from actions.bust import BustReport, entries_bust
    from tables.models import SeatAssignment

    seated = list(
        SeatAssignment.objects.filter(table__tournament=flight)
        .select_related("entry")
        .values_list("table__number", "entry")
    )
    keep = max(2, round(args.entries_per_flight * args.survive))
    out = rng.sample(seated, len(seated) - keep)
    by_table: dict[int, list[int]] = {}
    for table, entry_id in out:
        by_table.setdefault(table, []).append(entry_id)
    entries = {
        e.pk: e for e in flight.entries.filter(pk__in=[e for _t, e in out]).only("id", "number")
    }
    for ids in by_table.values():
        for start in range(0, len(ids), OUT_PER_HAND):
            hand = ids[start : start + OUT_PER_HAND]
            entries_bust(
                tournament=flight,
                busts=[
                    BustReport(entry=entries[e], stack_at_hand_start=1_000 * (i + 1))
                    for i, e in enumerate(hand)
                ],
                actor=actor,
            )


def _survivors(flights: list[Any], baggings: list[Any]) -> tuple[list[Any], int, int]:
    """Every flight's survivors with their latest bag (as closing a day reads them), the sum
    of their bags, and how many survivors have no bag."""
    from festivals.domain.day2 import Survivor
    from festivals.selectors import latest_bags
    from tournament.models import Entry, EntryStatus

    survivors = []
    bagged = missing = 0
    for position, (flight, bagging) in enumerate(zip(flights, baggings, strict=True)):
        latest = latest_bags(bagging)
        for entry_id, player_id in Entry.objects.filter(
            tournament=flight, status=EntryStatus.ACTIVE
        ).values_list("pk", "player_id"):
            row = latest.get(entry_id)
            if row is None:
                missing += 1
                continue
            bagged += row.chips
            survivors.append(
                Survivor(
                    player_id=player_id,
                    entry_id=entry_id,
                    flight=position,
                    chips=row.chips,
                    bag=row.bag,
                )
            )
    return survivors, bagged, missing


if __name__ == "__main__":
    main()
