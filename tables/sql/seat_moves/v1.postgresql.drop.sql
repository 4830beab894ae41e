-- Removes seat_moves v1 (postgresql).

DROP TRIGGER IF EXISTS floor_seat_moved ON tables_seatassignment;
DROP FUNCTION IF EXISTS floor_seat_moved();
