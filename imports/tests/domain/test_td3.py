"""The TD3 reader without a database: the three shapes of file the tests ship (3.0, 3.4.3, 3.7.2,
written for these tests from what docs/td3-format.md says), the refusals each naming what is wrong,
and properties: a truncated, mutated or random file is refused with `Td3Error` and nothing else,
in bounded time."""

from __future__ import annotations

import contextlib
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from imports.domain.jslit import JsMap, JsNew, JsSyntaxError, parse
from imports.domain.td3 import Td3Error, read_td3
from imports.domain.td3_sample import sample_night

FILES = Path(__file__).resolve().parent.parent / "files"
V30 = (FILES / "club-night-3.0.tdt").read_bytes()
V343 = (FILES / "club-night-3.4.3.tdt").read_bytes()
V372 = (FILES / "club-night-3.7.2.tdt").read_bytes()


def names(file):
    return {p.uuid: p.shown_name for p in file.players}


def test_notation_values():
    value = parse(
        '{a: [1, -2.5, "x\\"y\\n\\u00e9", true, false, null], "b": new X.Y({c: 1e3}), '
        'm: Map.from([["k", new Z([0])]]), n: new Map({"q": 1}),}'
    )
    assert isinstance(value, dict)
    assert value["a"] == [Decimal(1), Decimal("-2.5"), 'x"y\né', True, False, None]
    assert value["b"] == JsNew("X.Y", ({"c": Decimal("1e3")},))
    assert value["m"] == JsMap((("k", JsNew("Z", ([Decimal(0)],))),))
    assert value["n"] == JsMap((("q", Decimal(1)),))


@pytest.mark.parametrize(
    "text",
    ["", "{", "{a: }", "{a: 1 b: 2}", "foo", "new ()", "[1,", "{a: eval(1)}", "1e99999", '"\\u12"'],
)
def test_notation_refuses(text):
    with pytest.raises(JsSyntaxError):
        parse(text)


def test_version_3_0_shape():
    """TD3 3.0: `GameFinancials` with one entry fee, players in `new Map({...})`, prizes as shares
    of the pot without the players they went to, a hitman written as text."""
    file = read_td3(V30)
    t = file.tournament
    assert (t.version, t.title, t.uuid) == (
        "3.0",
        "Freeze-out Thursday",
        "5e0a1c00-9cf1-11da-1ed7-100000000000001",
    )
    assert t.league_name == "" and t.points_formula == "n-r+1" and t.uses_bounties
    assert t.started_at == datetime(2006, 2, 12, 0, 17, 45, 750000, tzinfo=UTC)  # first buy-in
    who = names(file)
    # Dora is on TD3's list but never bought in: not part of the night.
    assert sorted(who.values()) == ["Anna B", "Ben K", "Cem Ö"]
    anna = next(p for p in file.players if p.nickname == "Anna B")
    assert (anna.full_name, anna.email) == ("Anna Becker", "anna@example.org")
    assert [(e.amount, e.rake, e.bounty_cost) for e in file.entries] == [
        (Decimal(50), Decimal(5), Decimal(5))
    ] * 3
    assert [(f.place, who[f.player_uuid], f.prize, f.bounties) for f in file.finishes] == [
        (1, "Anna B", Decimal("95.00"), 2),
        (2, "Ben K", Decimal("40.00"), 0),
        (3, "Cem Ö", Decimal(0), 0),
    ]
    assert [(p.place, p.percent, p.amount, p.winners) for p in file.prizes] == [
        (1, Decimal(70), Decimal(95), ()),
        (2, Decimal(30), Decimal(40), ()),
    ]


