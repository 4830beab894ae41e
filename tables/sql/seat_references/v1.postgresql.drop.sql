-- Removes seat_references v1 (postgresql).

DROP TRIGGER IF EXISTS floor_seat_refs_added ON tables_seatassignment;
DROP TRIGGER IF EXISTS floor_seat_refs_changed ON tables_seatassignment;
DROP TRIGGER IF EXISTS floor_seated_entries_removed ON tournament_entry;
DROP TRIGGER IF EXISTS floor_seated_tables_removed ON tables_table;
DROP FUNCTION IF EXISTS floor_seat_refs_added();
DROP FUNCTION IF EXISTS floor_seat_refs_changed();
DROP FUNCTION IF EXISTS floor_seated_entries_removed();
DROP FUNCTION IF EXISTS floor_seated_tables_removed();
