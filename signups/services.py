"""Sign-ups before the night (docs/signups.md): the sheet's settings, a sign-up, its cancellation
with the waiting list moving up, a director's changes, the check-in at the desk (a paid entry,
seated as any registration) and the check-in deadline (no-shows, their places to the list).

Every change of places runs under the sheet's row lock (`SELECT … FOR UPDATE`), so two people
taking the last place at the same instant are served one after the other: exactly one gets it,
the other is first on the waiting list. The arithmetic is in signups/domain/places.py."""

from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.mail import send_mail
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Min, Q
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from config.prepared import prepared_cursor
from core.errors import Conflict, FloorError, NotFound
from core.links import public_url
from eventlog.catalogue import check_action
from live.realtime import broadcast_on_commit, tournament_group
from signups.domain.places import (
    NameRefused,
    Room,
    Status,
    email_key,
    moving_up_in,
    name_refusal,
    phone_key,
    walk_in_refused,
)
from signups.models import ON_THE_SHEET, SignUp, SignUpSheet, SignUpStatus, new_token
from tournament.events import Actor, event_record
from tournament.locks import lock_tournament
from tournament.models import Entry, Event, Player, Tournament

PLACES_MOST = 10_000


def sheet_of(tournament: Tournament) -> SignUpSheet:
    sheet, _created = SignUpSheet.objects.get_or_create(tournament=tournament)
    return sheet


def places_of(sheet: SignUpSheet, tournament: Tournament | None = None) -> int:
    """The places offered to sign-ups: the sheet's number, else the tournament's capacity less
    the places held back."""
    if sheet.places is not None:
        return sheet.places
    tournament = tournament or sheet.tournament
    return max(0, (tournament.capacity or 0) - sheet.reserved)


def room_of(
    sheet: SignUpSheet,
    *,
    capacity: int | None,
    entries: int,
    counted: tuple[int, int] | None = None,
) -> Room:
    """The sheet's places with the tournament's seats (`capacity`) and the entries playing
    (`entries`, its players left): every entry counts, whatever path made it (the desk, the
    API, a check-in). The sign-ups holding a place and those of them promised are the sheet's
    kept counts, or `counted` (held, promised)."""
    held, promised = counted if counted is not None else (sheet.held, sheet.promised)
    return room_in(
        places=sheet.places,
        reserved=sheet.reserved,
        held=held,
        promised=promised,
        capacity=capacity,
        entries=entries,
    )


def room_in(
    *,
    places: int | None,
    reserved: int,
    held: int,
    promised: int,
    capacity: int | None,
    entries: int,
) -> Room:
    """`room_of` from the numbers: the sheet's places (None: the capacity less those held back)
    and places held back, its kept counts, the tournament's capacity and entries playing."""
    if capacity is not None:
        seats: int | None = capacity
    elif places is not None:  # no capacity: the sheet's places and those held back
        seats = places + reserved
    else:
        seats = None
    return Room(
        places=places if places is not None else max(0, (capacity or 0) - reserved),
        reserved=reserved,
        seats=seats,
        entries=entries,
        promised=promised,
        holding=held,
    )


def _room(sheet: SignUpSheet) -> Room:
    """The room as it is now (call with the tournament locked: its players left stay put)."""
    capacity, entries = Tournament.objects.values_list("capacity", "players_left").get(
        pk=sheet.tournament_id
    )
    return room_of(sheet, capacity=capacity, entries=entries)


def _locked(tournament: Tournament) -> SignUpSheet:
    """The sheet's row, locked to the end of the transaction (made first if there is none),
    after the tournament's: every action on a tournament locks it first (tournament/locks.py),
    and a check-in, which registers an entry, holds the tournament and then wants the sheet."""
    lock_tournament(tournament.pk, only=("id",))
    try:
        return SignUpSheet.objects.select_for_update().get(tournament=tournament)
    except SignUpSheet.DoesNotExist:
        sheet_of(tournament)
        return SignUpSheet.objects.select_for_update().get(tournament=tournament)


