"""Leagues and seasons: points formulas (a safe formula language, domain/), standings and their
big screen (docs/leagues.md)."""
