-- purchase_counts v1 (postgresql), first installed by tournament 0006.

CREATE OR REPLACE FUNCTION floor_purchases_added() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE tournament_tournament t SET paid_in = t.paid_in + d.paid_in, fees_in = t.fees_in + d.fees_in, chips_in = t.chips_in + d.chips_in, bought_buyins = t.bought_buyins + d.bought_buyins, bought_reentries = t.bought_reentries + d.bought_reentries, bought_rebuys = t.bought_rebuys + d.bought_rebuys, bought_addons = t.bought_addons + d.bought_addons FROM (SELECT e.tournament_id, sum(x.w * x.price) AS paid_in, sum(x.w * x.fee) AS fees_in, sum(x.w * x.chips) AS chips_in, coalesce(sum(x.w) FILTER (WHERE x.kind = 'buyin'), 0) AS bought_buyins, coalesce(sum(x.w) FILTER (WHERE x.kind = 'reentry'), 0) AS bought_reentries, coalesce(sum(x.w) FILTER (WHERE x.kind = 'rebuy'), 0) AS bought_rebuys, coalesce(sum(x.w) FILTER (WHERE x.kind = 'addon'), 0) AS bought_addons FROM (SELECT entry_id, (NOT refunded)::int AS w, price, fee, chips, kind FROM added) x JOIN tournament_entry e ON e.id = x.entry_id GROUP BY e.tournament_id) d WHERE t.id = d.tournament_id AND (d.paid_in <> 0 OR d.fees_in <> 0 OR d.chips_in <> 0 OR d.bought_buyins <> 0 OR d.bought_reentries <> 0 OR d.bought_rebuys <> 0 OR d.bought_addons <> 0); RETURN NULL; END $$;

CREATE OR REPLACE FUNCTION floor_purchases_removed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN UPDATE tournament_tournament t SET paid_in = t.paid_in + d.paid_in, fees_in = t.fees_in + d.fees_in, chips_in = t.chips_in + d.chips_in, bought_buyins = t.bought_buyins + d.bought_buyins, bought_reentries = t.bought_reentries + d.bought_reentries, bought_rebuys = t.bought_rebuys + d.bought_rebuys, bought_addons = t.bought_addons + d.bought_addons FROM (SELECT e.tournament_id, sum(x.w * x.price) AS paid_in, sum(x.w * x.fee) AS fees_in, sum(x.w * x.chips) AS chips_in, coalesce(sum(x.w) FILTER (WHERE x.kind = 'buyin'), 0) AS bought_buyins, coalesce(sum(x.w) FILTER (WHERE x.kind = 'reentry'), 0) AS bought_reentries, coalesce(sum(x.w) FILTER (WHERE x.kind = 'rebuy'), 0) AS bought_rebuys, coalesce(sum(x.w) FILTER (WHERE x.kind = 'addon'), 0) AS bought_addons FROM (SELECT entry_id, -(NOT refunded)::int AS w, price, fee, chips, kind FROM removed) x JOIN tournament_entry e ON e.id = x.entry_id GROUP BY e.tournament_id) d WHERE t.id = d.tournament_id AND (d.paid_in <> 0 OR d.fees_in <> 0 OR d.chips_in <> 0 OR d.bought_buyins <> 0 OR d.bought_reentries <> 0 OR d.bought_rebuys <> 0 OR d.bought_addons <> 0); RETURN NULL; END $$;

CREATE OR REPLACE FUNCTION floor_purchases_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        UPDATE tournament_tournament t SET paid_in = t.paid_in + d.paid_in, fees_in = t.fees_in + d.fees_in, chips_in = t.chips_in + d.chips_in, bought_buyins = t.bought_buyins + d.bought_buyins, bought_reentries = t.bought_reentries + d.bought_reentries, bought_rebuys = t.bought_rebuys + d.bought_rebuys, bought_addons = t.bought_addons + d.bought_addons FROM (SELECT e.tournament_id, sum(x.w * x.price) AS paid_in, sum(x.w * x.fee) AS fees_in, sum(x.w * x.chips) AS chips_in, coalesce(sum(x.w) FILTER (WHERE x.kind = 'buyin'), 0) AS bought_buyins, coalesce(sum(x.w) FILTER (WHERE x.kind = 'reentry'), 0) AS bought_reentries, coalesce(sum(x.w) FILTER (WHERE x.kind = 'rebuy'), 0) AS bought_rebuys, coalesce(sum(x.w) FILTER (WHERE x.kind = 'addon'), 0) AS bought_addons FROM (SELECT entry_id, (NOT refunded)::int AS w, price, fee, chips, kind FROM after_rows UNION ALL SELECT entry_id, -(NOT refunded)::int AS w, price, fee, chips, kind FROM before_rows) x JOIN tournament_entry e ON e.id = x.entry_id GROUP BY e.tournament_id) d WHERE t.id = d.tournament_id AND (d.paid_in <> 0 OR d.fees_in <> 0 OR d.chips_in <> 0 OR d.bought_buyins <> 0 OR d.bought_reentries <> 0 OR d.bought_rebuys <> 0 OR d.bought_addons <> 0);
        RETURN NULL;
    END $$;

CREATE TRIGGER floor_purchases_added AFTER INSERT ON tournament_purchase
    REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT
    EXECUTE FUNCTION floor_purchases_added();

CREATE TRIGGER floor_purchases_removed AFTER DELETE ON tournament_purchase
    REFERENCING OLD TABLE AS removed
    FOR EACH STATEMENT
    EXECUTE FUNCTION floor_purchases_removed();

CREATE TRIGGER floor_purchases_changed AFTER UPDATE ON tournament_purchase
    REFERENCING OLD TABLE AS before_rows NEW TABLE AS after_rows
    FOR EACH STATEMENT
    EXECUTE FUNCTION floor_purchases_changed();
