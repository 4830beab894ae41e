"""The dealer tablets' links."""

from __future__ import annotations

from django.db import transaction

from live.realtime import broadcast_on_commit, dealer_group
from tables.models import Table, new_dealer_token
from tournament.events import Actor, event_record
from tournament.locks import lock_tournament


@transaction.atomic
def dealer_token_renew(*, table: Table, actor: Actor) -> Table:
    """Revoke the table's dealer link and issue a new one (open tablets lose access)."""
    lock_tournament(table.tournament_id, only=("id",))
    old = table.dealer_token
    table.dealer_token = new_dealer_token()
    table.save(update_fields=["dealer_token"])
    event_record(
        tournament=table.tournament,
        action="table.token_renew",
        actor=actor,
        payload={"table": table.number},
    )
    broadcast_on_commit(dealer_group(old), "revoked", {})
    return table
