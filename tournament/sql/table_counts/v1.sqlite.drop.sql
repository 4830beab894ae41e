-- Removes table_counts v1 (sqlite).

DROP TRIGGER IF EXISTS floor_table_added;
DROP TRIGGER IF EXISTS floor_table_removed;
DROP TRIGGER IF EXISTS floor_table_opened_or_closed;
