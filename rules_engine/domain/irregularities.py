"""Dealing irregularities and action out of turn: what the dealer and the floor do now.

Each function returns a `Procedure`: the outcome, the steps in order (English and German, the
engine's own words) and the rules cited.

- four cards on the flop: `tda-de` 39 (the floor picks the burn card at random) or `bdpv` 4.4
  (the fourth card is the burn card, a misdeal when nobody knows which it was);
- cards dealt too early (flop, turn, river): `tda-de` 39, `bdpv` 4.7-4.10;
- action out of turn: `tda-de` 44, `bdpv` 2.4.8;
- misdeals and their cut-off: `tda-de` 35-36 (substantial action), `bdpv` 2.1 (two players
  have acted), with the exposed-card rules of `bdpv` 4.1 and 2.3.6;
- a hand with the wrong number of cards after action: `tda-de` 35, 37, 38, `bdpv` 2.2;
- burn errors: `tda-de` 38, `bdpv` 2.3.13 and 4.5-4.6.

Functions take the ruleset id (`tda-de` by default) where the books differ.
"""

from __future__ import annotations

from collections.abc import Sequence
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


def four_card_flop(ruleset: str = "tda-de", fourth_known: bool = True) -> Procedure:
    """Four cards flopped, face up or not. tda-de 39: a random one of them is the burn card.
    bdpv 4.4: the fourth card dealt is an exposed burn card; if nobody can tell which card was
    the fourth, it is a misdeal."""
    _check(ruleset)
    if ruleset == "bdpv":
        if not fourth_known:
            return Procedure(
                Step(
                    "Misdeal: nobody can tell which card was the fourth.",
                    "Misdeal: Niemand weiß, welche Karte die vierte war.",
                ),
                (*_REDEAL_BDPV,),
                ("bdpv 4.4", "bdpv 2.1"),
            )
        return Procedure(
            Step(
                "The fourth card is an exposed burn card; the first three are the flop.",
                "Die vierte Karte ist eine offene Burnkarte; die ersten drei sind der Flop.",
            ),
            (
                Step(
                    "Show the fourth card to the table and put it with the burn cards.",
                    "Die vierte Karte dem Tisch zeigen und zu den Burnkarten legen.",
                ),
                Step(
                    "The first three cards are the flop; play goes on, and the turn is dealt "
                    "with its usual burn card.",
                    "Die ersten drei Karten sind der Flop; es geht weiter, der Turn kommt mit "
                    "der üblichen Burnkarte.",
                ),
            ),
            ("bdpv 4.4",),
        )
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
    RIVER = "river"


RULESET_IDS = ("tda-de", "bdpv")


def _check(ruleset: str) -> None:
    if ruleset not in RULESET_IDS:
        raise IrregularityError(f"unknown ruleset {ruleset!r}")


_REDEAL_BDPV = (
    Step(
        "Collect every card; nobody keeps chips from this deal except the blinds and antes.",
        "Alle Karten einsammeln; die Blinds und Antes bleiben stehen.",
    ),
    Step("Shuffle again and deal the hand again.", "Neu mischen und die Hand neu geben."),
)


def premature_card(street: Street, ruleset: str = "tda-de") -> Procedure:
    """A board card dealt before the betting round was over (tda-de 39, bdpv 4.7-4.10)."""
    _check(ruleset)
    if street not in tuple(Street):
        raise IrregularityError(f"no procedure for a premature {street}")
    if ruleset == "bdpv":
        return _premature_bdpv(Street(street))
    if street == Street.RIVER:
        return Procedure(
            Step(
                "A new river is dealt after the betting round.",
                "Nach der Setzrunde wird ein neuer River gelegt.",
            ),
            (
                Step(
                    "Finish the betting round on the turn.",
                    "Die Setzrunde am Turn zu Ende spielen.",
                ),
                Step(
                    "Shuffle the premature river back into the deck and deal a new river "
                    "without a burn card.",
                    "Den zu frühen River ins Deck mischen und ohne Burnkarte einen neuen River "
                    "legen.",
                ),
            ),
            ("tda-de 39",),
        )
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


