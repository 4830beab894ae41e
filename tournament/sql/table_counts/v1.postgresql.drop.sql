-- Removes table_counts v1 (postgresql).

DROP TRIGGER IF EXISTS floor_tables_added ON tables_table;
DROP TRIGGER IF EXISTS floor_tables_removed ON tables_table;
DROP TRIGGER IF EXISTS floor_table_opened_or_closed ON tables_table;
DROP FUNCTION IF EXISTS floor_tables_added();
DROP FUNCTION IF EXISTS floor_tables_removed();
DROP FUNCTION IF EXISTS floor_table_opened_or_closed();