def _state(sheet: SignUpSheet) -> tuple[int, int, list[int]]:
    """(places held, of them promised (not checked in), the waiting list's arrival numbers in
    their order), in two indexed queries: the sheet's row lock is held while they run, so they
    read counts and numbers, not rows."""
    counted = sheet.signups.aggregate(
        held=Count("pk", filter=Q(status__in=[SignUpStatus.CONFIRMED, SignUpStatus.CHECKED_IN])),
        promised=Count("pk", filter=Q(status=SignUpStatus.CONFIRMED)),
    )
    waiting = list(
        sheet.signups.filter(status=SignUpStatus.WAITING)
        .order_by(Coalesce("rank", "sequence"), "sequence")
        .values_list("sequence", flat=True)
    )
    return counted["held"], counted["promised"], waiting


def _recount(sheet: SignUpSheet) -> list[int]:
    """Count the sheet's sign-ups again into its kept counts (after any change of a status);
    returns the waiting list's arrival numbers in their order."""
    held, promised, waiting = _state(sheet)
    if (sheet.held, sheet.promised, sheet.waiting) != (held, promised, len(waiting)):
        sheet.held, sheet.promised, sheet.waiting = held, promised, len(waiting)
        sheet.save(update_fields=["held", "promised", "waiting"])
    return waiting


def _refuse_name(name: str) -> str:
    why = name_refusal(name)
    if why is NameRefused.EMPTY:
        raise FloorError(_("Enter a name."), code=why.value)
    if why is NameRefused.TOO_SHORT:
        raise FloorError(_("A name has at least 2 characters."), code=why.value)
    if why is NameRefused.TOO_LONG:
        raise FloorError(_("A name has at most 60 characters."), code=why.value)
    if why is NameRefused.CONTROL:
        raise FloorError(_("A name cannot hold line breaks or control characters."), code=why.value)
    return name.strip()


# --- The sheet ----------------------------------------------------------------------------------


@transaction.atomic
def sheet_update(
    *,
    tournament: Tournament,
    actor: Actor,
    is_open: bool,
    places: int | None,
    reserved: int,
    check_in_deadline: datetime | None,
) -> SignUpSheet:
    """A director opens or closes sign-ups and sets the places, the places held back and the
    check-in deadline. More places move the waiting list up at once."""
    sheet = _locked(tournament)
    if places is not None and not 1 <= places <= PLACES_MOST:
        raise FloorError(_("Places are 1 to 10,000."))
    if not 0 <= reserved <= PLACES_MOST:
        raise FloorError(_("Places held back are 0 to 10,000."))
    seats = Tournament.objects.values_list("capacity", flat=True).get(pk=tournament.pk)
    if seats is not None and places is not None and places + reserved > seats:
        raise FloorError(
            _(
                "%(p)s places and %(r)s held back are more than the tournament's %(c)s seats: "
                "raise its capacity first, or leave the places blank."
            )
            % {"p": places, "r": reserved, "c": seats},
            field="places",
        )
    sheet.places, sheet.reserved = places, reserved
    if is_open and places_of(sheet, tournament) < 1:
        raise FloorError(
            _("Set the number of places (or the tournament's capacity) before opening sign-ups.")
        )
    if check_in_deadline != sheet.check_in_deadline:
        sheet.deadline_applied_at = None
    sheet.is_open = is_open
    sheet.check_in_deadline = check_in_deadline
    sheet.save()
    event_record(
        tournament=tournament,
        action="signup.sheet",
        actor=actor,
        payload={
            "open": is_open,
            "places": places_of(sheet, tournament),
            "reserved": reserved,
            "deadline": check_in_deadline.isoformat() if check_in_deadline else None,
        },
    )
    if not _apply_deadline(sheet, tournament, actor):  # a deadline already past applies now
        _move_up(sheet, tournament, actor)
    return sheet


# --- Signing up and cancelling ------------------------------------------------------------------


@dataclass(frozen=True)
class _Form:
    """A sign-up's fields, checked and trimmed."""

    name: str
    email: str
    phone: str
    nonce: str
    language: str

    @property
    def email_key(self) -> str:
        return email_key(self.email)

    @property
    def phone_key(self) -> str:
        return phone_key(self.phone)


class SignedUpAlready(Conflict):
    """The same person is on the sheet already (docs/signups.md, "the same person"): nothing
    is written; `signup` is their sign-up (its link is for them only, never shown to whoever
    asked)."""

    def __init__(self, signup: SignUp) -> None:
        super().__init__(
            _("%(n)s is signed up for this tournament already (as #%(s)s): one sign-up per person.")
            % {"n": signup.display_name, "s": signup.sequence},
            code="signed_up_already",
        )
        self.signup = signup


