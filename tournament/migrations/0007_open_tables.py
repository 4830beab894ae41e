from django.db import migrations, models


# The SQL this migration ran, written out here: live code may change, a migration must not.
def _run(schema_editor, statements):
    for sql in statements.get(schema_editor.connection.vendor, []):
        schema_editor.execute(sql, params=None)


POSTGRES_PURCHASES = [
    """
    CREATE OR REPLACE FUNCTION floor_purchases_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE tournament_tournament t SET paid_in = t.paid_in + d.paid_in, fees_in = t.fees_in + d.fees_in, chips_in = t.chips_in + d.chips_in, bought_buyins = t.bought_buyins + d.bought_buyins, bought_reentries = t.bought_reentries + d.bought_reentries, bought_rebuys = t.bought_rebuys + d.bought_rebuys, bought_addons = t.bought_addons + d.bought_addons FROM (SELECT e.tournament_id, sum(x.w * x.price) AS paid_in, sum(x.w * x.fee) AS fees_in, sum(x.w * x.chips) AS chips_in, coalesce(sum(x.w) FILTER (WHERE x.kind = 'buyin'), 0) AS bought_buyins, coalesce(sum(x.w) FILTER (WHERE x.kind = 'reentry'), 0) AS bought_reentries, coalesce(sum(x.w) FILTER (WHERE x.kind = 'rebuy'), 0) AS bought_rebuys, coalesce(sum(x.w) FILTER (WHERE x.kind = 'addon'), 0) AS bought_addons FROM (SELECT entry_id, (NOT refunded)::int AS w, price, fee, chips, kind FROM added) x JOIN tournament_entry e ON e.id = x.entry_id GROUP BY e.tournament_id) d WHERE t.id = d.tournament_id AND (d.paid_in <> 0 OR d.fees_in <> 0 OR d.chips_in <> 0 OR d.bought_buyins <> 0 OR d.bought_reentries <> 0 OR d.bought_rebuys <> 0 OR d.bought_addons <> 0); RETURN NULL; END $$
    """,
    """
    CREATE OR REPLACE FUNCTION floor_purchases_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE tournament_tournament t SET paid_in = t.paid_in + d.paid_in, fees_in = t.fees_in + d.fees_in, chips_in = t.chips_in + d.chips_in, bought_buyins = t.bought_buyins + d.bought_buyins, bought_reentries = t.bought_reentries + d.bought_reentries, bought_rebuys = t.bought_rebuys + d.bought_rebuys, bought_addons = t.bought_addons + d.bought_addons FROM (SELECT e.tournament_id, sum(x.w * x.price) AS paid_in, sum(x.w * x.fee) AS fees_in, sum(x.w * x.chips) AS chips_in, coalesce(sum(x.w) FILTER (WHERE x.kind = 'buyin'), 0) AS bought_buyins, coalesce(sum(x.w) FILTER (WHERE x.kind = 'reentry'), 0) AS bought_reentries, coalesce(sum(x.w) FILTER (WHERE x.kind = 'rebuy'), 0) AS bought_rebuys, coalesce(sum(x.w) FILTER (WHERE x.kind = 'addon'), 0) AS bought_addons FROM (SELECT entry_id, -(NOT refunded)::int AS w, price, fee, chips, kind FROM removed) x JOIN tournament_entry e ON e.id = x.entry_id GROUP BY e.tournament_id) d WHERE t.id = d.tournament_id AND (d.paid_in <> 0 OR d.fees_in <> 0 OR d.chips_in <> 0 OR d.bought_buyins <> 0 OR d.bought_reentries <> 0 OR d.bought_rebuys <> 0 OR d.bought_addons <> 0); RETURN NULL; END $$
    """,
    """
    CREATE OR REPLACE FUNCTION floor_purchases_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE tournament_tournament t SET paid_in = t.paid_in + d.paid_in, fees_in = t.fees_in + d.fees_in, chips_in = t.chips_in + d.chips_in, bought_buyins = t.bought_buyins + d.bought_buyins, bought_reentries = t.bought_reentries + d.bought_reentries, bought_rebuys = t.bought_rebuys + d.bought_rebuys, bought_addons = t.bought_addons + d.bought_addons FROM (SELECT e.tournament_id, sum(x.w * x.price) AS paid_in, sum(x.w * x.fee) AS fees_in, sum(x.w * x.chips) AS chips_in, coalesce(sum(x.w) FILTER (WHERE x.kind = 'buyin'), 0) AS bought_buyins, coalesce(sum(x.w) FILTER (WHERE x.kind = 'reentry'), 0) AS bought_reentries, coalesce(sum(x.w) FILTER (WHERE x.kind = 'rebuy'), 0) AS bought_rebuys, coalesce(sum(x.w) FILTER (WHERE x.kind = 'addon'), 0) AS bought_addons FROM (SELECT entry_id, (NOT refunded)::int AS w, price, fee, chips, kind FROM after_rows UNION ALL SELECT entry_id, -(NOT refunded)::int AS w, price, fee, chips, kind FROM before_rows) x JOIN tournament_entry e ON e.id = x.entry_id GROUP BY e.tournament_id) d WHERE t.id = d.tournament_id AND (d.paid_in <> 0 OR d.fees_in <> 0 OR d.chips_in <> 0 OR d.bought_buyins <> 0 OR d.bought_reentries <> 0 OR d.bought_rebuys <> 0 OR d.bought_addons <> 0);
        RETURN NULL;
    END $$
    """,
    "CREATE TRIGGER floor_purchases_added AFTER INSERT ON tournament_purchase REFERENCING "
    "NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION floor_purchases_added()",
    "CREATE TRIGGER floor_purchases_removed AFTER DELETE ON tournament_purchase "
    "REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION "
    "floor_purchases_removed()",
    "CREATE TRIGGER floor_purchases_changed AFTER UPDATE ON tournament_purchase "
    "REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows FOR EACH STATEMENT "
    "EXECUTE FUNCTION floor_purchases_changed()",
]

