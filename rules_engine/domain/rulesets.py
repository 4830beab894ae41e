"""The rules the engine cites, summarised in its own words in English and German.

Rule numbers are those of the ruleset's book (see ../shared/rulebooks). The texts below are
short summaries written for Floor, not quotations.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Rule:
    id: str  # "tda-de 47"
    title_en: str
    title_de: str
    summary_en: str
    summary_de: str

    def title(self, language: str) -> str:
        return self.title_de if language.startswith("de") else self.title_en

    def summary(self, language: str) -> str:
        return self.summary_de if language.startswith("de") else self.summary_en


RULES: dict[str, Rule] = {
    r.id: r
    for r in (
        Rule(
            "tda-de 20",
            "Odd chips",
            "Ungerade Chips",
            "Split pots are broken down to the smallest chip in play; what cannot be split goes "
            "to the first winner clockwise from the button.",
            "Geteilte Pots werden bis zum kleinsten Chip im Spiel aufgeteilt; was nicht teilbar "
            "ist, bekommt der erste Gewinner links vom Button.",
        ),
        Rule(
            "tda-de 21",
            "Side pots",
            "Side Pots",
            "Every side pot is split on its own.",
            "Jeder Side Pot wird für sich geteilt.",
        ),
        Rule(
            "tda-de 34",
            "Heads-up",
            "Heads-up",
            "Heads-up the button posts the small blind and acts first before the flop, last "
            "after it.",
            "Heads-up zahlt der Button den Small Blind, handelt vor dem Flop zuerst und danach "
            "zuletzt.",
        ),
        Rule(
            "tda-de 39",
            "Four-card flop, premature cards",
            "Vier-Karten-Flop, zu frühe Karten",
            "Four cards on the flop: they are mixed face down, the floor picks one at random as "
            "the next burn card, the other three are the flop. A card dealt too early goes back "
            "into the deck; the later cards are set aside first and a new card is dealt without "
            "a burn.",
            "Vier Karten am Flop: Sie werden verdeckt gemischt, der Floor zieht eine zufällig "
            "als nächste Burnkarte, die anderen drei sind der Flop. Eine zu früh gegebene Karte "
            "kommt zurück ins Deck; die späteren Karten werden zuerst beiseitegelegt und eine "
            "neue Karte wird ohne Burn gegeben.",
        ),
        Rule(
            "tda-de 40",
            "Words and chips",
            "Ansage und Chips",
            "A bet is made by words, chips or both; whichever comes first counts. At the same "
            "moment a clear declaration wins. Naming an amount equals pushing it.",
            "Gesetzt wird mit Worten, Chips oder beidem; was zuerst geschieht, zählt. "
            "Gleichzeitig gilt eine klare Ansage. Einen Betrag nennen ist wie ihn zu setzen.",
        ),
        Rule(
            "tda-de 42",
            "Binding declarations",
            "Verbindliche Ansagen",
            "Saying “call” or “raise” commits the player to the full current action.",
            "„Call“ oder „Raise“ verpflichtet zur vollen, aktuellen Aktion.",
        ),
        Rule(
            "tda-de 44",
            "Action out of turn",
            "Aktion außerhalb der Reihe",
            "Play goes back to the player in turn and the out-of-turn player may be penalised. "
            "The out-of-turn action binds unless someone in between bet or raised; then bets "
            "come back and the player has every option. A fold out of turn always stands.",
            "Das Spiel geht zum Spieler an der Reihe zurück; wer außerhalb der Reihe handelt, "
            "kann bestraft werden. Die Aktion bindet, außer jemand dazwischen hat gesetzt oder "
            "erhöht; dann gehen Einsätze zurück und alle Optionen sind offen. Ein Fold außerhalb "
            "der Reihe gilt immer.",
        ),
        Rule(
            "tda-de 45",
            "Ways to call",
            "Arten zu callen",
            "A call is made by saying so, by pushing the amount, by one oversized chip or by "
            "several chips that are all needed for the call.",
            "Gecallt wird per Ansage, mit dem Betrag, mit einem zu großen Chip oder mit "
            "mehreren Chips, die alle für den Call nötig sind.",
        ),
        Rule(
            "tda-de 46",
            "Ways to raise",
            "Arten zu raisen",
            "A raise is the full amount in one motion, the amount said first, or “raise” said "
            "first; if less than a full raise follows, it is a minimum raise.",
            "Ein Raise ist der volle Betrag in einer Bewegung, der vorher genannte Betrag oder "
            "vorher „Raise“; folgt weniger als ein voller Raise, gilt ein Minimum-Raise.",
        ),
        Rule(
            "tda-de 47",
            "Raise amounts",
            "Raise-Beträge",
            "A raise adds at least the last full bet or raise of the round. At least half of "
            "that must be completed to a full raise; less than half is a call, unless a raise "
            "was declared or the player is all-in.",
            "Ein Raise erhöht mindestens um den letzten vollen Bet oder Raise der Runde. Ab der "
            "Hälfte davon wird auf einen vollen Raise ergänzt; weniger ist ein Call, außer es "
            "wurde Raise angesagt oder der Spieler ist all-in.",
        ),
        Rule(
            "tda-de 48",
            "Reopening the betting",
            "Wiedereröffnen der Setzrunde",
            "A short all-in does not reopen the betting for a player who has acted and faces "
            "less than a full raise.",
            "Ein zu kurzes All-in eröffnet die Setzrunde nicht neu für Spieler, die schon "
            "gehandelt haben und weniger als einem vollen Raise gegenüberstehen.",
        ),
        Rule(
            "tda-de 49",
            "Oversized chip",
            "Zu großer Chip",
            "Facing a bet, one oversized chip is a call unless “raise” was said before it "
            "crossed the line; “raise” alone then raises by the most the chip allows. With no "
            "bet to face, the chip is a bet of its full value.",
            "Gegen einen Einsatz ist ein einzelner zu großer Chip ein Call, außer vorher wurde "
            "„Raise“ gesagt; dann gilt der höchste mit dem Chip mögliche Raise. Ohne Einsatz "
            "ist der Chip ein Bet in voller Höhe.",
        ),
        Rule(
            "tda-de 50",
            "Several chips",
            "Mehrere Chips",
            "Without a declaration, several chips are a call if taking away the smallest would "
            "leave less than the call; otherwise the 50 % standard decides.",
            "Ohne Ansage sind mehrere Chips ein Call, wenn ohne den kleinsten weniger als der "
            "Call übrig bliebe; sonst entscheidet die 50-%-Regel.",
        ),
        Rule(
            "tda-de 53",
            "“Pot” in No-Limit",
            "„Pot“ im No-Limit",
            "“Pot” is no valid amount in No-Limit but commits the player to a valid bet or "
            "raise (at least the minimum).",
            "„Pot“ ist im No-Limit kein gültiger Betrag, verpflichtet aber zu einem gültigen Bet "
            "oder Raise (mindestens dem Minimum).",
        ),
        Rule(
            "tda-de 54",
            "Invalid expressions",
            "Ungültige Ausdrücke",
            "With nothing to call, “call” is a check and “raise” at least a minimum bet. "
            "“Check” facing a bet leaves call or fold.",
            "Ohne Einsatz ist „Call“ ein Check und „Raise“ mindestens ein Minimum-Bet. „Check“ "
            "gegen einen Einsatz lässt nur Call oder Fold.",
        ),
    )
}


def rule(rule_id: str) -> Rule:
    try:
        return RULES[rule_id]
    except KeyError:
        raise KeyError(f"unknown rule {rule_id!r}") from None
