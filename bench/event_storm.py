"""Event storm: busts at a steady rate on a big seated event, every screen live on a websocket.

    python -m bench.event_storm --entries 30000 --phones 1000 --screens 500 --tablets 40 \
        --consoles 4 --busts-per-second 10 --seconds 60

Seats `entries` players on PostgreSQL (database floor_bench_storm), starts the full stack
(bench/_stack.py FullStack: two granian, two uvicorn processes, nginx in front when installed;
Redis as the channel layer) and connects the clients from separate processes (at a higher
scheduling priority where allowed, as bench/player_lookup.py runs its phones: a real client
applies a message on its own device, not after the servers' work on theirs), as real
websockets, each doing what its page does with each message:

- big screens (`/ws/t/<pk>/`) keep the board with the highest `version` (static/clocks);
- phones (`/ws/s/<token>/`) take their own seat from `seat`/`bust` (static/floor/seat.js);
  half of them belong to players who will be busted, the rest to players at the tablets'
  tables (who get moved when a table breaks) and to random players;
- dealer tablets (`/ws/d/<token>/`), one at each of `tablets` tables that will see busts, swap
  in the rendered table of a `table` message and close on a broken table (static/tables);
- consoles (`/ws/console/<pk>/`, a floor session) gather the table numbers of `seating`
  messages for 200 ms as static/tables/console.js does (a `bust` alone for up to a second,
  until its tables' message pulls the fetch in), then fetch `?tables=…` over HTTP, one fetch
  in flight at a time (what is named meanwhile goes in the next);

This process busts players at the given rate through the service layer
(actions.bust.entries_bust), then applies the balancing plan and breaks
the table the plan suggests, each its own transaction as the floor does them. For every commit
it records the instant and what each affected client must come to show: a board of at least
the bust's version, a phone's new seat or place, a tablet without the busted player or with the
players moved in (or closed), a console fetch naming the changed tables.

Prints one JSON line: busts, clients, update_p50_ms / update_p99_ms (per commit, until every
affected screen, phone and tablet applied it), console_p50_ms / console_p99_ms (until a
console's fetch naming the tables has come back, the 200 ms gathering included), lost
(affected client states never reached within 5 s after the end), http_per_bust (requests the
clients made because of events, ÷ busts), server_cpu_ms_per_bust (CPU of the stack's
processes until they are idle again, ÷ busts), and the baseline: a trivial group_send to one
phone's socket, with the ratio of update_p99_ms to it. The other figures are described in
docs/benchmarks.md (Event storm).
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import contextlib
import http.client
import json
import multiprocessing as mp
import os
import random
import re
import secrets
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from bench import _calibrate, _stack

REDIS_URL = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/11")
DATABASE_URL = "postgres://postgres@127.0.0.1:5432/floor_bench_storm"
NAME = re.compile(r'data-name="(P\d{6})"')  # a seated player on the tablet's fragment
GATHER_S = 0.2  # static/tables/console.js: from a burst's first message, gathered this long
BUST_WAIT_S = 1.0  # ... from a bust without its tables' message yet
SPACING_S = 0.5  # ... and at least this long after the last fetch started
MAX_TABLES = 200  # ... naming at most this many tables (the rest go in the next)
SETTLE_S = 5.0  # what arrives later than this after the last bust counts as lost
BASELINE_SENDS = 40


@dataclass
class Spec:
    """One client: its kind, its websocket path, and what it follows (entry, table number)."""

    kind: str  # screen | phone | tablet | console
    path: str
    key: int = 0
    cookie: str = ""


@dataclass
class Change:
    """One commit and what each affected client must come to show."""

    kind: str  # bust | balance | break
    at: float = 0.0  # commit instant (time.time())
    version: int = 0  # the board's version after a change of the board (0: the board stays)
    phones: dict[int, tuple[str, int | None, int | None]] = field(default_factory=dict)
    absent: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))
    present: dict[int, set[str]] = field(default_factory=lambda: defaultdict(set))
    closed: set[int] = field(default_factory=set)
    tables: set[int] = field(default_factory=set)  # numbers the console must fetch


# --- clients (run in their own processes) ----------------------------------------------------


@lru_cache(maxsize=64)
def _parse(raw: str) -> Any:
    # Every screen of a process gets the same text; parsing it once per process stands for
    # what each screen does and keeps the load generator off the servers' cores.
    return json.loads(raw)


def note_board(mine: list[tuple[float, int]], raw: str, now: float) -> None:
    """A screen keeps the board with the highest version (static/clocks/clock.js applyBoard)."""
    if '"board"' not in raw:
        return
    version = _parse(raw)["data"]["board"].get("version") or 0
    if not mine or version > mine[-1][1]:
        mine.append((now, version))


def clients_main(
    specs: dict[int, Spec],
    ws_ports: list[int],
    http_port: int,
    pk: int,
    ready: Any,
    done: Any,
    out: Any,
    deflate: bool = True,
) -> None:
    """Connect the clients `specs` (by their index among all clients), record what each
    applies and when, and hand the records back when `done` is set."""
    import websockets

    with contextlib.suppress(OSError):  # the phones and screens are not on the servers' machine
        os.nice(-10)
    records: dict[int, list[Any]] = defaultdict(list)
    # Boards phones and tablets receive (and ignore): a check on the paths (the screens' and
    # phones' boards come through the process's listener, the tablets' through their own
    # channels).
    boards: dict[int, list[Any]] = defaultdict(list)
    closes: dict[int, tuple[float, int | None]] = {}
    behind: list[tuple[float, float, str]] = []  # the consoles' `behind` notices: when, seconds
    http_calls = [0]
    sockets: list[Any] = []
    fetching: set[asyncio.Future[None]] = set()

    async def console_fetch(i: int, tables: list[int] | None) -> None:
        path = f"/console/t/{pk}/seating/"
        if tables is not None:
            path += "?tables=" + ",".join(map(str, tables))
        start = time.time()
        http_calls[0] += 1

        def get() -> int:
            conn = http.client.HTTPConnection("127.0.0.1", http_port, timeout=30)
            headers = {"Cookie": specs[i].cookie, "HX-Request": "true"}
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            response.read()
            conn.close()
            return response.status

        status = await asyncio.to_thread(get)
        records[i].append((start, time.time(), tables, status))

    def console_handler(i: int) -> Any:
        state: dict[str, Any] = {
            "wanted": set(),
            "whole": False,
            "timer": None,
            "in_flight": False,
            "again": False,
            "started": -SPACING_S,
        }
        loop = asyncio.get_running_loop()

        def done(task: asyncio.Future[None]) -> None:
            fetching.discard(task)
            state["in_flight"] = False
            if state["again"]:
                state["again"] = False
                schedule(GATHER_S)

        def fire() -> None:
            state["timer"] = None
            named = sorted(state["wanted"])
            tables = None if state["whole"] else named[:MAX_TABLES]
            state["wanted"] = set() if state["whole"] else set(named[MAX_TABLES:])
            state["whole"] = False
            if state["wanted"]:
                state["again"] = True  # console.js: at most MAX_TABLES a fetch
            state["in_flight"] = True
            state["started"] = loop.time()
            task = asyncio.ensure_future(console_fetch(i, tables))
            fetching.add(task)
            task.add_done_callback(done)

        def schedule(delay: float) -> None:
            # console.js: at most one fetch in flight; what is named meanwhile goes in the next;
            # a fetch starts at least SPACING_S after the one before.
            if state["in_flight"]:
                state["again"] = True
                return
            at = max(loop.time() + delay, state["started"] + SPACING_S)
            timer = state["timer"]
            if timer is not None:
                if at >= timer.when():
                    return
                timer.cancel()
            state["timer"] = loop.call_at(at, fire)

        def handle(raw: str, now: float) -> None:
            msg = _parse(raw)
            event, data = msg.get("event"), msg.get("data") or {}
            if event == "behind":  # the page shows it; it asks for nothing
                behind.append((now, float(data.get("seconds") or 0), str(data.get("where"))))
                return
            if event == "seating":
                state["whole"] = state["whole"] or bool(data.get("all") or data.get("draw"))
                state["wanted"].update(data.get("tables") or [])
            elif event not in ("report", "bust", "bust_undo"):
                return
            # console.js: one fetch 200 ms after a burst's first message; a bust alone waits up
            # to a second for the message naming its tables, which pulls the fetch in.
            schedule(BUST_WAIT_S if event in ("bust", "bust_undo") else GATHER_S)

        return handle

    def handler(i: int) -> Any:
        spec = specs[i]
        if spec.kind == "screen":
            return lambda raw, now: note_board(records[i], raw, now)
        if spec.kind == "phone":

            def phone(raw: str, now: float) -> None:
                head = raw[:80]
                if '"data": {"seat"' in head:
                    seat = json.loads(raw)["data"]["seat"]
                    records[i].append((now, seat["status"], seat["table"], seat["seat"]))
                elif '"baseline"' in head:
                    records[i].append((now, "baseline", json.loads(raw)["data"]["n"], None))
                else:
                    note_board(boards[i], raw, now)

            return phone
        if spec.kind == "tablet":

            def tablet(raw: str, now: float) -> None:
                if raw.startswith('{"type": "event", "event": "table"'):
                    html = _parse(raw)["data"]["html"]
                    names = frozenset(NAME.findall(html.get("en") or next(iter(html.values()))))
                    records[i].append((now, names))
                else:
                    note_board(boards[i], raw, now)

            return tablet
        return console_handler(i)

    connected = [0]

    async def one(i: int) -> None:
        spec = specs[i]
        port = ws_ports[i % len(ws_ports)]
        headers = {"Cookie": spec.cookie} if spec.cookie else None
        handle = handler(i)
        for attempt in range(10):
            try:
                ws = await websockets.connect(
                    f"ws://127.0.0.1:{port}{spec.path}",
                    origin=f"http://127.0.0.1:{port}",  # type: ignore[arg-type]
                    additional_headers=headers,
                    open_timeout=60,
                    max_queue=None,
                    ping_interval=None,
                    compression="deflate" if deflate else None,
                )
                break
            except (OSError, websockets.exceptions.WebSocketException):
                await asyncio.sleep(0.5 * (attempt + 1))
        else:
            return
        connected[0] += 1
        sockets.append(ws)
        try:
            async for raw in ws:
                handle(raw, time.time())
        except websockets.exceptions.ConnectionClosed:
            pass
        closes[i] = (time.time(), ws.close_code)

    async def run() -> None:
        tasks = []
        for n, i in enumerate(specs):
            tasks.append(asyncio.create_task(one(i)))
            if n % 50 == 49:
                await asyncio.sleep(0.1)
        deadline = time.time() + 120
        while connected[0] < len(specs) and time.time() < deadline:
            await asyncio.sleep(0.2)
        await asyncio.sleep(1.0)
        ready.put(connected[0])
        while not done.is_set():
            await asyncio.sleep(0.2)
        await asyncio.gather(
            *(asyncio.wait_for(w.close(), 5) for w in sockets), return_exceptions=True
        )
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())
    out.put((dict(records), dict(boards), closes, http_calls[0], time.process_time(), behind))


# --- the event -------------------------------------------------------------------------------


def seed(
    entries: int,
    seats: int,
    rng: random.Random,
    name: str = "Storm",
    closed: bool = True,
    **options: Any,
) -> Any:
    """A running tournament of `entries` paid entries (players "P000000" on), registration
    closed (`closed` false: open, for late entries up to the level `options` name), seated, the
    button drawn at every table (bench/seating.py does the same). `options`: more of the
    tournament's settings."""
    from django.db import connection
    from django.utils import timezone

    from tables import services as svc
    from tables.domain.button import first_hand
    from tables.models import SeatAssignment, Table
    from tournament.domain.structure import LevelSpec
    from tournament.events import Actor
    from tournament.models import ChipSet, Entry, EntryStatus, Player, Purchase, Tournament
    from tournament.services.tournaments import structure_create, tournament_create

    actor = Actor.system("bench")
    t = tournament_create(
        actor=actor,
        name=f"{name} {entries}",
        starts_at=timezone.now(),
        buy_in=1000,
        fee=0,
        starting_stack=10000,
        structure=structure_create(name="storm", levels=[LevelSpec(100, 200, minutes=60)]),
        chip_set=ChipSet.objects.create(name="storm"),
        seats_per_table=seats,
        **options,
    )
    Tournament.objects.filter(pk=t.pk).update(
        status="running", registration_closed_at=timezone.now() if closed else None
    )
    t.refresh_from_db()
    players = Player.objects.bulk_create(
        Player(name=f"Player {i}", display_name=f"P{i:06d}") for i in range(entries)
    )
    rows = Entry.objects.bulk_create(
        Entry(tournament=t, player=p, number=i + 1, status=EntryStatus.ACTIVE)
        for i, p in enumerate(players)
    )
    Purchase.objects.bulk_create(
        Purchase(entry=e, kind="buyin", price=1000, fee=0, chips=10000) for e in rows
    )
    needed = -(-entries // seats)
    while (have := t.tables.count()) < needed:
        svc.tables_create(tournament=t, count=min(1000, needed - have), actor=actor)
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
    svc.seats_draw(tournament=t, actor=actor)
    tables = list(Table.objects.filter(tournament=t, is_open=True))
    taken: dict[int, list[int]] = defaultdict(list)
    for table_id, seat in SeatAssignment.objects.filter(table__in=tables).values_list(
        "table_id", "seat"
    ):
        taken[table_id].append(seat)
    for table in tables:
        table.set_blinds(first_hand(table.seats, set(taken[table.pk]), rng.choice(taken[table.pk])))
    Table.objects.bulk_update(tables, ["button_seat", "small_blind_seat", "big_blind_seat"])
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE" if connection.vendor == "postgresql" else "ANALYZE")
    return t


def pick_clients(
    t: Any, args: argparse.Namespace, busts: int, rng: random.Random, cookie: str
) -> tuple[list[int], list[Spec]]:
    """The players to bust, in order, and the clients: tablets at the tables of the first
    players to bust, phones of players to bust, of players at those tables and of others."""
    from tables.models import SeatAssignment, Table

    seated = list(
        SeatAssignment.objects.filter(table__tournament=t).values_list("entry_id", "table_id")
    )
    rng.shuffle(seated)
    victims = [e for e, _ in seated[:busts]]
    table_of = dict(seated)
    chosen: list[int] = []
    for e in victims:
        if table_of[e] not in chosen:
            chosen.append(table_of[e])
        if len(chosen) == args.tablets:
            break
    tablets = Table.objects.filter(pk__in=chosen).values_list("number", "dealer_token")
    specs = [Spec("tablet", f"/ws/d/{token}/", number) for number, token in tablets]
    phones = victims[: args.phones // 2]
    at_tables = set(chosen)
    at_tablets = [e for e, tb in seated[busts:] if tb in at_tables]
    phones += at_tablets[: (args.phones - len(phones)) // 2]
    taken = set(phones)
    phones += [e for e, _ in seated[busts:] if e not in taken][: args.phones - len(phones)]
    tokens = dict(t.entries.filter(pk__in=phones).values_list("pk", "public_token"))
    specs += [Spec("phone", f"/ws/s/{tokens[e]}/", e) for e in phones]
    specs += [Spec("screen", f"/ws/t/{t.pk}/") for _ in range(args.screens)]
    specs += [Spec("console", f"/ws/console/{t.pk}/", 0, cookie) for _ in range(args.consoles)]
    return victims, specs


def floor_session() -> str:
    """A floor account's session cookie (the database session engine, as the servers read)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.test import Client

    from core.roles import FLOOR, ensure_role_groups

    ensure_role_groups()
    user = get_user_model().objects.create_user("storm-floor", password=secrets.token_urlsafe())
    user.groups.add(Group.objects.get(name=FLOOR))
    client = Client()
    client.force_login(user)
    morsel = client.cookies["sessionid"]
    return f"sessionid={morsel.value}"


# --- the storm (this process) ----------------------------------------------------------------


def committed(change: Change, work: Any) -> Any:
    """Run `work` in a transaction; the commit instant is taken by the first on-commit hook,
    before the live messages are built."""
    from django.db import transaction

    with transaction.atomic():
        transaction.on_commit(lambda: setattr(change, "at", time.time()))
        return work()


def moves_change(kind: str, moves: Any, names: dict[int, str]) -> Change:
    change = Change(kind)
    for m in moves:
        change.phones[m.entry] = ("active", m.to_table, m.to_seat)
        change.absent[m.from_table].add(names[m.entry])
        change.present[m.to_table].add(names[m.entry])
        change.tables |= {m.from_table, m.to_table}
    return change


def storm(t: Any, victims: list[int], rate: float, names: dict[int, str]) -> list[Change]:
    from actions.bust import BustReport, entries_bust
    from tables import services as svc
    from tables.models import SeatAssignment
    from tournament.events import Actor
    from tournament.live import board_version
    from tournament.models import Entry

    actor = Actor.system("storm")
    changes: list[Change] = []
    start = time.time()
    for k, victim in enumerate(victims):
        time.sleep(max(0.0, start + k / rate - time.time()))
        entry = Entry.objects.get(pk=victim)
        number = SeatAssignment.objects.filter(entry_id=victim).values_list(
            "table__number", flat=True
        )[0]
        change = Change("bust", phones={victim: ("busted", None, None)}, tables={number})
        change.absent[number].add(names[victim])
        committed(
            change, lambda e=entry: entries_bust(tournament=t, busts=[BustReport(e)], actor=actor)
        )
        change.version = board_version(t.pk)
        changes.append(change)
        plan = svc.balance_plan(t)
        if plan.moves:
            change = moves_change("balance", plan.moves, names)
            committed(
                change,
                lambda p=plan: svc.balance_apply(tournament=t, signature=p.signature, actor=actor),
            )
            changes.append(change)
        broken = svc.break_suggestion(t)
        if broken is not None:
            # What moves is known once the break is done: the change is filled in after it.
            change = Change("break")
            moves = committed(
                change, lambda b=broken: svc.table_break(tournament=t, number=b, actor=actor)
            )
            filled = moves_change("break", moves, names)
            filled.at, filled.closed, filled.tables = change.at, {broken}, filled.tables | {broken}
            filled.absent.pop(broken, None)
            changes.append(filled)
    return changes


def pin(cpus: int) -> None:
    """This process, each of its threads and every process it starts from now on, on the first
    `cpus` cores (Linux)."""
    allowed = set(sorted(os.sched_getaffinity(0))[:cpus])
    for task in os.listdir("/proc/self/task"):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(int(task), allowed)


# When each table view left the floor's process, by group (for `tablet_floor_p99_ms`).
PUBLISHED: dict[str, list[float]] = defaultdict(list)


def tablet_floor_p99(specs: list[Spec], changes: list[Change], groups: dict[int, str]) -> float:
    """p99 of a change's commit → its tablets' table view published to Redis by the floor's
    process (built and sent): the floor's share of the tablets' latency."""
    late: list[float] = []
    for change in changes:
        for number in set(change.absent) | set(change.present):
            sent = PUBLISHED.get(groups.get(number, ""), [])
            k = bisect.bisect_left(sent, change.at)
            if number in groups and k < len(sent):
                late.append((sent[k] - change.at) * 1000)
    return round(_stack.percentile(late, 99), 1)


def watch_outbox() -> list[float]:
    """Time each live message of this process from the moment it is queued on commit
    (live/realtime.py `_send`) until the channel layer has published it: the share of a
    change's latency spent before the message leaves the floor's process."""
    from channels.layers import get_channel_layer

    from live import realtime

    waited: list[float] = []
    queued: dict[int, float] = {}
    send, layer = realtime._send, get_channel_layer()
    group_send = layer.group_send

    def timed_send(group: str, message: dict[str, Any]) -> None:
        queued[id(message)] = time.time()
        send(group, message)

    async def timed_group_send(group: str, message: dict[str, Any]) -> None:
        await group_send(group, message)
        if (at := queued.pop(id(message), None)) is not None:
            waited.append((time.time() - at) * 1000)
        if message.get("event") == "table":
            PUBLISHED[group].append(time.time())

    realtime._send = timed_send  # type: ignore[assignment]
    layer.group_send = timed_group_send  # type: ignore[method-assign]
    return waited


def baseline(phone: int) -> list[float]:
    """Send instants of trivial group_sends to one phone's entry group (no database, no
    payload to build): what the channel layer, a server and a socket cost alone."""
    from asgiref.sync import async_to_sync
    from channels.layers import get_channel_layer

    from live.realtime import entry_group

    layer = get_channel_layer()
    sent = []
    for n in range(BASELINE_SENDS):
        text = json.dumps({"type": "event", "event": "baseline", "data": {"n": n}})
        message = {"type": "floor.event", "event": "baseline", "data": {"n": n}, "text": text}
        sent.append(time.time())
        async_to_sync(layer.group_send)(entry_group(phone), message)
        time.sleep(0.05)
    return sent


# --- evaluation ------------------------------------------------------------------------------


def applied_at(
    spec: Spec, recs: list[Any], closed: tuple[float, int | None] | None, change: Change
) -> float | None:
    """When client `spec` showed what `change` made (None: never)."""
    if spec.kind == "screen":
        k = bisect.bisect_left([v for _, v in recs], change.version)
        return float(recs[k][0]) if k < len(recs) else None
    if spec.kind == "phone":
        status, table, seat = change.phones[spec.key]
        for at, got_status, got_table, got_seat in recs:
            if at < change.at or got_status != status:
                continue
            if table is None or (got_table, got_seat) == (table, seat):
                return float(at)
        return None
    if spec.key in change.closed:  # a broken table: the tablet is closed, "ask the floor"
        return closed[0] if closed and closed[1] == 4410 else None
    absent = change.absent.get(spec.key, set())
    present = change.present.get(spec.key, set())
    for at, names in recs:
        if at >= change.at and not absent & names and present <= names:
            return float(at)
    return None


def tenths(values: list[float]) -> list[list[float]]:
    size = len(values)
    parts = [values[k * size // 10 : (k + 1) * size // 10] for k in range(10)]
    return [part for part in parts if part]


def board_p99(
    specs: list[Spec],
    boards: dict[int, list[Any]],
    changes: list[Change],
    records: dict[int, list[Any]],
) -> dict[str, float]:
    """p99 of bust commit → the board reaching phones and tablets (not counted in `update_*`:
    those screens do not show it), by kind of client. A phone gets the board only once its
    player is out (tournament/consumers.py SeatConsumer): counted from the first bust after that."""
    late: dict[str, list[float]] = defaultdict(list)
    for i, recs in boards.items():
        versions = [v for _, v in recs]
        since = 0.0
        if specs[i].kind == "phone":
            out = [r[0] for r in records.get(i, ()) if r[1] == "busted"]
            since = out[0] if out else float("inf")
        for change in changes:
            k = bisect.bisect_left(versions, change.version)
            if change.kind == "bust" and change.at >= since and k < len(recs):
                late[specs[i].kind].append((recs[k][0] - change.at) * 1000)
    return {k: round(_stack.percentile(v, 99), 1) for k, v in sorted(late.items())}


def evaluate(
    specs: list[Spec],
    records: dict[int, list[Any]],
    closes: dict[int, tuple[float, int | None]],
    changes: list[Change],
    end: float,
) -> dict[str, Any]:
    phones = {s.key: i for i, s in enumerate(specs) if s.kind == "phone"}
    tablets = {s.key: i for i, s in enumerate(specs) if s.kind == "tablet"}
    screens = [i for i, s in enumerate(specs) if s.kind == "screen"]
    consoles = [i for i, s in enumerate(specs) if s.kind == "console"]
    per_change: list[float] = []
    by_kind: dict[str, list[float]] = defaultdict(list)
    samples: dict[str, list[float]] = defaultdict(list)
    tablets_by: dict[str, list[float]] = defaultdict(list)  # a broken table's, the others'
    lost: Counter[str] = Counter()
    incomplete = 0
    for change in changes:
        whom = [phones[e] for e in change.phones if e in phones]
        touched = set(change.absent) | set(change.present) | change.closed
        whom += [tablets[n] for n in touched if n in tablets]
        if change.version:  # a change of the board (a bust, a registration): every screen
            whom += screens
        worst, complete = 0.0, True
        for i in whom:
            at = applied_at(specs[i], records.get(i, []), closes.get(i), change)
            if at is None or at > end + SETTLE_S:
                lost[specs[i].kind] += 1
                complete = False
                continue
            samples[specs[i].kind].append((at - change.at) * 1000)
            if specs[i].kind == "tablet":
                state = "closed" if specs[i].key in change.closed else "seats"
                tablets_by[state].append((at - change.at) * 1000)
            worst = max(worst, at - change.at)
        if not complete:
            incomplete += 1  # never shown everywhere: counted in `lost`, not in the latencies
        elif whom:
            per_change.append(worst * 1000)
            by_kind[change.kind].append(worst * 1000)
        for i in consoles:
            done = next(
                (
                    back
                    for start, back, tables, status in records.get(i, [])
                    if status == 200
                    and start >= change.at
                    and (tables is None or change.tables <= set(tables))
                ),
                None,
            )
            if done is None or done > end + SETTLE_S:
                lost["console"] += 1
            else:
                samples["console"].append((done - change.at) * 1000)
    pct = _stack.percentile
    return {
        "update_p50_ms": round(pct(per_change, 50), 1),
        "update_p99_ms": round(pct(per_change, 99), 1),
        "update_max_ms": round(max(per_change, default=0.0), 1),
        # p50 of each tenth of the run, in order: a rising line is a backlog building up.
        "update_p50_ms_over_time": [round(pct(part, 50)) for part in tenths(per_change)],
        "update_p99_ms_by_change": {k: round(pct(v, 99), 1) for k, v in sorted(by_kind.items())},
        "console_p50_ms": round(pct(samples["console"], 50), 1),
        "console_p99_ms": round(pct(samples["console"], 99), 1),
        "lost": sum(v for k, v in lost.items() if k != "console"),
        "lost_by_client": dict(sorted(lost.items())),
        "changes_incomplete": incomplete,
        "p99_ms_by_client": {k: round(pct(v, 99), 1) for k, v in sorted(samples.items())},
        # Tablets of broken tables (closed, 4410) apart from those whose seats changed.
        "tablet_p99_ms_by_change": {k: round(pct(v, 99), 1) for k, v in sorted(tablets_by.items())},
        "applied_by_client": {k: len(v) for k, v in sorted(samples.items())},
    }


# --- main ------------------------------------------------------------------------------------


def run_clients(
    specs: list[Spec], processes: int, stack: Any, pk: int, work: Any, deflate: bool
) -> tuple[Any, ...]:
    """Connect the clients from `processes` processes, call `work()` once all are connected,
    and collect what the clients recorded: (connected, work's result, records, closes, HTTP
    requests made, the client processes' CPU seconds)."""
    ctx = mp.get_context("spawn")
    ready, out, done = ctx.Queue(), ctx.Queue(), ctx.Event()
    procs = [
        ctx.Process(
            target=clients_main,
            args=(
                {i: s for i, s in enumerate(specs) if i % processes == p},
                stack.ws_ports,
                stack.http_ports[0],
                pk,
                ready,
                done,
                out,
                deflate,
            ),
        )
        for p in range(processes)
    ]
    records: dict[int, list[Any]] = {}
    boards: dict[int, list[Any]] = {}
    closes: dict[int, tuple[float, int | None]] = {}
    calls, cpu = 0, 0.0
    behind: list[tuple[float, float, str]] = []
    try:
        for proc in procs:
            proc.start()
        connected = sum(ready.get(timeout=600) for _ in procs)
        result = work()
        done.set()
        for _ in procs:
            recs, got, closed, n, used, told = out.get(timeout=300)
            behind += told
            records.update(recs)
            boards.update(got)
            closes.update(closed)
            calls += n
            cpu += used
        for proc in procs:
            proc.join(30)
    finally:
        for proc in procs:
            if proc.is_alive():
                proc.terminate()
    return connected, result, records, boards, closes, calls, cpu, behind


def server_cpu(stack: Any) -> dict[str, float]:
    """CPU seconds used so far by the stack's processes, by kind: granian (with its workers),
    the uvicorn processes, the proxy."""
    web, ws = len(stack.web_ports), len(stack.ws_port_list)
    kinds = {"wsgi": stack.procs[:web], "asgi": stack.procs[web : web + ws]}
    kinds["proxy"] = stack.procs[web + ws :]
    return {k: _stack.cpu_seconds(v) for k, v in kinds.items() if v}


def drain(stack: Any, end: float, limit: float = 300) -> float:
    """Wait until the servers are idle (`_stack.wait_idle`), so their CPU counts all the work
    the storm gave them. Returns how long after the last bust they were busy: a backlog shows
    here."""
    return _stack.wait_idle(stack.procs, end, SETTLE_S, limit)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=3000)
    parser.add_argument("--phones", type=int, default=200)
    parser.add_argument("--screens", type=int, default=100)
    parser.add_argument("--tablets", type=int, default=40)
    parser.add_argument("--consoles", type=int, default=4)
    parser.add_argument("--busts-per-second", type=float, default=10)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--seats", type=int, default=9)
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--no-proxy", action="store_true", help="clients talk to the servers")
    parser.add_argument(
        "--no-deflate",
        action="store_true",
        help="clients do not offer permessage-deflate (as with the servers' deflate off)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--cpus",
        type=int,
        default=0,
        help="run the storm (the floor, the servers, the clients) on this many cores, standing "
        "for a slower machine; the event is seated on all of them first",
    )
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = os.environ.get("BENCH_STORM_DATABASE_URL", DATABASE_URL)
    os.environ["REDIS_URL"] = REDIS_URL  # the channel layer of this process and the servers'
    from bench import _django

    db_url = _django.setup(fresh=True)
    from django.db import connection

    from tournament.models import Entry

    rng = random.Random(args.seed)
    t = seed(args.entries, args.seats, rng)
    n_planned = int(args.busts_per_second * args.seconds)
    victims, specs = pick_clients(t, args, n_planned, rng, floor_session())
    names = dict(Entry.objects.filter(tournament=t).values_list("pk", "player__display_name"))
    phone = next(i for i, s in enumerate(specs) if s.kind == "phone")
    connection.close()
    # The floor's actions run here as in a web process, which loads its URL configuration,
    # template engine and templates when it starts (config.wsgi.serve, config/warmup.py).
    from config.warmup import warm

    warm()
    if args.cpus:
        pin(args.cpus)
    from live import backlog

    backlog.reset()

    stack = _stack.FullStack(
        _stack.stack_env(db_url, REDIS_URL), web=1, ws=2, proxy=not args.no_proxy
    ).start()
    from live.realtime import table_group
    from tables.models import Table

    numbers = {s.key for s in specs if s.kind == "tablet"}
    table_groups = {
        n: table_group(pk, "en")  # the bench's tablets ask for no language: the default
        for n, pk in Table.objects.filter(tournament_id=t.pk, number__in=numbers).values_list(
            "number", "pk"
        )
    }

    def work() -> tuple[Any, ...]:
        load = os.getloadavg()[0]
        sent = baseline(specs[phone].key)
        waited = watch_outbox()
        cpu, began, own = server_cpu(stack), time.time(), time.process_time()
        changes = storm(t, victims, args.busts_per_second, names)
        end, own = time.time(), time.process_time() - own
        drained = drain(stack, end)
        used = {k: v - cpu[k] for k, v in server_cpu(stack).items()}
        return load, sent, changes, began, end, used, own, waited, drained

    try:
        connected, result, records, boards, closes, calls, client_cpu, behind = run_clients(
            specs, args.client_processes, stack, t.pk, work, not args.no_deflate
        )
    finally:
        stack.stop()
    load, sent, changes, began, end, cpu, own, waited, drained = result
    behind.sort()
    arrived = {r[2]: r[0] for r in records.get(phone, []) if r[1] == "baseline"}
    records[phone] = [r for r in records.get(phone, []) if r[1] != "baseline"]
    base = [(arrived[k] - at) * 1000 for k, at in enumerate(sent) if k in arrived]
    figures = evaluate(specs, records, closes, changes, end)
    figures["tablet_floor_p99_ms"] = tablet_floor_p99(specs, changes, table_groups)
    busts = sum(1 for c in changes if c.kind == "bust")
    base_p99 = _stack.percentile(base, 99)
    print(
        _calibrate.line(
            {
                "entries": args.entries,
                "busts": busts,
                "busts_per_second": round(busts / max(end - began, 1e-9), 2),
                "balances": sum(1 for c in changes if c.kind == "balance"),
                "breaks": sum(1 for c in changes if c.kind == "break"),
                "moves": sum(len(c.phones) for c in changes if c.kind != "bust"),
                "clients": len(specs),
                "connected": connected,
                # Sockets the servers closed during the storm, other than broken tables'.
                "closed_early": sum(
                    1 for at, code in closes.values() if at < end + SETTLE_S and code != 4410
                ),
                **figures,
                "board_p99_ms_by_client": board_p99(specs, boards, changes, records),
                "http_per_bust": round(calls / max(busts, 1), 2),
                "drain_s": round(drained, 1),
                "server_cpu_ms_per_bust": round(sum(cpu.values()) * 1000 / max(busts, 1), 1),
                "server_cpu_ms_per_bust_by_process": {
                    k: round(v * 1000 / max(busts, 1), 1) for k, v in sorted(cpu.items())
                },
                "outbox_p50_ms": round(_stack.percentile(waited, 50), 1),
                "outbox_p99_ms": round(_stack.percentile(waited, 99), 1),
                # The floor's actions (bust, balance, break, the messages built on commit) run
                # in this process, as a web request would; the clients in their own.
                "action_cpu_ms_per_bust": round(own * 1000 / max(busts, 1), 1),
                "client_cpu_s": round(client_cpu, 1),
                "baseline_p50_ms": round(_stack.percentile(base, 50), 1),
                "baseline_p99_ms": round(base_p99, 1),
                "baseline_lost": BASELINE_SENDS - len(base),
                "ratio_to_baseline": round(figures["update_p99_ms"] / base_p99, 1)
                if base
                else None,
                "proxy": stack.proxy,
                # The machine's load when the storm began (a shared machine skews every figure).
                "load_average": round(load, 1),
                "database": db_url.split(":", 1)[0],
                "cpus": args.cpus or os.cpu_count(),
                # The floor process's builder thread (live/realtime.py): payloads built,
                # older whole-state ones left out for a newer one waiting, the longest wait.
                "builder": {
                    "built": int(backlog.totals["built"]),
                    "skipped": int(backlog.totals["skipped"]),
                    "max_wait_ms": round(backlog.totals["max_wait_s"] * 1000, 1),
                    "max_waiting": int(backlog.totals["max_waiting"]),
                },
                # What the consoles were told (live/backlog.py): notices that the room
                # was behind, the largest lag they named, and whether the last said caught up.
                "behind_notices": sum(1 for _at, sec, _w in behind if sec > 0),
                "behind_max_s": max((sec for _at, sec, _w in behind), default=0.0),
                "behind_cleared": bool(behind) and behind[-1][1] == 0,
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
