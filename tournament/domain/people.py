"""One record per person (docs/players.md, "One record per person"): the checks of a person's
record, the keys two records of the same person share, finding likely duplicates, and what a
merge keeps.

Plain Python: the service (tournament/services/people.py) loads the records, calls these and
saves; the words of a refusal live there too (these functions name a problem by a code).
"""

from __future__ import annotations

import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from tournament.domain.names import fold

# A year of birth is plausible for a person between these ages (in the year it is entered).
YOUNGEST_AGE = 10
OLDEST_AGE = 110
MEMBERSHIP_MAX = 40
# A phone number with fewer digits is no key: too many people would share it.
PHONE_DIGITS_MIN = 6


class RecordProblem(Enum):
    """Why a value cannot go into a person's record (the service puts it in words)."""

    BIRTH_YEAR_RANGE = "birth_year_range"
    MEMBERSHIP_TOO_LONG = "membership_too_long"
    MEMBERSHIP_CHARACTERS = "membership_characters"


def birth_year_problem(year: int | None, *, this_year: int) -> RecordProblem | None:
    """None when `year` is empty or plausible: the person is between YOUNGEST_AGE and
    OLDEST_AGE years old in `this_year`."""
    if year is None:
        return None
    if not this_year - OLDEST_AGE <= year <= this_year - YOUNGEST_AGE:
        return RecordProblem.BIRTH_YEAR_RANGE
    return None


def birth_year_range(this_year: int) -> tuple[int, int]:
    """The earliest and the latest plausible year of birth."""
    return this_year - OLDEST_AGE, this_year - YOUNGEST_AGE


def membership_clean(text: str) -> str:
    """The membership number as stored: surrounding space removed, inner space runs as one
    space. Raises ValueError(RecordProblem) for control characters or more than MEMBERSHIP_MAX
    characters. An empty text means "no number"."""
    if any(unicodedata.category(c).startswith("C") for c in text):
        raise ValueError(RecordProblem.MEMBERSHIP_CHARACTERS)
    cleaned = " ".join(text.split())
    if len(cleaned) > MEMBERSHIP_MAX:
        raise ValueError(RecordProblem.MEMBERSHIP_TOO_LONG)
    return cleaned


# --- Keys two records of one person share ---------------------------------------------------


def email_key(email: str) -> str:
    """E-mail addresses compare without case and surrounding space."""
    return email.strip().casefold()


def phone_key(phone: str) -> str:
    """The digits of a phone number, written the same whatever way it was typed: "+49 170 …",
    "0049 170 …" and "0170 …" agree (a German number with its country code written out is the
    national number with a leading 0). Empty when there are fewer than PHONE_DIGITS_MIN digits."""
    text = phone.strip()
    digits = "".join(c for c in text if c.isdigit() and c.isascii())
    international = text.startswith("+")
    if digits.startswith("00"):
        digits, international = digits[2:], True
    if international and digits.startswith("49"):
        digits = "0" + digits[2:]
    elif international:
        digits = "+" + digits
    return digits if len(digits.lstrip("+0")) >= PHONE_DIGITS_MIN else ""


def membership_key(number: str) -> str:
    return " ".join(number.split()).casefold()


@dataclass(frozen=True, slots=True)
class PersonKeys:
    """What duplicates are found by, for one record."""

    id: int
    name: str  # the full name, as typed
    birth_year: int | None = None
    email: str = ""
    phone: str = ""
    membership_number: str = ""


class Reason(Enum):
    """Why two records look like one person."""

    NAME_AND_BIRTH_YEAR = "name_and_birth_year"  # same name, same year of birth
    NAME = "name"  # same name, a year of birth on at most one of them
    EMAIL = "email"
    PHONE = "phone"
    MEMBERSHIP_NUMBER = "membership_number"


@dataclass(frozen=True, slots=True)
class DuplicateGroup:
    """Records that look like one person: ids ascending, and every reason that joined two of
    them. A group holds at least two records; each record is in at most one group."""

    ids: tuple[int, ...]
    reasons: frozenset[Reason]


