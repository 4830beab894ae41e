"""The clock layout editor in German: a figure's place in the order is its "Position" (not a
finishing place), and the preview's sample figures are grouped as a German reader writes them."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_layout_editor_reads_german(director):
    boss = Client(HTTP_ACCEPT_LANGUAGE="de")
    boss.force_login(director)
    page = boss.get(reverse("venue-layout")).content.decode()
    assert '<th scope="col">Position</th>' in page and "Platzierung" not in page
    preview = page[page.index('id="le-preview"') :]
    assert "500 / 1.000" in preview and "68.966" in preview and "20.000\u00a0€" in preview
    assert "412.000" in preview
    assert not re.search(r"\d,\d{3}", preview), "no English grouping in the German preview"
    english = Client(HTTP_ACCEPT_LANGUAGE="en")
    english.force_login(director)
    page = english.get(reverse("venue-layout")).content.decode()
    assert "€20,000" in page and "500 / 1,000" in page