POSTGRES_PURCHASES_DROP = [
    "DROP TRIGGER IF EXISTS floor_purchases_added ON tournament_purchase",
    "DROP TRIGGER IF EXISTS floor_purchases_removed ON tournament_purchase",
    "DROP TRIGGER IF EXISTS floor_purchases_changed ON tournament_purchase",
    "DROP FUNCTION IF EXISTS floor_purchases_added()",
    "DROP FUNCTION IF EXISTS floor_purchases_removed()",
    "DROP FUNCTION IF EXISTS floor_purchases_changed()",
]

SQLITE_PURCHASES = [
    "CREATE TRIGGER floor_purchase_added AFTER INSERT ON tournament_purchase BEGIN UPDATE "
    "tournament_tournament SET paid_in = paid_in + (NOT NEW.refunded) * NEW.price, fees_in "
    "= fees_in + (NOT NEW.refunded) * NEW.fee, chips_in = chips_in + (NOT NEW.refunded) * "
    "NEW.chips, bought_buyins = bought_buyins + ((NOT NEW.refunded) AND NEW.kind = "
    "'buyin'), bought_reentries = bought_reentries + ((NOT NEW.refunded) AND NEW.kind = "
    "'reentry'), bought_rebuys = bought_rebuys + ((NOT NEW.refunded) AND NEW.kind = "
    "'rebuy'), bought_addons = bought_addons + ((NOT NEW.refunded) AND NEW.kind = 'addon') "
    "WHERE id = (SELECT tournament_id FROM tournament_entry WHERE id = NEW.entry_id); END",
    "CREATE TRIGGER floor_purchase_removed AFTER DELETE ON tournament_purchase BEGIN "
    "UPDATE tournament_tournament SET paid_in = paid_in - (NOT OLD.refunded) * OLD.price, "
    "fees_in = fees_in - (NOT OLD.refunded) * OLD.fee, chips_in = chips_in - (NOT "
    "OLD.refunded) * OLD.chips, bought_buyins = bought_buyins - ((NOT OLD.refunded) AND "
    "OLD.kind = 'buyin'), bought_reentries = bought_reentries - ((NOT OLD.refunded) AND "
    "OLD.kind = 'reentry'), bought_rebuys = bought_rebuys - ((NOT OLD.refunded) AND "
    "OLD.kind = 'rebuy'), bought_addons = bought_addons - ((NOT OLD.refunded) AND OLD.kind "
    "= 'addon') WHERE id = (SELECT tournament_id FROM tournament_entry WHERE id = "
    "OLD.entry_id); END",
    "CREATE TRIGGER floor_purchase_changed AFTER UPDATE ON tournament_purchase BEGIN "
    "UPDATE tournament_tournament SET paid_in = paid_in - (NOT OLD.refunded) * OLD.price, "
    "fees_in = fees_in - (NOT OLD.refunded) * OLD.fee, chips_in = chips_in - (NOT "
    "OLD.refunded) * OLD.chips, bought_buyins = bought_buyins - ((NOT OLD.refunded) AND "
    "OLD.kind = 'buyin'), bought_reentries = bought_reentries - ((NOT OLD.refunded) AND "
    "OLD.kind = 'reentry'), bought_rebuys = bought_rebuys - ((NOT OLD.refunded) AND "
    "OLD.kind = 'rebuy'), bought_addons = bought_addons - ((NOT OLD.refunded) AND OLD.kind "
    "= 'addon') WHERE id = (SELECT tournament_id FROM tournament_entry WHERE id = "
    "OLD.entry_id); UPDATE tournament_tournament SET paid_in = paid_in + (NOT "
    "NEW.refunded) * NEW.price, fees_in = fees_in + (NOT NEW.refunded) * NEW.fee, chips_in "
    "= chips_in + (NOT NEW.refunded) * NEW.chips, bought_buyins = bought_buyins + ((NOT "
    "NEW.refunded) AND NEW.kind = 'buyin'), bought_reentries = bought_reentries + ((NOT "
    "NEW.refunded) AND NEW.kind = 'reentry'), bought_rebuys = bought_rebuys + ((NOT "
    "NEW.refunded) AND NEW.kind = 'rebuy'), bought_addons = bought_addons + ((NOT "
    "NEW.refunded) AND NEW.kind = 'addon') WHERE id = (SELECT tournament_id FROM "
    "tournament_entry WHERE id = NEW.entry_id); END",
]

