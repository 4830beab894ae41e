"""The console's clock buttons draw their symbols: the media characters (⏸ ⏮ ⏭) are missing from
many fonts (Linux without an emoji font among them) and showed as empty boxes. The symbol is
hidden from screen readers; the button's words name it."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from clocks.services import clock_command


@pytest.mark.django_db
@pytest.mark.parametrize("running", [False, True])
def test_the_clock_buttons_draw_their_symbols(client, floor_user, make_tournament, actor, running):
    t = make_tournament(status="registering")
    if running:
        clock_command(tournament=t, kind="start", actor=actor)
    client.force_login(floor_user)
    pages = {
        "console-clock": {"Pause", "Previous level", "Next level"} if running else {"Start clock"},
        "console-phone": {"Pause"} if running else {"Start clock"},
    }
    for page, wanted in pages.items():
        html = client.get(reverse(page, args=[t.pk])).content.decode()
        assert not set("⏸⏮⏭▶") & set(html), page
        buttons = re.findall(r'<button class="btn[^"]*big"[^>]*>(.*?)</button>', html, re.S)
        words = {re.sub(r"<svg.*?</svg>", "", b, flags=re.S).strip(): b for b in buttons}
        assert wanted <= set(words), (page, set(words))
        for word in wanted:
            assert re.search(r'<svg class="btn-icon"[^>]*aria-hidden="true"', words[word]), word