# A sign-up on the sheet that tells a person is there already: on the list or checked in.
_PRESENT = [SignUpStatus.CONFIRMED, SignUpStatus.WAITING, SignUpStatus.CHECKED_IN]


def same_person(sheet: SignUpSheet, form: _Form, player: Player | None) -> SignUp | None:
    """The sheet's sign-up of the same person, if any: the same person record, the same e-mail
    address or the same phone number (as `email_key` and `phone_key` read them)."""
    match = Q()
    if player is not None:
        match |= Q(player=player)
    if form.email_key:
        match |= Q(email_key=form.email_key)
    if form.phone_key:
        match |= Q(phone_key=form.phone_key)
    if not match:
        return None
    return sheet.signups.filter(match, status__in=_PRESENT).order_by("sequence").first()


def _checked(
    *,
    display_name: str,
    email: str = "",
    phone: str = "",
    consent: bool = False,
    nonce: str = "",
    language: str = "",
) -> _Form:
    name = _refuse_name(display_name)
    email, phone = email.strip()[:254], phone.strip()[:40]
    if (email or phone) and not consent:
        raise FloorError(_("Tick the consent line to leave an e-mail or a phone number."))
    if email and ("@" not in email or " " in email):
        raise FloorError(_("Enter a valid e-mail address."))
    return _Form(name, email, phone, nonce.strip()[:40], language[:10])


def signup_create(
    *,
    tournament: Tournament,
    display_name: str,
    actor: Actor,
    email: str = "",
    phone: str = "",
    consent: bool = False,
    nonce: str = "",
    player: Player | None = None,
    by_staff: bool = False,
    language: str = "",
    one_statement: bool = True,
) -> SignUp:
    """A sign-up: a place while places are free, else the waiting list. A nonce sent before
    returns the sign-up it made. Contact data needs the consent line ticked. `one_statement`
    False: the caller tried `signup_by_phone` already, it goes straight to the locked path."""
    form = _checked(
        display_name=display_name,
        email=email,
        phone=phone,
        consent=consent,
        nonce=nonce,
        language=language,
    )
    if one_statement and player is None and not by_staff:
        signup = _signup_in_one_statement(tournament.pk, form, actor)
        if signup is not None:
            return signup
    with transaction.atomic():
        return _signup_locked(tournament, form, actor, player, by_staff)


def signup_by_phone(*, tournament_id: int, actor: Actor, **fields: Any) -> SignUp | None:
    """A player's sign-up in the common case, before anything else is read: the sheet open, no
    check-in deadline to apply, PostgreSQL. None otherwise (also for a tournament that does not
    exist): then `signup_create`, with the tournament read, serves it or says why not. `fields`
    are `signup_create`'s (display_name, email, phone, consent, nonce, language), refused alike."""
    form = _checked(**fields)
    return _signup_in_one_statement(tournament_id, form, actor)


def _signup_locked(
    tournament: Tournament, form: _Form, actor: Actor, player: Player | None, by_staff: bool
) -> SignUp:
    """A sign-up under the sheet's row lock, in the caller's transaction: every case (a staff
    sign-up on a closed sheet, a person signed up already, a deadline to apply first) and SQLite."""
    sheet = _locked(tournament)
    if form.nonce:
        again = sheet.signups.filter(nonce=form.nonce).first()
        if again is not None:
            return again
    if not sheet.is_open and not by_staff:
        raise FloorError(_("Sign-ups are closed for this tournament."), code="closed")
    there = same_person(sheet, form, player)
    if there is not None:
        raise SignedUpAlready(there)
    _apply_deadline(sheet, tournament, actor)
    if sheet.waiting and _room(sheet).free:
        _move_up(sheet, tournament, actor)  # a seat freed meanwhile goes to the list first
    status = Status.CONFIRMED if _room(sheet).free and not sheet.waiting else Status.WAITING
    sheet.sequence += 1
    sheet.last_placed = status is Status.CONFIRMED
    if sheet.last_placed:
        sheet.held += 1
        sheet.promised += 1
    else:
        sheet.waiting += 1
    sheet.save(update_fields=["sequence", "held", "promised", "waiting", "last_placed"])
    # The nonce was checked under the lock; the unique constraint stays the last word (an
    # IntegrityError then rolls the whole sign-up back).
    signup = SignUp.objects.create(
        sheet=sheet,
        sequence=sheet.sequence,
        display_name=form.name,
        email=form.email,
        phone=form.phone,
        email_key=form.email_key,
        phone_key=form.phone_key,
        consent_at=timezone.now() if (form.email or form.phone) else None,
        status=status.value,
        nonce=form.nonce,
        player=player,
        by_staff=by_staff,
        language=form.language,
    )
    event_record(
        tournament=tournament,
        action="signup.create",
        actor=actor,
        payload={
            "signup": signup.pk,
            "sequence": signup.sequence,
            "name": form.name,
            "status": status.value,
            "by_staff": by_staff,
        },
    )
    # A new sign-up joins the end of the list: nobody's position changes, the count does.
    _tell(sheet, tournament, moved=[], counts=True)
    return signup