SQLITE_PURCHASES_DROP = [
    "DROP TRIGGER IF EXISTS floor_purchase_added",
    "DROP TRIGGER IF EXISTS floor_purchase_removed",
    "DROP TRIGGER IF EXISTS floor_purchase_changed",
]

RECOUNT_PURCHASES = (
    "UPDATE tournament_tournament SET paid_in = coalesce((SELECT sum(p.price) FROM "
    "tournament_purchase p JOIN tournament_entry e ON e.id = p.entry_id WHERE "
    "e.tournament_id = tournament_tournament.id AND NOT p.refunded), 0), fees_in = "
    "coalesce((SELECT sum(p.fee) FROM tournament_purchase p JOIN tournament_entry e ON "
    "e.id = p.entry_id WHERE e.tournament_id = tournament_tournament.id AND NOT "
    "p.refunded), 0), chips_in = coalesce((SELECT sum(p.chips) FROM tournament_purchase p "
    "JOIN tournament_entry e ON e.id = p.entry_id WHERE e.tournament_id = "
    "tournament_tournament.id AND NOT p.refunded), 0), bought_buyins = (SELECT count(*) "
    "FROM tournament_purchase p JOIN tournament_entry e ON e.id = p.entry_id WHERE "
    "e.tournament_id = tournament_tournament.id AND NOT p.refunded AND p.kind = 'buyin'), "
    "bought_reentries = (SELECT count(*) FROM tournament_purchase p JOIN tournament_entry "
    "e ON e.id = p.entry_id WHERE e.tournament_id = tournament_tournament.id AND NOT "
    "p.refunded AND p.kind = 'reentry'), bought_rebuys = (SELECT count(*) FROM "
    "tournament_purchase p JOIN tournament_entry e ON e.id = p.entry_id WHERE "
    "e.tournament_id = tournament_tournament.id AND NOT p.refunded AND p.kind = 'rebuy'), "
    "bought_addons = (SELECT count(*) FROM tournament_purchase p JOIN tournament_entry e "
    "ON e.id = p.entry_id WHERE e.tournament_id = tournament_tournament.id AND NOT "
    "p.refunded AND p.kind = 'addon')"
)


