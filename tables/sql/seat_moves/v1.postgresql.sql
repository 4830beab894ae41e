-- seat_moves v1 (postgresql): a row trigger per moved seat, two table updates each.

CREATE OR REPLACE FUNCTION floor_seat_moved() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE tables_table SET players = players - 1 WHERE id = OLD.table_id;
        UPDATE tables_table SET players = players + 1 WHERE id = NEW.table_id;
        RETURN NULL;
    END $$;

CREATE TRIGGER floor_seat_moved AFTER UPDATE OF table_id ON tables_seatassignment
    FOR EACH ROW
    WHEN (OLD.table_id IS DISTINCT FROM NEW.table_id)
    EXECUTE FUNCTION floor_seat_moved();
