"""Spoken announcements: the venue's texts (defaults, edits) and the floor's announcements sent
to the screens.

The rules of what is due when are pure (clocks/domain/announcements.py). Announcements from the
clock are worked out by each screen that speaks (static/clocks/speech.js) with the texts it got
with the page; announcements from the floor (a table broken, players moved, hand-for-hand, the
bubble, the final table, a test) go out as the live message `announce` with the words in every
language, built after the change commits.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clocks.domain.announcements import (
    CLOCK_KINDS,
    FLOOR_KINDS,
    MAX_TEXT,
    PLACEHOLDERS,
    TextError,
    check_text,
    render,
)
from clocks.models import AnnouncementText
from core.errors import FloorError
from live.realtime import send_on_commit, tournament_group
from tournament.events import Actor, event_record
from tournament.locks import lock_tournament
from tournament.models import Event, Status, Tournament
from tournament.selectors import payout_amounts

# The default words, in the reader's language (locale/). Numbers are spoken as numbers.
DEFAULTS: dict[str, Any] = {
    "level_start": gettext_lazy("Level {level}. Blinds {small_blind} and {big_blind}."),
    "level_start_ante": gettext_lazy(
        "Level {level}. Blinds {small_blind} and {big_blind}, ante {ante}."
    ),
    "break_start": gettext_lazy("Break of {minutes} minutes."),
    "late_registration_closed": gettext_lazy("Late registration is now closed."),
    "last_level_before_break": gettext_lazy("This is the last level before the break."),
    "colour_up_ahead": gettext_lazy("At the next break the {chips} chips are coloured up."),
    "late_registration_last_level": gettext_lazy("This is the last level of late registration."),
    "late_registration_closing": gettext_lazy("Late registration closes in {minutes} minutes."),
    "break_ending": gettext_lazy("The break ends in one minute. Please return to your seats."),
    "hand_for_hand": gettext_lazy(
        "Hand-for-hand play begins. Dealers, please wait for the floor before each hand."
    ),
    "bubble": gettext_lazy("We are on the bubble: {players} players left, {places} are paid."),
    "in_the_money": gettext_lazy("The bubble has burst. All {players} players are in the money."),
    "final_table": gettext_lazy("The final table is drawn at table {table}. Good luck!"),
    "table_break": gettext_lazy("Table {table} is broken. Please take your new seats."),
    "players_move": gettext_lazy("Table {table}: a player moves to table {to_table}."),
    "test": gettext_lazy("This is a test announcement."),
}

# What each announcement is, for the console.
LABELS: dict[str, Any] = {
    "level_start": gettext_lazy("A level begins"),
    "level_start_ante": gettext_lazy("A level with an ante begins"),
    "break_start": gettext_lazy("A break begins"),
    "late_registration_closed": gettext_lazy("Late registration closed"),
    "last_level_before_break": gettext_lazy("The last level before a break"),
    "colour_up_ahead": gettext_lazy("The colour-up, a level ahead"),
    "late_registration_last_level": gettext_lazy("The last level of late registration"),
    "late_registration_closing": gettext_lazy("Late registration closes in 5 minutes"),
    "break_ending": gettext_lazy("The break ends in a minute"),
    "hand_for_hand": gettext_lazy("Hand-for-hand begins"),
    "bubble": gettext_lazy("The bubble"),
    "in_the_money": gettext_lazy("In the money"),
    "final_table": gettext_lazy("The final table"),
    "table_break": gettext_lazy("A table is broken"),
    "players_move": gettext_lazy("Players move to balance"),
    "test": gettext_lazy("Test"),
}

# Example values for the console's preview (the countdowns say their own minutes).
EXAMPLE_FOR: dict[str, dict[str, object]] = {
    "late_registration_closing": {"minutes": 5, "level": 6},
    "break_ending": {"minutes": 1, "level": 8},
}
EXAMPLE: dict[str, object] = {
    "level": 7,
    "small_blind": 400,
    "big_blind": 800,
    "ante": 800,
    "minutes": 15,
    "chips": "25, 100",
    "players": 10,
    "places": 9,
    "table": 12,
    "to_table": 4,
}

assert set(DEFAULTS) == set(PLACEHOLDERS) == set(LABELS)


def languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def default_text(kind: str, language: str) -> str:
    with translation.override(language):
        return str(DEFAULTS[kind])


def announcement_texts(language: str) -> dict[str, str]:
    """Every announcement's words in `language`: the venue's own, else the default."""
    own = dict(AnnouncementText.objects.filter(language=language).values_list("kind", "text"))
    return {kind: own.get(kind) or default_text(kind, language) for kind in PLACEHOLDERS}


def text_error_message(kind: str, error: TextError) -> str:
    """The console's words for a text that was refused."""
    label = str(LABELS.get(kind, kind))
    known = ", ".join("{" + name + "}" for name in PLACEHOLDERS.get(kind, ())) or _("none")
    if error.code == "markup":
        return _("%(label)s: the text holds markup (< > &). Write plain words.") % {"label": label}
    if error.code == "placeholder":
        return _(
            "%(label)s: {%(name)s} is not a placeholder of this announcement (known: %(known)s)."
        ) % {
            "label": label,
            "name": error.name,
            "known": known,
        }
    if error.code == "braces":
        return _("%(label)s: a brace { or } without a placeholder name (known: %(known)s).") % {
            "label": label,
            "known": known,
        }
    if error.code == "characters":
        return _("%(label)s: the text holds characters that cannot be spoken.") % {"label": label}
    if error.code == "long":
        return _("%(label)s: at most %(n)s characters.") % {"label": label, "n": MAX_TEXT}
    return _("%(label)s: this text cannot be used.") % {"label": label}


