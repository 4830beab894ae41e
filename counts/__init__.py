"""Chip counts: counts from the floor and the tablets, bag and tag, the public counts page and its
screen (docs/counts.md)."""