# One statement locks the tournament (first, as every action on it: tournament/locks.py), takes
# the sign-up's arrival number and its place or its turn on the waiting list, writes the sign-up
# and its line in the event log. On its own (autocommit) it holds the tournament's and the
# sheet's row locks only while PostgreSQL runs it: no round trip to the web process, which may wait for
# its turn at the interpreter lock meanwhile, happens under the lock. Measured in a burst of
# sign-ups (bench/signup.py, docs/benchmarks.md): the lock taken in a transaction of six
# statements served the sheet one sign-up at a time at 60-100 a second. PostgreSQL only (SQLite
# has no data-modifying WITH); `_signup_locked` is the same sign-up in Django's terms, and the
# tests compare the two (signups/tests/test_signups.py).
_ONE_STATEMENT = """
WITH tournament_locked AS (
    SELECT id, capacity, players_left FROM {tournament} WHERE id = %(tournament)s
    FOR NO KEY UPDATE
), taken AS (
    UPDATE {sheet} AS sheet SET
        sequence = sheet.sequence + 1,
        last_placed = {placed},
        held = sheet.held + CASE WHEN {placed} THEN 1 ELSE 0 END,
        promised = sheet.promised + CASE WHEN {placed} THEN 1 ELSE 0 END,
        waiting = sheet.waiting + CASE WHEN {placed} THEN 0 ELSE 1 END
    FROM tournament_locked AS t
    WHERE sheet.tournament_id = t.id AND sheet.is_open
        AND (sheet.check_in_deadline IS NULL OR sheet.deadline_applied_at IS NOT NULL
             OR sheet.check_in_deadline > clock_timestamp())
        AND (sheet.waiting = 0 OR NOT {placed})
        AND NOT (%(email_key)s <> '' AND EXISTS (
            SELECT 1 FROM {signup} AS same WHERE same.sheet_id = sheet.id
                AND same.email_key = %(email_key)s AND same.status IN {present}))
        AND NOT (%(phone_key)s <> '' AND EXISTS (
            SELECT 1 FROM {signup} AS same WHERE same.sheet_id = sheet.id
                AND same.phone_key = %(phone_key)s AND same.status IN {present}))
    RETURNING sheet.id, sheet.sequence, sheet.held, sheet.promised, sheet.waiting,
        sheet.last_placed, sheet.places, sheet.reserved, t.capacity, t.players_left
), made AS (
    INSERT INTO {signup} (sheet_id, sequence, rank, display_name, email, phone, email_key,
        phone_key, consent_at, language, status, token, nonce, player_id, entry_id, created_at,
        moved_up_at, ended_at, by_staff)
    SELECT id, sequence, NULL, %(name)s, %(email)s, %(phone)s, %(email_key)s, %(phone_key)s,
        %(consent_at)s, %(language)s,
        CASE WHEN last_placed THEN %(confirmed)s ELSE %(waiting)s END, %(token)s, %(nonce)s,
        NULL, NULL, clock_timestamp(), NULL, NULL, false
    FROM taken
    RETURNING id, sequence, status, created_at
), logged AS (
    INSERT INTO {event} (tournament_id, at, actor_id, actor_label, source, action, payload)
    SELECT %(tournament)s, clock_timestamp(), %(actor)s, %(actor_label)s, %(source)s,
        'signup.create', jsonb_build_object('signup', id, 'sequence', sequence, 'name',
        %(name)s::text, 'status', status, 'by_staff', false)
    FROM made
)
SELECT made.id, made.sequence, made.status, made.created_at, taken.id, taken.held,
    taken.promised, taken.waiting, taken.places, taken.reserved, taken.capacity,
    taken.players_left
FROM made, taken
"""

