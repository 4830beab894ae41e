"""The blind clock, and only this app writes clocks: the clock as data (domain/clock.py), its
commands, the ticker that announces levels exactly once, the big screen and the spoken
announcements (docs/clock.md)."""
