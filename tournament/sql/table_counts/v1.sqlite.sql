-- table_counts v1 (sqlite), first installed by tournament 0007.

CREATE TRIGGER floor_table_added AFTER INSERT ON tables_table WHEN NEW.is_open BEGIN UPDATE tournament_tournament SET tables_open = tables_open + 1 WHERE id = NEW.tournament_id; END;

CREATE TRIGGER floor_table_removed AFTER DELETE ON tables_table WHEN OLD.is_open BEGIN UPDATE tournament_tournament SET tables_open = tables_open - 1 WHERE id = OLD.tournament_id; END;

CREATE TRIGGER floor_table_opened_or_closed AFTER UPDATE OF is_open ON tables_table WHEN OLD.is_open <> NEW.is_open BEGIN UPDATE tournament_tournament SET tables_open = tables_open + CASE WHEN NEW.is_open THEN 1 ELSE -1 END WHERE id = NEW.tournament_id; END;