def install_purchase_counts(apps, schema_editor):
    _run(schema_editor, {"postgresql": POSTGRES_PURCHASES, "sqlite": SQLITE_PURCHASES})
    schema_editor.execute(RECOUNT_PURCHASES, params=None)


def remove_purchase_counts(apps, schema_editor):
    _run(schema_editor, {"postgresql": POSTGRES_PURCHASES_DROP, "sqlite": SQLITE_PURCHASES_DROP})


POSTGRES_ENTRIES = [
    """
    CREATE OR REPLACE FUNCTION floor_entries_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN 
    UPDATE tournament_tournament t
    SET players_left = t.players_left + d.alive, entries_counted = t.entries_counted + d.counted,
        alternates_waiting = t.alternates_waiting + d.waiting
    FROM (
        SELECT tournament_id, sum(alive) AS alive, sum(counted) AS counted,
            sum(waiting) AS waiting
        FROM (SELECT tournament_id, (status = 'active')::int AS alive, (status NOT IN ('unregistered', 'alternate'))::int AS counted, (status = 'alternate')::int AS waiting FROM added) x GROUP BY tournament_id
    ) d
    WHERE t.id = d.tournament_id AND (d.alive <> 0 OR d.counted <> 0 OR d.waiting <> 0);
 RETURN NULL; END $$
    """,
    """
    CREATE OR REPLACE FUNCTION floor_entries_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN 
    UPDATE tournament_tournament t
    SET players_left = t.players_left + d.alive, entries_counted = t.entries_counted + d.counted,
        alternates_waiting = t.alternates_waiting + d.waiting
    FROM (
        SELECT tournament_id, sum(alive) AS alive, sum(counted) AS counted,
            sum(waiting) AS waiting
        FROM (SELECT tournament_id, -(status = 'active')::int AS alive, -(status NOT IN ('unregistered', 'alternate'))::int AS counted, -(status = 'alternate')::int AS waiting FROM removed) x GROUP BY tournament_id
    ) d
    WHERE t.id = d.tournament_id AND (d.alive <> 0 OR d.counted <> 0 OR d.waiting <> 0);
 RETURN NULL; END $$
    """,
    """
    CREATE OR REPLACE FUNCTION floor_entries_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        
    UPDATE tournament_tournament t
    SET players_left = t.players_left + d.alive, entries_counted = t.entries_counted + d.counted,
        alternates_waiting = t.alternates_waiting + d.waiting
    FROM (
        SELECT tournament_id, sum(alive) AS alive, sum(counted) AS counted,
            sum(waiting) AS waiting
        FROM (SELECT tournament_id, (status = 'active')::int AS alive, (status NOT IN ('unregistered', 'alternate'))::int AS counted, (status = 'alternate')::int AS waiting FROM after_rows UNION ALL SELECT tournament_id, -(status = 'active')::int AS alive, -(status NOT IN ('unregistered', 'alternate'))::int AS counted, -(status = 'alternate')::int AS waiting FROM before_rows) x GROUP BY tournament_id
    ) d
    WHERE t.id = d.tournament_id AND (d.alive <> 0 OR d.counted <> 0 OR d.waiting <> 0);

        RETURN NULL;
    END $$
    """,
    "CREATE TRIGGER floor_entries_added AFTER INSERT ON tournament_entry REFERENCING NEW "
    "TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION floor_entries_added()",
    "CREATE TRIGGER floor_entries_removed AFTER DELETE ON tournament_entry REFERENCING OLD "
    "TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION floor_entries_removed()",
    "CREATE TRIGGER floor_entries_changed AFTER UPDATE ON tournament_entry REFERENCING OLD "
    "TABLE AS before_rows NEW TABLE AS after_rows FOR EACH STATEMENT EXECUTE FUNCTION "
    "floor_entries_changed()",
]