@transaction.atomic
def announcement_texts_save(*, language: str, texts: Mapping[str, str], actor: Actor) -> list[str]:
    """Store the venue's words for `language` (an empty text or the default goes back to the
    default). Every text is checked first; one bad text refuses all of them (FloorError with
    every reason) and nothing changes. Returns the kinds that changed."""
    if language not in languages():
        raise FloorError(_("Unknown language."))
    unknown = set(texts) - set(PLACEHOLDERS)
    if unknown:
        raise FloorError(_("Unknown announcement."))
    errors: list[str] = []
    clean: dict[str, str] = {}
    for kind, text in texts.items():
        if not text.strip():
            clean[kind] = ""
            continue
        try:
            clean[kind] = check_text(kind, text)
        except TextError as exc:
            errors.append(text_error_message(kind, exc))
    if errors:
        raise FloorError(" ".join(errors))
    rows = {
        row.kind: row
        for row in AnnouncementText.objects.select_for_update().filter(language=language)
    }
    changed: list[str] = []
    for kind, text in clean.items():
        row = rows.get(kind)
        if not text or text == default_text(kind, language):
            if row is not None:
                row.delete()
                changed.append(kind)
        elif row is None:
            AnnouncementText.objects.create(kind=kind, language=language, text=text)
            changed.append(kind)
        elif row.text != text:
            row.text = text
            row.save(update_fields=["text", "updated_at"])
            changed.append(kind)
    if changed:
        event_record(
            tournament=None,
            action="announcements.edit",
            actor=actor,
            payload={"language": language, "kinds": changed},
        )
    if set(changed) & set(CLOCK_KINDS):
        # The floor's announcements carry their words; the clock's are worked out by each
        # screen with the texts it holds: send the new ones to every tournament still to play.
        still_to_play = Tournament.objects.exclude(status=Status.FINISHED)
        speech_on_commit(list(still_to_play.values_list("pk", flat=True)))
    return changed


Announcement = tuple[str, dict[str, object]]  # kind, placeholder values


def announce_on_commit(tournament_id: int, what: Callable[[], Announcement | None]) -> None:
    """Send an announcement from the floor to the tournament's screens when the transaction
    commits, its words in every language. `what` runs after the commit (on the builder thread,
    not in the request): it may read the database, and returning None sends nothing."""

    def build() -> dict[str, Any] | None:
        announcement = what()
        if announcement is None:
            return None
        kind, values = announcement
        if kind not in FLOOR_KINDS:
            raise ValueError(f"{kind!r} is not an announcement from the floor")
        texts = {code: render(announcement_texts(code)[kind], values) for code in languages()}
        params = {k: v for k, v in values.items() if type(v) is int}
        return {"kind": kind, "texts": texts, "params": params}

    send_on_commit(tournament_group(tournament_id), "announce", build)


def late_until(tournament: Tournament) -> int | None:
    """The last level of late registration as the screens count it: None when there is none or
    the floor closed registration by hand."""
    if tournament.registration_closed_at is not None:
        return None
    return tournament.late_registration_until_level


