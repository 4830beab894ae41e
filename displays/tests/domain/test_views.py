"""What a screen can show: the checks on one view and on a rotation (no database)."""

from __future__ import annotations

import pytest

from displays.domain.views import (
    CODE_ALPHABET,
    CODE_LENGTH,
    Figure,
    Kind,
    Layout,
    Step,
    StepRefused,
    check_steps,
    columns,
    has_markup,
    new_pairing_code,
    normal_code,
    pages,
    step_from_dict,
)


def refused(steps: list[Step]) -> StepRefused:
    with pytest.raises(StepRefused) as caught:
        check_steps(steps)
    return caught.value


def test_an_empty_rotation_is_refused():
    assert refused([]).code == "empty"


def test_one_view_needs_no_duration_but_a_rotation_does():
    assert check_steps([Step(Kind.CLOCK, tournament=1, seconds=0)])
    error = refused([Step(Kind.CLOCK, tournament=1, seconds=4), Step(Kind.PAYOUTS, tournament=1)])
    assert (error.code, error.step) == ("seconds", 1)
    error = refused([Step(Kind.CLOCK, tournament=1), Step(Kind.PAYOUTS, tournament=1, seconds=601)])
    assert (error.code, error.step) == ("seconds", 2)
    assert check_steps(
        [Step(Kind.CLOCK, tournament=1, seconds=5), Step(Kind.SEATING, tournament=1, seconds=600)]
    )


@pytest.mark.parametrize(
    "kind", [Kind.CLOCK, Kind.SEATING, Kind.TABLES, Kind.PAYOUTS, Kind.RESULTS, Kind.LOBBY]
)
def test_a_tournament_view_needs_its_tournament(kind):
    assert refused([Step(kind)]).code == "no_tournament"


def test_a_lobby_shows_at_most_six():
    assert check_steps([Step(Kind.LOBBY, tournaments=(1, 2))])
    assert refused([Step(Kind.LOBBY, tournaments=tuple(range(1, 8)))]).code == "lobby_size"


def test_standings_need_a_season():
    assert refused([Step(Kind.STANDINGS)]).code == "no_season"


@pytest.mark.parametrize(
    "text",
    ["<b>Free drinks</b>", "Bar <script>", "a <!-- b -->", "Fish &amp; chips", "x &#60; y", "</p>"],
)
def test_a_slide_with_markup_is_refused(text):
    assert has_markup(text)
    assert refused([Step(Kind.SLIDE, title="Bar", text=text)]).code == "markup"
    assert refused([Step(Kind.SLIDE, title=text)]).code == "markup"


@pytest.mark.parametrize(
    "text",
    ["Blinds 100 < 200? No: 100/200", "Fish & chips", "3 > 2", "A&B", "a < b", "Bar < script"],
)
def test_plain_text_with_symbols_is_a_slide(text):
    assert not has_markup(text)
    assert check_steps([Step(Kind.SLIDE, title="Info", text=text)])


def test_an_empty_slide_and_a_long_one_are_refused():
    assert refused([Step(Kind.SLIDE)]).code == "empty_slide"
    assert refused([Step(Kind.SLIDE, title="x" * 81)]).code == "slide_length"


def test_a_clock_with_no_figures_must_be_the_clock_only_layout():
    assert refused([Step(Kind.CLOCK, tournament=1, figures=())]).code == "no_figures"
    assert check_steps([Step(Kind.CLOCK, tournament=1, figures=(), layout=Layout.CLOCK_ONLY)])


def test_steps_round_trip_through_their_stored_form():
    step = Step(
        Kind.CLOCK, tournament=3, layout=Layout.PORTRAIT, figures=(Figure.POOL,), seconds=30
    )
    assert step_from_dict(step.as_dict()) == step
    lobby = Step(Kind.LOBBY, tournaments=(4, 5), seconds=12)
    assert step_from_dict(lobby.as_dict()) == lobby
    # Unknown values fall back to the defaults instead of breaking the screen.
    odd = step_from_dict({"kind": "clock", "tournament": "7", "layout": "wild", "seconds": "x"})
    assert odd.layout == Layout.STANDARD and odd.tournament == 7 and odd.seconds == 20


def test_pairing_codes_avoid_letters_that_look_alike_and_taken_codes():
    taken = {"AAAAAA"}
    letters = iter("A" * 6 + "C" * 6)
    code = new_pairing_code(lambda c: c in taken, choice=lambda _alphabet: next(letters))
    assert code == "CCCCCC"
    assert len(new_pairing_code(lambda c: False)) == CODE_LENGTH
    assert not set("0O1IL2Z5S8B") & set(CODE_ALPHABET)
    assert normal_code(" ac-d 3f ") == "ACD3F"


def test_pages_and_columns():
    assert pages([], 3) == [[]]
    assert pages(list(range(7)), 3) == [[0, 1, 2], [3, 4, 5], [6]]
    assert columns(list(range(5)), 2) == [[0, 1], [2, 3], [4]]


@pytest.mark.parametrize(
    ("seats", "written"),
    [
        ([], ""),
        ([6], "6"),
        ([2, 5], "2, 5"),
        ([1, 2], "1, 2"),
        ([1, 2, 3, 4, 5, 6, 7, 8], "1–8"),
        ([9, 1, 2, 3, 5, 7, 8], "1–3, 5, 7–9"),
        ([2, 4, 6, 8, 10], "2, 4, 6, 8, 10"),
    ],
)
def test_open_seats_are_written_short(seats, written):
    from displays.domain.views import seat_ranges

    assert seat_ranges(seats) == written


@pytest.mark.parametrize("n", range(1, 25))
def test_table_cards_are_a_little_wider_than_tall(n):
    """Every card of a page has its place, in at most 6 columns and 8 rows; on a full page the
    cards are near 4:3 (6 × 4 on a landscape screen, 3 × 8 on a portrait one)."""
    from displays.domain.views import grid_of

    grid = grid_of(n)
    for cols, rows in ((grid.cols, grid.rows), (grid.portrait_cols, grid.portrait_rows)):
        assert cols * rows >= n and cols <= 6 and rows <= 8
        assert cols * rows - n < cols  # never a whole empty row
    if n == 24:
        assert (grid.cols, grid.rows, grid.portrait_cols, grid.portrait_rows) == (6, 4, 3, 8)
