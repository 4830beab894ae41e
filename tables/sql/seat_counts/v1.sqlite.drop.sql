-- Removes seat_counts v1 (sqlite).

DROP TRIGGER IF EXISTS floor_seat_added;
DROP TRIGGER IF EXISTS floor_seat_removed;
DROP TRIGGER IF EXISTS floor_seat_moved;
