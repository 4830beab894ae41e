"""config/bulk.py: rows given column by column, on both databases: the ids in order, every other
column its default or the constant given, and nothing written for no rows."""

from __future__ import annotations

import pytest

from config.bulk import insert_columns
from tournament.models import Entry, EntryStatus, Player, Purchase, new_public_token

pytestmark = pytest.mark.django_db


def test_rows_get_their_columns_defaults_and_constants_in_order(make_tournament, actor):
    t = make_tournament(status="registering")
    players = Player.objects.bulk_create(
        Player(name=f"Nummer {i}", display_name=f"N{i}") for i in range(5)
    )
    ids = insert_columns(
        Entry,
        {
            "player_id": [p.pk for p in players],
            "number": [10, 11, 12, 13, 14],
            "public_token": [new_public_token() for _p in players],
        },
        constants={"tournament_id": t.pk, "status": EntryStatus.ACTIVE},
    )
    rows = list(Entry.objects.filter(pk__in=ids).order_by("pk"))
    assert [e.number for e in rows] == [10, 11, 12, 13, 14]
    assert [Entry.objects.get(pk=i).player_id for i in ids] == [p.pk for p in players]
    first = rows[0]
    assert (first.status, first.prize, first.paid_by, first.place, first.won_seat) == (
        "active",
        0,
        "",
        None,
        False,
    )
    assert first.created_at is not None
    insert_columns(
        Purchase, {"entry_id": ids, "chips": [100] * 5}, constants={"kind": "carried", "price": 0}
    )
    t.refresh_from_db()
    assert (t.players_left, t.chips_in, t.paid_in) == (5, 500, 0)  # the triggers counted them


def test_no_rows_and_uneven_columns():
    assert insert_columns(Entry, {"number": []}) == []
    with pytest.raises(ValueError):
        insert_columns(Entry, {"number": [1], "player_id": [1, 2]})


def test_text_with_quotes_commas_braces_and_backslashes_arrives_as_typed(make_tournament):
    from counts.models import ChipCount

    t = make_tournament(status="registering")
    player = Player.objects.create(name="Quote Test", display_name="Q")
    entry = Entry.objects.create(tournament=t, player=player, number=1, status="active")
    labels = ['Bag "1A", {x}', "back\\slash", "Tür ÄÖÜ", "", "NULL"]
    ids = insert_columns(
        ChipCount,
        {"recorded_by_label": labels, "count": [1, 2, 3, 4, 5]},
        constants={"tournament_id": t.pk, "entry_id": entry.pk},
    )
    got = dict(ChipCount.objects.filter(pk__in=ids).values_list("count", "recorded_by_label"))
    assert [got[i] for i in (1, 2, 3, 4, 5)] == labels
