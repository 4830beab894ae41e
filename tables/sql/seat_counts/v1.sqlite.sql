-- seat_counts v1 (sqlite), first installed by tables 0002.

CREATE TRIGGER floor_seat_added AFTER INSERT ON tables_seatassignment BEGIN UPDATE tables_table SET players = players + 1 WHERE id = NEW.table_id; END;

CREATE TRIGGER floor_seat_removed AFTER DELETE ON tables_seatassignment BEGIN UPDATE tables_table SET players = players - 1 WHERE id = OLD.table_id; END;

CREATE TRIGGER floor_seat_moved AFTER UPDATE OF table_id ON tables_seatassignment WHEN OLD.table_id <> NEW.table_id BEGIN UPDATE tables_table SET players = players - 1 WHERE id = OLD.table_id; UPDATE tables_table SET players = players + 1 WHERE id = NEW.table_id; END;