def speech_on_commit(tournament_ids: list[int]) -> None:
    """Send the tournaments' speaking screens what they work the clock's announcements out with
    (the live message `speech`: the texts in every language, the end of late registration) when
    the transaction commits; built after the commit, from what is committed."""
    cache: dict[str, dict[str, dict[str, str]]] = {}

    def texts() -> dict[str, dict[str, str]]:
        if "texts" not in cache:  # once for all the tournaments of one edit
            cache["texts"] = {code: clock_texts(code) for code in languages()}
        return cache["texts"]

    def build(tournament_id: int) -> Callable[[], dict[str, Any] | None]:
        def payload() -> dict[str, Any] | None:
            tournament = Tournament.objects.filter(pk=tournament_id).first()
            if tournament is None:
                return None
            return {"texts": texts(), "late_until": late_until(tournament)}

        return payload

    for tournament_id in tournament_ids:
        send_on_commit(tournament_group(tournament_id), "speech", build(tournament_id))


@transaction.atomic
def announcement_test(*, tournament: Tournament, actor: Actor) -> None:
    """The test button: every screen of the tournament that speaks says the test text."""
    lock_tournament(tournament.pk, only=("id",))
    event_record(tournament=tournament, action="announcements.test", actor=actor, payload={})
    announce_on_commit(tournament.pk, lambda: ("test", {}))


# --- What the floor's changes announce ---------------------------------------------------------


def announce_logged(event: Event) -> None:
    """Announce what an event-log row says happened, if anything (called by actions/receivers.py
    inside the transaction that wrote it): a table broken, players moved to balance,
    hand-for-hand on, the final table drawn (a bust at the bubble: `announce_bubble`, called by
    actions/bust.py). Registration closed or
    reopened by hand, or a new late-registration level, sends the screens the new end of late
    registration (`speech`): they work the clock's announcements about it out themselves."""
    tournament_id = event.tournament_id
    if tournament_id is None:
        return
    payload = event.payload or {}
    action = event.action
    if action == "seats.break":
        table = payload.get("table")
        announce_on_commit(tournament_id, lambda: ("table_break", {"table": table}))
    elif action == "seats.balance":
        pairs = sorted({(m["from_table"], m["to_table"]) for m in payload.get("moves", [])})
        for from_table, to_table in pairs:
            announce_on_commit(tournament_id, _fixed("players_move", from_table, to_table))
    elif action == "h4h.set" and payload.get("on"):
        announce_on_commit(tournament_id, lambda: ("hand_for_hand", {}))
    elif action == "seats.final":
        moves = payload.get("moves", [])
        final: dict[str, object] = {
            "table": moves[0]["to_table"] if moves else None,
            "players": len(moves),
        }
        announce_on_commit(tournament_id, lambda: ("final_table", final))
    elif action in ("registration.close", "registration.reopen") or (
        action == "tournament.update"
        and "late_registration_until_level" in payload.get("changed", [])
    ):
        speech_on_commit([tournament_id])


def announce_bubble(tournament_id: int, places: Collection[int], *, paid_at_most: int) -> None:
    """Announce the bubble, or the money reached, if the players out at `places` are the
    bubble's (called by actions/bust.py inside the bust's transaction; the places paid are
    read after the commit). `paid_at_most`: the places paid at most (one more for a
    satellite's cash remainder)."""
    found = {p for p in places if p}
    # Places 1 and 2 are never the bubble's, nor a place more than three below the places paid
    # at most: only a bust near the bubble reads the payouts.
    if found and max(found) > 2 and min(found) <= paid_at_most + 3:
        announce_on_commit(tournament_id, lambda: _bubble(tournament_id, found))


def _fixed(kind: str, table: int, to_table: int) -> Callable[[], Announcement]:
    values: dict[str, object] = {"table": table, "to_table": to_table}
    return lambda: (kind, values)


def _bubble(tournament_id: int, places: set[int]) -> Announcement | None:
    """The bust that leaves one player more than are paid is the bubble; the one that leaves
    as many as are paid bursts it (players out together share the step)."""
    paid = _places_paid(tournament_id)
    if not paid:
        return None
    if paid + 1 in places:
        return ("in_the_money", {"players": paid})
    if paid + 2 in places:
        return ("bubble", {"players": paid + 1, "places": paid})
    return None


def _places_paid(tournament_id: int) -> int:
    tournament = Tournament.objects.get(pk=tournament_id)
    return len([a for a in payout_amounts(tournament) if a > 0])


def clock_texts(language: str) -> dict[str, str]:
    """The texts a speaking screen works out itself (the clock's announcements)."""
    texts = announcement_texts(language)
    return {kind: texts[kind] for kind in CLOCK_KINDS}
