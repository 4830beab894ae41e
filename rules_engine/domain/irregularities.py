"""Dealing irregularities and action out of turn: what the dealer and the floor do now.

Each function returns a `Procedure`: the outcome, the steps in order (English and German, the
engine's own words) and the rules cited.

- `tda-de` 39: four cards on the flop, and cards dealt too early (flop, turn).
- `tda-de` 44: action out of turn.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class IrregularityError(ValueError):
    """Facts that do not describe the irregularity."""


@dataclass(frozen=True)
class Step:
    en: str
    de: str

    def text(self, language: str) -> str:
        return self.de if language.startswith("de") else self.en


@dataclass(frozen=True)
class Procedure:
    outcome: Step
    steps: tuple[Step, ...]
    rules: tuple[str, ...]


def four_card_flop() -> Procedure:
    """tda-de 39: four cards flopped, face up or not."""
    return Procedure(
        Step(
            "The flop is fixed from the four cards.", "Der Flop wird aus den vier Karten gebildet."
        ),
        (
            Step("Call the floor; nobody acts.", "Den Floor rufen; niemand handelt."),
            Step(
                "The dealer mixes the four cards face down.",
                "Der Dealer mischt die vier Karten verdeckt.",
            ),
            Step(
                "The floor picks one of them at random: it is the next burn card.",
                "Der Floor zieht eine davon zufällig: Sie ist die nächste Burnkarte.",
            ),
            Step(
                "The other three are the flop; play goes on.",
                "Die anderen drei sind der Flop; es wird weitergespielt.",
            ),
        ),
        ("tda-de 39",),
    )


class Street(StrEnum):
    FLOP = "flop"
    TURN = "turn"


def premature_card(street: Street) -> Procedure:
    """tda-de 39: the flop or the turn was dealt before the betting round was over."""
    if street == Street.FLOP:
        return Procedure(
            Step(
                "A new flop is dealt after the betting round.",
                "Nach der Setzrunde wird ein neuer Flop gelegt.",
            ),
            (
                Step(
                    "Finish the betting round before the flop.",
                    "Die Setzrunde vor dem Flop zu Ende spielen.",
                ),
                Step(
                    "Burn a card and put the turn card aside, protected; burn again and put the "
                    "river card aside, protected.",
                    "Eine Karte burnen und die Turnkarte geschützt beiseitelegen; erneut burnen "
                    "und die Riverkarte geschützt beiseitelegen.",
                ),
                Step(
                    "Shuffle the premature flop back into the deck.",
                    "Den zu früh gelegten Flop ins Deck mischen.",
                ),
                Step(
                    "Deal a new flop without a burn card; turn and river are the cards set aside.",
                    "Einen neuen Flop ohne Burnkarte legen; Turn und River sind die "
                    "beiseitegelegten Karten.",
                ),
            ),
            ("tda-de 39",),
        )
    if street == Street.TURN:
        return Procedure(
            Step(
                "A new turn is dealt after the betting round.",
                "Nach der Setzrunde wird ein neuer Turn gelegt.",
            ),
            (
                Step(
                    "Finish the betting round on the flop.",
                    "Die Setzrunde am Flop zu Ende spielen.",
                ),
                Step(
                    "Burn a card and put the river card aside, protected.",
                    "Eine Karte burnen und die Riverkarte geschützt beiseitelegen.",
                ),
                Step(
                    "Shuffle the premature turn back into the deck and deal a new turn without a "
                    "burn card; the river is the card set aside.",
                    "Den zu frühen Turn ins Deck mischen und ohne Burnkarte einen neuen Turn "
                    "legen; der River ist die beiseitegelegte Karte.",
                ),
            ),
            ("tda-de 39",),
        )
    raise IrregularityError(f"no procedure for a premature {street}")


class OotAction(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"  # bet or raise


def out_of_turn(action: OotAction, action_changed: bool) -> Procedure:
    """tda-de 44: a player acted out of turn. `action_changed`: did someone between the player
    in turn and the out-of-turn player bet or raise (check, call or fold by the player in turn
    do not count)?"""
    back = Step(
        "Play goes back to the player whose turn it was; the out-of-turn player may be penalised "
        "(tda-de 69).",
        "Das Spiel geht zurück zum Spieler, der an der Reihe war; der Spieler außerhalb der Reihe "
        "kann bestraft werden (tda-de 69).",
    )
    if action == OotAction.FOLD:
        outcome = Step("The fold stands.", "Der Fold ist verbindlich.")
        return Procedure(outcome, (back, outcome), ("tda-de 44",))
    if not action_changed:
        outcome = Step(
            "The out-of-turn action is binding when the player's turn comes.",
            "Die Aktion außerhalb der Reihe ist verbindlich, wenn der Spieler an der Reihe ist.",
        )
        return Procedure(outcome, (back, outcome), ("tda-de 44",))
    outcome = Step(
        "The out-of-turn action is not binding: the player gets any chips back and has every "
        "option (fold, call, raise).",
        "Die Aktion außerhalb der Reihe ist nicht verbindlich: Der Spieler bekommt gesetzte Chips "
        "zurück und hat alle Optionen (Fold, Call, Raise).",
    )
    return Procedure(outcome, (back, outcome), ("tda-de 44",))
