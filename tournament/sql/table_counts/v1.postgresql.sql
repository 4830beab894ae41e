-- table_counts v1 (postgresql), first installed by tournament 0007.

CREATE OR REPLACE FUNCTION floor_tables_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE tournament_tournament t SET tables_open = t.tables_open + d.n FROM (SELECT tournament_id, count(*) AS n FROM added WHERE is_open GROUP BY tournament_id) d WHERE t.id = d.tournament_id; RETURN NULL; END $$;

CREATE OR REPLACE FUNCTION floor_tables_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE tournament_tournament t SET tables_open = t.tables_open - d.n FROM (SELECT tournament_id, count(*) AS n FROM removed WHERE is_open GROUP BY tournament_id) d WHERE t.id = d.tournament_id; RETURN NULL; END $$;

CREATE OR REPLACE FUNCTION floor_table_opened_or_closed() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE tournament_tournament
        SET tables_open = tables_open + CASE WHEN NEW.is_open THEN 1 ELSE -1 END
        WHERE id = NEW.tournament_id;
        RETURN NULL;
    END $$;

CREATE TRIGGER floor_tables_added AFTER INSERT ON tables_table
    REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT
    EXECUTE FUNCTION floor_tables_added();

CREATE TRIGGER floor_tables_removed AFTER DELETE ON tables_table
    REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT
    EXECUTE FUNCTION floor_tables_removed();

CREATE TRIGGER floor_table_opened_or_closed AFTER UPDATE OF is_open ON tables_table
    FOR EACH ROW
    WHEN (OLD.is_open IS DISTINCT FROM NEW.is_open)
    EXECUTE FUNCTION floor_table_opened_or_closed();
