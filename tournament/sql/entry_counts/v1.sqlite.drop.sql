-- Removes entry_counts v1 (sqlite).

DROP TRIGGER IF EXISTS floor_entry_added;
DROP TRIGGER IF EXISTS floor_entry_removed;
DROP TRIGGER IF EXISTS floor_entry_changed;
