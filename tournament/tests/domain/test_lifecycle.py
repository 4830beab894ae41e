import pytest

from tournament.domain.lifecycle import (
    EntryRules,
    LifecycleError,
    RegistrationError,
    check_purchase,
    check_transition,
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
