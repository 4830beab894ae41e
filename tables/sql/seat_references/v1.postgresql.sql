-- seat_references v1 (postgresql), first installed by tables 0005.

CREATE OR REPLACE FUNCTION floor_seat_refs_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN 
        IF (SELECT count(*) FROM added r) <> (SELECT count(*) FROM (SELECT 1 FROM tournament_entry e JOIN added r ON r.entry_id = e.id FOR KEY SHARE OF e) locked) THEN
            RAISE foreign_key_violation USING MESSAGE = 'a seat refers to an entry that does not exist';
        END IF;
        IF (SELECT count(DISTINCT r.table_id) FROM added r)
            <> (SELECT count(*) FROM (SELECT 1 FROM tables_table t WHERE t.id IN (SELECT r.table_id FROM added r) FOR KEY SHARE OF t) locked)
        THEN
            RAISE foreign_key_violation USING MESSAGE = 'a seat refers to a table that does not exist';
        END IF;
     RETURN NULL; END $$;

CREATE OR REPLACE FUNCTION floor_seat_refs_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        -- Only the rows whose entry or table changed (a stack or a seat number is no concern).
        IF EXISTS (SELECT 1 FROM (SELECT n.entry_id, n.table_id FROM after_rows n JOIN before_rows o ON o.id = n.id WHERE o.entry_id <> n.entry_id OR o.table_id <> n.table_id) r) THEN 
        IF (SELECT count(*) FROM (SELECT n.entry_id, n.table_id FROM after_rows n JOIN before_rows o ON o.id = n.id WHERE o.entry_id <> n.entry_id OR o.table_id <> n.table_id) r) <> (SELECT count(*) FROM (SELECT 1 FROM tournament_entry e JOIN (SELECT n.entry_id, n.table_id FROM after_rows n JOIN before_rows o ON o.id = n.id WHERE o.entry_id <> n.entry_id OR o.table_id <> n.table_id) r ON r.entry_id = e.id FOR KEY SHARE OF e) locked) THEN
            RAISE foreign_key_violation USING MESSAGE = 'a seat refers to an entry that does not exist';
        END IF;
        IF (SELECT count(DISTINCT r.table_id) FROM (SELECT n.entry_id, n.table_id FROM after_rows n JOIN before_rows o ON o.id = n.id WHERE o.entry_id <> n.entry_id OR o.table_id <> n.table_id) r)
            <> (SELECT count(*) FROM (SELECT 1 FROM tables_table t WHERE t.id IN (SELECT r.table_id FROM (SELECT n.entry_id, n.table_id FROM after_rows n JOIN before_rows o ON o.id = n.id WHERE o.entry_id <> n.entry_id OR o.table_id <> n.table_id) r) FOR KEY SHARE OF t) locked)
        THEN
            RAISE foreign_key_violation USING MESSAGE = 'a seat refers to a table that does not exist';
        END IF;
     END IF;
        RETURN NULL;
    END $$;

CREATE OR REPLACE FUNCTION floor_seated_entries_removed() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM tables_seatassignment s USING removed r WHERE s.entry_id = r.id;
        RETURN NULL;
    END $$;

CREATE OR REPLACE FUNCTION floor_seated_tables_removed() RETURNS trigger
    LANGUAGE plpgsql AS $$
    BEGIN
        DELETE FROM tables_seatassignment s USING removed r WHERE s.table_id = r.id;
        RETURN NULL;
    END $$;

CREATE TRIGGER floor_seat_refs_added AFTER INSERT ON tables_seatassignment
    REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT
    EXECUTE FUNCTION floor_seat_refs_added();

CREATE TRIGGER floor_seat_refs_changed AFTER UPDATE ON tables_seatassignment
    REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
    FOR EACH STATEMENT
    EXECUTE FUNCTION floor_seat_refs_changed();

CREATE TRIGGER floor_seated_entries_removed AFTER DELETE ON tournament_entry
    REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT
    EXECUTE FUNCTION floor_seated_entries_removed();

CREATE TRIGGER floor_seated_tables_removed AFTER DELETE ON tables_table
    REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT
    EXECUTE FUNCTION floor_seated_tables_removed();
