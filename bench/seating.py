"""Seating from the draw to the final table, through the real services.

    python -m bench.seating --entries 30000

Registers `entries` players (bulk, not timed), opens the tables, then times the whole seat draw
(committed). Then it plays the event down to the final table: each step busts a random seated
player (after advancing the button at that table), makes the balancing plan and applies it, and
breaks a table when the players fit in one table fewer, all with the real services, exactly as
the console does. The time of each step (bust + plan + moves + break) is one sample.

After every step it checks: sizes within the tolerance after balancing; each mover was the
player due the big blind next at the giving table; each landed in the worst position of the
receiving table. Every `--check-every` steps and at the end it checks the whole room: one seat
per player, one player per seat, every player still in the tournament seated exactly once.

Prints one JSON line: entries, tables, seats_per_table, draw_ms, busts, bust_p50_ms,
bust_p99_ms, moves, breaks, final_table_size, invariant_violations, database.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import time
from collections import Counter
from typing import Any

from bench import _calibrate, _django


def percentile(samples: list[float], p: float) -> float:
    if not samples:
        return 0.0
    ordered = sorted(samples)
    k = min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))
    return ordered[k]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=1000)
    parser.add_argument("--seats", type=int, default=9)
    parser.add_argument("--final", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check-every", type=int, default=500)
    parser.add_argument(
        "--steps", type=int, default=0, help="stop after this many busts (0: to the final table)"
    )
    parser.add_argument(
        "--profile", action="store_true", help="print the costliest SQL statements to stderr"
    )
    parser.add_argument(
        "--draw-only", action="store_true", help="time the draw only (repeat it 3 times)"
    )
    args = parser.parse_args()

    # Production wiring when Redis is here (cache, data versions and broadcasts through it), as
    # a festival runs; otherwise the embedded in-memory layer.
    if _redis_reachable():
        os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/12")
    url = _django.setup(fresh=True)
    from channels.layers import get_channel_layer
    from django.db import connection, transaction
    from django.utils import timezone

    from actions.bust import BustReport, entries_bust
    from actions.tables import hand_done
    from tables import services as svc
    from tables.domain.button import due_big_blind_next, first_hand, worst_empty_seat
    from tables.models import SeatAssignment, Table
    from tournament.domain.structure import LevelSpec
    from tournament.events import Actor
    from tournament.models import (
        ChipSet,
        Entry,
        EntryStatus,
        Player,
        Purchase,
        PurchaseKind,
        Tournament,
    )
    from tournament.services.tournaments import structure_create, tournament_create

    rng = random.Random(args.seed)
    actor = Actor.system("bench")
    structure = structure_create(name="bench", levels=[LevelSpec(100, 200, minutes=60)])
    tournament = tournament_create(
        actor=actor,
        name=f"Bench {args.entries}",
        starts_at=timezone.now(),
        buy_in=1000,
        fee=0,
        starting_stack=10000,
        structure=structure,
        chip_set=ChipSet.objects.create(name="bench"),
        seats_per_table=args.seats,
        final_table_size=args.final,
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        status="running",
        registration_closed_at=timezone.now(),  # the field is final
    )
    tournament.refresh_from_db()
    players = Player.objects.bulk_create(
        Player(name=f"Player {i}", display_name=f"P{i}") for i in range(args.entries)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, number=i + 1, status=EntryStatus.ACTIVE)
        for i, p in enumerate(players)
    )
    # Every entry paid its buy-in: the prize pool is real, so busts in the money pay prizes.
    Purchase.objects.bulk_create(
        Purchase(entry=e, kind=PurchaseKind.BUYIN, price=1000, fee=0, chips=10000) for e in entries
    )
    needed = -(-args.entries // args.seats)
    svc.tables_create(tournament=tournament, count=min(needed, 1000), actor=actor)
    while tournament.tables.count() < needed:
        svc.tables_create(
            tournament=tournament, count=min(1000, needed - tournament.tables.count()), actor=actor
        )

    _analyze(connection)
    # A running web process built its channel layer with its first broadcast (40 ms here), holds
    # no 60,000 model instances from a bulk registration, and has frozen its settled heap out
    # of full garbage collections (config.wsgi.serve freezes it the same way).
    get_channel_layer()
    del players, entries
    gc.collect()
    gc.freeze()
    t0 = time.perf_counter()
    svc.seats_draw(tournament=tournament, actor=actor)
    draw_ms = (time.perf_counter() - t0) * 1000
    _analyze(connection)
    if args.draw_only:
        redraws = []
        for _ in range(3):
            t0 = time.perf_counter()
            svc.seats_draw(tournament=tournament, actor=actor, redraw=True)
            redraws.append(round((time.perf_counter() - t0) * 1000, 1))
        print(
            _calibrate.line(
                {"entries": args.entries, "draw_ms": round(draw_ms, 1), "redraw_ms": redraws}
            )
        )
        return

    # The floor draws for the button at every table (not timed).
    tables = list(Table.objects.filter(tournament=tournament, is_open=True))
    seats_by_table: dict[int, list[int]] = {}
    for table_id, seat in SeatAssignment.objects.filter(table__in=tables).values_list(
        "table_id", "seat"
    ):
        seats_by_table.setdefault(table_id, []).append(seat)
    for table in tables:
        seats = seats_by_table[table.pk]
        table.set_blinds(first_hand(table.seats, set(seats), rng.choice(seats)))
    Table.objects.bulk_update(tables, ["button_seat", "small_blind_seat", "big_blind_seat"])

    rules = svc.balance_rules(tournament)
    violations: list[str] = []
    samples: list[float] = []
    moves = breaks = busts = 0

    def full_check() -> None:
        rows = list(
            SeatAssignment.objects.filter(table__tournament=tournament).values_list(
                "entry_id", "table_id", "seat", "table__is_open"
            )
        )
        places = Counter((t, s) for _, t, s, _ in rows)
        if any(c > 1 for c in places.values()):
            violations.append("two players in one seat")
        seated = Counter(e for e, _, _, _ in rows)
        if any(c > 1 for c in seated.values()):
            violations.append("a player with two seats")
        if any(not is_open for *_, is_open in rows):
            violations.append("a player at a closed table")
        alive = set(
            tournament.entries.filter(status=EntryStatus.ACTIVE).values_list("pk", flat=True)
        )
        if alive != set(seated):
            violations.append(f"seated {len(seated)} != alive {len(alive)}")

    def table_view(table: Table) -> tuple[set[int], Any]:
        seats = set(table.assignments.values_list("seat", flat=True))
        return seats, table.blinds()

    parts: Counter[str] = Counter()
    break_samples: list[float] = []
    plain_samples: list[float] = []
    queries = [0]

    sql_time: Counter[str] = Counter()
    sql_calls: Counter[str] = Counter()

    def count_query(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        queries[0] += 1
        if not args.profile:
            return execute(sql, params, many, context)
        ts = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            key = " ".join(sql.split())[:150]
            sql_time[key] += time.perf_counter() - ts
            sql_calls[key] += 1

    alive = args.entries
    while alive > args.final and not (args.steps and busts >= args.steps):
        row = (
            SeatAssignment.objects.filter(table__tournament=tournament)
            .select_related("entry", "table")
            .order_by("?")
            .first()
            if alive < 2000
            else _random_row(tournament, rng)
        )
        assert row is not None
        table = row.table
        hand_done(table=table, actor=actor)  # the button moves between busts (not timed)

        t0 = time.perf_counter()
        with transaction.atomic(), connection.execute_wrapper(count_query):
            entries_bust(tournament=tournament, busts=[BustReport(entry=row.entry)], actor=actor)
            parts["bust"] += time.perf_counter() - t0
            tp = time.perf_counter()
            plan = svc.balance_plan(tournament)
            parts["plan"] += time.perf_counter() - tp
            paused = time.perf_counter()  # the checks' own reads are not timed
            before = {}
            for m in plan.moves:
                for number in (m.from_table, m.to_table):
                    if number not in before:
                        t = Table.objects.get(tournament=tournament, number=number)
                        before[number] = (t, *table_view(t))
            t0 += time.perf_counter() - paused
            if plan.moves:
                svc.balance_apply(tournament=tournament, signature=plan.signature, actor=actor)
            tp = time.perf_counter()
            broken = svc.break_suggestion(tournament)
            parts["suggest"] += time.perf_counter() - tp
            if broken is not None and alive - 1 > args.final:
                tp = time.perf_counter()
                svc.table_break(tournament=tournament, number=broken, actor=actor)
                parts["break"] += time.perf_counter() - tp
                breaks += 1
            tp = time.perf_counter()
        parts["commit"] += time.perf_counter() - tp
        samples.append((time.perf_counter() - t0) * 1000)
        (break_samples if broken is not None else plain_samples).append(samples[-1])
        counts = svc.table_counts(tournament)
        busts += 1
        alive -= 1
        moves += len(plan.moves)

        # Checks of this step (not timed).
        first_from: dict[int, bool] = {}
        for m in plan.moves:
            t, seats, blinds = before[m.from_table]
            if m.from_table not in first_from and blinds is not None:
                first_from[m.from_table] = True
                if m.from_seat != due_big_blind_next(t.seats, seats, blinds):
                    violations.append(f"mover at table {m.from_table} was not due the big blind")
            rt, rseats, rblinds = before[m.to_table]
            if m.to_table not in first_from and rblinds is not None and not rules.keep_position:
                first_from[m.to_table] = False
                if m.to_seat != worst_empty_seat(rt.seats, rseats, rblinds):
                    violations.append(f"mover to table {m.to_table} not in the worst position")
        if broken is None:
            sizes = list(counts.values())
            if sizes and max(sizes) - min(sizes) > rules.tolerance:
                violations.append(f"out of balance after step {busts}: {min(sizes)}-{max(sizes)}")
        if busts % args.check_every == 0:
            full_check()
    if not args.steps and alive > 1 and tournament.tables.filter(is_open=True).count() > 1:
        svc.final_table_draw(tournament=tournament, actor=actor)
    full_check()
    if args.profile:
        import sys

        print(
            f"steps without a break: p50 {percentile(plain_samples, 50):.2f} ms, "
            f"p99 {percentile(plain_samples, 99):.2f} ms; with a break ({len(break_samples)}): "
            f"p50 {percentile(break_samples, 50):.2f} ms, p99 {percentile(break_samples, 99):.2f}"
            f" ms; per step: "
            + ", ".join(f"{k} {v * 1000 / max(busts, 1):.2f} ms" for k, v in parts.items())
            + f"; break {parts['break'] * 1000 / max(breaks, 1):.2f} ms per break",
            file=sys.stderr,
        )

        for key, total in sql_time.most_common(25):
            print(
                f"{total * 1000 / max(busts, 1):7.2f} ms/step {sql_calls[key]:6d}x  {key}",
                file=sys.stderr,
            )
    print(
        _calibrate.line(
            {
                "entries": args.entries,
                "tables": needed,
                "seats_per_table": args.seats,
                "draw_ms": round(draw_ms, 1),
                "busts": busts,
                "bust_p50_ms": round(percentile(samples, 50), 2),
                "bust_p99_ms": round(percentile(samples, 99), 2),
                "bust_max_ms": round(max(samples), 2) if samples else 0,
                "moves": moves,
                "breaks": breaks,
                "final_table_size": args.final,
                "invariant_violations": len(violations),
                "violations_sample": violations[:5],
                "database": url.split(":", 1)[0],
                "channel_layer": "redis" if os.environ.get("REDIS_URL") else "in-memory",
                "queries_per_step": round(queries[0] / max(busts, 1), 1),
                "bust_service_ms_avg": round(parts["bust"] * 1000 / max(busts, 1), 2),
                "plan_ms_avg": round(parts["plan"] * 1000 / max(busts, 1), 2),
            }
        )
    )


def _redis_reachable() -> bool:
    import socket

    try:
        with socket.create_connection(("127.0.0.1", 6379), 1):
            return True
    except OSError:
        return False


def _analyze(connection: Any) -> None:
    """Vacuumed tables and fresh planner statistics after a bulk load, as autovacuum gives a
    live database within about a minute (not timed; otherwise autovacuum works through the bulk
    load on the same two cores while the draw is timed)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")


def _random_row(tournament: Any, rng: random.Random) -> Any:
    from tables.models import SeatAssignment, Table

    while True:
        tables = list(
            Table.objects.filter(tournament=tournament, is_open=True).values_list("pk", flat=True)
        )
        table_id = rng.choice(tables)
        rows = list(
            SeatAssignment.objects.filter(table_id=table_id).select_related("entry", "table")
        )
        if rows:
            return rng.choice(rows)


if __name__ == "__main__":
    main()
