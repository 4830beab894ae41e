-- seat_references v1 (sqlite), first installed by tables 0005.

CREATE TRIGGER floor_seat_refs_added BEFORE INSERT ON tables_seatassignment WHEN NOT EXISTS (SELECT 1 FROM tournament_entry WHERE id = NEW.entry_id) OR NOT EXISTS (SELECT 1 FROM tables_table WHERE id = NEW.table_id) BEGIN SELECT RAISE(ABORT, 'a seat refers to an entry or a table that does not exist'); END;

CREATE TRIGGER floor_seat_refs_changed BEFORE UPDATE OF entry_id, table_id ON tables_seatassignment WHEN NOT EXISTS (SELECT 1 FROM tournament_entry WHERE id = NEW.entry_id) OR NOT EXISTS (SELECT 1 FROM tables_table WHERE id = NEW.table_id) BEGIN SELECT RAISE(ABORT, 'a seat refers to an entry or a table that does not exist'); END;

CREATE TRIGGER floor_seated_entries_removed AFTER DELETE ON tournament_entry BEGIN DELETE FROM tables_seatassignment WHERE entry_id = OLD.id; END;

CREATE TRIGGER floor_seated_tables_removed AFTER DELETE ON tables_table BEGIN DELETE FROM tables_seatassignment WHERE table_id = OLD.id; END;
