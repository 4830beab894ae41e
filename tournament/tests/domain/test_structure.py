import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournament.domain.structure import (
    TEMPLATES,
    LevelSpec,
    StructureError,
    generate_structure,
    levels_from_csv,
    levels_from_json,
    levels_to_csv,
    levels_to_json,
    structure_from_template,
    validate_levels,
)

CHIPS = [25, 100, 500, 1000, 5000, 25000]


@pytest.mark.parametrize("name", sorted(TEMPLATES))
def test_templates_are_playable(name):
    levels = structure_from_template(name, CHIPS)
    validate_levels(levels)
    playing = [lv for lv in levels if not lv.is_break]
    assert playing[0].big_blind == TEMPLATES[name].starting_stack // 100
    assert any(lv.is_break for lv in levels)


@settings(max_examples=60, deadline=None)
@given(
    stack=st.integers(40, 2000).map(lambda x: x * 25),
    minutes=st.sampled_from([10, 15, 20, 30, 40]),
    hours=st.integers(2, 12),
)
def test_generated_blinds_rise_and_are_payable(stack, minutes, hours):
    levels = generate_structure(
        starting_stack=stack,
        level_minutes=minutes,
        target_minutes=hours * 60,
        denominations=CHIPS,
    )
    playing = [lv for lv in levels if not lv.is_break]
    bbs = [lv.big_blind for lv in playing]
    assert bbs == sorted(set(bbs))
    for lv in playing:
        assert lv.small_blind % 25 == 0 and lv.big_blind % 25 == 0 and lv.ante % 25 == 0
    # Chips leave only when nothing later needs them.
    gone: set[int] = set()
    for lv in levels:
        gone |= set(lv.color_up)
        if not lv.is_break:
            smallest = min(c for c in CHIPS if c not in gone)
            assert all(a % smallest == 0 for a in (lv.small_blind, lv.big_blind, lv.ante))


def test_invalid_levels():
    for levels in (
        [],
        [LevelSpec(200, 100)],
        [LevelSpec(0, 0, is_break=True, minutes=10)],
        [LevelSpec(100, 200), LevelSpec(50, 100)],
        [LevelSpec(100, 200, minutes=0)],
        [LevelSpec(100, 200, color_up=(25,))],
    ):
        with pytest.raises(StructureError):
            validate_levels(levels)


def test_json_and_csv_round_trip():
    levels = structure_from_template("standard", CHIPS)
    assert levels_from_json(levels_to_json(levels)) == levels
    assert levels_from_csv(levels_to_csv(levels)) == levels


def test_csv_with_semicolons_and_bad_rows():
    text = "small_blind;big_blind;ante;minutes;is_break\n100;200;0;20;0\n0;0;0;15;1\n200;400;400;20;0\n"
    levels = levels_from_csv(text)
    assert levels[1].is_break and levels[2].ante == 400
    with pytest.raises(StructureError):
        levels_from_csv("small_blind,big_blind\nabc,200\n")
    with pytest.raises(StructureError):
        levels_from_json("{not json")
    with pytest.raises(StructureError):
        levels_from_csv("a,b\n1,2\n")
