-- purchase_counts v1: the counts recounted from the rows, after the triggers go on (any database).

UPDATE tournament_tournament SET paid_in = coalesce((SELECT sum(p.price) FROM
    tournament_purchase p JOIN tournament_entry e ON e.id = p.entry_id WHERE e.tournament_id =
    tournament_tournament.id AND NOT p.refunded), 0), fees_in = coalesce((SELECT sum(p.fee) FROM
    tournament_purchase p JOIN tournament_entry e ON e.id = p.entry_id WHERE e.tournament_id =
    tournament_tournament.id AND NOT p.refunded), 0), chips_in = coalesce((SELECT sum(p.chips)
    FROM tournament_purchase p JOIN tournament_entry e ON e.id = p.entry_id WHERE
    e.tournament_id = tournament_tournament.id AND NOT p.refunded), 0), bought_buyins = (SELECT
    count(*) FROM tournament_purchase p JOIN tournament_entry e ON e.id = p.entry_id WHERE
    e.tournament_id = tournament_tournament.id AND NOT p.refunded AND p.kind = 'buyin'),
    bought_reentries = (SELECT count(*) FROM tournament_purchase p JOIN tournament_entry e ON
    e.id = p.entry_id WHERE e.tournament_id = tournament_tournament.id AND NOT p.refunded AND
    p.kind = 'reentry'), bought_rebuys = (SELECT count(*) FROM tournament_purchase p JOIN
    tournament_entry e ON e.id = p.entry_id WHERE e.tournament_id = tournament_tournament.id AND
    NOT p.refunded AND p.kind = 'rebuy'), bought_addons = (SELECT count(*) FROM
    tournament_purchase p JOIN tournament_entry e ON e.id = p.entry_id WHERE e.tournament_id =
    tournament_tournament.id AND NOT p.refunded AND p.kind = 'addon');
