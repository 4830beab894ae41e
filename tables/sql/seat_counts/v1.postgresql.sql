-- seat_counts v1 (postgresql), first installed by tables 0002.

CREATE OR REPLACE FUNCTION floor_seats_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF current_setting('floor.draw_sets_counts', true) = 'on' THEN RETURN NULL; END IF;
        UPDATE tables_table t SET players = t.players + d.n
        FROM (SELECT table_id, count(*) AS n FROM added GROUP BY table_id) d
        WHERE t.id = d.table_id;
        RETURN NULL;
    END $$;

CREATE OR REPLACE FUNCTION floor_seats_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        IF current_setting('floor.draw_sets_counts', true) = 'on' THEN RETURN NULL; END IF;
        UPDATE tables_table t SET players = t.players - d.n
        FROM (SELECT table_id, count(*) AS n FROM removed GROUP BY table_id) d
        WHERE t.id = d.table_id;
        RETURN NULL;
    END $$;

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
    END $$;

CREATE TRIGGER floor_seats_added AFTER INSERT ON tables_seatassignment
    REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT
    EXECUTE FUNCTION floor_seats_added();

CREATE TRIGGER floor_seats_removed AFTER DELETE ON tables_seatassignment
    REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT
    EXECUTE FUNCTION floor_seats_removed();

CREATE TRIGGER floor_seats_moved AFTER UPDATE ON tables_seatassignment
    REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
    FOR EACH STATEMENT
    EXECUTE FUNCTION floor_seats_moved();
