"""One record per person, without a database (tournament/domain/people.py): the checks of a
record, the keys, finding likely duplicates and what a merge keeps."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.domain.people import (
    PersonKeys,
    Reason,
    RecordProblem,
    birth_year_problem,
    duplicate_groups,
    duplicate_pairs,
    membership_clean,
    merged_record,
    phone_key,
    shared_tournaments,
)


def test_a_year_of_birth_is_plausible_between_10_and_110_years_ago():
    assert birth_year_problem(None, this_year=2026) is None
    assert birth_year_problem(1916, this_year=2026) is None
    assert birth_year_problem(2016, this_year=2026) is None
    for year in (1915, 2017, 2026, 0, 20260):
        assert birth_year_problem(year, this_year=2026) is RecordProblem.BIRTH_YEAR_RANGE


def test_membership_numbers_are_trimmed_and_refuse_control_characters_and_length():
    assert membership_clean("  M-00 17 ") == "M-00 17"
    assert membership_clean("") == ""
    with pytest.raises(ValueError) as bad:
        membership_clean("12\x003")
    assert bad.value.args[0] is RecordProblem.MEMBERSHIP_CHARACTERS
    with pytest.raises(ValueError) as long:
        membership_clean("9" * 41)
    assert long.value.args[0] is RecordProblem.MEMBERSHIP_TOO_LONG


def test_phone_numbers_agree_however_they_are_written():
    assert phone_key("+49 170 5550101") == phone_key("0049 170 5550101") == "01705550101"
    assert phone_key("0170 / 555 01 01") == "01705550101"
    assert phone_key("+43 660 1234567") == "+436601234567"
    assert phone_key("112") == "" and phone_key("") == ""


def _p(pk: int, name: str, year: int | None = None, **keys: str) -> PersonKeys:
    return PersonKeys(id=pk, name=name, birth_year=year, **keys)


def test_same_name_and_year_or_a_missing_year_are_duplicates():
    people = [
        _p(1, "Jürgen Müller", 1980),
        _p(2, "Juergen  Mueller", 1980),
        _p(3, "JÜRGEN MÜLLER", 1990),
        _p(4, "Anna Berg"),
        _p(5, "Anna Berg", 1975),
        _p(6, "Anna Bergmann"),
    ]
    pairs = duplicate_pairs(people)
    assert pairs == {
        (1, 2): {Reason.NAME_AND_BIRTH_YEAR},
        (4, 5): {Reason.NAME},
    }
    groups = duplicate_groups(people)
    assert [g.ids for g in groups] == [(1, 2), (4, 5)]


def test_same_email_phone_or_membership_number_are_duplicates_whatever_the_name():
    people = [
        _p(1, "Anna Berg", email="Anna@Example.org "),
        _p(2, "A. Berg-Schulz", email="anna@example.org"),
        _p(3, "Tom Kaya", phone="+49 151 2345678"),
        _p(4, "Thomas Kaya", phone="0151 234 56 78"),
        _p(5, "Eva Lind", membership_number="M 17"),
        _p(6, "Eva Lindner", membership_number="m 17"),
        _p(7, "Nobody Else", email="", phone="", membership_number=""),
        _p(8, "Someone Other"),
    ]
    groups = duplicate_groups(people)
    assert [(g.ids, g.reasons) for g in groups] == [
        ((1, 2), frozenset({Reason.EMAIL})),
        ((3, 4), frozenset({Reason.PHONE})),
        ((5, 6), frozenset({Reason.MEMBERSHIP_NUMBER})),
    ]


def test_records_joined_through_a_third_form_one_group_with_every_reason():
    people = [
        _p(1, "Max Roth", 1970),
        _p(2, "Max Roth"),
        _p(3, "Maximilian Roth", email="max@example.org"),
        _p(9, "M. Roth", email="max@example.org"),
    ]
    assert [g.ids for g in duplicate_groups(people)] == [(1, 2), (3, 9)]
    people.append(_p(4, "Max Roth", email="max@example.org"))
    (group,) = duplicate_groups(people)
    assert group.ids == (1, 2, 3, 4, 9)
    assert group.reasons == {Reason.NAME, Reason.EMAIL}


names = st.sampled_from(["Anna Berg", "anna berg", "Änna Berg", "Tom Kaya", "Eva Lind", "x"])
emails = st.sampled_from(["", "a@x.org", "A@X.org", "b@x.org"])
phones = st.sampled_from(["", "0170 1234567", "+49 170 1234567", "0171 7654321"])
numbers = st.sampled_from(["", "M1", "m1", "M2"])
years = st.one_of(st.none(), st.sampled_from([1970, 1980]))
people_lists = st.lists(
    st.tuples(names, years, emails, phones, numbers), min_size=0, max_size=14
).map(
    lambda rows: [
        PersonKeys(id=i + 1, name=n, birth_year=y, email=e, phone=ph, membership_number=m)
        for i, (n, y, e, ph, m) in enumerate(rows)
    ]
)


def _alike(a: PersonKeys, b: PersonKeys) -> bool:
    """The definition, pair by pair, written the slow way."""
    from tournament.domain.names import fold
    from tournament.domain.people import email_key, membership_key

    same_name = fold(a.name) == fold(b.name) and (
        a.birth_year is None or b.birth_year is None or a.birth_year == b.birth_year
    )
    return (
        same_name
        or (email_key(a.email) != "" and email_key(a.email) == email_key(b.email))
        or (phone_key(a.phone) != "" and phone_key(a.phone) == phone_key(b.phone))
        or (
            membership_key(a.membership_number) != ""
            and membership_key(a.membership_number) == membership_key(b.membership_number)
        )
    )


@given(people_lists)
def test_pairs_are_exactly_the_alike_records(people):
    expected = {(a.id, b.id) for a, b in itertools.combinations(people, 2) if _alike(a, b)}
    assert set(duplicate_pairs(people)) == expected


@given(people_lists, st.randoms())
def test_groups_are_disjoint_connected_and_do_not_depend_on_the_order(people, rnd):
    groups = duplicate_groups(people)
    seen: set[int] = set()
    pairs = duplicate_pairs(people)
    for g in groups:
        assert len(g.ids) >= 2 and list(g.ids) == sorted(g.ids)
        assert not seen & set(g.ids)
        seen |= set(g.ids)
        assert g.reasons
        for pk in g.ids:  # everyone in a group is alike with someone else in it
            assert any((min(pk, o), max(pk, o)) in pairs for o in g.ids if o != pk)
    for a, b in pairs:  # alike records share a group
        assert any(a in g.ids and b in g.ids for g in groups)
    shuffled = list(people)
    rnd.shuffle(shuffled)
    assert duplicate_groups(shuffled) == groups


def test_a_merge_fills_the_kept_records_empty_fields_only():
    kept = {
        "membership_number": "",
        "country": "",
        "birth_year": 1980,
        "email": "",
        "phone": "0170 1",
        "needs_accessible_seat": False,
        "notes": "Prefers table 1",
    }
    other = {
        "membership_number": "M7",
        "country": "AT",
        "birth_year": 1981,
        "email": "a@x.org",
        "phone": "0171 2",
        "needs_accessible_seat": True,
        "notes": "Wheelchair",
    }
    assert merged_record(kept, other) == {
        "membership_number": "M7",
        "country": "AT",
        "birth_year": 1980,
        "email": "a@x.org",
        "phone": "0170 1",
        "needs_accessible_seat": True,
        "notes": "Prefers table 1\nWheelchair",
    }
    empty = dict.fromkeys(kept, "") | {"birth_year": None, "needs_accessible_seat": False}
    assert merged_record(kept, empty) == kept
    same = merged_record(kept, kept)
    assert same["notes"] == "Prefers table 1"


@given(
    st.fixed_dictionaries(
        {
            "membership_number": numbers,
            "birth_year": years,
            "email": emails,
            "phone": phones,
            "needs_accessible_seat": st.booleans(),
            "notes": st.sampled_from(["", "a", "b"]),
        }
    ),
    st.fixed_dictionaries(
        {
            "membership_number": numbers,
            "birth_year": years,
            "email": emails,
            "phone": phones,
            "needs_accessible_seat": st.booleans(),
            "notes": st.sampled_from(["", "a", "b"]),
        }
    ),
)
def test_a_merge_never_loses_a_value_of_the_kept_record(kept, other):
    merged = merged_record(kept, other)
    for field, value in kept.items():
        if field == "notes":
            assert str(value) in merged[field]
        elif value not in (None, "", False):
            assert merged[field] == value
        elif other[field] not in (None, ""):
            assert merged[field] == other[field] or field == "needs_accessible_seat"


def test_shared_tournaments_refuse_a_merge():
    assert shared_tournaments([1, 2, 2], [3]) == set()
    assert shared_tournaments([1, 2], [2, 5]) == {2}
