"""Counts the database keeps: players seated at each table; players left, entries, alternates
waiting and open tables in each tournament; and what its purchases paid in (prize-pool money, fees,
chips, and how many buy-ins, re-entries, rebuys and add-ons), refunds left out.

Balancing looks at the head count of every open table after every bust, and a bust needs the
number of players left for the finishing place. Counting rows each time grows with the field
(about 10 ms for the tables and 6 ms for the entries at 30,000 entries); reading a kept count
does not. Triggers keep the counts, so every path that seats, moves, busts, registers or
deletes (services, imports, the admin, bulk writes in tests) keeps them right, in the same
transaction as the change.

On PostgreSQL the seat and entry triggers run once per statement over its transition tables
(a 30,000-seat draw is one grouped update, a break one update per table whose count changed);
on SQLite they run per row.

`COUNTERS` names every kept counter with the SQL that counts it again from the rows: `recount`
rebuilds them from it (after an import), `check` compares them with it and writes nothing;
`manage.py floor_recount [--check]` runs either (docs/backup.md, "Checking the counters").

One exception, on PostgreSQL: the seat draw replaces every seat of a tournament at once and
writes each table's count itself in the statement that resets the tables; for its own delete
and insert it sets the transaction-local `floor.draw_sets_counts`, which the statement
triggers skip on (counting 30,000 new seats into 3,334 rows took 110 ms of the draw).

SQLite drops a table's triggers when Django rebuilds the table in a migration (an altered
column): a migration that alters `tables_seatassignment`, `tournament_entry` or
`tournament_purchase` must install the triggers again (tournament/tests/services/test_counters.py
fails on SQLite otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# Entry states that count (the same as the selectors' "players left" and "entries").
ALIVE = "status = 'active'"
COUNTED = "status NOT IN ('unregistered', 'alternate')"
WAITING = "status = 'alternate'"

POSTGRES_SEATS = [
    """
    CREATE OR REPLACE FUNCTION floor_seats_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF current_setting('floor.draw_sets_counts', true) = 'on' THEN RETURN NULL; END IF;
        UPDATE tables_table t SET players = t.players + d.n
        FROM (SELECT table_id, count(*) AS n FROM added GROUP BY table_id) d
        WHERE t.id = d.table_id;
        RETURN NULL;
    END $$
    """,
    """
    CREATE OR REPLACE FUNCTION floor_seats_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF current_setting('floor.draw_sets_counts', true) = 'on' THEN RETURN NULL; END IF;
        UPDATE tables_table t SET players = t.players - d.n
        FROM (SELECT table_id, count(*) AS n FROM removed GROUP BY table_id) d
        WHERE t.id = d.table_id;
        RETURN NULL;
    END $$
    """,
    """
    CREATE OR REPLACE FUNCTION floor_seats_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        -- One update per table whose count changed: a break that sends eight players away
        -- updates the broken table once, not eight times.
        UPDATE tables_table t SET players = t.players + d.n
        FROM (
            SELECT table_id, sum(n) AS n FROM (
                SELECT table_id, 1 AS n FROM after_rows
                UNION ALL SELECT table_id, -1 AS n FROM before_rows
            ) x GROUP BY table_id HAVING sum(n) <> 0
        ) d
        WHERE t.id = d.table_id;
        RETURN NULL;
    END $$
    """,
    "CREATE TRIGGER floor_seats_added AFTER INSERT ON tables_seatassignment "
    "REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION floor_seats_added()",
    "CREATE TRIGGER floor_seats_removed AFTER DELETE ON tables_seatassignment "
    "REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION floor_seats_removed()",
    "CREATE TRIGGER floor_seats_moved AFTER UPDATE ON tables_seatassignment "
    "REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows "
    "FOR EACH STATEMENT EXECUTE FUNCTION floor_seats_moved()",
]

POSTGRES_SEATS_DROP = [
    "DROP TRIGGER IF EXISTS floor_seats_added ON tables_seatassignment",
    "DROP TRIGGER IF EXISTS floor_seats_removed ON tables_seatassignment",
    "DROP TRIGGER IF EXISTS floor_seat_moved ON tables_seatassignment",
    "DROP TRIGGER IF EXISTS floor_seats_moved ON tables_seatassignment",
    "DROP FUNCTION IF EXISTS floor_seats_added()",
    "DROP FUNCTION IF EXISTS floor_seats_removed()",
    "DROP FUNCTION IF EXISTS floor_seat_moved()",
    "DROP FUNCTION IF EXISTS floor_seats_moved()",
]

_ENTRY_DELTA = """
    UPDATE tournament_tournament t
    SET players_left = t.players_left + d.alive, entries_counted = t.entries_counted + d.counted,
        alternates_waiting = t.alternates_waiting + d.waiting
    FROM (
        SELECT tournament_id, sum(alive) AS alive, sum(counted) AS counted,
            sum(waiting) AS waiting
        FROM (%s) x GROUP BY tournament_id
    ) d
    WHERE t.id = d.tournament_id AND (d.alive <> 0 OR d.counted <> 0 OR d.waiting <> 0);
