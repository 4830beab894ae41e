"""Chip counts for a big field, through the real services and pages.

    python -m bench.counts --players 5000

Registers `players` entries (bulk, not timed), opens 9-handed tables and draws the seats, then
records one count for every player, table by table, through `counts.services.table_counts_record`
(one transaction and one event per table: what the console's table form does). Then it reads
the chip leaders (`counts.selectors.chip_leaders`: one query) and the whole field (every
player's stack, `tournament_field`: field_ms) and the public counts page
(`/t/<id>/counts/`, first page of 100, through Django's test client) `--requests` times.

Prints one JSON line: players, tables, counts, table_record_p50_ms, table_record_p99_ms,
leaders_ms (median), field_ms (median), public_page_p50_ms, public_page_p99_ms, api_p99_ms, average_source,
database. A benchmark measures; the tests assert behaviour (no timing asserts there).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from bench import _calibrate, _django

DATABASE = "postgres://postgres@127.0.0.1:5432/floor_bench_counts"


def percentile(samples: list[float], p: float) -> float:
    if not samples:
        return 0.0
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=5000)
    parser.add_argument("--seats", type=int, default=9)
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    if _django._postgres_reachable():
        os.environ.setdefault("DATABASE_URL", DATABASE)
    url = _django.setup(fresh=True)
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.utils import timezone

    from counts.domain.stacks import leaders
    from counts.selectors import chip_leaders, tournament_field
    from counts.services import table_counts_record
    from tables import services as seating
    from tables.models import SeatAssignment
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

    settings.ALLOWED_HOSTS = ["*"]
    rng = random.Random(args.seed)
    actor = Actor.system("bench")
    structure = structure_create(name="bench", levels=[LevelSpec(100, 200, minutes=60)])
    tournament = tournament_create(
        actor=actor,
        name=f"Bench counts {args.players}",
        starts_at=timezone.now(),
        buy_in=1000,
        fee=0,
        starting_stack=20000,
        structure=structure,
        chip_set=ChipSet.objects.create(name="bench"),
        seats_per_table=args.seats,
    )
    Tournament.objects.filter(pk=tournament.pk).update(
        status="running", registration_closed_at=timezone.now()
    )
    tournament.refresh_from_db()
    players = Player.objects.bulk_create(
        Player(name=f"Player {i}", display_name=f"P{i}") for i in range(args.players)
    )
    entries = Entry.objects.bulk_create(
        Entry(tournament=tournament, player=p, number=i + 1, status=EntryStatus.ACTIVE)
        for i, p in enumerate(players)
    )
    Purchase.objects.bulk_create(
        Purchase(entry=e, kind=PurchaseKind.BUYIN, price=1000, fee=0, chips=20000) for e in entries
    )
    needed = -(-args.players // args.seats)
    while tournament.tables.count() < needed:
        seating.tables_create(
            tournament=tournament,
            count=min(1000, needed - tournament.tables.count()),
            actor=actor,
        )
    seating.seats_draw(tournament=tournament, actor=actor)
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ANALYZE")

    by_table: dict[int, list[int]] = {}
    for entry_id, number in SeatAssignment.objects.filter(table__tournament=tournament).values_list(
        "entry_id", "table__number"
    ):
        by_table.setdefault(number, []).append(entry_id)

    record: list[float] = []
    for number in sorted(by_table):
        counts = {e: rng.randrange(2_000, 38_000, 25) for e in by_table[number]}
        t0 = time.perf_counter()
        table_counts_record(tournament=tournament, table_number=number, counts=counts, actor=actor)
        record.append(time.perf_counter() - t0)

    # Autovacuum analyzes the freshly written counts within a minute on a live database.
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ANALYZE")
    leader_samples: list[float] = []
    source = ""
    field_samples: list[float] = []
    for _ in range(15):
        t0 = time.perf_counter()
        top = chip_leaders(tournament, 10)
        leader_samples.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        field = tournament_field(tournament)
        field_samples.append(time.perf_counter() - t0)
        source = field.average.source
    assert len(top) == 10 and [s.chips for s in top] == [s.chips for s in leaders(field, 10)]

    client = Client()
    page = f"/t/{tournament.pk}/counts/"
    api = f"/api/tournaments/{tournament.pk}/counts/"
    assert client.get(page).status_code == 200
    assert client.get(api).status_code == 200
    page_samples: list[float] = []
    api_samples: list[float] = []
    for _ in range(args.requests):
        t0 = time.perf_counter()
        client.get(page)
        page_samples.append(time.perf_counter() - t0)
    for _ in range(max(10, args.requests // 5)):
        t0 = time.perf_counter()
        client.get(api)
        api_samples.append(time.perf_counter() - t0)
    print(
        _calibrate.line(
            {
                "players": args.players,
                "tables": len(by_table),
                "counts": sum(len(v) for v in by_table.values()),
                "table_record_p50_ms": _ms(statistics.median(record)),
                "table_record_p99_ms": _ms(percentile(record, 99)),
                "leaders_ms": _ms(statistics.median(leader_samples)),
                "field_ms": _ms(statistics.median(field_samples)),
                "public_page_p50_ms": _ms(statistics.median(page_samples)),
                "public_page_p99_ms": _ms(percentile(page_samples, 99)),
                "api_p99_ms": _ms(percentile(api_samples, 99)),
                "average_source": source,
                "database": url.split(":", 1)[0],
            }
        )
    )


if __name__ == "__main__":
    main()
