-- Removes purchase_counts v1 (sqlite).

DROP TRIGGER IF EXISTS floor_purchase_added;
DROP TRIGGER IF EXISTS floor_purchase_removed;
DROP TRIGGER IF EXISTS floor_purchase_changed;
