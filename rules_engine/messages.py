"""The rules engine's event-log actions (registered with live/catalogue.py)."""

from __future__ import annotations

from live.catalogue import declare_actions

declare_actions(
    {
        "ruling.record": "a ruling was recorded",
        "penalty.give": "a penalty was given",
        "chips.colour_up": "a colour-up was recorded",
    }
)
