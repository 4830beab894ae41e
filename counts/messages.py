"""What chip counts say on the live feeds and in the event log (registered with live/catalogue.py)."""

from __future__ import annotations

from typing import TypedDict

from live.catalogue import Audience, Message, declare, declare_actions


class CountsPayload(TypedDict):
    """Chip counts were recorded (counts/services.py). `version` is the count's event-log id, as
    a board's; `table` the table counted (None: single players). The counts pages fetch the
    public counts (kept once per version) spread over a few seconds: a whole field is not sent
    to every socket of the room."""

    version: int
    table: int | None
    counts: int


declare(
    Message(Audience.TOURNAMENT, "counts", CountsPayload, "chip counts were recorded"),
)

declare_actions(
    {
        "chips.count": "chip counts were recorded (table, source, numbers and counts, the count before)",
        "chips.bag": "bag counts were recorded at the end of a day (table, source, numbers, counts, bag numbers, whether a second count confirmed them)",
    }
)
