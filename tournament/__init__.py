"""Tournaments and what is played in them: structures and chips, players (people, and a list
of them from a spreadsheet), entries, registration and the desk, busts and places with their
exports, the prize pool, payouts, deals, the cage and its ledger, corrections, the event log's
rows (eventlog/ has their words), and the tournament's own sockets (the public feed, a player's
my-seat feed). domain/ holds the pure rules: money, payouts, structures, lifecycle, places, ICM."""