def duplicate_pairs(people: Iterable[PersonKeys]) -> dict[tuple[int, int], set[Reason]]:
    """Every pair (lower id, higher id) of records that look like one person, with the
    reasons: the same folded full name (tournament/domain/names.py) and the same year of birth
    or no year on one of them, or the same e-mail, phone number or membership number."""
    pairs: dict[tuple[int, int], set[Reason]] = defaultdict(set)

    def join(ids: list[int], reason: Reason) -> None:
        ids = sorted(set(ids))
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                pairs[(a, b)].add(reason)

    by_name: dict[str, list[PersonKeys]] = defaultdict(list)
    by_key: dict[tuple[Reason, str], list[int]] = defaultdict(list)
    for p in people:
        name = fold(p.name)
        if name:
            by_name[name].append(p)
        for reason, key in (
            (Reason.EMAIL, email_key(p.email)),
            (Reason.PHONE, phone_key(p.phone)),
            (Reason.MEMBERSHIP_NUMBER, membership_key(p.membership_number)),
        ):
            if key:
                by_key[(reason, key)].append(p.id)
    for (reason, _key), ids in by_key.items():
        if len(ids) > 1:
            join(ids, reason)
    for same_name in by_name.values():
        if len(same_name) < 2:
            continue
        by_year: dict[int, list[int]] = defaultdict(list)
        unknown = []
        for p in same_name:
            if p.birth_year is None:
                unknown.append(p.id)
            else:
                by_year[p.birth_year].append(p.id)
        for ids in by_year.values():
            join(ids, Reason.NAME_AND_BIRTH_YEAR)
        for a in unknown:  # no year: like anyone of the name
            for p in same_name:
                if p.id != a:
                    pairs[(min(a, p.id), max(a, p.id))].add(Reason.NAME)
    return dict(pairs)


def duplicate_groups(people: Iterable[PersonKeys]) -> list[DuplicateGroup]:
    """The likely duplicates in groups: records joined by `duplicate_pairs`, directly or
    through others, form one group. Groups come sorted by their lowest id."""
    pairs = duplicate_pairs(people)
    parent: dict[int, int] = {}

    def root(x: int) -> int:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for a, b in pairs:
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    members: dict[int, list[int]] = defaultdict(list)
    for x in list(parent):
        members[root(x)].append(x)
    reasons: dict[int, set[Reason]] = defaultdict(set)
    for (a, _b), why in pairs.items():
        reasons[root(a)] |= why
    return [
        DuplicateGroup(ids=tuple(sorted(ids)), reasons=frozenset(reasons[r]))
        for r, ids in sorted(members.items())
    ]


# --- Merging two records ------------------------------------------------------------------

# The fields a merge fills in on the kept record (the names stay the kept record's own).
MERGED_FIELDS = (
    "membership_number",
    "country",
    "birth_year",
    "email",
    "phone",
    "needs_accessible_seat",
    "notes",
)


def merged_record(kept: Mapping[str, Any], other: Mapping[str, Any]) -> dict[str, Any]:
    """The values of MERGED_FIELDS after `other` is merged into `kept`: an empty field of the
    kept record takes the other's value; a filled one stays. Two exceptions: an accessible seat
    is needed when either record says so, and notes on both are kept, one after the other."""
    result: dict[str, Any] = {}
    for field in MERGED_FIELDS:
        mine, theirs = kept.get(field), other.get(field)
        if field == "needs_accessible_seat":
            result[field] = bool(mine) or bool(theirs)
        elif field == "notes" and mine and theirs and str(theirs).strip() not in str(mine):
            result[field] = f"{str(mine).rstrip()}\n{str(theirs).strip()}"
        elif mine in (None, ""):
            result[field] = theirs if theirs is not None else mine
        else:
            result[field] = mine
    return result


def shared_tournaments(kept: Iterable[int], other: Iterable[int]) -> set[int]:
    """The tournaments both records have an entry in: a merge would give one person two
    results there, so it is refused."""
    return set(kept) & set(other)