def _premature_bdpv(street: Street) -> Procedure:
    finish = Step(
        "The burn card stays where it is; finish the betting round first (nobody may accept or "
        "refuse the card).",
        "Die Burnkarte bleibt liegen; zuerst die Setzrunde beenden (niemand darf die Karte "
        "annehmen oder ablehnen).",
    )
    if street == Street.FLOP:
        return Procedure(
            Step(
                "A new flop is dealt after the betting round.",
                "Nach der Setzrunde wird ein neuer Flop gelegt.",
            ),
            (
                finish,
                Step(
                    "Shuffle the premature flop into the rest of the deck; the burn card stays "
                    "on the table.",
                    "Den zu frühen Flop in den Rest des Stapels mischen; die Burnkarte bleibt "
                    "auf dem Tisch.",
                ),
                Step(
                    "Cut and deal a new flop without a burn card.",
                    "Abheben und ohne Burnkarte einen neuen Flop legen.",
                ),
            ),
            ("bdpv 4.7", "bdpv 4.8"),
        )
    if street == Street.TURN:
        return Procedure(
            Step(
                "The card that would have been the river becomes the turn.",
                "Die Karte, die der River gewesen wäre, wird der Turn.",
            ),
            (
                finish,
                Step(
                    "Take the premature turn out of play for now; burn a card and turn the next "
                    "one as the turn.",
                    "Den zu frühen Turn vorerst herausnehmen; eine Karte burnen und die nächste "
                    "als Turn aufdecken.",
                ),
                Step(
                    "After that betting round, shuffle the deck together with the card taken "
                    "out (not the burn cards or the folded hands), cut and deal the river "
                    "without a burn card.",
                    "Nach dieser Setzrunde den Stapel mit der herausgenommenen Karte mischen "
                    "(ohne Burnkarten und gefoldete Hände), abheben und den River ohne Burnkarte "
                    "geben.",
                ),
            ),
            ("bdpv 4.7", "bdpv 4.9"),
        )
    return Procedure(
        Step(
            "The river is shuffled back and dealt again.",
            "Der River wird zurückgemischt und neu gegeben.",
        ),
        (
            finish,
            Step(
                "Shuffle the premature river into the deck, cut and deal the river again the "
                "same way.",
                "Den zu frühen River in den Stapel mischen, abheben und den River genauso neu "
                "geben.",
            ),
        ),
        ("bdpv 4.7", "bdpv 4.10"),
    )


