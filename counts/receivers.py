"""The counts app answers the tournament app's questions about stacks."""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver

from counts.selectors import stacks_for_deal
from tournament.signals import deal_stacks_wanted


@receiver(deal_stacks_wanted)
def latest_counts_for_the_deal(
    *, tournament: Any, entry_ids: list[int], **_: Any
) -> dict[int, int]:
    return stacks_for_deal(tournament, entry_ids)
