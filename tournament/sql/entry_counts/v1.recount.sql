-- entry_counts v1: the counts recounted from the rows, after the triggers go on (any database).

UPDATE tournament_tournament SET players_left = (SELECT count(*) FROM tournament_entry e WHERE
    e.tournament_id = tournament_tournament.id AND e.status = 'active'), entries_counted =
    (SELECT count(*) FROM tournament_entry e WHERE e.tournament_id = tournament_tournament.id
    AND e.status NOT IN ('unregistered', 'alternate')), alternates_waiting = (SELECT count(*)
    FROM tournament_entry e WHERE e.tournament_id = tournament_tournament.id AND e.status =
    'alternate');
