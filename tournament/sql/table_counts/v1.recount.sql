-- table_counts v1: the counts recounted from the rows, after the triggers go on (any database).

UPDATE tournament_tournament SET tables_open = (SELECT count(*) FROM tables_table t WHERE
    t.tournament_id = tournament_tournament.id AND t.is_open);
