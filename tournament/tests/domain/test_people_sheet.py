"""A player list from a spreadsheet, without a database (tournament/domain/people_sheet.py):
the mapping's checks and first guess, each row's checks, the likely duplicates."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tournament.domain.people import PersonKeys, Reason
from tournament.domain.people_sheet import (
    Field,
    MappingProblem,
    PersonRow,
    RowProblem,
    guess_mapping,
    likely_duplicates,
    mapping_problems,
    person_from_row,
)

F = Field


def test_the_headings_give_a_first_guess_in_german_and_english():
    header = ["Vorname", "Nachname", "E-Mail", "Handy", "Mitglieds-Nr.", "Jahrgang", "Spalte X"]
    assert guess_mapping(header) == [
        F.FIRST_NAME,
        F.LAST_NAME,
        F.EMAIL,
        F.PHONE,
        F.MEMBERSHIP_NUMBER,
        F.BIRTH_YEAR,
        None,
    ]
    assert guess_mapping(["Name", "Nickname", "name", "Member number"]) == [
        F.NAME,
        F.DISPLAY_NAME,
        None,  # a field is guessed once
        F.MEMBERSHIP_NUMBER,
    ]


def test_mapping_problems():
    assert mapping_problems([F.NAME, F.EMAIL, None]) == []
    assert mapping_problems([F.FIRST_NAME, F.LAST_NAME]) == []
    assert mapping_problems([F.LAST_NAME]) == []
    assert mapping_problems([F.EMAIL, None]) == [(MappingProblem.NO_NAME, None)]
    assert mapping_problems([]) == [(MappingProblem.NO_NAME, None)]
    assert mapping_problems([F.NAME, F.FIRST_NAME]) == [(MappingProblem.NAME_AND_PARTS, None)]
    assert (MappingProblem.TWICE, F.EMAIL) in mapping_problems([F.NAME, F.EMAIL, F.EMAIL])


MAP = [
    F.FIRST_NAME,
    F.LAST_NAME,
    F.DISPLAY_NAME,
    F.EMAIL,
    F.PHONE,
    F.MEMBERSHIP_NUMBER,
    F.BIRTH_YEAR,
]


def test_a_row_becomes_a_person():
    cells = ["  Jörg ", "Weiß", "", "j@example.org", " 0170  123 ", " M 17 ", "1980.0"]
    person, problems = person_from_row(cells, MAP, row=2, this_year=2026)
    assert problems == []
    assert person == PersonRow(
        row=2,
        name="Jörg Weiß",
        email="j@example.org",
        phone="0170 123",
        membership_number="M 17",
        birth_year=1980,
    )
    # Short rows: the missing cells are empty.
    person, problems = person_from_row(["Anna", "Lang"], MAP, row=3, this_year=2026)
    assert person is not None and person.name == "Anna Lang" and problems == []


def test_every_problem_of_a_row_is_named():
    cells = ["", "", "x" * 61, "e" * 255, "1" * 41, "M" * 41, "19x0"]
    person, problems = person_from_row(cells, MAP, row=4, this_year=2026)
    assert person is None
    assert problems == [
        RowProblem.NAME_MISSING,
        RowProblem.DISPLAY_NAME_TOO_LONG,
        RowProblem.EMAIL_TOO_LONG,
        RowProblem.PHONE_TOO_LONG,
        RowProblem.BIRTH_YEAR_NOT_A_YEAR,
        RowProblem.MEMBERSHIP_TOO_LONG,
    ]
    _p, problems = person_from_row(
        ["Bo\x00b", "X", "", "", "", "", "2020"], MAP, row=5, this_year=2026
    )
    assert problems == [RowProblem.CONTROL_CHARACTERS, RowProblem.BIRTH_YEAR_RANGE]


def test_likely_duplicates_against_known_people_and_earlier_rows():
    rows = [
        PersonRow(row=2, name="Jörg Weiß", birth_year=1980),
        PersonRow(row=3, name="Anna Lang", email="anna@example.org"),
        PersonRow(row=4, name="Anna L.", email="ANNA@example.org "),
        PersonRow(row=5, name="Cleo Neu"),
    ]
    known = [PersonKeys(id=7, name="Jorg Weiss"), PersonKeys(id=8, name="Jorg Weiss")]
    found = likely_duplicates(rows, known)
    assert set(found) == {2, 4}
    assert {(s.player_id, s.other_row) for s in found[2]} == {(7, None), (8, None)}
    assert [(s.player_id, s.other_row, s.reasons) for s in found[4]] == [
        (None, 3, frozenset({Reason.EMAIL}))
    ]


cell = st.text(max_size=80)


@given(
    cells=st.lists(cell, max_size=12),
    mapping=st.lists(st.sampled_from([None, *Field]), max_size=12),
)
def test_any_row_gives_a_person_or_problems_never_an_exception(cells, mapping):
    person, problems = person_from_row(cells, mapping, row=2, this_year=2026)
    assert (person is None) == bool(problems)
    if person is not None:
        assert 2 <= len(person.name) <= 120 and len(person.display_name) <= 60
        assert person.name == " ".join(person.name.split())


@given(st.lists(st.sampled_from(["Anna Lang", "Ánna Lang", "Bo Bauer", "Cleo"]), max_size=8))
def test_a_row_is_only_ever_like_an_earlier_row(names):
    rows = [PersonRow(row=i + 2, name=n) for i, n in enumerate(names)]
    for row, sames in likely_duplicates(rows, []).items():
        assert all(s.other_row is not None and s.other_row < row for s in sames)