# `Room.free` in SQL, on the sheet's row before the change and the locked tournament's: a place
# while fewer sign-ups hold one than are offered (the sheet's places, else the capacity less
# those held back; never more than the seats less those held back), and the entries playing
# and the places promised leave a seat. Without a capacity the seats are the sheet's places
# and those held back.
_PLACES = "COALESCE(sheet.places, GREATEST(0, t.capacity - sheet.reserved))"
_SEATS = "COALESCE(t.capacity, sheet.places + sheet.reserved)"
_PLACED = (
    f"(sheet.held < {_PLACES} AND ({_SEATS} IS NULL OR (sheet.held < {_SEATS} - sheet.reserved"
    f" AND t.players_left + sheet.promised < {_SEATS})))"
)


# SignUp's columns in their order, as `Model.from_db` takes a row.
_SIGNUP_FIELDS = tuple(field.attname for field in SignUp._meta.concrete_fields)


@functools.cache
def _one_statement_sql() -> str:
    # Its runs of blank space are one space each: under 4,096 characters psycopg keeps the
    # statement's conversion for its parameters instead of parsing it anew every sign-up
    # (psycopg/_queries.py, MAX_CACHED_STATEMENT_LENGTH; the statement has no string literal
    # with two spaces in it).
    text = _ONE_STATEMENT.format(
        tournament=Tournament._meta.db_table,
        sheet=SignUpSheet._meta.db_table,
        signup=SignUp._meta.db_table,
        event=Event._meta.db_table,
        placed=_PLACED,
        # The statuses as the unique indexes on the contact keys name them, so that PostgreSQL
        # finds the same person in them (signups/models.py).
        present="(" + ", ".join(f"'{status}'" for status in ON_THE_SHEET) + ")",
    )
    return " ".join(text.split())


def _signup_in_one_statement(tournament_id: int, form: _Form, actor: Actor) -> SignUp | None:
    """The common sign-up (a player on an open sheet, no deadline to apply) in one statement;
    None when the sheet is not in that state, or not on PostgreSQL: the caller then signs up under
    the lock, which applies the deadline or says why not. A nonce sent before returns the sign-up
    it made."""
    if connection.vendor != "postgresql":
        return None
    check_action("signup.create")
    email, phone, nonce = form.email, form.phone, form.nonce
    token, consent_at = new_token(), timezone.now() if (email or phone) else None
    params: dict[str, Any] = {
        "tournament": tournament_id,
        "name": form.name,
        "email": email,
        "phone": phone,
        "consent_at": consent_at,
        "language": form.language,
        "email_key": form.email_key,
        "phone_key": form.phone_key,
        "confirmed": SignUpStatus.CONFIRMED.value,
        "waiting": SignUpStatus.WAITING.value,
        "token": token,
        "nonce": nonce,
        "actor": actor.user.pk if actor.user is not None else None,
        "actor_label": actor.label[:120],
        "source": actor.source[:64],
    }
    try:
        # In a caller's transaction a savepoint keeps a refused nonce from spoiling it; alone,
        # the statement is its own transaction.
        guard = transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext()
        with guard, prepared_cursor() as cursor:
            cursor.execute(_one_statement_sql(), params)
            row = cursor.fetchone()
    except IntegrityError:
        again = SignUp.objects.filter(sheet__tournament_id=tournament_id, nonce=nonce).first()
        if nonce and again is not None:
            return again
        # The same person signed up at the same instant: the locked path says so.
        return None
    if row is None:
        return None
    pk, sequence, status, created_at, sheet_id, held, promised, waiting = row[:8]
    places, reserved, capacity, entries = row[8:]
    free = room_in(
        places=places,
        reserved=reserved,
        held=held,
        promised=promised,
        capacity=capacity,
        entries=entries,
    ).free
    # The row as the statement wrote it, built as a query's row is (`Model.from_db`: the
    # fields in their order, no keyword matching): the caller reads its token and status.
    written = {
        "id": pk,
        "sequence": sequence,
        "display_name": form.name,
        "email": email,
        "phone": phone,
        "email_key": form.email_key,
        "phone_key": form.phone_key,
        "consent_at": consent_at,
        "language": form.language,
        "status": status,
        "token": token,
        "nonce": nonce,
        "created_at": created_at,
        "sheet_id": sheet_id,
        "by_staff": False,
    }
    signup = SignUp.from_db(
        connection.alias, _SIGNUP_FIELDS, [written.get(name) for name in _SIGNUP_FIELDS]
    )
    broadcast_on_commit(
        tournament_group(tournament_id),
        "signups",
        {"moved": [], "waiting_count": waiting, "free": free, "open": True},
    )
    return signup


