-- seat_moves v2 (postgresql): one statement trigger, one update per table whose count changed
-- (tables 0006).

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

CREATE TRIGGER floor_seats_moved AFTER UPDATE ON tables_seatassignment
    REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
    FOR EACH STATEMENT
    EXECUTE FUNCTION floor_seats_moved();
