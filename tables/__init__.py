"""Tables and seats, and only this app writes them: the draw, balancing, breaking tables, the final
table, the button and the hand, hand-for-hand, the shot clock, dealer reports, the dealer tablet
and the console's seating chart with their sockets, and the player's look-up by number
(`lookup.py`). domain/ holds the pure seating plans
(docs/seating.md)."""