def test_version_3_4_shape():
    """TD3 3.4.3: fee profiles, the league and season, players still in `new Map({...})`, a
    re-entry after a bust, fixed prizes awarded to named players."""
    file = read_td3(V343)
    t = file.tournament
    assert (t.version, t.league_name, t.season_name) == ("3.4.3", "Thursday League", "2018")
    assert t.started_at == datetime(2018, 10, 11, 16, 48, 20, tzinfo=UTC)
    assert [(p.kind, p.name, p.fee) for p in t.profiles] == [
        ("buyin", "Standard", Decimal(100)),
        ("rebuy", "Re-entry", Decimal(100)),
    ]
    who = names(file)
    assert [(who[e.player_uuid], e.index, e.is_reentry) for e in file.entries] == [
        ("Fritz", 0, False),
        ("Fritz", 1, True),
        ("Greta", 0, False),
        ("Hugo", 0, False),
    ]
    assert [
        (f.place, who[f.player_uuid], f.entry_index, f.player_rank, f.prize) for f in file.finishes
    ] == [
        (1, "Fritz", 1, 1, Decimal(250)),
        (2, "Greta", 0, 2, Decimal(150)),
        (3, "Hugo", 0, 3, Decimal(0)),
        (
            4,
            "Fritz",
            0,
            None,
            Decimal(0),
        ),  # the entry Fritz lost first: out first, 4th of 4 entries
    ]
    greta_bust = file.entries[0].bust
    assert greta_bust is not None and greta_bust.seat == 2 and greta_bust.table == "Table 1"


def test_version_3_7_shape():
    """TD3 3.7.2: `Map.from`, a rebuy while still in, an add-on, a re-entry, a hit shared by two
    players, bounties, prizes fixed and as a share, the formula, escapes in the texts."""
    file = read_td3(V372)
    t = file.tournament
    assert t.version == "3.7.2"
    assert t.description == "\"Written for Floor's tests\"\tin TD3 3.7.2's shape\u00a0\u2660"
    assert t.points_formula.startswith('assign ("points", 1)\nassign ("T33", Round(n/3) )')
    assert t.ended_at == datetime(2025, 1, 16, 20, 50, 0, 1000, tzinfo=UTC)
    who = names(file)
    assert [(who[p.player_uuid], p.kind, p.amount, p.chips) for p in file.purchases] == [
        ("Ida", "rebuy", Decimal(100), 10000),
        ("Ida", "addon", Decimal(50), 5000),
    ]
    assert file.money_in == Decimal(1350)
    kai_second = next(e for e in file.entries if who[e.player_uuid] == "Kai" and e.index == 1)
    assert kai_second.bust is not None
    assert [who[h] for h in kai_second.bust.hitmen] == ["Ida", "Jan"]
    assert kai_second.bounty_cost == Decimal(50)
    assert [
        (f.place, who[f.player_uuid], f.player_rank, f.prize, f.bounties) for f in file.finishes
    ] == [
        (1, "Ida", 1, Decimal(700), 3),
        (2, "Jan", 2, Decimal(400), 2),
        (3, "Kai", 3, Decimal(100), 1),  # Kai's second entry busted Lea
        (4, 'Mo "the Rock"', 4, Decimal(0), 0),
        (5, "Lea", 5, Decimal(0), 0),
        (6, "Kai", None, Decimal(0), 0),
    ]


def test_latin1_file_is_read():
    text = V30.decode("utf-8").replace("Cem \\u00d6", "Cem Ö")
    file = read_td3(text.encode("cp1252"))
    assert "Cem Ö" in names(file).values()


def _refused(data: bytes | str, words: str) -> None:
    with pytest.raises(Td3Error) as caught:
        read_td3(data)
    assert words in str(caught.value)


