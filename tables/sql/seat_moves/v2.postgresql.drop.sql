-- Removes seat_moves v2 (postgresql).

DROP TRIGGER IF EXISTS floor_seats_moved ON tables_seatassignment;
DROP FUNCTION IF EXISTS floor_seats_moved();
