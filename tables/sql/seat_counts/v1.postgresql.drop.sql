-- Removes seat_counts v1 (postgresql).

DROP TRIGGER IF EXISTS floor_seats_added ON tables_seatassignment;
DROP TRIGGER IF EXISTS floor_seats_removed ON tables_seatassignment;
DROP TRIGGER IF EXISTS floor_seat_moved ON tables_seatassignment;
DROP TRIGGER IF EXISTS floor_seats_moved ON tables_seatassignment;
DROP FUNCTION IF EXISTS floor_seats_added();
DROP FUNCTION IF EXISTS floor_seats_removed();
DROP FUNCTION IF EXISTS floor_seat_moved();
DROP FUNCTION IF EXISTS floor_seats_moved();
