-- seat_counts v1: the counts recounted from the rows, after the triggers go on (any database).

UPDATE tables_table SET players = (SELECT count(*) FROM tables_seatassignment s WHERE s.table_id
    = tables_table.id);