def test_refusals_name_what_is_wrong():
    text = V372.decode("utf-8")
    _refused(b"PK\x03\x04\x00\x00binary", "not a TD3 file")
    _refused("Hello, world", "not a TD3 file")
    _refused('{ V: "3.7.2", X: 1 }', "no tournament")
    _refused(text[: len(text) // 2], "truncated")
    _refused(text.replace('V: "3.7.2", T:', 'V: "4.0", T:'), "not supported")
    _refused(text.replace('V: "3.7.2", T:', 'V: "three", T:'), "unknown TD3 version")
    # A hitman and a prize winner not in the file.
    hitman = text.replace('HitmanUUID: ["1d000002', 'HitmanUUID: ["ffffffff', 1)
    _refused(hitman, "names a hitman not in the file")
    _refused(
        text.replace('AwardedToPlayers: ["1d000001', 'AwardedToPlayers: ["ffffffff'),
        "not in the file",
    )
    # Amounts that do not add up.
    _refused(
        text.replace("AmountType: 0, Amount: 10,", "AmountType: 0, Amount: 110,"), "do not add up"
    )
    _refused(
        text.replace(
            'AmountType: 0, Amount: 10, Adjustment: 0, ShareRemainder: false, Points: 0, AwardedToPlayers: ["1d000003-aaaa-4bbb-8ccc-000000000003"], SharedRemainder: 0, CalculatedAmount: 100',
            'AmountType: 0, Amount: 10, Adjustment: 0, ShareRemainder: false, Points: 0, AwardedToPlayers: ["1d000003-aaaa-4bbb-8ccc-000000000003"], SharedRemainder: 0, CalculatedAmount: 5000',
        ),
        "do not add up",
    )
    _refused(
        text.replace(
            "Amount: 200, PersonalBounty: 0, Rake: new PerPlayerRake([20])",
            "Amount: 10, PersonalBounty: 0, Rake: new PerPlayerRake([20])",
            1,
        ),
        "more rake",
    )
    _refused(text.replace("Amount: 200,", "Amount: -200,", 1), "negative")
    _refused(text.replace("Amount: 200,", 'Amount: "lots",', 1), "should be a number")
    # The same player twice, a player filed under another's UUID.
    twice = text.replace(
        '"1d000002-aaaa-4bbb-8ccc-000000000002", new GamePlayer({ UUID: "1d000002',
        '"1d000001-aaaa-4bbb-8ccc-000000000001", new GamePlayer({ UUID: "1d000001',
    )
    _refused(twice, "in the file twice")
    _refused(
        text.replace('new GamePlayer({ UUID: "1d000002', 'new GamePlayer({ UUID: "1d000009'),
        "filed under",
    )
    _refused(text.replace("Buyins: [new GameBuyin", "Buyins: [new Banana", 1), "is not a GameBuyin")


def test_nesting_and_size_are_bounded():
    _refused("{a: " + "[" * 100_000, "nested too deep")
    _refused("[" * 100_000, "not a TD3 file")
    _refused('{ V: "3.7.2", T: ' + "new A(" * 100 + ")" * 100 + "}", "nested too deep")
    _refused("{" + " " * 8_000_001 + "}", "more than")


@settings(max_examples=60, deadline=2000)
@given(st.integers(min_value=0, max_value=len(V372) - 3))
def test_truncated_files_are_refused(cut):
    with pytest.raises(Td3Error):
        read_td3(V372[:cut])


@settings(max_examples=120, deadline=2000)
@given(
    st.sampled_from([V30, V343, V372]),
    st.lists(
        st.tuples(
            st.floats(min_value=0, max_value=1),
            st.sampled_from(["drop", "put", "dup"]),
            st.binary(min_size=1, max_size=3),
        ),
        min_size=1,
        max_size=6,
    ),
)
def test_mutated_files_raise_only_their_own_error(original, mutations):
    data = bytearray(original)
    for where, how, what in mutations:
        at = int(where * (len(data) - 1))
        if how == "drop":
            del data[at : at + len(what)]
        elif how == "put":
            data[at : at + len(what)] = what
        else:
            data[at:at] = data[at : at + 40]
    with contextlib.suppress(Td3Error):
        read_td3(bytes(data))


@settings(max_examples=80, deadline=2000)
@given(st.text(alphabet='{}[]():,."\\ abnewTVMapfrom0123456789-etruls', max_size=300))
def test_random_text_raises_only_its_own_error(text):
    with contextlib.suppress(Td3Error):
        read_td3('{ V: "3.7.2", T: ' + text)


@settings(max_examples=40, deadline=5000)
@given(
    st.integers(min_value=0, max_value=10**6),
    st.integers(min_value=2, max_value=30),
    st.integers(min_value=0, max_value=6),
)
def test_a_night_written_reads_back_as_that_night(seed, players, reentries):
    night = sample_night(seed, players, reentries)
    file = read_td3(night.text)
    assert file.tournament.uuid == night.uuid
    by_place = sorted(file.finishes, key=lambda f: f.place)
    assert [(f.player_uuid, f.entry_index) for f in reversed(by_place)] == list(night.out_order)
    assert [f.place for f in by_place] == list(range(1, len(night.out_order) + 1))
    # Each player's rank counts players, on their last entry; the prizes follow.
    ranks = [f.player_rank for f in by_place if f.player_rank is not None]
    assert ranks == list(range(1, players + 1))
    paid = [f.prize for f in by_place if f.prize]
    assert paid == [Decimal(p) for p in night.prizes if p][: len(paid)]
    assert sum(paid) == min(sum(night.prizes), sum(paid))
