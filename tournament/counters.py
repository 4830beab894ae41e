"""Counts the database keeps: players seated at each table; players left, entries, alternates
waiting and open tables in each tournament; and what its purchases paid in (prize-pool money, fees,
chips, and how many buy-ins, re-entries, rebuys and add-ons), refunds left out.

Balancing looks at the head count of every open table after every bust, and a bust needs the
number of players left for the finishing place. Counting rows each time grows with the field
(about 10 ms for the tables and 6 ms for the entries at 30,000 entries); reading a kept count
does not. Triggers keep the counts, so every path that seats, moves, busts, registers or
deletes (services, imports, the admin, bulk writes in tests) keeps them right, in the same
transaction as the change.

The triggers' SQL lives in versioned files that the migrations load (seat counts and moves:
tables/sql/seat_counts/, tables/sql/seat_moves/; entries, purchases, open tables:
tournament/sql/entry_counts/, purchase_counts/, table_counts/; config/sql.py), never imported
from here: changing a trigger is a new version file and a new migration that names it. On
PostgreSQL the seat and entry triggers run once per statement over its transition tables (a
30,000-seat draw is one grouped update, a break one update per table whose count changed); on
SQLite they run per row.

This module names every kept counter with the SQL that counts it again from the rows
(`COUNTERS`): `recount` rebuilds them from it (after an import), `check` compares them with it
and writes nothing; `manage.py floor_recount [--check]` runs either (docs/backup.md, "Checking
the counters").

One exception, on PostgreSQL: the seat draw replaces every seat of a tournament at once and
writes each table's count itself in the statement that resets the tables; for its own delete
and insert it sets the transaction-local `floor.draw_sets_counts`, which the statement
triggers skip on (counting 30,000 new seats into 3,334 rows took 110 ms of the draw).

SQLite drops a table's triggers when Django rebuilds the table in a migration (an altered
column): a migration that alters `tables_seatassignment`, `tournament_entry` or
`tournament_purchase` must install the triggers again, naming their latest version
(as tables/migrations/0008 does; tournament/tests/services/test_counters.py fails on SQLite
otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import connection

# Entry states that count (the same as the selectors' "players left" and "entries").
ALIVE = "status = 'active'"
COUNTED = "status NOT IN ('unregistered', 'alternate')"
WAITING = "status = 'alternate'"


@dataclass(frozen=True)
class Kept:
    """One kept counter: the column of the row that holds it (`owner`, a database table) and the
    SQL that counts it again from the rows, correlated to that row. The rebuild writes it, the
    check compares it with the column: the count is written once, here."""

    owner: str
    name: str
    recount: str


SEAT_COUNTERS = (
    Kept(
        "tables_table",
        "players",
        "(SELECT count(*) FROM tables_seatassignment s WHERE s.table_id = tables_table.id)",
    ),
)


def _entries(where: str) -> str:
    return (
        "(SELECT count(*) FROM tournament_entry e "  # noqa: S608 (constants)
        f"WHERE e.tournament_id = tournament_tournament.id AND e.{where})"
    )


ENTRY_COUNTERS = (
    Kept("tournament_tournament", "players_left", _entries(ALIVE)),
    Kept("tournament_tournament", "entries_counted", _entries(COUNTED)),
    Kept("tournament_tournament", "alternates_waiting", _entries(WAITING)),
)


def recount_sql(kept: tuple[Kept, ...]) -> str:
    """One UPDATE that writes these counters (all of one owner) from their recounts."""
    owners = {k.owner for k in kept}
    if len(owners) != 1:
        raise ValueError(f"counters of several tables: {sorted(owners)}")
    sets = ", ".join(f"{k.name} = {k.recount}" for k in kept)
    return f"UPDATE {kept[0].owner} SET {sets}"  # noqa: S608 (constants)


# --- Open tables ------------------------------------------------------------------------------

OPEN_TABLE_COUNTERS = (
    Kept(
        "tournament_tournament",
        "tables_open",
        "(SELECT count(*) FROM tables_table t "
        "WHERE t.tournament_id = tournament_tournament.id AND t.is_open)",
    ),
)


# --- Purchases --------------------------------------------------------------------------------

KINDS = (
    ("buyin", "bought_buyins"),
    ("reentry", "bought_reentries"),
    ("rebuy", "bought_rebuys"),
    ("addon", "bought_addons"),
)
MONEY = (("price", "paid_in"), ("fee", "fees_in"), ("chips", "chips_in"))
_PURCHASED = (
    "FROM tournament_purchase p JOIN tournament_entry e ON e.id = p.entry_id "
    "WHERE e.tournament_id = tournament_tournament.id AND NOT p.refunded"
)
PURCHASE_COUNTERS_KEPT = tuple(
    [
        Kept("tournament_tournament", name, f"coalesce((SELECT sum(p.{col}) {_PURCHASED}), 0)")
        for col, name in MONEY
    ]
    + [
        Kept("tournament_tournament", name, f"(SELECT count(*) {_PURCHASED} AND p.kind = '{k}')")
        for k, name in KINDS
    ]
)


# --- Rebuild and check -------------------------------------------------------------------------

# Every kept counter, by name: the rebuild writes these and the check compares these. The models
# list the same names (`DatabaseCounted.counters`), which Python never writes.
COUNTERS: tuple[Kept, ...] = (
    SEAT_COUNTERS + ENTRY_COUNTERS + PURCHASE_COUNTERS_KEPT + OPEN_TABLE_COUNTERS
)


@dataclass(frozen=True)
class Owner:
    """A database table holding counters: the column naming its tournament, and the column that
    tells its rows apart in a report (a table's number; none for the tournament itself)."""

    tournament: str
    label: str | None


OWNERS = {
    "tables_table": Owner(tournament="tournament_id", label="number"),
    "tournament_tournament": Owner(tournament="id", label=None),
}


def counters_of(owner: str) -> tuple[Kept, ...]:
    return tuple(k for k in COUNTERS if k.owner == owner)


def names_of(owner: str) -> tuple[str, ...]:
    return tuple(k.name for k in counters_of(owner))


@dataclass(frozen=True)
class Difference:
    """A kept counter that differs from the count of its rows."""

    tournament_id: int
    counter: str
    kept: int
    recounted: int
    table: int | None = None  # the table's number, for a table's head count

    def __str__(self) -> str:
        where = f"tournament {self.tournament_id}"
        if self.table is not None:
            where += f", table {self.table}"
        return (
            f"{where}: {self.counter} is kept as {self.kept}, "
            f"the rows count {self.recounted} ({self.kept - self.recounted:+d})"
        )


@dataclass
class Report:
    """What a check found: how many tournaments and counters it compared, and the differences."""

    tournaments: int = 0
    counters: int = 0
    differences: list[Difference] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.differences


def check_sql(owner: str, tournament_id: int | None = None) -> tuple[str, list[int]]:
    """SELECT the tournament, the label, then each counter as kept and as recounted."""
    o = OWNERS[owner]
    cols = ", ".join(f"{k.name}, {k.recount}" for k in counters_of(owner))
    sql = f"SELECT {o.tournament}, {o.label or 'NULL'}, {cols} FROM {owner}"  # noqa: S608
    if tournament_id is None:
        return sql, []
    return sql + f" WHERE {o.tournament} = %s", [tournament_id]


def compare(owner: str, rows: list[tuple[Any, ...]]) -> list[Difference]:
    """The differences in rows read by `check_sql` (pure: no database)."""
    names = names_of(owner)
    found = []
    for tournament_id, label, *values in rows:
        for i, name in enumerate(names):
            kept, recounted = int(values[2 * i]), int(values[2 * i + 1])
            if kept != recounted:
                found.append(
                    Difference(
                        tournament_id=int(tournament_id),
                        counter=name,
                        kept=kept,
                        recounted=recounted,
                        table=None if label is None else int(label),
                    )
                )
    return found


def check(tournament_id: int | None = None) -> Report:
    """Compare every kept counter with a full recount of its rows (one tournament, or all);
    writes nothing. Each owner's counters are read in one statement, so kept and recounted
    values come from the same snapshot of the rows even while the floor plays on."""
    report = Report()
    with connection.cursor() as cursor:
        for owner in OWNERS:
            sql, params = check_sql(owner, tournament_id)
            cursor.execute(sql, params)
            rows = cursor.fetchall()
            if owner == "tournament_tournament":
                report.tournaments = len(rows)
            report.counters += len(rows) * len(names_of(owner))
            report.differences.extend(compare(owner, rows))
    report.differences.sort(key=lambda d: (d.tournament_id, d.table or 0, d.counter))
    return report


def recount(tournament_id: int | None = None) -> None:
    """Rebuild every kept counter from the rows (one tournament, or all)."""
    with connection.cursor() as cursor:
        for owner, o in OWNERS.items():
            sql = recount_sql(counters_of(owner))
            params: list[int] = []
            if tournament_id is not None:
                sql += f" WHERE {o.tournament} = %s"
                params = [tournament_id]
            cursor.execute(sql, params)
