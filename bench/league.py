"""A league season's standings: full compute, after a correction, and the results page.

    python -m bench.league --players 2000 --tournaments 52

On PostgreSQL (127.0.0.1:5432, database floor_bench_league, made afresh): a pool of `players`
people and a season of weekly finished tournaments of 100-300 entries each (written in bulk,
not played through the services), scored by the DPSB preset with best 20 results and
participation points. Measures, in the same process as a page would:

- `standings_ms`: the season's standings computed from the finishes (leagues.selectors
  season_standings, with nothing kept: `standings_cache_clear()`), median of `--runs`;
- `standings_cpu_ms`, `standings_after_correction_cpu_ms`: this process's CPU time for the
  same (without the database's), a figure a busy machine disturbs less;
- `standings_after_correction_ms`: one result corrected (two players' places swapped in one
  tournament, as a correction writes them), then the standings again; median (and max) of
  `--runs`; `correction_seen` says each corrected standings showed the change. The selector
  keeps what it read per process (leagues.selectors `_MEMO`), so this read scores only the
  corrected tournament again and recomputes only its players' lines;
- `race_ms`, `race_cpu_ms`: the season's race (leagues.selectors season_race: the standings after
  each of the nights, every player ranked per night, the top ten drawn) from standings already
  read, as the chart's URL reads it after the page; `race_cold_ms`: the standings computed afresh
  (`standings_cache_clear()`) and the race from them; medians of `--runs`;
- `standings_formula_ms`: the same season scored by a formula (`9 * sqrt(n) / sqrt(p)`);
- `standings_td3_formula_ms`, `standings_td3_after_correction_ms`: scored by the ORF club's TD3
  formula as Floor translates it (docs/leagues.md), which reads the night's figures (hits, the
  money in, the players), their CPU times (`…_cpu_ms`), and `statements_td3_full` / `statements_td3_after_correction`: the
  SQL statements of one such read (each entry has its buy-in as a purchase, a tenth a rebuy,
  and the hits of a random knock-out order);
- `results_page_p99_ms`: the public /t/<id>/results/ page of a 300-entry tournament through the
  Django test client, p99 of `--requests`; beside it `baseline_p99_ms`, the bare /healthz
  through the same client, and `ratio_to_baseline`.

Prints one JSON line: players, tournaments, entries, and the figures above.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from datetime import timedelta
from typing import Any

from bench import _calibrate, _django

DATABASE = "postgres://postgres@127.0.0.1:5432/floor_bench_league"

# ORF's formula of 2024-2025 as leagues.domain.td3_formula translates it (docs/leagues.md).
TD3_FORMULA = """points = 1
t33 = floor((n / 3) + 0.5)
t80 = floor((n * 0.9))
monies = ((buyins_in + rebuys_in) + addons_in)
avgbc = (monies / players)
temp = (((10 * (sqrt(n) / sqrt((t33 + 1)))) * (1 + ln((avgbc + 0.25)))) + (h * 10))
c1 = ((t80 > p) and (t33 < p))
points = IF(c1, (floor((temp * pow(0.66, (p - t33))) + 0.5) + (h * 10)), points)
c2 = IF((not c1), (t33 >= p), 0)
points = IF(c2, (floor(((10 * (sqrt(n) / sqrt(p))) * (1 + ln((avgbc + 0.25)))) + 0.5) + (h * 10)), points)
IF(c1, points, IF(c2, points, 0))"""


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def _p99(samples: list[float]) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]


def build(players: int, tournaments: int, seed: int = 22) -> tuple[Any, list[Any], int]:
    from django.utils import timezone

    from leagues import services as league_svc
    from tournament.domain.structure import LevelSpec
    from tournament.events import Actor
    from tournament.models import Entry, EntryStatus, Player, Purchase, Status, Tournament
    from tournament.services.tournaments import chip_set_create, structure_create, tournament_create

    rng = random.Random(seed)
    actor = Actor.system("bench")
    chips = chip_set_create(name="Bench", denominations=[(25, "#2e7d32", "green")])
    structure = structure_create(
        name="Bench", levels=[LevelSpec(100, 200, 0, False, 20)], is_template=True
    )
    people = Player.objects.bulk_create(
        Player(name=f"Player {i:05d} Bench", display_name=f"Player {i:05d} B.")
        for i in range(players)
    )
    start = timezone.now() - timedelta(weeks=tournaments)
    made = []
    entries = 0
    for week in range(tournaments):
        t = tournament_create(
            actor=actor,
            name=f"Friday {week + 1}",
            starts_at=start + timedelta(weeks=week),
            buy_in=5000,
            fee=500,
            starting_stack=20000,
            structure=structure,
            chip_set=chips,
        )
        size = 300 if week == 0 else rng.randint(100, 300)
        field = rng.sample(people, size)
        hits = [0] * size
        for i in range(1, size):  # place i + 1 knocked out by a better place
            hits[rng.randrange(i)] += 1
        made_entries = Entry.objects.bulk_create(
            Entry(
                tournament=t,
                player=p,
                number=i + 1,
                status=EntryStatus.ACTIVE if i == 0 else EntryStatus.BUSTED,
                place=i + 1,
                elimination_rank=size - i,
                hits=hits[i],
            )
            for i, p in enumerate(field)
        )
        Purchase.objects.bulk_create(
            [Purchase(entry=e, kind="buyin", price=5000, fee=500) for e in made_entries]
            + [
                Purchase(entry=e, kind="rebuy", price=5000, fee=500)
                for e in made_entries
                if rng.random() < 0.1
            ]
        )
        entries += size
        made.append(t)
    Tournament.objects.filter(pk__in=[t.pk for t in made]).update(status=Status.FINISHED)
    league = league_svc.league_create(name="Bench league", public=True)
    season = league_svc.season_create(league=league, name="Season")
    for t in made:
        league_svc.season_tournament_add(season=season, tournament=t)
    season = league_svc.season_update(
        season=season, name="Season", scoring="dpsb", best_n=20, participation="10"
    )
    return season, made, entries


def correct_one(tournament: Any, rng: random.Random) -> tuple[int, int]:
    """Swap the places of the winner and another finisher (one transaction), as a corrected
    result: returns (player now first, the place the old winner has now)."""
    from django.db import transaction

    from tournament.models import Entry

    with transaction.atomic():
        first = Entry.objects.select_for_update().get(tournament=tournament, place=1)
        other_place = rng.randint(2, 9)
        other = Entry.objects.select_for_update().get(tournament=tournament, place=other_place)
        Entry.objects.filter(pk=first.pk).update(place=other_place)
        Entry.objects.filter(pk=other.pk).update(place=1)
    return other.player_id, other_place


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--tournaments", type=int, default=52)
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--requests", type=int, default=300)
    args = parser.parse_args()

    os.environ.setdefault("DATABASE_URL", DATABASE)
    _django.setup(fresh=True)
    from django.conf import settings
    from django.test import Client

    from leagues.selectors import season_race, season_standings, standings_cache_clear

    settings.ALLOWED_HOSTS = ["*"]
    season, made, entries = build(args.players, args.tournaments)
    season_standings(season)  # warm: imports, prepared plans

    full: list[float] = []
    full_cpu: list[float] = []
    for _ in range(args.runs):
        standings_cache_clear()  # a full compute: nothing kept from before
        t0, c0 = time.perf_counter(), time.process_time()
        season_standings(season)
        full.append(time.perf_counter() - t0)
        full_cpu.append(time.process_time() - c0)

    race: list[float] = []
    race_cpu: list[float] = []
    race_cold: list[float] = []
    for _ in range(args.runs):
        read = season_standings(season, public=True)
        t0, c0 = time.perf_counter(), time.process_time()
        drawn = season_race(season, read)
        race.append(time.perf_counter() - t0)
        race_cpu.append(time.process_time() - c0)
        assert len(drawn.nights) == len(made) and len(drawn.lines) == 10
    for _ in range(args.runs):
        standings_cache_clear()
        t0 = time.perf_counter()
        season_race(season, season_standings(season, public=True))
        race_cold.append(time.perf_counter() - t0)

    rng = random.Random(7)
    after: list[float] = []
    after_cpu: list[float] = []
    seen = True
    for i in range(args.runs):
        tournament = made[i % len(made)]
        column = made.index(tournament)
        new_winner, _old_place = correct_one(tournament, rng)
        t0, c0 = time.perf_counter(), time.process_time()
        standings = season_standings(season)
        after.append(time.perf_counter() - t0)
        after_cpu.append(time.process_time() - c0)
        row = next(r for r in standings.rows if r.player_id == new_winner)
        cell = row.cells[column]
        seen = seen and cell is not None and cell.place == 1

    season.formula, season.scoring = "9 * sqrt(n) / sqrt(p)", "formula"
    season.save()
    formula = []
    for _ in range(args.runs):
        standings_cache_clear()
        t0 = time.perf_counter()
        season_standings(season)
        formula.append(time.perf_counter() - t0)

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    season.formula = TD3_FORMULA
    season.save()
    td3, td3_after, td3_cpu, td3_after_cpu = [], [], [], []
    for _ in range(args.runs):
        standings_cache_clear()
        t0, c0 = time.perf_counter(), time.process_time()
        season_standings(season)
        td3.append(time.perf_counter() - t0)
        td3_cpu.append(time.process_time() - c0)
    for i in range(args.runs):
        correct_one(made[(i + 3) % len(made)], rng)
        t0, c0 = time.perf_counter(), time.process_time()
        season_standings(season)
        td3_after.append(time.perf_counter() - t0)
        td3_after_cpu.append(time.process_time() - c0)
    standings_cache_clear()
    connection.queries_log.clear()  # a full log counts nothing new
    with CaptureQueriesContext(connection) as full_sql:
        season_standings(season)
    correct_one(made[1], rng)
    connection.queries_log.clear()
    with CaptureQueriesContext(connection) as after_sql:
        season_standings(season)

    # Now: a request resets the connection's log the counts are read from.
    full_statements, after_statements = len(full_sql), len(after_sql)

    client = Client()
    page = f"/t/{made[0].pk}/results/"
    assert client.get(page).status_code == 200
    assert client.get("/healthz").status_code == 200
    page_samples, base_samples = [], []
    for _ in range(args.requests):
        t0 = time.perf_counter()
        client.get(page)
        page_samples.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        client.get("/healthz")
        base_samples.append(time.perf_counter() - t0)
    page_p99, base_p99 = _p99(page_samples), _p99(base_samples)
    print(
        _calibrate.line(
            {
                "players": args.players,
                "tournaments": len(made),
                "entries": entries,
                "standings_ms": _ms(statistics.median(full)),
                "standings_max_ms": _ms(max(full)),
                "standings_cpu_ms": _ms(statistics.median(full_cpu)),
                "race_ms": _ms(statistics.median(race)),
                "race_cpu_ms": _ms(statistics.median(race_cpu)),
                "race_cold_ms": _ms(statistics.median(race_cold)),
                "standings_after_correction_ms": _ms(statistics.median(after)),
                "standings_after_correction_max_ms": _ms(max(after)),
                "standings_after_correction_cpu_ms": _ms(statistics.median(after_cpu)),
                "correction_seen": seen,
                "standings_formula_ms": _ms(statistics.median(formula)),
                "standings_td3_formula_ms": _ms(statistics.median(td3)),
                "standings_td3_after_correction_ms": _ms(statistics.median(td3_after)),
                "standings_td3_formula_cpu_ms": _ms(statistics.median(td3_cpu)),
                "standings_td3_after_correction_cpu_ms": _ms(statistics.median(td3_after_cpu)),
                "statements_td3_full": full_statements,
                "statements_td3_after_correction": after_statements,
                "results_page_entries": type(made[0]).objects.get(pk=made[0].pk).entries_counted,
                "results_page_p99_ms": _ms(page_p99),
                "baseline_p99_ms": _ms(base_p99),
                "ratio_to_baseline": round(page_p99 / base_p99, 1) if base_p99 else None,
            }
        )
    )


if __name__ == "__main__":
    main()