"""


def _rows(name: str, sign: str) -> str:
    return (
        f"SELECT tournament_id, {sign}({ALIVE})::int AS alive, "  # noqa: S608 (constants)
        f"{sign}({COUNTED})::int AS counted, {sign}({WAITING})::int AS waiting FROM {name}"
    )


POSTGRES_ENTRIES = [
    f"""
    CREATE OR REPLACE FUNCTION floor_entries_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN {_ENTRY_DELTA % _rows("added", "")} RETURN NULL; END $$
    """,
    f"""
    CREATE OR REPLACE FUNCTION floor_entries_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN {_ENTRY_DELTA % _rows("removed", "-")} RETURN NULL; END $$
    """,
    f"""
    CREATE OR REPLACE FUNCTION floor_entries_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        {_ENTRY_DELTA % (_rows("after_rows", "") + " UNION ALL " + _rows("before_rows", "-"))}
        RETURN NULL;
    END $$
    """,
    "CREATE TRIGGER floor_entries_added AFTER INSERT ON tournament_entry "
    "REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION floor_entries_added()",
    "CREATE TRIGGER floor_entries_removed AFTER DELETE ON tournament_entry "
    "REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION floor_entries_removed()",
    "CREATE TRIGGER floor_entries_changed AFTER UPDATE ON tournament_entry "
    "REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows "
    "FOR EACH STATEMENT EXECUTE FUNCTION floor_entries_changed()",
]

POSTGRES_ENTRIES_DROP = [
    "DROP TRIGGER IF EXISTS floor_entries_added ON tournament_entry",
    "DROP TRIGGER IF EXISTS floor_entries_removed ON tournament_entry",
    "DROP TRIGGER IF EXISTS floor_entries_changed ON tournament_entry",
    "DROP FUNCTION IF EXISTS floor_entries_added()",
    "DROP FUNCTION IF EXISTS floor_entries_removed()",
    "DROP FUNCTION IF EXISTS floor_entries_changed()",
]

SQLITE_SEATS = [
    "CREATE TRIGGER floor_seat_added AFTER INSERT ON tables_seatassignment BEGIN "
    "UPDATE tables_table SET players = players + 1 WHERE id = NEW.table_id; END",
    "CREATE TRIGGER floor_seat_removed AFTER DELETE ON tables_seatassignment BEGIN "
    "UPDATE tables_table SET players = players - 1 WHERE id = OLD.table_id; END",
    "CREATE TRIGGER floor_seat_moved AFTER UPDATE OF table_id ON tables_seatassignment "
    "WHEN OLD.table_id <> NEW.table_id BEGIN "
    "UPDATE tables_table SET players = players - 1 WHERE id = OLD.table_id; "
    "UPDATE tables_table SET players = players + 1 WHERE id = NEW.table_id; END",
]

SQLITE_SEATS_DROP = [
    "DROP TRIGGER IF EXISTS floor_seat_added",
    "DROP TRIGGER IF EXISTS floor_seat_removed",
    "DROP TRIGGER IF EXISTS floor_seat_moved",
]


def _sqlite_entry(row: str, sign: str) -> str:
    return (
        "UPDATE tournament_tournament SET "  # noqa: S608 (constants)
        f"players_left = players_left {sign} ({row}.{ALIVE}), "
        f"entries_counted = entries_counted {sign} ({row}.{COUNTED}), "
        f"alternates_waiting = alternates_waiting {sign} ({row}.{WAITING}) "
        f"WHERE id = {row}.tournament_id;"
    )


SQLITE_ENTRIES = [
    "CREATE TRIGGER floor_entry_added AFTER INSERT ON tournament_entry BEGIN "
    f"{_sqlite_entry('NEW', '+')} END",
    "CREATE TRIGGER floor_entry_removed AFTER DELETE ON tournament_entry BEGIN "
    f"{_sqlite_entry('OLD', '-')} END",
    "CREATE TRIGGER floor_entry_changed AFTER UPDATE OF status, tournament_id "
    "ON tournament_entry BEGIN "
    f"{_sqlite_entry('OLD', '-')} {_sqlite_entry('NEW', '+')} END",
]

SQLITE_ENTRIES_DROP = [
    "DROP TRIGGER IF EXISTS floor_entry_added",
    "DROP TRIGGER IF EXISTS floor_entry_removed",
    "DROP TRIGGER IF EXISTS floor_entry_changed",
]


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


# What the migrations run after installing each group's triggers (the same text as before the
# counters were declared one by one).
RECOUNT_TABLES = recount_sql(SEAT_COUNTERS)
RECOUNT_TOURNAMENTS = recount_sql(ENTRY_COUNTERS)


def _run(schema_editor: Any, statements: dict[str, list[str]]) -> None:
    for sql in statements.get(schema_editor.connection.vendor, []):
        schema_editor.execute(sql, params=None)


def replace_seat_functions(apps: Any, schema_editor: Any) -> None:
    """Install the current seat-count functions over older ones (the triggers stay)."""
    if schema_editor.connection.vendor == "postgresql":
        for sql in POSTGRES_SEATS:
            if "CREATE OR REPLACE FUNCTION" in sql:
                schema_editor.execute(sql, params=None)


# Before tables/migrations/0006: a row trigger per moved seat (two table updates each).
_POSTGRES_SEAT_MOVED_PER_ROW = [
    """
    CREATE OR REPLACE FUNCTION floor_seat_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE tables_table SET players = players - 1 WHERE id = OLD.table_id;
        UPDATE tables_table SET players = players + 1 WHERE id = NEW.table_id;
        RETURN NULL;
    END $$
    """,
    "CREATE TRIGGER floor_seat_moved AFTER UPDATE OF table_id ON tables_seatassignment "
    "FOR EACH ROW WHEN (OLD.table_id IS DISTINCT FROM NEW.table_id) "
    "EXECUTE FUNCTION floor_seat_moved()",
]


def move_counts_per_statement(apps: Any, schema_editor: Any) -> None:
    """PostgreSQL: the seat-move count becomes a statement trigger (`floor_seats_moved`)."""
    if schema_editor.connection.vendor != "postgresql":
        return
    for sql in [
        "DROP TRIGGER IF EXISTS floor_seat_moved ON tables_seatassignment",
        "DROP FUNCTION IF EXISTS floor_seat_moved()",
        # A database migrated from scratch has it already (0002 installs the current triggers).
        "DROP TRIGGER IF EXISTS floor_seats_moved ON tables_seatassignment",
        *[q for q in POSTGRES_SEATS if "floor_seats_moved" in q],
    ]:
        schema_editor.execute(sql, params=None)


def move_counts_per_row(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    for sql in [
        "DROP TRIGGER IF EXISTS floor_seats_moved ON tables_seatassignment",
        "DROP FUNCTION IF EXISTS floor_seats_moved()",
        *_POSTGRES_SEAT_MOVED_PER_ROW,
    ]:
        schema_editor.execute(sql, params=None)


def install_seat_counts(apps: Any, schema_editor: Any) -> None:
    _run(schema_editor, {"postgresql": POSTGRES_SEATS, "sqlite": SQLITE_SEATS})
    schema_editor.execute(RECOUNT_TABLES, params=None)


def remove_seat_counts(apps: Any, schema_editor: Any) -> None:
    _run(schema_editor, {"postgresql": POSTGRES_SEATS_DROP, "sqlite": SQLITE_SEATS_DROP})


def install_entry_counts(apps: Any, schema_editor: Any) -> None:
    _run(schema_editor, {"postgresql": POSTGRES_ENTRIES, "sqlite": SQLITE_ENTRIES})
    schema_editor.execute(RECOUNT_TOURNAMENTS, params=None)


def remove_entry_counts(apps: Any, schema_editor: Any) -> None:
    _run(schema_editor, {"postgresql": POSTGRES_ENTRIES_DROP, "sqlite": SQLITE_ENTRIES_DROP})


# --- Open tables ------------------------------------------------------------------------------

# The tournament row keeps how many of its tables are open: the break suggestion asks after every
# bust, and counting the open tables over their index took 0.9 ms at 3,334 tables. A table's
# head-count update does not name `is_open`, so only opening and closing fire the update trigger.
_TABLES_DELTA = (
    "UPDATE tournament_tournament t SET tables_open = t.tables_open {sign} d.n "
    "FROM (SELECT tournament_id, count(*) AS n FROM {rows} WHERE is_open "
    "GROUP BY tournament_id) d WHERE t.id = d.tournament_id;"
)

POSTGRES_TABLES = [
    f"""
    CREATE OR REPLACE FUNCTION floor_tables_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN {_TABLES_DELTA.format(sign="+", rows="added")} RETURN NULL; END $$
    """,
    f"""
    CREATE OR REPLACE FUNCTION floor_tables_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN {_TABLES_DELTA.format(sign="-", rows="removed")} RETURN NULL; END $$
    """,
    """
    CREATE OR REPLACE FUNCTION floor_table_opened_or_closed() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE tournament_tournament
        SET tables_open = tables_open + CASE WHEN NEW.is_open THEN 1 ELSE -1 END
        WHERE id = NEW.tournament_id;
        RETURN NULL;
    END $$
    """,
    "CREATE TRIGGER floor_tables_added AFTER INSERT ON tables_table "
    "REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION floor_tables_added()",
    "CREATE TRIGGER floor_tables_removed AFTER DELETE ON tables_table "
    "REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION floor_tables_removed()",
    "CREATE TRIGGER floor_table_opened_or_closed AFTER UPDATE OF is_open ON tables_table "
    "FOR EACH ROW WHEN (OLD.is_open IS DISTINCT FROM NEW.is_open) "
    "EXECUTE FUNCTION floor_table_opened_or_closed()",
]

POSTGRES_TABLES_DROP = [
    "DROP TRIGGER IF EXISTS floor_tables_added ON tables_table",
    "DROP TRIGGER IF EXISTS floor_tables_removed ON tables_table",
    "DROP TRIGGER IF EXISTS floor_table_opened_or_closed ON tables_table",
    "DROP FUNCTION IF EXISTS floor_tables_added()",
    "DROP FUNCTION IF EXISTS floor_tables_removed()",
    "DROP FUNCTION IF EXISTS floor_table_opened_or_closed()",
]

SQLITE_TABLES = [
    "CREATE TRIGGER floor_table_added AFTER INSERT ON tables_table WHEN NEW.is_open BEGIN "
    "UPDATE tournament_tournament SET tables_open = tables_open + 1 "
    "WHERE id = NEW.tournament_id; END",
    "CREATE TRIGGER floor_table_removed AFTER DELETE ON tables_table WHEN OLD.is_open BEGIN "
    "UPDATE tournament_tournament SET tables_open = tables_open - 1 "
    "WHERE id = OLD.tournament_id; END",
    "CREATE TRIGGER floor_table_opened_or_closed AFTER UPDATE OF is_open ON tables_table "
    "WHEN OLD.is_open <> NEW.is_open BEGIN "
    "UPDATE tournament_tournament SET tables_open = tables_open "
    "+ CASE WHEN NEW.is_open THEN 1 ELSE -1 END WHERE id = NEW.tournament_id; END",
]

SQLITE_TABLES_DROP = [
    "DROP TRIGGER IF EXISTS floor_table_added",
    "DROP TRIGGER IF EXISTS floor_table_removed",
    "DROP TRIGGER IF EXISTS floor_table_opened_or_closed",
]

OPEN_TABLE_COUNTERS = (
    Kept(
        "tournament_tournament",
        "tables_open",
        "(SELECT count(*) FROM tables_table t "
        "WHERE t.tournament_id = tournament_tournament.id AND t.is_open)",
    ),
)
RECOUNT_OPEN_TABLES = recount_sql(OPEN_TABLE_COUNTERS)


def install_table_counts(apps: Any, schema_editor: Any) -> None:
    _run(schema_editor, {"postgresql": POSTGRES_TABLES, "sqlite": SQLITE_TABLES})
    schema_editor.execute(RECOUNT_OPEN_TABLES, params=None)


def remove_table_counts(apps: Any, schema_editor: Any) -> None:
    _run(schema_editor, {"postgresql": POSTGRES_TABLES_DROP, "sqlite": SQLITE_TABLES_DROP})


# --- Purchases --------------------------------------------------------------------------------

KINDS = (
    ("buyin", "bought_buyins"),
    ("reentry", "bought_reentries"),
    ("rebuy", "bought_rebuys"),
    ("addon", "bought_addons"),
)
MONEY = (("price", "paid_in"), ("fee", "fees_in"), ("chips", "chips_in"))
PURCHASE_COUNTERS = tuple(c for _, c in MONEY) + tuple(c for _, c in KINDS)


def _purchase_delta(rows: str) -> str:
    sums = ", ".join(
        [f"sum(x.w * x.{col}) AS {name}" for col, name in MONEY]
        + [f"coalesce(sum(x.w) FILTER (WHERE x.kind = '{k}'), 0) AS {name}" for k, name in KINDS]
    )
    sets = ", ".join(f"{c} = t.{c} + d.{c}" for c in PURCHASE_COUNTERS)
    changed = " OR ".join(f"d.{c} <> 0" for c in PURCHASE_COUNTERS)
    return (
        f"UPDATE tournament_tournament t SET {sets} FROM ("  # noqa: S608 (constants)
        f"SELECT e.tournament_id, {sums} FROM ({rows}) x "
        "JOIN tournament_entry e ON e.id = x.entry_id GROUP BY e.tournament_id) d "
        f"WHERE t.id = d.tournament_id AND ({changed});"
    )


def _purchase_rows(name: str, sign: str) -> str:
    return (
        f"SELECT entry_id, {sign}(NOT refunded)::int AS w, price, fee, chips, kind "  # noqa: S608
        f"FROM {name}"
    )


POSTGRES_PURCHASES = [
    f"""
    CREATE OR REPLACE FUNCTION floor_purchases_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN {_purchase_delta(_purchase_rows("added", ""))} RETURN NULL; END $$
    """,
    f"""
    CREATE OR REPLACE FUNCTION floor_purchases_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN {_purchase_delta(_purchase_rows("removed", "-"))} RETURN NULL; END $$
    """,
    f"""
    CREATE OR REPLACE FUNCTION floor_purchases_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        {_purchase_delta(_purchase_rows("after_rows", "") + " UNION ALL " + _purchase_rows("before_rows", "-"))}
        RETURN NULL;
    END $$
    """,
    "CREATE TRIGGER floor_purchases_added AFTER INSERT ON tournament_purchase "
    "REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION floor_purchases_added()",
    "CREATE TRIGGER floor_purchases_removed AFTER DELETE ON tournament_purchase "
    "REFERENCING OLD TABLE AS removed FOR EACH STATEMENT "
    "EXECUTE FUNCTION floor_purchases_removed()",
    "CREATE TRIGGER floor_purchases_changed AFTER UPDATE ON tournament_purchase "
    "REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows "
    "FOR EACH STATEMENT EXECUTE FUNCTION floor_purchases_changed()",
]

POSTGRES_PURCHASES_DROP = [
    "DROP TRIGGER IF EXISTS floor_purchases_added ON tournament_purchase",
    "DROP TRIGGER IF EXISTS floor_purchases_removed ON tournament_purchase",
    "DROP TRIGGER IF EXISTS floor_purchases_changed ON tournament_purchase",
    "DROP FUNCTION IF EXISTS floor_purchases_added()",
    "DROP FUNCTION IF EXISTS floor_purchases_removed()",
    "DROP FUNCTION IF EXISTS floor_purchases_changed()",
]


def _sqlite_purchase(row: str, sign: str) -> str:
    weight = f"(NOT {row}.refunded)"
    sets = ", ".join(
        [f"{name} = {name} {sign} {weight} * {row}.{col}" for col, name in MONEY]
        + [f"{name} = {name} {sign} ({weight} AND {row}.kind = '{k}')" for k, name in KINDS]
    )
    return (
        f"UPDATE tournament_tournament SET {sets} WHERE id = "  # noqa: S608 (constants)
        f"(SELECT tournament_id FROM tournament_entry WHERE id = {row}.entry_id);"
    )


SQLITE_PURCHASES = [
    "CREATE TRIGGER floor_purchase_added AFTER INSERT ON tournament_purchase BEGIN "
    f"{_sqlite_purchase('NEW', '+')} END",
    "CREATE TRIGGER floor_purchase_removed AFTER DELETE ON tournament_purchase BEGIN "
    f"{_sqlite_purchase('OLD', '-')} END",
    "CREATE TRIGGER floor_purchase_changed AFTER UPDATE ON tournament_purchase BEGIN "
    f"{_sqlite_purchase('OLD', '-')} {_sqlite_purchase('NEW', '+')} END",
]

SQLITE_PURCHASES_DROP = [
    "DROP TRIGGER IF EXISTS floor_purchase_added",
    "DROP TRIGGER IF EXISTS floor_purchase_removed",
    "DROP TRIGGER IF EXISTS floor_purchase_changed",
]

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
RECOUNT_PURCHASES = recount_sql(PURCHASE_COUNTERS_KEPT)


def install_purchase_counts(apps: Any, schema_editor: Any) -> None:
    _run(schema_editor, {"postgresql": POSTGRES_PURCHASES, "sqlite": SQLITE_PURCHASES})
    schema_editor.execute(RECOUNT_PURCHASES, params=None)


def remove_purchase_counts(apps: Any, schema_editor: Any) -> None:
    _run(schema_editor, {"postgresql": POSTGRES_PURCHASES_DROP, "sqlite": SQLITE_PURCHASES_DROP})


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
    from django.db import connection

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
    from django.db import connection

    with connection.cursor() as cursor:
        for owner, o in OWNERS.items():
            sql = recount_sql(counters_of(owner))
            params: list[int] = []
            if tournament_id is not None:
                sql += f" WHERE {o.tournament} = %s"
                params = [tournament_id]
            cursor.execute(sql, params)