class OotAction(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"  # bet or raise


def out_of_turn(action: OotAction, action_changed: bool, ruleset: str = "tda-de") -> Procedure:
    """A player acted out of turn (tda-de 44, bdpv 2.4.8). `action_changed`: did someone
    between the player in turn and the out-of-turn player bet or raise (tda-de 44; under
    bdpv 2.4.8 a call in between also frees the player)?"""
    _check(ruleset)
    if ruleset == "bdpv":
        return _out_of_turn_bdpv(OotAction(action), action_changed)
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


def _out_of_turn_bdpv(action: OotAction, intervened: bool) -> Procedure:
    back = Step(
        "Play goes back to the player whose turn it was; acting out of turn on purpose is not "
        "tolerated (bdpv 6).",
        "Das Spiel geht zurück zum Spieler, der an der Reihe war; absichtliches Handeln außer "
        "der Reihe wird nicht geduldet (bdpv 6).",
    )
    if action == OotAction.CHECK:
        outcome = Step(
            "The player checked out of turn: when the turn comes, no bet or raise — check, or "
            "call or fold if someone bet.",
            "Der Spieler hat außer der Reihe gecheckt: Wenn er dran ist, kein Bet oder Raise — "
            "Check, oder Call oder Fold, wenn jemand gesetzt hat.",
        )
    elif action == OotAction.CALL and not intervened:
        outcome = Step(
            "The call out of turn binds and can never become a raise.",
            "Der Call außer der Reihe bindet und kann nie zum Raise werden.",
        )
    elif not intervened:
        outcome = Step(
            "The action out of turn binds: nobody in between bet, called or raised.",
            "Die Aktion außer der Reihe bindet: Dazwischen hat niemand gesetzt, gecallt oder "
            "erhöht.",
        )
    else:
        outcome = Step(
            "Someone in between bet, called or raised: the out-of-turn action does not bind; the "
            "player takes any chips back and decides again (a call out of turn still never "
            "becomes a raise).",
            "Dazwischen wurde gesetzt, gecallt oder erhöht: Die Aktion außer der Reihe bindet "
            "nicht; der Spieler nimmt Chips zurück und entscheidet neu (ein Call außer der Reihe "
            "wird trotzdem nie zum Raise).",
        )
    return Procedure(outcome, (back, outcome), ("bdpv 2.4.8",))


def skipped_player(actions_after: Sequence[Act], ruleset: str = "tda-de") -> Procedure:
    """A player was skipped and others acted after them. tda-de 44: the skipped player must
    speak up; once substantial action (36) has taken place to their left, those actions bind and
    the floor decides (dead hand or passive options only). bdpv 2.4.9: once two or more players
    have acted after them, the skipped player loses the right to act."""
    _check(ruleset)
    acts = tuple(Act(a) for a in actions_after)
    if ruleset == "bdpv":
        too_late = len(acts) >= 2
        rules: tuple[str, ...] = ("bdpv 2.4.9",)
    else:
        too_late = substantial_action(acts)
        rules = ("tda-de 44", "tda-de 36")
    if not too_late:
        outcome = Step(
            "The skipped player acts now; the actions after them are out of turn.",
            "Der übersprungene Spieler handelt jetzt; die Aktionen nach ihm waren außer der Reihe.",
        )
        return Procedure(
            outcome,
            (
                outcome,
                Step(
                    "Treat the actions taken after the skipped player as out of turn (see that "
                    "situation).",
                    "Die Aktionen nach dem übersprungenen Spieler wie Aktionen außer der Reihe "
                    "behandeln (siehe dort).",
                ),
            ),
            rules,
        )
    if ruleset == "bdpv":
        outcome = Step(
            "Too late: two or more players have acted since; the skipped player has lost the "
            "right to act in this round.",
            "Zu spät: Seitdem haben zwei oder mehr Spieler gehandelt; der übersprungene Spieler "
            "hat sein Recht zu handeln in dieser Runde verloren.",
        )
        return Procedure(outcome, (outcome,), rules)
    outcome = Step(
        "Too late: substantial action has taken place to the skipped player's left; those "
        "actions stand and the floor decides about the skipped hand.",
        "Zu spät: Links vom übersprungenen Spieler gab es substantielle Aktion; diese Aktionen "
        "gelten, und der Floor entscheidet über die übersprungene Hand.",
    )
    return Procedure(
        outcome,
        (
            outcome,
            Step(
                "The floor may declare the hand dead or allow only passive options (check, call "
                "or fold).",
                "Der Floor kann die Hand für tot erklären oder nur passive Optionen erlauben "
                "(Check, Call oder Fold).",
            ),
        ),
        rules,
    )


class Act(StrEnum):
    CHECK = "check"
    FOLD = "fold"
    CALL = "call"
    BET = "bet"  # bet or raise


def substantial_action(actions: Sequence[Act]) -> bool:
    """tda-de 36: two actions in turn of which at least one puts chips in the pot, or any three
    actions in turn (blinds and antes are not actions)."""
    if len(actions) >= 3:
        return True
    chips = {Act.CALL, Act.BET}
    return len(actions) == 2 and bool(chips & set(actions))


class MisdealCause(StrEnum):
    FIRST_CARDS_EXPOSED = "first_cards_exposed"  # one of the first two cards dealt, by the dealer
    LATER_CARD_EXPOSED = "later_card_exposed"  # another hole card exposed by the dealer
    TWO_EXPOSED = "two_exposed"  # two or more cards exposed or found face up
    CARD_UP_IN_DECK = "card_up_in_deck"  # one card face up in the deck
    FIRST_CARD_WRONG_SEAT = "first_card_wrong_seat"
    EMPTY_SEAT_DEALT = "empty_seat_dealt"  # cards to a seat not in the hand
    SEAT_MISSED = "seat_missed"  # a seat in the hand got no cards
    BUTTON_TWO_IN_A_ROW = "button_two_in_a_row"  # the button got two cards in a row


# Which causes each book treats as a misdeal, and the rule that says so.
_MISDEAL: dict[str, dict[MisdealCause, str | None]] = {
    "tda-de": {
        MisdealCause.FIRST_CARDS_EXPOSED: "tda-de 35",
        MisdealCause.LATER_CARD_EXPOSED: "tda-de 35",
        MisdealCause.TWO_EXPOSED: "tda-de 35",
        MisdealCause.CARD_UP_IN_DECK: "tda-de 35",
        MisdealCause.FIRST_CARD_WRONG_SEAT: "tda-de 35",
        MisdealCause.EMPTY_SEAT_DEALT: "tda-de 35",
        MisdealCause.SEAT_MISSED: "tda-de 35",
        MisdealCause.BUTTON_TWO_IN_A_ROW: None,  # allowed (35, 37)
    },
    "bdpv": {
        MisdealCause.FIRST_CARDS_EXPOSED: "bdpv 4.1",
        MisdealCause.LATER_CARD_EXPOSED: None,  # replaced, becomes the first burn (4.1)
        MisdealCause.TWO_EXPOSED: "bdpv 2.1",
        MisdealCause.CARD_UP_IN_DECK: None,  # treated as a burn card (2.3.6)
        MisdealCause.FIRST_CARD_WRONG_SEAT: "bdpv 2.1",
        MisdealCause.EMPTY_SEAT_DEALT: "bdpv 2.1",
        MisdealCause.SEAT_MISSED: "bdpv 2.1",
        MisdealCause.BUTTON_TWO_IN_A_ROW: "bdpv 2.1",  # a card out of order
    },
}


def misdeal(cause: MisdealCause, actions: Sequence[Act], ruleset: str = "tda-de") -> Procedure:
    """Is it a misdeal, and what now? `actions`: what the players did so far in this hand, in
    turn (blinds and antes excluded). The cut-off is substantial action under tda-de 35-36 and
    two players having acted under bdpv 2.1."""
    _check(ruleset)
    cause = MisdealCause(cause)
    acts = tuple(Act(a) for a in actions)
    rule = _MISDEAL[ruleset][cause]
    if ruleset == "tda-de":
        too_late = substantial_action(acts)
        cutoff = ("tda-de 36",)
    else:
        too_late = len(acts) >= 2
        cutoff = ("bdpv 2.1",)
    if rule is None:
        return _not_a_misdeal(cause, ruleset)
    if too_late:
        if ruleset == "tda-de":
            return Procedure(
                Step(
                    "Too late for a misdeal: substantial action has taken place, the hand is "
                    "played on.",
                    "Zu spät für einen Misdeal: Es gab substantielle Aktion, die Hand wird "
                    "weitergespielt.",
                ),
                (
                    Step(
                        "Play the hand on; a player with too many or too few cards who has "
                        "acted is folded.",
                        "Die Hand weiterspielen; wer mit zu vielen oder zu wenigen Karten "
                        "gehandelt hat, ist gefoldet.",
                    ),
                    Step(
                        "Burn exactly one card before each street as usual.",
                        "Vor jeder Straße wie üblich genau eine Karte burnen.",
                    ),
                ),
                ("tda-de 35", *cutoff, "tda-de 38"),
            )
        return Procedure(
            Step(
                "Too late for a misdeal: two players have acted, the hand is played to the end.",
                "Zu spät für einen Misdeal: Zwei Spieler haben gehandelt, die Hand wird zu Ende "
                "gespielt.",
            ),
            (
                Step(
                    "Play the cards as dealt; no chips go back to a player whose hand is faulty.",
                    "Die Karten werden so gespielt; ein Spieler mit fehlerhafter Hand bekommt "
                    "keine Chips zurück.",
                ),
                Step(
                    "A hand with the wrong number of cards is dead.",
                    "Eine Hand mit falscher Kartenzahl ist tot.",
                ),
            ),
            (*cutoff, "bdpv 2.2"),
        )
    if ruleset == "tda-de":
        return Procedure(
            Step("Misdeal: deal the hand again.", "Misdeal: Die Hand wird neu gegeben."),
            (
                Step(
                    "Collect every card and reshuffle.", "Alle Karten einsammeln und neu mischen."
                ),
                Step(
                    "The new deal repeats the hand exactly: the button does not move, no new "
                    "player joins, the blind level stays the same.",
                    "Der neue Deal wiederholt die Hand genau: Der Button bleibt, kein neuer "
                    "Spieler kommt dazu, der Blind-Level bleibt gleich.",
                ),
                Step(
                    "Players who are sitting out a penalty or are away are dealt in too; for a "
                    "penalised player both deals count as one hand.",
                    "Auch bestrafte oder abwesende Spieler bekommen Karten; für Bestrafte zählen "
                    "beide Deals als eine Hand.",
                ),
            ),
            (rule, *cutoff),
        )
    return Procedure(
        Step("Misdeal: reshuffle and deal again.", "Misdeal: neu mischen und neu geben."),
        _REDEAL_BDPV,
        tuple(dict.fromkeys((rule, "bdpv 2.1"))),
    )


def _not_a_misdeal(cause: MisdealCause, ruleset: str) -> Procedure:
    if cause == MisdealCause.BUTTON_TWO_IN_A_ROW:
        return Procedure(
            Step(
                "Not a misdeal: the button may get two cards in a row.",
                "Kein Misdeal: Der Button darf zwei Karten hintereinander bekommen.",
            ),
            (
                Step(
                    "Finish the deal; the button keeps the two cards.",
                    "Das Geben beenden; der Button behält die beiden Karten.",
                ),
            ),
            ("tda-de 35", "tda-de 37"),
        )
    if cause == MisdealCause.LATER_CARD_EXPOSED:
        return Procedure(
            Step(
                "Not a misdeal: the exposed card is replaced and becomes the first burn card.",
                "Kein Misdeal: Die aufgedeckte Karte wird ersetzt und ist die erste Burnkarte.",
            ),
            (
                Step(
                    "Finish the deal; the player may not keep the exposed card.",
                    "Das Geben beenden; der Spieler darf die aufgedeckte Karte nicht behalten.",
                ),
                Step(
                    "Give the player the top card of the deck instead; the exposed card is the "
                    "first burn card.",
                    "Dem Spieler stattdessen die oberste Karte geben; die aufgedeckte Karte ist "
                    "die erste Burnkarte.",
                ),
                Step(
                    "Do not burn again before the flop: the board comes out as it would have.",
                    "Vor dem Flop nicht noch einmal burnen: Das Board bleibt, wie es gewesen wäre.",
                ),
            ),
            ("bdpv 4.1",),
        )
    return Procedure(
        Step(
            "Not a misdeal: the card face up in the deck is a burn card.",
            "Kein Misdeal: Die offene Karte im Stapel ist eine Burnkarte.",
        ),
        (
            Step(
                "Put the card with the burn cards and replace it with the next card once "
                "everything else for this round is dealt.",
                "Die Karte zu den Burnkarten legen und durch die nächste Karte ersetzen, wenn "
                "alles andere in dieser Runde gegeben ist.",
            ),
        ),
        ("bdpv 2.3.6",),
    )


def wrong_card_count(*, acted: bool, button_short: bool, ruleset: str = "tda-de") -> Procedure:
    """A player holds too many or too few hole cards once the betting has begun."""
    _check(ruleset)
    if ruleset == "tda-de" and button_short and not acted:
        return Procedure(
            Step(
                "The button gets the missing card; the hand is live.",
                "Der Button bekommt die fehlende Karte; die Hand lebt.",
            ),
            (
                Step(
                    "The button says so at once; the dealer gives the missing card.",
                    "Der Button meldet es sofort; der Dealer gibt die fehlende Karte.",
                ),
            ),
            ("tda-de 37",),
        )
    if ruleset == "tda-de" and not acted:
        return Procedure(
            Step(
                "Call the floor: before the player acts it may still be a misdeal (before "
                "substantial action) — see the misdeal situation.",
                "Floor rufen: Bevor der Spieler handelt, kann es noch ein Misdeal sein (vor "
                "substantieller Aktion) — siehe Situation Misdeal.",
            ),
            (),
            ("tda-de 35", "tda-de 36"),
        )
    rules = ("tda-de 35", "tda-de 38") if ruleset == "tda-de" else ("bdpv 2.2",)
    return Procedure(
        Step(
            "The hand is dead; chips it put in stay in the pot.",
            "Die Hand ist tot; ihre Einsätze bleiben im Pot.",
        ),
        (
            Step("Take the hand away; the player is out of this hand.", "Die Hand einziehen."),
            Step(
                "Play on; burn exactly one card before each street.",
                "Weiterspielen; vor jeder Straße genau eine Karte burnen.",
            ),
        ),
        rules,
    )


def burn_error(*, betting_started: bool, ruleset: str = "tda-de") -> Procedure:
    """The dealer missed a burn card or burned two (tda-de 38, bdpv 2.3.13 and 4.5-4.6)."""
    _check(ruleset)
    rules = ("bdpv 2.3.13",) if ruleset == "bdpv" else ("tda-de 38",)
    if not betting_started:
        return Procedure(
            Step(
                "Put it right now: the board gets the card it would have had.",
                "Sofort korrigieren: Das Board bekommt die Karte, die es gehabt hätte.",
            ),
            (
                Step(
                    "Turn the card that should have been dealt; a card exposed by mistake is an "
                    "open burn card.",
                    "Die richtige Karte aufdecken; eine versehentlich offene Karte ist eine "
                    "offene Burnkarte.",
                ),
            ),
            rules,
        )
    return Procedure(
        Step(
            "The board stands; the next cards are those that would have come without the error.",
            "Das Board bleibt; danach kommen die Karten, die ohne den Fehler gekommen wären.",
        ),
        (
            Step(
                "Two cards burned: put one back on top of the deck as the next burn card. No "
                "card burned: burn two cards before the next street, so that it gets the card "
                "it would have had.",
                "Zwei Karten geburnt: eine zurück oben auf den Stapel als nächste Burnkarte. "
                "Keine Karte geburnt: vor der nächsten Straße zwei Karten burnen, damit sie die "
                "Karte bekommt, die sie gehabt hätte.",
            ),
        ),
        rules,
    )
