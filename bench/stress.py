"""Concurrency stress on PostgreSQL: many floor clients at once on one event.

    python -m bench.stress --players 2000 --clients 8 --seconds 30

Seats `players` entries, then runs `clients` processes for `seconds` that each pick at random:
register a late player (seated at once), bust a seated player, finish a hand at a table, apply
the balancing plan, break the table the plan suggests, move a player by hand to an empty seat,
pause, resume or shorten the clock (a level set to end in a second or two), announce the levels
that are due (the ticker), call the clock on a player or call the floor from a table — all
through the real services, as two floor people, forty tablets and the ticker would. Refusals (a
stale plan, a seat just taken, a player just busted by someone else, a pause of a paused clock)
are expected and counted.

At the end every invariant is checked: no seat holds two players, no player has two seats,
nobody sits at a closed table, every player in the tournament has a seat and nobody else has,
every counter the database keeps equals a full recount of its rows (`floor_recount --check`),
and the event log is complete and in order: one event per operation that succeeded, of the
kind `EVENT_OF` names (`entry.register`, `entry.bust`, `table.hand`, `seats.balance`,
`seats.break`, `seats.move`, `clock.pause`, `clock.resume`, `clock.add`, `clock.set_remaining`,
`table.time_call`, `table.call_floor`; one `clock.level` a level announced), event ids in the
order of their times. (The tournament's lock comes first for every one of these writers:
tournament/locks.py. The ticker once took the clock's first and deadlocked with a clock
command.) Prints one JSON line: players, clients, seconds, operations (by kind), refused,
errors (exceptions other than refusals, e.g. deadlocks), violations (a list).
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing as mp
import random
import time
from collections import Counter
from datetime import timedelta
from typing import Any

from bench import _calibrate, _django

ACTIONS = [
    *["register", "bust", "bust", "hand", "hand", "hand", "balance", "break", "move"],
    *["clock_pause", "clock_resume", "clock_add", "clock_set_remaining", "announce", "announce"],
    *["time_call", "floor"],
]
EVENT_OF = {
    "register": "entry.register",
    "bust": "entry.bust",
    "hand": "table.hand",
    "balance": "seats.balance",
    "break": "seats.break",
    "move": "seats.move",
    "clock_pause": "clock.pause",
    "clock_resume": "clock.resume",
    "clock_add": "clock.add",
    "clock_set_remaining": "clock.set_remaining",
    "announce": "clock.level",  # one a level announced
    "time_call": "table.time_call",
    "floor": "table.call_floor",
}


def client(tournament_id: int, seed: int, seconds: float, barrier: Any, out: Any) -> None:
    _django.setup(migrate=False)  # a fresh process: no connection or pool shared with others
    from django.db import OperationalError, close_old_connections

    from actions.bust import BustReport, entries_bust
    from actions.registration import entry_register
    from actions.tables import hand_done
    from clocks.selectors import clock_state_for
    from clocks.services import clock_command, clocks_announce_due
    from core.errors import FloorError
    from tables import services as svc
    from tables.models import SeatAssignment, Table
    from tournament.events import Actor
    from tournament.models import Tournament
    from tournament.services.registration import player_create

    rng = random.Random(seed)
    me = Actor(user=None, label=f"client {seed}", source="stress")
    t = Tournament.objects.get(pk=tournament_id)
    done: Counter[str] = Counter()
    errors: list[str] = []
    barrier.wait()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        action = rng.choice(ACTIONS)
        made = 1
        try:
            if action.startswith("clock_"):
                kind = action.removeprefix("clock_")
                # Time only taken away, and a level set to end within two seconds only when
                # more is left: the levels end during the run and the ticker announces them.
                if kind == "set_remaining" and clock_state_for(t).remaining <= 3:
                    continue
                seconds = rng.choice([1, 2]) if kind == "set_remaining" else -5
                clock_command(tournament=t, kind=kind, seconds=seconds, actor=me)
            elif action == "announce":
                made = clocks_announce_due()
                if not made:
                    continue
            elif action in ("time_call", "floor"):
                table = Table.objects.filter(tournament=t, is_open=True).order_by("?").first()
                if table is None:
                    continue
                if action == "floor":
                    svc.call_floor(table=table, note="stress", actor=me)
                else:
                    svc.time_call_start(table=table, seat=None, actor=me)
            elif action == "register":
                player = player_create(name=f"Late Player{seed}x{rng.random():.8f}", actor=me)
                entry_register(tournament=t, player=player, actor=me)
            elif action == "bust":
                alive = SeatAssignment.objects.filter(table__tournament=t).count()
                if alive <= 20:
                    continue
                row = (
                    SeatAssignment.objects.filter(table__tournament=t)
                    .select_related("entry")
                    .order_by("?")
                    .first()
                )
                if row is None:
                    continue
                entries_bust(tournament=t, busts=[BustReport(entry=row.entry)], actor=me)
            elif action == "hand":
                table = Table.objects.filter(tournament=t, is_open=True).order_by("?").first()
                if table is None:
                    continue
                hand_done(table=table, actor=me)
            elif action == "balance":
                plan = svc.balance_plan(t)
                if not plan.moves:
                    continue
                svc.balance_apply(tournament=t, signature=plan.signature, actor=me)
            elif action == "break":
                number = svc.break_suggestion(t)
                if number is None:
                    continue
                svc.table_break(tournament=t, number=number, actor=me)
            else:
                row = (
                    SeatAssignment.objects.filter(table__tournament=t)
                    .select_related("entry")
                    .order_by("?")
                    .first()
                )
                table = Table.objects.filter(tournament=t, is_open=True).order_by("?").first()
                if row is None or table is None:
                    continue
                taken = set(table.assignments.values_list("seat", flat=True))
                free = [s for s in range(1, table.seats + 1) if s not in taken]
                if not free:
                    continue
                svc.seat_move(
                    tournament=t,
                    entry=row.entry,
                    table_number=table.number,
                    seat=rng.choice(free),
                    actor=me,
                )
            done[action] += made
        except FloorError:
            done["refused"] += 1
            done[f"refused_{action}"] += 1
        except OperationalError as exc:  # a deadlock or a lost connection would show here
            errors.append(f"{action}: {exc}")
        except Exception as exc:
            errors.append(f"{action}: {type(exc).__name__}: {exc}")
        finally:
            close_old_connections()
    out.put((dict(done), errors))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30)
    args = parser.parse_args()

    url = _django.setup(fresh=True)
    if not url.startswith("postgres"):
        raise SystemExit("the stress test needs PostgreSQL (row locks)")
    from django.db import connection
    from django.utils import timezone

    from clocks.services import clock_command
    from tables import services as svc
    from tables.models import SeatAssignment, Table
    from tournament import counters
    from tournament.domain.structure import LevelSpec
    from tournament.events import Actor
    from tournament.models import ChipSet, Entry, EntryStatus, Event, Player, Tournament
    from tournament.services.tournaments import structure_create, tournament_create

    actor = Actor.system("stress")
    t = tournament_create(
        actor=actor,
        name="Stress",
        starts_at=timezone.now(),
        buy_in=1000,
        fee=0,
        starting_stack=10000,
        structure=structure_create(
            name="stress",
            levels=[LevelSpec(100 * n, 200 * n, minutes=1) for n in range(1, 60)],
        ),
        chip_set=ChipSet.objects.create(name="stress"),
        late_registration_until_level=60,
    )
    players = Player.objects.bulk_create(
        Player(name=f"Player Number{i}", display_name=f"Player {i}") for i in range(args.players)
    )
    Entry.objects.bulk_create(
        Entry(tournament=t, player=p, number=i + 1) for i, p in enumerate(players)
    )
    # Registration stays open: late entries race the busts (a bust into the money is refused
    # until registration closes, and counted as refused).
    Tournament.objects.filter(pk=t.pk).update(status="running")
    t.refresh_from_db()
    svc.seats_draw(tournament=t, actor=actor)
    for table in Table.objects.filter(tournament=t):
        seats = sorted(table.assignments.values_list("seat", flat=True))
        svc.button_set(table=table, seat=seats[0], actor=actor)
    # The first level ends a moment after the clients start: the ticker has levels to announce.
    clock_command(
        tournament=t, kind="start", actor=actor, now=timezone.now() - timedelta(seconds=58)
    )
    first_event = Event.objects.filter(tournament=t).order_by("-id").values_list("id", flat=True)[0]
    connection.close()

    ctx = mp.get_context("spawn")
    barrier = ctx.Barrier(args.clients)
    out = ctx.Queue()
    procs = [
        ctx.Process(target=client, args=(t.pk, seed, args.seconds, barrier, out))
        for seed in range(args.clients)
    ]
    started = time.monotonic()
    for p in procs:
        p.start()
    results = [out.get(timeout=args.seconds + 300) for _ in procs]
    for p in procs:
        p.join(30)
    elapsed = time.monotonic() - started

    done: Counter[str] = Counter()
    errors: list[str] = []
    for d, e in results:
        done.update(d)
        errors.extend(e)
    violations: list[str] = []
    rows = list(
        SeatAssignment.objects.filter(table__tournament=t).values_list(
            "entry_id", "table_id", "seat", "table__is_open"
        )
    )
    if len({(tb, s) for _, tb, s, _ in rows}) != len(rows):
        violations.append("a seat holds two players")
    seated = Counter(e for e, *_ in rows)
    if any(c != 1 for c in seated.values()):
        violations.append("a player has two seats")
    if not all(is_open for *_, is_open in rows):
        violations.append("a player sits at a closed table")
    alive = set(t.entries.filter(status=EntryStatus.ACTIVE).values_list("pk", flat=True))
    if alive != set(seated):
        violations.append(
            f"{len(alive - set(seated))} players in the tournament without a seat, "
            f"{len(set(seated) - alive)} seated who are out"
        )
    # Every counter the database keeps equals a full recount of its rows: what
    # `manage.py floor_recount --check` compares (tournament/counters.py).
    t0 = time.perf_counter()
    recount = counters.check(t.pk)
    recount_ms = (time.perf_counter() - t0) * 1000
    violations.extend(f"counter differs: {d}" for d in recount.differences)
    events = Event.objects.filter(tournament=t, id__gt=first_event)
    by_action = Counter(events.values_list("action", flat=True))
    for action, name in EVENT_OF.items():
        if by_action.get(name, 0) != done.get(action, 0):
            violations.append(
                f"{done.get(action, 0)} {action} operations but {by_action.get(name, 0)} "
                f"{name} events"
            )
    times = list(events.order_by("id").values_list("at", flat=True))
    out_of_order = sum(1 for a, b in itertools.pairwise(times) if b < a)
    if out_of_order:
        violations.append(f"{out_of_order} events out of time order")
    print(
        _calibrate.line(
            {
                "players": args.players,
                "clients": args.clients,
                "seconds": round(elapsed, 1),
                "operations": {
                    k: v for k, v in sorted(done.items()) if not k.startswith("refused")
                },
                "operations_total": sum(v for k, v in done.items() if not k.startswith("refused")),
                "refused": done.get("refused", 0),
                "refused_by_kind": {
                    k.removeprefix("refused_"): v
                    for k, v in sorted(done.items())
                    if k.startswith("refused_")
                },
                "events": sum(by_action.values()),
                "players_left": len(alive),
                "tables_open": Table.objects.filter(tournament=t, is_open=True).count(),
                "counters_checked": recount.counters,
                "counters_check_ms": round(recount_ms, 1),
                "errors": errors[:10],
                "error_count": len(errors),
                "violations": violations,
            }
        )
    )


if __name__ == "__main__":
    main()
