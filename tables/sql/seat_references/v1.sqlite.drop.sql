-- Removes seat_references v1 (sqlite).

DROP TRIGGER IF EXISTS floor_seat_refs_added;
DROP TRIGGER IF EXISTS floor_seat_refs_changed;
DROP TRIGGER IF EXISTS floor_seated_entries_removed;
DROP TRIGGER IF EXISTS floor_seated_tables_removed;
