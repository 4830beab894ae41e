"""German alphabetical order of names (DIN 5007, variant 1): tournament/domain/collation.py."""

from __future__ import annotations

import random

from tournament.domain.collation import by_name, name_key

GERMAN = ["Anna", "Ärne", "Bernd", "Max", "Olaf", "Ömer", "Ulla", "Zoe"]


def test_umlauts_sort_with_their_letter_not_after_z():
    shuffled = GERMAN[::-1]
    random.Random(5007).shuffle(shuffled)
    assert sorted(shuffled, key=name_key) == GERMAN
    # What code points gave (the display manager's seating list read so).
    assert sorted(shuffled) == ["Anna", "Bernd", "Max", "Olaf", "Ulla", "Zoe", "Ärne", "Ömer"]


def test_case_only_breaks_ties():
    assert sorted(["bernd", "Anna", "ärne", "Zoe", "anna"], key=name_key) == [
        "anna",
        "Anna",
        "ärne",
        "bernd",
        "Zoe",
    ]
    assert name_key("max") != name_key("Max")


def test_sharp_s_sorts_as_ss_and_accents_with_their_letter():
    assert sorted(["Strauß", "Strasser", "Straub", "Struck"], key=name_key) == [
        "Strasser",
        "Straub",
        "Strauß",
        "Struck",
    ]
    assert sorted(["Straße", "Strasse"], key=name_key) == ["Strasse", "Straße"]
    assert sorted(["Eva", "Émile", "Emil", "Ella", "Zoë", "Zoe"], key=name_key) == [
        "Ella",
        "Emil",
        "Émile",
        "Eva",
        "Zoe",
        "Zoë",
    ]
    assert sorted(["Über", "Ulla", "Uwe", "Tom"], key=name_key) == ["Tom", "Über", "Ulla", "Uwe"]


def test_given_and_family_names_in_one_string():
    assert sorted(["Anna Zeller", "Annabel Ernst", "Anna  Berg"], key=name_key) == [
        "Anna  Berg",
        "Anna Zeller",
        "Annabel Ernst",
    ]
    assert name_key("Anna  Berg") == name_key(" Anna Berg ")


def test_by_name_is_stable_for_equal_names():
    rows = [("Max", 3), ("Ärne", 1), ("Max", 1), ("Anna", 2)]
    assert by_name(rows, lambda r: r[0]) == [("Anna", 2), ("Ärne", 1), ("Max", 3), ("Max", 1)]
