"""Seat-changing services of the tables app, one module per concern:

- `draw`: opening tables and the seat draw;
- `hands`: the button, "hand done" and hand-for-hand;
- `balancing`: balancing the room, breaking tables, the final table draw;
- `moves`: seating a player, moves by hand, making and undoing moves;
- `reports`: dealer reports and how the floor resolves them;
- `timecalls`: time calls; `shotclock`: the shot clock and time-bank cards; `tokens`: the
  dealer tablets' links.

Every one locks the tournament row first (`tournament.locks.lock_tournament`), so two floor
people and forty tablets acting at once are serialized per tournament; the database constraints
(one player per seat, one seat per player) are the last line of defence. The reads (table
states, head counts, the balancing plan, the break suggestion) are in `tables.selectors`; they
are importable from here too, as `from tables import services as svc; svc.balance_plan(t)`."""

from __future__ import annotations

from tables.selectors import (
    HEAD_ROWS,
    SEATED_STATUSES,
    balance_plan,
    balance_rules,
    break_suggestion,
    cards_used_by_entry,
    open_tables,
    seating_is_drawn,
    shot_clock_payload,
    shot_clock_rules,
    table_counts,
    table_state,
    time_call_of,
    time_call_payload,
)
from tables.services.balancing import balance_apply, final_table_draw, table_break
from tables.services.draw import seats_draw, seats_place, tables_create
from tables.services.hands import button_set, hand_finish, hand_for_hand_set
from tables.services.moves import entry_seat, moves_undo, seat_move
from tables.services.reports import (
    call_floor,
    report_bust,
    report_not_applied,
    report_resolve_begin,
    report_resolve_finish,
)
from tables.services.shotclock import (
    shot_clock_start,
    shot_clock_stop,
    time_bank_use,
    time_banks_reset,
)
from tables.services.timecalls import time_call_cancel, time_call_start
from tables.services.tokens import dealer_token_renew

__all__ = [
    "HEAD_ROWS",
    "SEATED_STATUSES",
    "balance_apply",
    "balance_plan",
    "balance_rules",
    "break_suggestion",
    "button_set",
    "call_floor",
    "cards_used_by_entry",
    "dealer_token_renew",
    "entry_seat",
    "final_table_draw",
    "hand_finish",
    "hand_for_hand_set",
    "moves_undo",
    "open_tables",
    "report_bust",
    "report_not_applied",
    "report_resolve_begin",
    "report_resolve_finish",
    "seat_move",
    "seating_is_drawn",
    "seats_draw",
    "seats_place",
    "shot_clock_payload",
    "shot_clock_rules",
    "shot_clock_start",
    "shot_clock_stop",
    "table_break",
    "table_counts",
    "table_state",
    "tables_create",
    "time_bank_use",
    "time_banks_reset",
    "time_call_cancel",
    "time_call_of",
    "time_call_payload",
    "time_call_start",
]
