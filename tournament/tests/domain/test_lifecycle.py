import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournament.domain.lifecycle import (
    REOPEN_TO,
    EntryRules,
    LifecycleError,
    RegistrationError,
    Status,
    check_purchase,
    check_transition,
    reopen_target,
)


def test_legal_and_illegal_transitions():
    check_transition("planned", "registering")
    check_transition("running", "final_table")
    for a, b in [("planned", "running"), ("finished", "running"), ("running", "planned")]:
        with pytest.raises(LifecycleError):
            check_transition(a, b)
    with pytest.raises(LifecycleError):
        check_transition("planned", "nonsense")


def buy(kind="buyin", status="registering", level=None, **rules):
    counts = rules.pop("counts", {})
    alive = rules.pop("alive", False)
    check_purchase(
        kind,
        rules=EntryRules(**rules),
        status=status,
        current_level=level,
        purchases_so_far=counts,
        player_is_alive=alive,
        player_has_active_entry=alive,
    )


def code(**kwargs):
    with pytest.raises(RegistrationError) as info:
        buy(**kwargs)
    return info.value.code


def test_windows_and_limits():
    buy()
    assert code(status="planned") == "status"
    buy(status="running", level=3, late_registration_until_level=3)
    assert code(status="running", level=4, late_registration_until_level=3) == (
        "late_registration_closed"
    )
    assert code(status="running", level=1) == "late_registration_closed"
    assert code(alive=True) == "active_entry"
    assert code(kind="reentry", counts={"entries": 1}) == "entry_limit"
    buy(kind="reentry", counts={"entries": 1}, max_entries_per_player=2)
    assert (
        code(
            kind="reentry",
            status="running",
            level=5,
            counts={"entries": 1},
            max_entries_per_player=3,
            reentry_until_level=4,
            late_registration_until_level=6,
        )
        == "reentry_closed"
    )


def test_rebuys_and_addons():
    assert code(kind="rebuy", alive=True) == "not_offered"
    buy(kind="rebuy", status="running", level=2, alive=True, rebuys_max=1, rebuy_until_level=3)
    assert code(kind="rebuy", status="running", level=2, alive=False, rebuys_max=1) == "not_alive"
    assert (
        code(kind="rebuy", status="running", level=4, alive=True, rebuys_max=1, rebuy_until_level=3)
        == "rebuy_closed"
    )
    assert (
        code(kind="addon", status="running", alive=True, addons_max=1, counts={"addon": 1})
        == "addon_limit"
    )


def test_a_finished_tournament_has_no_plain_status_change_back():
    with pytest.raises(LifecycleError):
        check_transition("finished", "running")
    with pytest.raises(LifecycleError):
        check_transition("finished", "final_table")


@pytest.mark.parametrize(
    ("previous", "alive", "expected"),
    [
        ("final_table", 1, Status.FINAL_TABLE),
        ("running", 1, Status.RUNNING),  # it finished from running: back to running
        (None, 1, Status.FINAL_TABLE),
        ("registering", 12, Status.RUNNING),  # not a playing status: decided by the field
        ("nonsense", 5, Status.FINAL_TABLE),
    ],
)
def test_reopen_goes_back_to_the_playing_status_it_had(previous, alive, expected):
    assert reopen_target(previous, alive=alive, final_table_size=9) == expected


@given(
    previous=st.sampled_from([None, "", "planned", "registering", "running", "final_table", "x"]),
    alive=st.integers(min_value=0, max_value=500),
    size=st.integers(min_value=2, max_value=10),
)
def test_reopen_always_lands_on_a_playing_status(previous, alive, size):
    assert reopen_target(previous, alive=alive, final_table_size=size) in REOPEN_TO