POSTGRES_ENTRIES_DROP = [
    "DROP TRIGGER IF EXISTS floor_entries_added ON tournament_entry",
    "DROP TRIGGER IF EXISTS floor_entries_removed ON tournament_entry",
    "DROP TRIGGER IF EXISTS floor_entries_changed ON tournament_entry",
    "DROP FUNCTION IF EXISTS floor_entries_added()",
    "DROP FUNCTION IF EXISTS floor_entries_removed()",
    "DROP FUNCTION IF EXISTS floor_entries_changed()",
]

SQLITE_ENTRIES = [
    "CREATE TRIGGER floor_entry_added AFTER INSERT ON tournament_entry BEGIN UPDATE "
    "tournament_tournament SET players_left = players_left + (NEW.status = 'active'), "
    "entries_counted = entries_counted + (NEW.status NOT IN ('unregistered', "
    "'alternate')), alternates_waiting = alternates_waiting + (NEW.status = 'alternate') "
    "WHERE id = NEW.tournament_id; END",
    "CREATE TRIGGER floor_entry_removed AFTER DELETE ON tournament_entry BEGIN UPDATE "
    "tournament_tournament SET players_left = players_left - (OLD.status = 'active'), "
    "entries_counted = entries_counted - (OLD.status NOT IN ('unregistered', "
    "'alternate')), alternates_waiting = alternates_waiting - (OLD.status = 'alternate') "
    "WHERE id = OLD.tournament_id; END",
    "CREATE TRIGGER floor_entry_changed AFTER UPDATE OF status, tournament_id ON "
    "tournament_entry BEGIN UPDATE tournament_tournament SET players_left = players_left - "
    "(OLD.status = 'active'), entries_counted = entries_counted - (OLD.status NOT IN "
    "('unregistered', 'alternate')), alternates_waiting = alternates_waiting - (OLD.status "
    "= 'alternate') WHERE id = OLD.tournament_id; UPDATE tournament_tournament SET "
    "players_left = players_left + (NEW.status = 'active'), entries_counted = "
    "entries_counted + (NEW.status NOT IN ('unregistered', 'alternate')), "
    "alternates_waiting = alternates_waiting + (NEW.status = 'alternate') WHERE id = "
    "NEW.tournament_id; END",
]

SQLITE_ENTRIES_DROP = [
    "DROP TRIGGER IF EXISTS floor_entry_added",
    "DROP TRIGGER IF EXISTS floor_entry_removed",
    "DROP TRIGGER IF EXISTS floor_entry_changed",
]

RECOUNT_TOURNAMENTS = (
    "UPDATE tournament_tournament SET players_left = (SELECT count(*) FROM "
    "tournament_entry e WHERE e.tournament_id = tournament_tournament.id AND e.status = "
    "'active'), entries_counted = (SELECT count(*) FROM tournament_entry e WHERE "
    "e.tournament_id = tournament_tournament.id AND e.status NOT IN ('unregistered', "
    "'alternate')), alternates_waiting = (SELECT count(*) FROM tournament_entry e WHERE "
    "e.tournament_id = tournament_tournament.id AND e.status = 'alternate')"
)


def install_entry_counts(apps, schema_editor):
    _run(schema_editor, {"postgresql": POSTGRES_ENTRIES, "sqlite": SQLITE_ENTRIES})
    schema_editor.execute(RECOUNT_TOURNAMENTS, params=None)


