-- Removes purchase_counts v1 (postgresql).

DROP TRIGGER IF EXISTS floor_purchases_added ON tournament_purchase;
DROP TRIGGER IF EXISTS floor_purchases_removed ON tournament_purchase;
DROP TRIGGER IF EXISTS floor_purchases_changed ON tournament_purchase;
DROP FUNCTION IF EXISTS floor_purchases_added();
DROP FUNCTION IF EXISTS floor_purchases_removed();
DROP FUNCTION IF EXISTS floor_purchases_changed();
