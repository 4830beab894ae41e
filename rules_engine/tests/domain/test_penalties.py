import pytest

from rules_engine.domain.penalties import Given, PenaltyError, hands_to_sit_out, suggest
from rules_engine.domain.rulesets import RULESETS, PenaltyStep


def test_rounds_are_one_hand_per_player_at_the_table_times_rounds():
    # tda-de 69: 8 players at the table, the player included, two rounds: 16 hands.
    assert hands_to_sit_out("rounds", 2, 8) == 16
    assert hands_to_sit_out("hands", 3, 8) == 3
    assert hands_to_sit_out("warning", 0, 8) == 0
    assert hands_to_sit_out("disqualification", 0, 8) == 0


def test_bad_penalties():
    with pytest.raises(PenaltyError):
        hands_to_sit_out("hands", 0, 8)
    with pytest.raises(PenaltyError):
        hands_to_sit_out("fine", 1, 8)
    with pytest.raises(PenaltyError):
        hands_to_sit_out("rounds", 1, 0)
    with pytest.raises(PenaltyError):
        hands_to_sit_out("warning", 2, 8)
    with pytest.raises(PenaltyError):
        suggest((), [])


def test_repeat_offences_escalate_along_the_ladder():
    ladder = RULESETS["tda-de"].penalty_ladder
    assert suggest(ladder, []) == PenaltyStep("warning")
    assert suggest(ladder, [Given("warning")]) == PenaltyStep("hands", 1)
    assert suggest(ladder, [Given("warning"), Given("hands", 1)]) == PenaltyStep("rounds", 1)
    # The floor went straight to two rounds: the next suggestion is harsher than that.
    assert suggest(ladder, [Given("rounds", 2)]) == PenaltyStep("rounds", 4)
    assert suggest(ladder, [Given("rounds", 4)]) == PenaltyStep("disqualification")
    assert suggest(ladder, [Given("disqualification")]) == PenaltyStep("disqualification")
    bdpv = RULESETS["bdpv"].penalty_ladder
    assert [s.kind for s in bdpv] == ["warning", "rounds", "rounds", "disqualification"]