def remove_entry_counts(apps, schema_editor):
    _run(schema_editor, {"postgresql": POSTGRES_ENTRIES_DROP, "sqlite": SQLITE_ENTRIES_DROP})


POSTGRES_TABLES = [
    """
    CREATE OR REPLACE FUNCTION floor_tables_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE tournament_tournament t SET tables_open = t.tables_open + d.n FROM (SELECT tournament_id, count(*) AS n FROM added WHERE is_open GROUP BY tournament_id) d WHERE t.id = d.tournament_id; RETURN NULL; END $$
    """,
    """
    CREATE OR REPLACE FUNCTION floor_tables_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE tournament_tournament t SET tables_open = t.tables_open - d.n FROM (SELECT tournament_id, count(*) AS n FROM removed WHERE is_open GROUP BY tournament_id) d WHERE t.id = d.tournament_id; RETURN NULL; END $$
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
    "CREATE TRIGGER floor_tables_added AFTER INSERT ON tables_table REFERENCING NEW TABLE "
    "AS added FOR EACH STATEMENT EXECUTE FUNCTION floor_tables_added()",
    "CREATE TRIGGER floor_tables_removed AFTER DELETE ON tables_table REFERENCING OLD "
    "TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION floor_tables_removed()",
    "CREATE TRIGGER floor_table_opened_or_closed AFTER UPDATE OF is_open ON tables_table "
    "FOR EACH ROW WHEN (OLD.is_open IS DISTINCT FROM NEW.is_open) EXECUTE FUNCTION "
    "floor_table_opened_or_closed()",
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
    "UPDATE tournament_tournament SET tables_open = tables_open + 1 WHERE id = "
    "NEW.tournament_id; END",
    "CREATE TRIGGER floor_table_removed AFTER DELETE ON tables_table WHEN OLD.is_open "
    "BEGIN UPDATE tournament_tournament SET tables_open = tables_open - 1 WHERE id = "
    "OLD.tournament_id; END",
    "CREATE TRIGGER floor_table_opened_or_closed AFTER UPDATE OF is_open ON tables_table "
    "WHEN OLD.is_open <> NEW.is_open BEGIN UPDATE tournament_tournament SET tables_open = "
    "tables_open + CASE WHEN NEW.is_open THEN 1 ELSE -1 END WHERE id = NEW.tournament_id; "
    "END",
]

SQLITE_TABLES_DROP = [
    "DROP TRIGGER IF EXISTS floor_table_added",
    "DROP TRIGGER IF EXISTS floor_table_removed",
    "DROP TRIGGER IF EXISTS floor_table_opened_or_closed",
]

RECOUNT_OPEN_TABLES = (
    "UPDATE tournament_tournament SET tables_open = (SELECT count(*) FROM tables_table t "
    "WHERE t.tournament_id = tournament_tournament.id AND t.is_open)"
)


def install_table_counts(apps, schema_editor):
    _run(schema_editor, {"postgresql": POSTGRES_TABLES, "sqlite": SQLITE_TABLES})
    schema_editor.execute(RECOUNT_OPEN_TABLES, params=None)


def remove_table_counts(apps, schema_editor):
    _run(schema_editor, {"postgresql": POSTGRES_TABLES_DROP, "sqlite": SQLITE_TABLES_DROP})


class Migration(migrations.Migration):
    """The tournament row keeps how many of its tables are open (tournament/counters.py)."""

    dependencies = [
        ("tournament", "0006_purchase_counts"),
        ("tables", "0005_seat_references"),
    ]

    operations = [
        # SQLite rebuilds tournament_tournament to add the column; the entry and purchase
        # triggers name it, so they come off first and go back on after.
        migrations.RunPython(remove_purchase_counts, install_purchase_counts),
        migrations.RunPython(remove_entry_counts, install_entry_counts),
        migrations.AddField(
            model_name="tournament",
            name="tables_open",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(install_entry_counts, remove_entry_counts),
        migrations.RunPython(install_purchase_counts, remove_purchase_counts),
        migrations.RunPython(install_table_counts, remove_table_counts),
    ]
