"""Request values: whole numbers in ASCII digits and in range, search text without NUL."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from core.errors import FloorError
from core.inputs import (
    amount,
    next_url,
    search_text,
    whole_number,
    whole_number_or_none,
    whole_numbers,
)


@pytest.mark.parametrize("text", ["²", "٣", "1²", "", " ", "1.5", "1e3", "abc", "9" * 30, None])
def test_whole_number_refuses_what_is_not_one(text):
    with pytest.raises(FloorError):
        whole_number(text)
    assert whole_number_or_none(text) is None


def test_whole_number_bounds():
    assert whole_number(" 42 ") == 42
    assert whole_number("-3", low=-5) == -3
    with pytest.raises(FloorError):
        whole_number("-1")
    with pytest.raises(FloorError):
        whole_number(str(2**31))
    assert whole_numbers(["1", "x", "²", "3", str(2**40)]) == [1, 3]


def test_search_text_drops_nul_and_is_bounded():
    assert search_text("  an\x00na  \x07 b ") == "an na b"
    assert len(search_text("x" * 100_000)) == 120
    assert search_text(None) == ""


def test_amounts_fit_the_column():
    assert amount("12,50") == 1250
    with pytest.raises(FloorError):
        amount(str(2**40))
    with pytest.raises(FloorError):
        amount("zwölf")


@pytest.mark.parametrize(
    "target, expected",
    [
        ("/console/t/1/seating/", "/console/t/1/seating/"),
        ("https://evil.example/", "/home/"),
        ("//evil.example/x", "/home/"),
        ("/\\evil.example/", "/home/"),
        ("javascript:alert(1)", "/home/"),
        ("http://testserver/console/", "http://testserver/console/"),
        ("/a\x00b", "/home/"),
        ("", "/home/"),
        ("²", "/home/"),
        ("abc", "/home/"),
        ("desk", "/home/"),
        ("1" * 20, "/home/"),
    ],
)
def test_next_url_stays_on_the_site(target, expected):
    request = RequestFactory().post("/x", {"next": target})
    assert next_url(request, default="/home/") == expected
