"""Charts (issue #61): the counts page's graph and the night's story, at the sizes the issue names.

    python -m bench.charts [--players 1000 --counts 20 --entries 30000 --runs 20]

On PostgreSQL (127.0.0.1:5432, database floor_bench_charts, made afresh; SQLite under var/ when
PostgreSQL is not reachable) two tournaments are written in bulk, not played through the
services:

- **counts**: `players` entries, each counted once in each of `counts` levels (a clock started
  `counts` levels ago, the counts in the middle of each level, a tenth of the field out along
  the way). `counts_graph_ms`: the counts page's graph data as the page reads it
  (counts.selectors.leaders_graph: the level of each count from the clock's history in SQL,
  the leaders found by the database, their counts, the chart's lines and table), median of
  `runs`; `counts_graph_domain_ms` the pure part alone (counts.domain.graphs.leaders_chart over
  all `players` × `counts` points); `counts_svg_ms` the picture drawn from it and
  `counts_svg_bytes` what a phone downloads for it (the public page's size).
- **story**: `entries` entries (every fifth a re-entry) bought over the first ten levels of a
  24-level structure with breaks, 90 % of them busted over sixteen levels, a payout table for
  the field. `story_ms`: the night's story as the pages read it, uncached
  (tournament.charts.story_data: two grouped queries and the three charts' data), median of
  `runs`; `story_svg_ms` the three pictures and their tables drawn from it;
  `story_svg_bytes` the three pictures' sizes.

Targets (the issue): counts_graph_ms ≤ 100 and story_ms ≤ 100. Prints one JSON line with the
machine's calibration (bench/_calibrate.py).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from bench import _calibrate, _django


def _median_ms(work: Callable[[], Any], runs: int) -> tuple[float, Any]:
    samples = []
    result = None
    for _ in range(runs):
        began = time.perf_counter()
        result = work()
        samples.append((time.perf_counter() - began) * 1000)
    return round(statistics.median(samples), 1), result


def _structure(name: str, levels: int, *, breaks: bool) -> Any:
    from tournament.domain.structure import LevelSpec
    from tournament.services.tournaments import structure_create

    specs = []
    for i in range(levels):
        specs.append(LevelSpec(100 * (i + 1), 200 * (i + 1), minutes=30))
        if breaks and i % 4 == 3:
            specs.append(LevelSpec(0, 0, 0, False, 15, True))
    return structure_create(name=name, levels=specs)


def _tournament(name: str, structure: Any, started_hours_ago: float) -> Any:
    from django.utils import timezone

    from clocks.models import Clock, ClockEvent
    from tournament.events import Actor
    from tournament.models import ChipSet, Tournament
    from tournament.services.tournaments import tournament_create

    start = timezone.now() - timedelta(hours=started_hours_ago)
    t = tournament_create(
        actor=Actor.system("bench"),
        name=name,
        starts_at=start,
        buy_in=10000,
        fee=1000,
        starting_stack=20000,
        structure=structure,
        chip_set=ChipSet.objects.create(name=f"{name} chips"),
    )
    Tournament.objects.filter(pk=t.pk).update(status="running")
    t.refresh_from_db()
    clock = Clock.objects.create(tournament=t)
    ClockEvent.objects.create(clock=clock, kind="start", at=start)
    return t


def _entries(t: Any, count: int, *, prefix: str) -> list[Any]:
    from tournament.models import Entry, EntryStatus, Player, Purchase, PurchaseKind

    players = Player.objects.bulk_create(
        Player(name=f"{prefix} Player {i}", display_name=f"{prefix}{i}") for i in range(count)
    )
    entries = Entry.objects.bulk_create(
        Entry(
            tournament=t,
            player=p,
            number=i + 1,
            is_reentry=i % 5 == 4,
            status=EntryStatus.ACTIVE,
        )
        for i, p in enumerate(players)
    )
    Purchase.objects.bulk_create(
        Purchase(
            entry=e,
            kind=PurchaseKind.REENTRY if e.is_reentry else PurchaseKind.BUYIN,
            price=10000,
            fee=1000,
            chips=20000,
        )
        for e in entries
    )
    return entries


def build_counts(players: int, counts: int) -> Any:
    """A tournament `counts` levels in, every player counted once a level, a tenth out."""
    from counts.models import ChipCount
    from tournament.models import Entry, EntryStatus, Tournament

    structure = _structure("charts bench counts", counts + 2, breaks=False)
    t = _tournament("Charts counts", structure, started_hours_ago=counts * 0.5 + 0.1)
    entries = _entries(t, players, prefix="C")
    rng = random.Random(61)
    out_after = {e.pk: rng.randint(2, counts) for e in entries if rng.random() < 0.1}
    rows = []
    for level in range(1, counts + 1):
        at = t.starts_at + timedelta(minutes=30 * (level - 1) + 15)
        for e in entries:
            if out_after.get(e.pk, counts + 1) < level:
                continue
            rows.append(
                ChipCount(
                    tournament=t,
                    entry=e,
                    count=rng.randint(1_000, 200_000),
                    recorded_at=at,
                    recorded_by_label="bench",
                )
            )
    ChipCount.objects.bulk_create(rows, batch_size=5000)
    for pk, level in out_after.items():
        Entry.objects.filter(pk=pk).update(
            status=EntryStatus.BUSTED,
            busted_at=t.starts_at + timedelta(minutes=30 * (level - 1) + 20),
        )
    Tournament.objects.filter(pk=t.pk).update(
        players_left=players - len(out_after), entries_counted=players
    )
    t.refresh_from_db()
    return t, len(rows)


def build_story(entries: int) -> Any:
    """A night of `entries` entries over ten levels, 90 % busted over sixteen."""
    from tournament.models import Entry, EntryStatus, Purchase, Tournament

    structure = _structure("charts bench story", 24, breaks=True)
    t = _tournament("Charts story", structure, started_hours_ago=9)
    _entries(t, entries, prefix="S")
    start = t.starts_at
    # auto_now_add ignores the values bulk_create is given: the instants are set afterwards.
    for k in range(10):
        low, high = k * entries // 10, (k + 1) * entries // 10
        at = start + timedelta(minutes=30 * k + 5)
        Entry.objects.filter(tournament=t, number__gt=low, number__lte=high).update(created_at=at)
        Purchase.objects.filter(
            entry__tournament=t, entry__number__gt=low, entry__number__lte=high
        ).update(created_at=at)
    out = entries * 9 // 10
    for k in range(16):
        low, high = k * out // 16, (k + 1) * out // 16
        Entry.objects.filter(tournament=t, number__gt=low, number__lte=high).update(
            status=EntryStatus.BUSTED, busted_at=start + timedelta(minutes=30 * k + 20)
        )
    Tournament.objects.filter(pk=t.pk).update(
        players_left=entries - out, entries_counted=entries, places_paid=max(1, entries // 10)
    )
    t.refresh_from_db()
    return t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--counts", type=int, default=20)
    parser.add_argument("--entries", type=int, default=30000)
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()

    import os

    os.environ.setdefault("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/floor_bench_charts")
    if not _django._postgres_reachable() and os.environ["DATABASE_URL"].startswith("postgres"):
        os.environ["DATABASE_URL"] = f"sqlite:///{_django.ROOT / 'var' / 'bench_charts.sqlite3'}"
    url = _django.setup(fresh=True)

    from django.db import connection
    from django.utils import translation

    from counts.chart_views import PHONE_SIZE, _draw_leaders
    from counts.domain.graphs import CountPoint, Runner, leaders_chart
    from counts.selectors import leaders_graph
    from tournament.charts import STORY_KINDS, story_data, story_svg, story_tables

    translation.activate("en")
    began = time.perf_counter()
    counted, count_rows = build_counts(args.players, args.counts)
    story_night = build_story(args.entries)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    built_s = round(time.perf_counter() - began, 1)

    leaders_graph(counted)  # warm: the first read pays for the plans
    graph_ms, chart = _median_ms(lambda: leaders_graph(counted), args.runs)
    rng = random.Random(7)
    runners = {
        e: Runner(entry_id=e, number=e, name=f"Player {e}.") for e in range(1, args.players + 1)
    }
    points = [
        CountPoint(id=i, entry_id=e, chips=rng.randint(1_000, 200_000), level=level)
        for i, (level, e) in enumerate(
            ((lv, e) for lv in range(1, args.counts + 1) for e in range(1, args.players + 1)),
            start=1,
        )
    ]
    domain_ms, _ = _median_ms(lambda: leaders_chart(points, runners, limit=10), args.runs)
    svg_ms, svg = _median_ms(lambda: _draw_leaders(chart, dark=False, size=PHONE_SIZE), 5)

    story_data(story_night)
    story_ms, story = _median_ms(lambda: story_data(story_night), args.runs)

    def drawn() -> list[str]:
        pictures = [story_svg(story_night, kind, story=story) for kind in STORY_KINDS]
        story_tables(story_night, story)
        return pictures

    story_svg_ms, pictures = _median_ms(drawn, 5)
    print(
        _calibrate.line(
            {
                "database": "postgresql" if url.startswith("postgres") else "sqlite",
                "players": args.players,
                "counts_per_player": args.counts,
                "count_rows": count_rows,
                "counts_graph_ms": graph_ms,
                "counts_graph_domain_ms": domain_ms,
                "counts_svg_ms": svg_ms,
                "counts_svg_bytes": len(svg.encode()),
                "entries": args.entries,
                "story_rows": len(story.field),
                "story_ms": story_ms,
                "story_svg_ms": story_svg_ms,
                "story_svg_bytes": [len(p.encode()) for p in pictures],
                "built_s": built_s,
                "runs": args.runs,
            }
        )
    )


if __name__ == "__main__":
    main()
