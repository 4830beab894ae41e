"""Writes for the payout table: a manual table replaces the default schedule."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from core import figures
from core.errors import FloorError
from tournament.domain.payouts import PayoutError, validate_manual_payouts
from tournament.events import Actor, event_record
from tournament.live import notify_board
from tournament.locks import lock_tournament
from tournament.models import Payout, Tournament
from tournament.selectors import tournament_numbers


@transaction.atomic
def payouts_set(*, tournament: Tournament, amounts: Sequence[int], actor: Actor) -> list[Payout]:
    """Replace the payout table by `amounts` (1st place first); they must sum to the pool."""
    tournament = lock_tournament(tournament.pk, key=True)
    if tournament.entries.filter(place__isnull=False, prize__gt=0).exists():
        raise FloorError(_("Prizes have been awarded already; the table can no longer change."))
    pool = tournament_numbers(tournament).prize_pool
    try:
        validate_manual_payouts(list(amounts), pool)
    except PayoutError as exc:
        raise FloorError(
            _(
                "The payouts must be positive, fall from 1st place down and add up to the prize "
                "pool of %(pool)s (%(reason)s)."
            )
            % {"pool": figures.money(pool, tournament.currency), "reason": exc}
        ) from exc
    tournament.payouts.all().delete()
    rows = Payout.objects.bulk_create(
        Payout(tournament=tournament, place=i + 1, amount=a) for i, a in enumerate(amounts)
    )
    event_record(
        tournament=tournament,
        action="payouts.set",
        actor=actor,
        payload={"amounts": list(amounts), "pool": pool},
    )
    notify_board(tournament.pk, "payouts")
    return rows


@transaction.atomic
def payouts_reset(*, tournament: Tournament, actor: Actor) -> None:
    """Back to the default schedule."""
    tournament = lock_tournament(tournament.pk, key=True)
    if tournament.entries.filter(place__isnull=False, prize__gt=0).exists():
        raise FloorError(_("Prizes have been awarded already; the table can no longer change."))
    tournament.payouts.all().delete()
    event_record(tournament=tournament, action="payouts.reset", actor=actor, payload={})
    notify_board(tournament.pk, "payouts")
