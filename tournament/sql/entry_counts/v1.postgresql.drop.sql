-- Removes entry_counts v1 (postgresql).

DROP TRIGGER IF EXISTS floor_entries_added ON tournament_entry;
DROP TRIGGER IF EXISTS floor_entries_removed ON tournament_entry;
DROP TRIGGER IF EXISTS floor_entries_changed ON tournament_entry;
DROP FUNCTION IF EXISTS floor_entries_added();
DROP FUNCTION IF EXISTS floor_entries_removed();
DROP FUNCTION IF EXISTS floor_entries_changed();
