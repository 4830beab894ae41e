"""The festivals' event-log actions (registered with live/catalogue.py)."""

from __future__ import annotations

from live.catalogue import declare_actions

declare_actions(
    {
        "chips.bag_confirm": "a second person confirmed bag counts (table, numbers)",
        "festival.create": "an event with starting flights was made (flights, policy)",
        "festival.bagging_open": "bag and tag began at the end of a day",
        "festival.bagging_close": "a director closed the day: survivors, chips, whether flags stood",
        "festival.bagging_reopen": "a director reopened a closed day before the Day-2 draw",
        "festival.day2_draw": "the Day 2 was drawn from the flights' bags (random or seeded, players, forfeited bags)",
    }
)
