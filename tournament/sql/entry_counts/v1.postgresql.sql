-- entry_counts v1 (postgresql), first installed by tournament 0005.

CREATE OR REPLACE FUNCTION floor_entries_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN 
    UPDATE tournament_tournament t
    SET players_left = t.players_left + d.alive, entries_counted = t.entries_counted + d.counted,
        alternates_waiting = t.alternates_waiting + d.waiting
    FROM (
        SELECT tournament_id, sum(alive) AS alive, sum(counted) AS counted,
            sum(waiting) AS waiting
        FROM (SELECT tournament_id, (status = 'active')::int AS alive, (status NOT IN ('unregistered', 'alternate'))::int AS counted, (status = 'alternate')::int AS waiting FROM added) x GROUP BY tournament_id
    ) d
    WHERE t.id = d.tournament_id AND (d.alive <> 0 OR d.counted <> 0 OR d.waiting <> 0);
 RETURN NULL; END $$;

CREATE OR REPLACE FUNCTION floor_entries_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN 
    UPDATE tournament_tournament t
    SET players_left = t.players_left + d.alive, entries_counted = t.entries_counted + d.counted,
        alternates_waiting = t.alternates_waiting + d.waiting
    FROM (
        SELECT tournament_id, sum(alive) AS alive, sum(counted) AS counted,
            sum(waiting) AS waiting
        FROM (SELECT tournament_id, -(status = 'active')::int AS alive, -(status NOT IN ('unregistered', 'alternate'))::int AS counted, -(status = 'alternate')::int AS waiting FROM removed) x GROUP BY tournament_id
    ) d
    WHERE t.id = d.tournament_id AND (d.alive <> 0 OR d.counted <> 0 OR d.waiting <> 0);
 RETURN NULL; END $$;

CREATE OR REPLACE FUNCTION floor_entries_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        
    UPDATE tournament_tournament t
    SET players_left = t.players_left + d.alive, entries_counted = t.entries_counted + d.counted,
        alternates_waiting = t.alternates_waiting + d.waiting
    FROM (
        SELECT tournament_id, sum(alive) AS alive, sum(counted) AS counted,
            sum(waiting) AS waiting
        FROM (SELECT tournament_id, (status = 'active')::int AS alive, (status NOT IN ('unregistered', 'alternate'))::int AS counted, (status = 'alternate')::int AS waiting FROM after_rows UNION ALL SELECT tournament_id, -(status = 'active')::int AS alive, -(status NOT IN ('unregistered', 'alternate'))::int AS counted, -(status = 'alternate')::int AS waiting FROM before_rows) x GROUP BY tournament_id
    ) d
    WHERE t.id = d.tournament_id AND (d.alive <> 0 OR d.counted <> 0 OR d.waiting <> 0);

        RETURN NULL;
    END $$;

CREATE TRIGGER floor_entries_added AFTER INSERT ON tournament_entry
    REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT
    EXECUTE FUNCTION floor_entries_added();

CREATE TRIGGER floor_entries_removed AFTER DELETE ON tournament_entry
    REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT
    EXECUTE FUNCTION floor_entries_removed();

CREATE TRIGGER floor_entries_changed AFTER UPDATE ON tournament_entry
    REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
    FOR EACH STATEMENT
    EXECUTE FUNCTION floor_entries_changed();