def signup_by_token(token: str) -> SignUp:
    signup = SignUp.objects.select_related("sheet__tournament").filter(token=token).first()
    if signup is None:
        raise NotFound(_("No such sign-up: check the link."))
    return signup


@transaction.atomic
def signup_cancel(
    *, signup: SignUp, actor: Actor, erase_contact: bool = False, by_staff: bool = False
) -> SignUp:
    """Cancel a sign-up (the player by the private link, or a director): a place it held goes
    to the first on the waiting list at once. `erase_contact` deletes its e-mail and phone."""
    tournament = signup.sheet.tournament
    sheet = _locked(tournament)
    signup = SignUp.objects.select_for_update().get(pk=signup.pk)
    if signup.status in (SignUpStatus.CANCELLED, SignUpStatus.NO_SHOW):
        raise FloorError(_("This sign-up is cancelled already."), code="cancelled")
    if signup.status == SignUpStatus.CHECKED_IN:
        raise FloorError(
            _("This player is checked in: the desk unregisters the entry instead."),
            code="checked_in",
        )
    was = signup.status
    signup.status = SignUpStatus.CANCELLED
    signup.ended_at = timezone.now()
    if erase_contact:
        signup.email, signup.phone, signup.consent_at = "", "", None
    signup.save()
    event_record(
        tournament=tournament,
        action="signup.cancel",
        actor=actor,
        payload={
            "signup": signup.pk,
            "sequence": signup.sequence,
            "was": was,
            "by_staff": by_staff,
            "contact_erased": erase_contact,
        },
    )
    _move_up(sheet, tournament, actor)
    return signup


@transaction.atomic
def signup_to_top(*, signup: SignUp, actor: Actor) -> SignUp:
    """A director moves a waiting sign-up to the top of the waiting list."""
    tournament = signup.sheet.tournament
    sheet = _locked(tournament)
    signup = SignUp.objects.select_for_update().get(pk=signup.pk)
    if signup.status != SignUpStatus.WAITING:
        raise FloorError(_("Only a sign-up on the waiting list can be moved up."))
    lowest = sheet.signups.filter(status=SignUpStatus.WAITING).aggregate(
        m=Min("rank"), s=Min("sequence")
    )
    top = min(v for v in (lowest["m"], lowest["s"]) if v is not None)
    signup.rank = top - 1
    signup.save(update_fields=["rank"])
    event_record(
        tournament=tournament,
        action="signup.move",
        actor=actor,
        payload={"signup": signup.pk, "sequence": signup.sequence},
    )
    _tell(sheet, tournament, moved=[])
    return signup


def _move_up(sheet: SignUpSheet, tournament: Tournament, actor: Actor) -> list[SignUp]:
    """Free places go to the waiting list in order (the sheet is locked by the caller)."""
    waiting = _recount(sheet)
    up = moving_up_in(waiting, _room(sheet).free)
    moved: list[SignUp] = []
    if up:
        now = timezone.now()
        sheet.signups.filter(sequence__in=up).update(status=SignUpStatus.CONFIRMED, moved_up_at=now)
        moved = list(sheet.signups.filter(sequence__in=up))
        event_record(
            tournament=tournament,
            action="signup.move_up",
            actor=actor,
            payload={"sequences": up},
        )
        _mail_moved(moved, tournament)
    _tell(sheet, tournament, moved=up)
    return moved


def _mail_moved(moved: list[SignUp], tournament: Tournament) -> None:
    """Tell the players who moved up by mail, where they left an address (after the commit;
    a mail server that fails does not undo the move)."""
    rows = [(s.email, s.token, s.display_name, s.language) for s in moved if s.email]
    if not rows:
        return

    def send() -> None:
        for email, token, name, language in rows:
            with translation.override(language or settings.LANGUAGE_CODE):
                _mail_one(email, token, name, tournament)

    transaction.on_commit(send)


