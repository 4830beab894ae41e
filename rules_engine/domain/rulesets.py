"""The rules the engine cites, summarised in its own words in English and German, and the
rulesets with every version of each.

Rule numbers are those of the ruleset's book (see ../shared/rulebooks). The texts below are
short summaries written for Floor, not quotations.

A ruleset is known by its id and its version, the edition of its book ("tda-de" 1.0, "bdpv"
1.1). The registry holds several versions of one id: a tournament names the version it plays
under, and a lookup without a version gives the newest.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
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
            "Saying “call” or “raise” commits the player to the full current action. Chips short "
            "of the call without “call” said are an undercall: the player completes the call or "
            "folds, and the chips stay in.",
            "„Call“ oder „Raise“ verpflichtet zur vollen, aktuellen Aktion. Chips unter dem Call "
            "ohne Ansage sind ein Undercall: Der Spieler ergänzt zum Call oder foldet, die Chips "
            "bleiben drin.",
        ),
        Rule(
            "tda-de 44",
            "Action out of turn",
            "Aktion außerhalb der Reihe",
            "Play goes back to the player in turn and the out-of-turn player may be penalised. "
            "The out-of-turn action binds unless someone in between bet or raised; then bets "
            "come back and the player has every option. A fold out of turn always stands. A "
            "skipped player must speak up before substantial action to their left.",
            "Das Spiel geht zum Spieler an der Reihe zurück; wer außerhalb der Reihe handelt, "
            "kann bestraft werden. Die Aktion bindet, außer jemand dazwischen hat gesetzt oder "
            "erhöht; dann gehen Einsätze zurück und alle Optionen sind offen. Ein Fold außerhalb "
            "der Reihe gilt immer. Ein übersprungener Spieler muss sich melden, bevor links von "
            "ihm substantielle Aktion stattfindet.",
        ),
        Rule(
            "tda-de 45",
            "Ways to call",
            "Arten zu callen",
            "A call is made by saying so, by pushing the amount, by one oversized chip or by "
            "several chips that are all needed for the call. Facing an all-in, one chip put in "
            "without a word is a full call.",
            "Gecallt wird per Ansage, mit dem Betrag, mit einem zu großen Chip oder mit "
            "mehreren Chips, die alle für den Call nötig sind. Gegen ein All-in ist ein "
            "wortlos gesetzter Chip ein voller Call.",
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
            "tda-de 43",
            "Short bets and raises",
            "Zu kleine Bets und Raises",
            "A bet or raise below the minimum is corrected within the same betting round; once "
            "the next card is dealt, it stands.",
            "Ein Bet oder Raise unter dem Minimum wird in derselben Setzrunde korrigiert; ist die "
            "nächste Karte gegeben, bleibt er bestehen.",
        ),
        Rule(
            "tda-de 55",
            "String bets",
            "String Bets",
            "String bets and raises are not allowed; chips that cross the line stay in.",
            "String Bets und Raises sind nicht erlaubt; Chips über der Linie bleiben drin.",
        ),
        Rule(
            "tda-de 56",
            "Unclear amounts",
            "Unklare Beträge",
            "An amount that can be read several ways is the highest sensible reading that is not "
            "more than the pot (“five” is 500 with less than 5,000 in the pot).",
            "Ein mehrdeutiger Betrag gilt in der höchsten sinnvollen Lesart, die den Pot nicht "
            "übersteigt („fünf“ ist 500 bei weniger als 5.000 im Pot).",
        ),
        Rule(
            "tda-de 58",
            "Conditional statements",
            "Bedingte Ansagen",
            "Statements about future action (“if you bet, I raise”) are not standard; the floor "
            "decides whether they bind and may penalise them.",
            "Ansagen über künftige Aktionen („wenn du setzt, raise ich“) sind kein Standard; der "
            "Floor entscheidet, ob sie binden, und kann sie bestrafen.",
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
        Rule(
            "tda-de 16",
            "Showing hands when someone is all-in",
            "Aufdecken beim All-in",
            "Once a player is all-in and nobody else has any action left, every hand still in "
            "is turned face up at once. Nobody who is all-in or has called every bet may throw "
            "the hand away unseen; all hands in the main pot and the side pots stay live.",
            "Ist ein Spieler all-in und hat sonst niemand mehr eine Aktion, werden alle Hände, "
            "die noch drin sind, sofort aufgedeckt. Wer all-in ist oder jeden Einsatz bezahlt "
            "hat, darf seine Hand nicht ungezeigt wegwerfen; alle Hände im Main Pot und in den "
            "Side Pots bleiben im Spiel.",
        ),
        Rule(
            "tda-de 17",
            "Showdown order",
            "Reihenfolge beim Showdown",
            "Without an all-in, when nobody shows or mucks on their own, the floor can set the "
            "order: the player who made the last bet or raise on the final betting round shows "
            "first. With no bet on that round, the player who would act first in a betting "
            "round (the first one left of the button) shows first. If all but one muck, the "
            "last hand wins without being shown.",
            "Ohne All-in, wenn niemand von sich aus zeigt oder wegwirft, kann der Floor die "
            "Reihenfolge festlegen: Wer in der letzten Setzrunde zuletzt gesetzt oder erhöht "
            "hat, zeigt zuerst. Gab es in dieser Runde keinen Einsatz, zeigt zuerst, wer in einer "
            "Setzrunde als Erster dran wäre (der Erste links vom Button). Werfen alle bis auf "
            "einen weg, gewinnt die letzte Hand, ohne gezeigt zu werden.",
        ),
        Rule(
            "tda-de 60",
            "Betting for change",
            "Setzen für Wechselgeld",
            "Bets are not a way to get change: chips put in without a word may all count as the "
            "bet under rule 50 (325 to face, a 500 and a 25 put in: a raise to 650). Only the "
            "dealer changes large chips.",
            "Einsätze sind kein Weg, Wechselgeld zu bekommen: Wortlos gesetzte Chips können nach "
            "Regel 50 ganz als Einsatz zählen (325 zu bezahlen, ein 500er und ein 25er gesetzt: "
            "ein Raise auf 650). Große Chips wechselt nur der Dealer.",
        ),
        Rule(
            "tda-de 12",
            "Cards speak",
            "Die Karten sprechen",
            "At showdown the cards decide, not what a player says about them; the dealer reads "
            "the hands and anyone who sees a mistake should speak up.",
            "Beim Showdown entscheiden die Karten, nicht die Ansage; der Dealer liest die Hände "
            "vor, und wer einen Fehler sieht, meldet sich.",
        ),
        Rule(
            "tda-de 13",
            "Showing the hand",
            "Hand aufdecken",
            "Only a hand with all its hole cards face up can win; a hand the floor cannot read "
            "clearly has no claim to the pot.",
            "Nur eine Hand mit allen Hole Cards offen kann gewinnen; eine Hand, die der Floor "
            "nicht eindeutig lesen kann, hat keinen Anspruch auf den Pot.",
        ),
        Rule(
            "tda-de 24",
            "Colour-up",
            "Colour-up",
            "At a scheduled colour-up there is no race: a player's chips of the removed value "
            "are changed at full value and whatever is left over rounds up to one chip of the "
            "smallest value still in play.",
            "Beim geplanten Colour-up gibt es kein Race: Chips des entfernten Werts werden zum "
            "vollen Wert getauscht, ein Rest wird auf einen Chip des kleinsten verbleibenden "
            "Werts aufgerundet.",
        ),
        Rule(
            "tda-de 35",
            "Misdeals",
            "Misdeals",
            "A misdeal (a card face up in the deck or exposed by the dealer during the deal, the "
            "first card to the wrong seat, cards to a seat not in the hand or none to a seat in "
            "it) is dealt again exactly as before — but only until substantial action; after "
            "that the hand is played, and a player with too many or too few cards who has acted "
            "is folded. The button getting two cards in a row is no misdeal.",
            "Ein Misdeal (Karte offen im Stapel oder beim Geben vom Dealer aufgedeckt, erste "
            "Karte an den falschen Platz, Karten an einen Platz ohne Hand oder keine an einen "
            "Platz mit Hand) wird genau gleich neu gegeben — aber nur bis zur substantiellen "
            "Aktion; danach wird weitergespielt, und wer mit zu vielen oder zu wenigen Karten "
            "gehandelt hat, ist gefoldet. Zwei Karten hintereinander an den Button sind kein "
            "Misdeal.",
        ),
        Rule(
            "tda-de 36",
            "Substantial action",
            "Substantielle Aktion",
            "Substantial action is two actions in turn that put at least one chip in the pot, "
            "or any three actions in turn.",
            "Substantielle Aktion sind zwei Aktionen in Folge, bei denen mindestens ein Chip in "
            "den Pot geht, oder drei beliebige Aktionen in Folge.",
        ),
        Rule(
            "tda-de 37",
            "Button short of cards",
            "Button mit zu wenig Karten",
            "The button may receive a missing card even after substantial action; once the "
            "button acts with too few cards, the hand is dead.",
            "Dem Button darf eine fehlende Karte auch nach substantieller Aktion gegeben werden; "
            "handelt der Button mit zu wenig Karten, ist die Hand tot.",
        ),
        Rule(
            "tda-de 38",
            "Burn cards after substantial action",
            "Burnkarten nach substantieller Aktion",
            "If a hand with the wrong number of cards is taken away after substantial action, "
            "play goes on normally: one burn card before each street.",
            "Wird nach substantieller Aktion eine Hand mit falscher Kartenzahl eingezogen, geht "
            "es normal weiter: vor jeder Straße genau eine Burnkarte.",
        ),
        Rule(
            "tda-de 69",
            "Penalties",
            "Strafen",
            "Penalties are a warning, missed hands, missed rounds (one hand for each player at "
            "the table, the player included, times the rounds) and disqualification; repeats may "
            "be punished harder. A penalised player's blinds and antes are still posted and the "
            "hand is dealt and killed; a disqualified player's chips leave play.",
            "Strafen sind Verwarnung, ausgesetzte Hände, ausgesetzte Runden (eine Hand je Spieler "
            "am Tisch, er selbst eingeschlossen, mal die Runden) und Disqualifikation; "
            "Wiederholungen können härter bestraft werden. Blinds und Antes werden weiter "
            "gesetzt, die Hand wird gegeben und eingezogen; Chips Disqualifizierter verlassen "
            "das Spiel.",
        ),
        Rule(
            "bdpv 2.1",
            "Misdeals",
            "Misdeals",
            "A misdeal (first or second card exposed by the dealer, two or more cards exposed "
            "or found face up, two or more extra cards, a wrong number of cards that cannot be "
            "put right, a card out of order, the button in the wrong place, the first card to "
            "the wrong seat, cards to an empty seat, an eligible player without cards, missing "
            "cards) is reshuffled and dealt again — only until two players have acted.",
            "Ein Misdeal (erste oder zweite Karte vom Dealer aufgedeckt, zwei oder mehr Karten "
            "aufgedeckt oder offen gefunden, zwei oder mehr Karten zu viel, falsche Kartenzahl, "
            "die nicht zu korrigieren ist, Karte außer der Reihe, Button falsch, erste Karte an "
            "den falschen Platz, Karten an einen leeren Platz, berechtigter Spieler ohne Karten, "
            "fehlende Karten) wird neu gemischt und gegeben — nur, bis zwei Spieler gehandelt "
            "haben.",
        ),
        Rule(
            "bdpv 2.2",
            "Dead hand",
            "Tote Hand",
            "A hand is dead — folded, with no claim to the pot and no chips back — when the "
            "player folds or says so, throws the cards forward so that another player acts, "
            "holds the wrong number of cards, plays a joker or foreign card without showing it, "
            "or runs out of time.",
            "Eine Hand ist tot — gefoldet, ohne Anspruch auf den Pot und ohne Rückgabe — wenn der "
            "Spieler foldet oder es sagt, die Karten nach vorn wirft und so jemanden handeln "
            "lässt, die falsche Kartenzahl hat, einen Joker oder eine fremde Karte spielt, ohne "
            "sie zu zeigen, oder seine Zeit überschreitet.",
        ),
        Rule(
            "bdpv 2.3.6",
            "Card face up in the deck",
            "Offene Karte im Stapel",
            "A card found face up in the deck is a burn card; it is replaced once every other "
            "card of that round is dealt.",
            "Eine offen im Stapel gefundene Karte ist eine Burnkarte; sie wird ersetzt, wenn "
            "alle anderen Karten der Runde gegeben sind.",
        ),
        Rule(
            "bdpv 2.3.10",
            "Extra card",
            "Karte zu viel",
            "One card too many dealt by the dealer is used as a burn card.",
            "Eine vom Dealer zu viel gegebene Karte wird als Burnkarte verwendet.",
        ),
        Rule(
            "bdpv 2.3.13",
            "Burn errors",
            "Burnfehler",
            "A missed or doubled burn is put right before the betting of that round starts; "
            "either way the next cards are the ones that would have come without the error.",
            "Ein fehlender oder doppelter Burn wird korrigiert, bevor in der Runde gesetzt "
            "wird; in jedem Fall kommen danach die Karten, die ohne den Fehler gekommen wären.",
        ),
        Rule(
            "bdpv 2.4.5",
            "Words bind",
            "Ansagen binden",
            "What a player says (fold, check, bet, call, raise) binds.",
            "Was ein Spieler ansagt (Fold, Check, Bet, Call, Raise), ist bindend.",
        ),
        Rule(
            "bdpv 2.4.6",
            "The 50 % rule",
            "Die 50-%-Regel",
            "A raise that is too small by mistake: below half of the minimum the raise may be "
            "taken back; half or more must be made up to the minimum.",
            "Ein versehentlich zu kleiner Raise: Unter der Hälfte des Minimums darf er "
            "zurückgenommen werden; ab der Hälfte wird auf das Minimum aufgefüllt.",
        ),
        Rule(
            "bdpv 2.4.11",
            "Oversized chip",
            "Zu großer Chip",
            "One chip larger than the bet, without “raise” announced, is a call.",
            "Ein einzelner Chip über dem Einsatz ist ohne angesagten Raise ein Call.",
        ),
        Rule(
            "bdpv 2.4.12",
            "String bets",
            "String Bets",
            "No string bets: to keep the right to raise, say so or push the chips in one "
            "motion; what the first motion puts forward decides, later motions add no raise. "
            "Chips of the full bet plus half of it or more count as a raise that must be "
            "completed (one oversized chip excepted).",
            "Keine String Bets: Wer erhöhen will, sagt es an oder setzt die Chips in einer "
            "Bewegung; es zählt, was die erste Bewegung nach vorn bringt, spätere Bewegungen "
            "erhöhen nicht. Chips für den vollen Einsatz plus mindestens die Hälfte davon gelten "
            "als Raise und werden aufgefüllt (außer ein einzelner großer Chip).",
        ),
        Rule(
            "bdpv 2.4.10",
            "Chips put in bind; a missed raise",
            "Gesetzte Chips binden; überhörter Raise",
            "Chips put in to bet or call bind the player, and the amount is put right. A player "
            "who had not noticed a raise may take the chips back and decide again, as long as "
            "nobody after him has acted and he put in less than half of what the call needs.",
            "Zum Setzen oder Callen gesetzte Chips binden, der Betrag wird richtiggestellt. Wer "
            "einen Raise nicht bemerkt hat, darf seine Chips zurücknehmen und neu entscheiden, "
            "solange nach ihm niemand gehandelt hat und er weniger als die Hälfte des Calls "
            "gesetzt hat.",
        ),
        Rule(
            "bdpv 2.4.13",
            "Short bets and calls",
            "Zu kleine Einsätze und Calls",
            "Bets and calls that are too small are made up to the right amount if noticed "
            "before the round ends (an all-in excepted).",
            "Zu kleine Einsätze und Calls werden auf den richtigen Betrag aufgefüllt, wenn es "
            "vor Ende der Runde bemerkt wird (außer All-in).",
        ),
        Rule(
            "bdpv 2.5.1",
            "Show all cards",
            "Alle Karten zeigen",
            "To win any part of a pot, a player shows all cards face up.",
            "Um einen Teil des Pots zu gewinnen, zeigt der Spieler alle Karten offen.",
        ),
        Rule(
            "bdpv 2.5.5",
            "Who shows first",
            "Wer zuerst zeigt",
            "With a bet on the last betting round, the player who bet or raised last shows "
            "first; to keep the game moving, a player with a likely winning hand is asked to "
            "show it at once.",
            "Gab es in der letzten Setzrunde einen Einsatz, zeigt zuerst, wer zuletzt gesetzt "
            "oder erhöht hat; damit es weitergeht, wird ein Spieler mit einer wahrscheinlich "
            "gewinnenden Hand gebeten, sie gleich zu zeigen.",
        ),
        Rule(
            "bdpv 2.6.2",
            "Odd chips",
            "Ungerade Chips",
            "Chips that cannot be split, after changing to the smallest chip in play, go to the "
            "first winner left of the button.",
            "Nicht teilbare Chips, nach dem Wechsel in den kleinsten Chip im Spiel, bekommt der "
            "erste Gewinner links vom Button.",
        ),
        Rule(
            "bdpv 2.6.3",
            "Side pots",
            "Side Pots",
            "The main pot and every side pot are split separately.",
            "Hauptpot und jeder Side Pot werden getrennt geteilt.",
        ),
        Rule(
            "bdpv 4.1",
            "Hole card exposed",
            "Holecard aufgedeckt",
            "The first or second card exposed is a misdeal; any later hole card exposed by the "
            "dealer is replaced by the top card after the deal and becomes the first burn card.",
            "Die erste oder zweite Karte aufgedeckt ist ein Misdeal; jede spätere vom Dealer "
            "aufgedeckte Holecard wird nach dem Geben durch die oberste Karte ersetzt und ist "
            "die erste Burnkarte.",
        ),
        Rule(
            "bdpv 4.3",
            "Extra hole cards",
            "Zusätzliche Holecards",
            "One extra card to the first player goes back on the deck; two or more extra cards "
            "are a misdeal.",
            "Eine zusätzliche Karte an den ersten Spieler geht zurück auf den Stapel; zwei oder "
            "mehr sind ein Misdeal.",
        ),
        Rule(
            "bdpv 4.4",
            "Four-card flop",
            "Vier-Karten-Flop",
            "Four cards on the flop: the fourth card is an exposed burn card; if nobody can tell "
            "which was the fourth, it is a misdeal. Five or more: reshuffle.",
            "Vier Karten am Flop: Die vierte ist eine offene Burnkarte; ist nicht klar, welche "
            "die vierte war, ist es ein Misdeal. Fünf oder mehr: neu mischen.",
        ),
        Rule(
            "bdpv 4.7",
            "Premature card",
            "Zu frühe Karte",
            "A card turned before the betting round is over is shuffled back; the burn card stays.",
            "Eine vor Ende der Setzrunde aufgedeckte Karte wird zurückgemischt; die Burnkarte "
            "bleibt liegen.",
        ),
        Rule(
            "bdpv 4.8",
            "New flop",
            "Neuer Flop",
            "A flop dealt again: the board is shuffled into the stub, the burn card stays, then "
            "a new flop without a burn card.",
            "Neuer Flop: Die Karten werden in den Rest gemischt, die Burnkarte bleibt, dann ein "
            "neuer Flop ohne Burnkarte.",
        ),
        Rule(
            "bdpv 4.9",
            "Premature turn",
            "Zu früher Turn",
            "A turn dealt too early: the dealer burns and turns the card that would have been "
            "the river as the turn; after that round the deck, with the removed card, is "
            "shuffled and the river dealt without a burn.",
            "Zu früher Turn: Der Dealer burnt und legt die Karte, die der River gewesen wäre, "
            "als Turn; nach dieser Runde wird der Stapel mit der entfernten Karte gemischt und "
            "der River ohne Burnkarte gegeben.",
        ),
        Rule(
            "bdpv 4.10",
            "Premature river",
            "Zu früher River",
            "A river dealt too early: reshuffle and deal it again the same way.",
            "Zu früher River: neu mischen und genauso neu geben.",
        ),
        Rule(
            "bdpv 5.6",
            "Words over chips",
            "Ansage vor Chips",
            "When what a player says and the chips differ, the bet is made to match the words.",
            "Weichen Ansage und Chips voneinander ab, gilt die Ansage.",
        ),
        Rule(
            "bdpv 5.8",
            "Misunderstood bet",
            "Missverstandener Einsatz",
            "A call made because the player clearly misunderstood the bet may be treated as not "
            "binding; the bettor should not show until the pot is right.",
            "Ein Call aus offensichtlichem Missverständnis des Einsatzes kann als nicht bindend "
            "gelten; der Setzer zeigt erst, wenn der Pot stimmt.",
        ),
        Rule(
            "bdpv 5.9",
            "The 80 % rule",
            "Die 80-%-Regel",
            "A call short by a misunderstanding may be taken back, unless the player put in 80 % "
            "or more of the call: then it is made up to the call.",
            "Ein aus Missverständnis zu kleiner Call darf zurückgenommen werden, außer der "
            "Spieler hat 80 % oder mehr gesetzt: Dann wird auf den Call aufgefüllt.",
        ),
        Rule(
            "bdpv 5.10",
            "A single chip",
            "Ein einzelner Chip",
            "One chip put in without a word is a bet; the dealer should ask the amount meant "
            "before the next player acts. Facing a bet — the big blind included — one larger "
            "chip is a call unless the player clearly says raise.",
            "Ein wortlos gesetzter einzelner Chip ist ein Einsatz; der Dealer sollte nach dem "
            "gemeinten Betrag fragen, bevor der nächste Spieler handelt. Gegen einen Einsatz — "
            "auch gegen den Big Blind — ist ein größerer Chip ein Call, außer der Spieler sagt "
            "klar Raise an.",
        ),
        Rule(
            "bdpv 5.11",
            "Below the minimum",
            "Unter dem Minimum",
            "A bet or raise below the minimum by a player with enough chips is made up to the "
            "minimum, no more.",
            "Ein Bet oder Raise unter dem Minimum wird bei genug Chips auf das Minimum "
            "aufgefüllt, nicht mehr.",
        ),
        Rule(
            "bdpv 6",
            "Penalties",
            "Strafen",
            "A player who breaks the rules may be warned, suspended for a time or excluded; an "
            "excluded player's chips leave play.",
            "Wer gegen die Regeln verstößt, kann verwarnt, für eine Zeit gesperrt oder "
            "ausgeschlossen werden; Chips Ausgeschlossener verlassen das Spiel.",
        ),
        Rule(
            "bdpv 6.8",
            "Race for chips",
            "Race for Chips",
            "Chips too small for the blinds are removed. Full values are changed; for the odd "
            "chips each player gets one card per odd chip, dealt clockwise from left of the "
            "button, all of a player's cards in a row. The highest card (then spades, hearts, "
            "diamonds, clubs) wins the odd chips in the next value up, rounded up; nobody is "
            "raced out — a player left with nothing gets one smallest chip.",
            "Zu kleine Chips werden entfernt. Volle Werte werden getauscht; für die ungeraden "
            "Chips bekommt jeder Spieler eine Karte je Chip, im Uhrzeigersinn links vom Button, "
            "alle Karten eines Spielers nacheinander. Die höchste Karte (dann Pik, Herz, Karo, "
            "Kreuz) gewinnt die ungeraden Chips im nächsten Wert, aufgerundet; niemand fliegt "
            "raus — wer nichts mehr hat, bekommt einen kleinsten Chip.",
        ),
        Rule(
            "bdpv 6.27",
            "All-in showdown",
            "Showdown beim All-in",
            "When all players, or all but one, are all-in and no more betting is possible, the "
            "dealer calls the showdown and every hand is turned face up; cards shown before "
            "the dealer asks can cost the hand.",
            "Sind alle oder alle bis auf einen Spieler all-in und kann nicht mehr gesetzt "
            "werden, sagt der Dealer den Showdown an und alle Hände werden aufgedeckt; wer "
            "vorher ungefragt aufdeckt, riskiert seine Hand.",
        ),
        Rule(
            "bdpv 1.1.1",
            "Fairness first",
            "Fairness zuerst",
            "The tournament directors may rule in the interest of fairness, even where that "
            "differs from a strict reading of the rules.",
            "Die Turnierleitung darf im Sinne der Fairness entscheiden, auch abweichend vom "
            "strengen Wortlaut der Regeln.",
        ),
        Rule(
            "bdpv 2.4.8",
            "Action out of turn",
            "Aktion außer der Reihe",
            "A check out of turn may not become a bet or raise; an action out of turn binds if "
            "nobody in between bets, calls or raises; a call out of turn never becomes a raise.",
            "Ein Check außer der Reihe darf kein Bet oder Raise werden; eine Aktion außer der "
            "Reihe bindet, wenn dazwischen niemand setzt, callt oder erhöht; ein Call außer der "
            "Reihe wird nie zum Raise.",
        ),
        Rule(
            "bdpv 2.4.9",
            "Skipped player",
            "Übergangener Spieler",
            "A skipped player must tell the dealer to keep the right to act; once two or more "
            "players have acted after them, the right is lost.",
            "Ein übergangener Spieler muss sich beim Dealer melden, um sein Recht zu handeln zu "
            "behalten; haben danach zwei oder mehr Spieler gehandelt, ist es verloren.",
        ),
        Rule(
            "bdpv 3.4",
            "Heads-up",
            "Heads-up",
            "Heads-up with two blinds the button is the small blind.",
            "Heads-up mit zwei Blinds ist der Button der Small Blind.",
        ),
    )
}


def rule(rule_id: str) -> Rule:
    try:
        return RULES[rule_id]
    except KeyError:
        raise KeyError(f"unknown rule {rule_id!r}") from None


@dataclass(frozen=True)
class PenaltyStep:
    """One rung of a ruleset's penalty ladder. `kind`: warning, hands, rounds or
    disqualification; `count`: hands or rounds to sit out (0 for the others)."""

    kind: str
    count: int = 0


@dataclass(frozen=True)
class Ruleset:
    """Where the books differ, the ruleset decides. Each field names the rule it comes from."""

    id: str
    name: str
    version: str  # the book's edition as its header names it: "1.0" for "Poker Turnierregeln v1.0"
    time_call: tuple[int, int]  # seconds to act, then the countdown (tda-de 29, bdpv 5.12)
    raise_standard: int  # percent of a full raise that must be completed (tda-de 47, bdpv 2.4.6)
    undercall_complete: int | None  # percent of a call that is made up to it (bdpv 5.9)
    words_over_chips: bool  # a declaration beats chips, whatever came first (bdpv 5.6)
    odd_chips: str  # "first" winner left of the button (tda-de 20, bdpv 2.6.2)
    misdeal_cutoff: str  # "substantial_action" (tda-de 35-36) or "two_acted" (bdpv 2.1)
    four_card_flop: str  # "random_burn" (tda-de 39) or "fourth_is_burn" (bdpv 4.4)
    chip_colour_up: str  # "round_up" (tda-de 24) or "race" (bdpv 6.8)
    penalty_ladder: tuple[PenaltyStep, ...]  # tda-de 69, bdpv 6
    heads_up_button_small_blind: bool  # tda-de 34, bdpv 3.4
    keep_position_on_move: bool  # bdpv 3.7: same position relative to the button
    never_move_blind_posters: bool  # bdpv 3.7: who posts a blind next is not moved to balance
    # Players short of the fullest table at which a table holds play: at full tables (tda-de 10:
    # three) and at six seats or fewer (tda-de 10 leaves it to the floor; practice: two).
    hold_short_by: int
    hold_short_by_short_handed: int
    # Which hands go face up when someone is all-in: "any_all_in" — every hand once the betting
    # is over (tda-de 16); "no_betting_left" — only when all or all but one are all-in
    # (bdpv 6.27), otherwise the showing order applies to everyone.
    all_in_show: str
    # With no bet on the last round: "betting_order" — the first player left of the button
    # shows first (tda-de 17); "floor" — the book is silent, the floor sets the order (bdpv).
    show_order_without_bet: str
    # A player who missed a raise and put in less than this percent of the call may take the
    # chips back while nobody has acted since (bdpv 2.4.10); None: no taking back (tda-de 42).
    missed_raise_take_back: int | None
    cite: dict[str, str]  # topic -> the rule id in this book


_FIRST_EDITIONS = {
    "tda-de": Ruleset(
        id="tda-de",
        name="Poker TDA (German edition)",
        version="1.0",  # "Poker Turnierregeln v1.0"
        time_call=(60, 10),
        raise_standard=50,
        undercall_complete=None,
        words_over_chips=False,
        odd_chips="first",
        misdeal_cutoff="substantial_action",
        four_card_flop="random_burn",
        chip_colour_up="round_up",
        penalty_ladder=(
            PenaltyStep("warning"),
            PenaltyStep("hands", 1),
            PenaltyStep("rounds", 1),
            PenaltyStep("rounds", 2),
            PenaltyStep("rounds", 4),
            PenaltyStep("disqualification"),
        ),
        heads_up_button_small_blind=True,
        keep_position_on_move=False,
        never_move_blind_posters=False,
        hold_short_by=3,
        hold_short_by_short_handed=2,
        all_in_show="any_all_in",
        show_order_without_bet="betting_order",
        missed_raise_take_back=None,
        cite={
            "show": "tda-de 13",
            "cards_speak": "tda-de 12",
            "odd_chips": "tda-de 20",
            "side_pots": "tda-de 21",
            "colour_up": "tda-de 24",
            "misdeal": "tda-de 35",
            "substantial_action": "tda-de 36",
            "four_card_flop": "tda-de 39",
            "premature": "tda-de 39",
            "out_of_turn": "tda-de 44",
            "penalties": "tda-de 69",
            "show_order": "tda-de 17",
            "show_order_without_bet": "tda-de 17",
            "all_in_show": "tda-de 16",
            "string_bet": "tda-de 55",
            "missed_raise": "tda-de 42",
        },
    ),
    "bdpv": Ruleset(
        id="bdpv",
        name="BDPV",
        version="1.1",  # "Die offiziellen Poker-Regeln des BDPV V1.1"
        time_call=(60, 10),
        raise_standard=50,
        undercall_complete=80,
        words_over_chips=True,
        odd_chips="first",
        misdeal_cutoff="two_acted",
        four_card_flop="fourth_is_burn",
        chip_colour_up="race",
        penalty_ladder=(
            PenaltyStep("warning"),
            PenaltyStep("rounds", 1),
            PenaltyStep("rounds", 3),
            PenaltyStep("disqualification"),
        ),
        heads_up_button_small_blind=True,
        keep_position_on_move=True,
        never_move_blind_posters=True,
        # bdpv sets no threshold (6.14: tables are balanced sensibly); the TDA's is used.
        hold_short_by=3,
        hold_short_by_short_handed=2,
        all_in_show="no_betting_left",
        show_order_without_bet="floor",
        missed_raise_take_back=50,
        cite={
            "show": "bdpv 2.5.1",
            "cards_speak": "bdpv 2.5.1",
            "odd_chips": "bdpv 2.6.2",
            "side_pots": "bdpv 2.6.3",
            "colour_up": "bdpv 6.8",
            "misdeal": "bdpv 2.1",
            "substantial_action": "bdpv 2.1",
            "four_card_flop": "bdpv 4.4",
            "premature": "bdpv 4.7",
            "out_of_turn": "bdpv 2.4.8",
            "penalties": "bdpv 6",
            "show_order": "bdpv 2.5.5",
            "show_order_without_bet": "bdpv 1.1.1",
            "all_in_show": "bdpv 6.27",
            "string_bet": "bdpv 2.4.12",
            "missed_raise": "bdpv 2.4.10",
        },
    ),
}


class UnknownRuleset(KeyError):
    """A ruleset id, or a version of it, that the registry does not hold."""

    def __str__(self) -> str:
        return str(self.args[0])


_VERSION = re.compile(r"^\d+(\.\d+)*$")


def _order(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in version.split("."))


class Registry:
    """Every version of every ruleset. Versions are dotted numbers ("1.0", "1.1", "2.0"); the
    highest is the newest, whatever the order they were registered in."""

    def __init__(self, rulesets: Iterable[Ruleset] = ()) -> None:
        self._held: dict[str, dict[str, Ruleset]] = {}
        for rs in rulesets:
            self.register(rs)

    def register(self, rs: Ruleset) -> None:
        """Add a version. An existing version is never replaced: rulings cite it."""
        if not _VERSION.match(rs.version):
            raise ValueError(f"{rs.id}: version {rs.version!r} is not a number such as 1.0")
        held = self._held.setdefault(rs.id, {})
        if rs.version in held:
            raise ValueError(f"{rs.id} {rs.version} is registered already")
        held[rs.version] = rs

    def ids(self) -> tuple[str, ...]:
        return tuple(self._held)

    def versions(self, ruleset_id: str) -> tuple[str, ...]:
        """The versions of `ruleset_id`, oldest first."""
        return tuple(sorted(self._of(ruleset_id), key=_order))

    def ruleset(self, ruleset_id: str, version: str | None = None) -> Ruleset:
        """The named version; the newest when `version` is None or empty."""
        held = self._of(ruleset_id)
        if not version:
            return held[self.versions(ruleset_id)[-1]]
        try:
            return held[version]
        except KeyError:
            raise UnknownRuleset(
                f"ruleset {ruleset_id!r} has no version {version!r} "
                f"(it has {', '.join(self.versions(ruleset_id))})"
            ) from None

    def all(self) -> tuple[Ruleset, ...]:
        return tuple(self.ruleset(i, v) for i in self.ids() for v in self.versions(i))

    def _of(self, ruleset_id: str) -> dict[str, Ruleset]:
        try:
            return self._held[ruleset_id]
        except KeyError:
            raise UnknownRuleset(f"unknown ruleset {ruleset_id!r}") from None


REGISTRY = Registry(_FIRST_EDITIONS.values())


def ruleset(ruleset_id: str, version: str | None = None) -> Ruleset:
    """The ruleset `ruleset_id` in the named version, or the newest when `version` is None or
    empty. UnknownRuleset (a KeyError) for an id or version the registry does not hold."""
    return REGISTRY.ruleset(ruleset_id, version)


def versions(ruleset_id: str) -> tuple[str, ...]:
    """The versions the registry holds for `ruleset_id`, oldest first."""
    return REGISTRY.versions(ruleset_id)


def version_in_force(ruleset_id: str, recorded: str | None) -> str:
    """The version a tournament plays under: the one it recorded, or the newest when it recorded
    none (tournaments made before versions were kept)."""
    return ruleset(ruleset_id, recorded).version


def citation(rule_id: str, version: str) -> str:
    """How a rule is cited: the ruleset, the version in force and the rule number
    ("tda-de 47" under 1.0 is "tda-de 1.0 · 47"). Without a version the bare rule id."""
    book, _sep, number = rule_id.partition(" ")
    if not version or not number:
        return rule_id
    return f"{book} {version} · {number}"


class _Newest(Mapping[str, Ruleset]):
    """RULESETS: the newest version of each ruleset, by id (read live from the registry)."""

    def __getitem__(self, ruleset_id: str) -> Ruleset:
        return REGISTRY.ruleset(ruleset_id)

    def __iter__(self) -> Iterator[str]:
        return iter(REGISTRY.ids())

    def __len__(self) -> int:
        return len(REGISTRY.ids())


RULESETS: Mapping[str, Ruleset] = _Newest()
