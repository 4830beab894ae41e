"""The clock's spoken German uses the interface's words: a colour-up is a "Colour-up", and the
smallest chips are taken out ("entfernt"), not dyed ("eingefärbt")."""

from __future__ import annotations

from clocks.announcements import default_text


def test_the_colour_up_announcement_says_colour_up():
    text = default_text("colour_up_ahead", "de")
    assert text == "In der nächsten Pause ist Colour-up: Die {chips}er-Chips werden entfernt."
    assert "eingefärbt" not in text
    assert default_text("colour_up_ahead", "en") == (
        "At the next break the {chips} chips are coloured up."
    )