def _mail_one(email: str, token: str, name: str, tournament: Tournament) -> None:
    """One move-up mail, in the language active (the player's)."""
    link = public_url(reverse("signup-status", args=[token]))
    send_mail(
        _("You have a place: %(t)s") % {"t": tournament.name},
        _(
            "Hello %(name)s,\n\na place became free and it is yours: %(t)s, %(when)s.\n"
            "Your sign-up: %(link)s\n\nIf you cannot come, cancel there so the next "
            "player gets the place."
        )
        % {
            "name": name,
            "t": tournament.name,
            "when": timezone.localtime(tournament.starts_at).strftime("%d.%m.%Y %H:%M"),
            "link": link,
        },
        None,
        [email],
        fail_silently=True,
    )


def _tell(
    sheet: SignUpSheet,
    tournament: Tournament,
    *,
    moved: list[int],
    counts: bool = False,
) -> None:
    """The sign-up pages are told the new state (numbers only, no names): who moved up, how
    many wait and the places left, and the waiting order unless `counts` says that the sheet's
    kept counts are right and only the list's end changed."""
    data: dict[str, Any] = {"moved": moved}
    if counts:
        data["waiting_count"] = sheet.waiting
    else:
        # Whatever changed the statuses, the sheet's counts are counted again here.
        waiting = _recount(sheet)
        data["waiting_count"], data["waiting"] = len(waiting), waiting
    data["free"] = _room(sheet).free
    data["open"] = sheet.is_open
    broadcast_on_commit(tournament_group(tournament.pk), "signups", data)


# --- The door -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckIn:
    """A sign-up at the door, checked under the tournament's and the sheet's locks."""

    tournament: Tournament
    sheet: SignUpSheet
    signup: SignUp


def signup_check_in_check(*, signup: SignUp, actor: Actor, director: bool = False) -> CheckIn:
    """Lock the tournament and the sheet, apply a check-in deadline that has passed, and refuse
    (FloorError) a sign-up without a place, one checked in already, and a barred person unless
    a director checks them in. The sign-ups' part of `actions.signups.signup_check_in`."""
    tournament = lock_tournament(signup.sheet.tournament_id, key=True)
    sheet = _locked(tournament)
    signup = (
        SignUp.objects.select_for_update(of=("self",)).select_related("player").get(pk=signup.pk)
    )
    _apply_deadline(sheet, tournament, actor)
    signup.refresh_from_db()
    if signup.status == SignUpStatus.CHECKED_IN:
        raise FloorError(_("%(n)s is checked in already.") % {"n": signup.display_name})
    if signup.status == SignUpStatus.WAITING:
        raise FloorError(
            _("%(n)s is on the waiting list: no place yet.") % {"n": signup.display_name},
            code="waiting",
        )
    if signup.status != SignUpStatus.CONFIRMED:
        raise FloorError(
            _("%(n)s's sign-up is %(s)s.")
            % {"n": signup.display_name, "s": SignUpStatus(signup.status).label},
        )
    player = signup.player
    if player is not None and player.barred and not director:
        raise FloorError(
            _("%(n)s is barred (%(why)s): a director checks them in.")
            % {"n": player.display_name, "why": player.barred_reason or _("no reason given")},
            code="barred",
        )
    return CheckIn(tournament=tournament, sheet=sheet, signup=signup)


def signup_checked_in(*, check_in: CheckIn, player: Player, entry: Entry, actor: Actor) -> SignUp:
    """The sign-up became `entry` of `player`: it is checked in, and the sign-up pages are
    told. Call in the transaction of `signup_check_in_check`."""
    signup, tournament = check_in.signup, check_in.tournament
    signup.status = SignUpStatus.CHECKED_IN
    signup.player = player
    signup.entry = entry
    signup.ended_at = timezone.now()
    signup.save()
    event_record(
        tournament=tournament,
        action="signup.check_in",
        actor=actor,
        payload={"signup": signup.pk, "sequence": signup.sequence, "entry": entry.pk},
    )
    _tell(check_in.sheet, tournament, moved=[])
    return signup


@transaction.atomic
def signup_link_person(*, signup: SignUp, player: Player, actor: Actor) -> SignUp:
    """A director confirms who is behind a sign-up (never guessed from a name)."""
    lock_tournament(signup.sheet.tournament_id, only=("id",))
    signup = SignUp.objects.select_for_update().get(pk=signup.pk)
    if signup.status == SignUpStatus.CHECKED_IN:
        raise FloorError(_("This player is checked in: the entry keeps its person."))
    other = (
        SignUp.objects.filter(sheet_id=signup.sheet_id, player=player, status__in=_PRESENT)
        .exclude(pk=signup.pk)
        .first()
    )
    if other is not None and signup.status in (SignUpStatus.CONFIRMED, SignUpStatus.WAITING):
        raise SignedUpAlready(other)
    signup.player = player
    signup.save(update_fields=["player"])
    event_record(
        tournament=signup.sheet.tournament,
        action="signup.person",
        actor=actor,
        payload={"signup": signup.pk, "player": player.pk},
    )
    return signup


def deadline_due(sheet: SignUpSheet | None) -> bool:
    """Whether `sheet`, as read, has a check-in deadline that has passed and is not applied."""
    if sheet is None or sheet.check_in_deadline is None or sheet.deadline_applied_at:
        return False
    return timezone.now() >= sheet.check_in_deadline


def deadline_check(tournament: Tournament, actor: Actor | None = None) -> int:
    """Apply a check-in deadline that has passed (the pages call this on their way): returns
    the number of no-shows it made."""
    if not deadline_due(SignUpSheet.objects.filter(tournament=tournament).first()):
        return 0
    with transaction.atomic():
        locked = _locked(tournament)
        return _apply_deadline(locked, tournament, actor or Actor.system("check-in deadline"))


def _apply_deadline(sheet: SignUpSheet, tournament: Tournament, actor: Actor) -> int:
    """At the deadline every confirmed sign-up not checked in is a no-show, and its place goes
    to the waiting list in order (the sheet is locked by the caller)."""
    deadline = sheet.check_in_deadline
    if deadline is None or sheet.deadline_applied_at or timezone.now() < deadline:
        return 0
    missing = list(
        sheet.signups.filter(status=SignUpStatus.CONFIRMED)
        .order_by("sequence")
        .values_list("sequence", flat=True)
    )
    now = timezone.now()
    if missing:
        sheet.signups.filter(sequence__in=missing).update(status=SignUpStatus.NO_SHOW, ended_at=now)
    sheet.deadline_applied_at = now
    sheet.save(update_fields=["deadline_applied_at"])
    event_record(
        tournament=tournament,
        action="signup.deadline",
        actor=actor,
        payload={"no_shows": missing},
    )
    _move_up(sheet, tournament, actor)
    return len(missing)


def seat_freed(tournament_id: int, actor: Actor) -> None:
    """An entry left the field (unregistered or voided at the desk: actions/registration.py,
    actions/corrections.py, in the caller's transaction with the tournament locked): its seat
    goes to the waiting list."""
    sheet = SignUpSheet.objects.filter(tournament_id=tournament_id, waiting__gt=0).first()
    if sheet is None:
        return
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        _move_up(_locked(tournament), tournament, actor)


def walk_in_check(tournament: Tournament) -> None:
    """A registration at the desk that is not a check-in (the desk's page, the API: any path
    through `actions.registration.entry_register`, which holds the tournament's lock): refused
    while every seat is
    taken or promised to a sign-up and a sign-up still holds a place or waits for one (before
    the check-in deadline). `tournament` is the locked row (its players left are current)."""
    sheet = SignUpSheet.objects.filter(tournament_id=tournament.pk).first()
    if sheet is None:
        return
    room = room_of(sheet, capacity=tournament.capacity, entries=tournament.players_left)
    deadline = sheet.check_in_deadline
    past = sheet.deadline_applied_at is not None or (
        deadline is not None and timezone.now() >= deadline
    )
    if walk_in_refused(room, waiting=0 if past else sheet.waiting):
        raise FloorError(
            _(
                "All %(seats)s places are taken or held for sign-ups (%(promised)s not checked "
                "in yet, %(waiting)s on the waiting list): nothing was registered. A walk-in can "
                "join the waiting list."
            )
            % {"seats": room.seats, "promised": room.promised, "waiting": sheet.waiting},
            code="held_for_signups",
        )


def status_payload(signup: SignUp) -> dict[str, Any]:
    """A sign-up's state for its private page (no other player's data)."""
    sheet = signup.sheet
    _held, _promised, waiting = _state(sheet)
    positions = {seq: i + 1 for i, seq in enumerate(waiting)}
    return {
        "sequence": signup.sequence,
        "status": signup.status,
        "position": positions.get(signup.sequence),
        "waiting": len(positions),
    }
