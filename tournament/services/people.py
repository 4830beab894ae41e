"""One record per person (docs/players.md): edit a person's record, merge two records of one
person (directors), and the club's settings.

Each write checks everything first and changes nothing when it refuses (FloorError). The
event log records which fields changed and the ids involved, never a name or contact data.
Who may change what is the caller's business: floor accounts edit names, the membership
number and the accessible seat; directors also the year of birth and the contact data
(e-mail, phone, notes), as everywhere (tournament/services/privacy.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import Conflict, FloorError
from tournament.domain.countries import country_clean
from tournament.domain.people import (
    MERGED_FIELDS,
    RecordProblem,
    birth_year_problem,
    birth_year_range,
    membership_clean,
    merged_record,
    shared_tournaments,
)
from tournament.events import Actor, event_record
from tournament.live import notify_board
from tournament.locks import lock_tournament
from tournament.models import Club, Player, Status, Tournament
from tournament.services.registration import _default_display_name

PLAYER_UPDATE = "player.update"
PLAYER_MERGE = "player.merge"
CLUB_UPDATE = "club.update"

# What floor accounts may change, and what directors may change as well.
FLOOR_FIELDS = ("name", "display_name", "membership_number", "country", "needs_accessible_seat")
DIRECTOR_FIELDS = ("birth_year", "email", "phone", "notes")
EDITABLE = FLOOR_FIELDS + DIRECTOR_FIELDS
NOTES_MAX = 2000


def birth_year_error(year: int | None) -> str | None:
    """The refusal of an implausible year of birth, in the reader's language (or None)."""
    this_year = timezone.localdate().year
    if birth_year_problem(year, this_year=this_year) is None:
        return None
    earliest, latest = birth_year_range(this_year)
    return _("Enter a year of birth between %(earliest)s and %(latest)s.") % {
        "earliest": earliest,
        "latest": latest,
    }


def membership_error(problem: RecordProblem) -> str:
    if problem is RecordProblem.MEMBERSHIP_TOO_LONG:
        return _("A membership number has at most 40 characters.")
    return _("A membership number holds letters, digits and spaces, no control characters.")


def membership_holder(number: str, *, besides: int | None = None) -> Player | None:
    """The record that holds membership number `number` already (other than `besides`)."""
    if not number:
        return None
    holders = Player.objects.filter(membership_number=number)
    if besides is not None:
        holders = holders.exclude(pk=besides)
    return holders.first()


def membership_taken_error(holder: Player, number: str) -> str:
    return _("Membership number %(number)s belongs to %(name)s (#%(id)s) already.") % {
        "number": number,
        "name": holder.name,
        "id": holder.pk,
    }


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _clean(player: Player, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The new values of the fields in `changes`, checked; FloorError on the first bad one."""
    unknown = set(changes) - set(EDITABLE)
    if unknown:
        raise FloorError(
            _("These fields cannot be changed here: %(f)s") % {"f": ", ".join(unknown)}
        )
    clean: dict[str, Any] = {}
    if "name" in changes:
        name = " ".join(_text(changes["name"]).split())
        if len(name) < 2:
            raise FloorError(_("Enter the player's name."), field="name")
        if len(name) > 120:
            raise FloorError(_("A name has at most 120 characters."), field="name")
        clean["name"] = name
    if "display_name" in changes or "name" in clean:
        display = " ".join(_text(changes.get("display_name", player.display_name)).split())
        if not display or (
            "display_name" not in changes
            and player.display_name == _default_display_name(player.name)
        ):
            # Empty, or made from the old name and not given: made from the (new) name.
            display = _default_display_name(clean.get("name", player.name))
        if len(display) > 60:
            raise FloorError(_("A display name has at most 60 characters."), field="display_name")
        clean["display_name"] = display
    if "membership_number" in changes:
        try:
            number = membership_clean(_text(changes["membership_number"]))
        except ValueError as exc:
            raise FloorError(membership_error(exc.args[0]), field="membership_number") from exc
        holder = membership_holder(number, besides=player.pk)
        if holder is not None:
            raise FloorError(membership_taken_error(holder, number), field="membership_number")
        clean["membership_number"] = number
    if "birth_year" in changes:
        year = changes["birth_year"]
        if year in ("", None):
            year = None
        elif not isinstance(year, int) or isinstance(year, bool):
            raise FloorError(birth_year_error(0) or "", field="birth_year")
        error = birth_year_error(year)
        if error:
            raise FloorError(error, field="birth_year")
        clean["birth_year"] = year
    if "email" in changes:
        email = _text(changes["email"]).strip()
        if email:
            try:
                validate_email(email)
            except ValidationError as exc:
                raise FloorError(_("Enter a valid e-mail address."), field="email") from exc
        clean["email"] = email
    if "phone" in changes:
        phone = " ".join(_text(changes["phone"]).split())
        if len(phone) > 40 or any(not c.isprintable() for c in phone):
            raise FloorError(_("Enter a phone number of at most 40 characters."), field="phone")
        clean["phone"] = phone
    if "notes" in changes:
        notes = _text(changes["notes"]).strip().replace("\x00", "")
        if len(notes) > NOTES_MAX:
            raise FloorError(_("Notes have at most 2000 characters."), field="notes")
        clean["notes"] = notes
    if "country" in changes:
        try:
            clean["country"] = country_clean(_text(changes["country"]))
        except ValueError as exc:
            raise FloorError(
                _("Enter a country as its two-letter code (DE) or its name."), field="country"
            ) from exc
    if "needs_accessible_seat" in changes:
        clean["needs_accessible_seat"] = bool(changes["needs_accessible_seat"])
    return clean


def _save(player: Player, fields: list[str]) -> None:
    """Save; a membership number another record took meanwhile refuses (nothing saved)."""
    try:
        with transaction.atomic():
            player.save(update_fields=[*fields, "search_key"])
    except IntegrityError as exc:
        holder = membership_holder(player.membership_number, besides=player.pk)
        if holder is None:
            raise
        raise Conflict(
            membership_taken_error(holder, player.membership_number), field="membership_number"
        ) from exc


def _tell_boards(player: Player) -> None:
    """The names changed: tournaments not finished that show this person get the new board."""
    ids = (
        Tournament.objects.filter(entries__player=player)
        .exclude(status=Status.FINISHED)
        .values_list("pk", flat=True)
        .distinct()
    )
    for tournament_id in ids:
        notify_board(tournament_id, "entries")


@transaction.atomic
def player_update(*, player: Player, changes: Mapping[str, Any], actor: Actor) -> list[str]:
    """Change the fields in `changes` (names from EDITABLE) of a person's record. Returns the
    names of the fields whose value changed (empty: nothing to save, nothing logged). The
    event `player.update` names the changed fields only."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    clean = _clean(player, changes)
    changed = [f for f in EDITABLE if f in clean and getattr(player, f) != clean[f]]
    if not changed:
        return []
    for field in changed:
        setattr(player, field, clean[field])
    _save(player, changed)
    event_record(
        tournament=None,
        action=PLAYER_UPDATE,
        actor=actor,
        payload={"player": player.pk, "changed": changed},
    )
    if "name" in changed or "display_name" in changed:
        _tell_boards(player)
    return changed


# --- Merge --------------------------------------------------------------------------------


@dataclass(frozen=True)
class MergeResult:
    kept: Player
    merged_id: int
    entries_moved: int
    filled: list[str]  # fields of the kept record that took the other's value


def _tournament_names(ids: set[int]) -> str:
    """The first five of these tournaments by start, with their dates, for a refusal."""
    return ", ".join(
        f"{t.name} ({timezone.localtime(t.starts_at):%d.%m.%Y})"
        for t in Tournament.objects.filter(pk__in=ids).order_by("starts_at")[:5]
    )


def merge_refusal(kept: Player, other: Player) -> str | None:
    """Why these two records cannot be merged, in words (None: they can)."""
    if kept.pk == other.pk:
        return _("A record cannot be merged with itself: pick two different people.")
    mine = kept.entries.values_list("tournament_id", flat=True)
    theirs = other.entries.values_list("tournament_id", flat=True)
    both = shared_tournaments(mine, theirs)
    if both:
        return _(
            "Both records have an entry in the same tournament (%(tournaments)s): one person "
            "cannot have two results there. Correct the entry first (give it to the right "
            "person), then merge."
        ) % {"tournaments": _tournament_names(both)}

    # A sign-up still open (a place or a turn on the waiting list: not yet ended by a check-in,
    # a cancellation or a no-show) on one sheet for both: one person holds one place.
    def signed_up(person: Player) -> Any:
        return person.signups.filter(ended_at__isnull=True).values_list(
            "sheet__tournament_id", flat=True
        )

    both = shared_tournaments(signed_up(kept), signed_up(other))
    if both:
        return _(
            "Both records are signed up for the same tournament (%(tournaments)s): one person "
            "holds one place. Cancel one of the sign-ups first, then merge."
        ) % {"tournaments": _tournament_names(both)}
    return None


@transaction.atomic
def player_merge(*, kept: Player, other: Player, actor: Actor) -> MergeResult:
    """Merge `other` into `kept` (directors): the other's entries move to the kept record, the
    kept record's empty fields take the other's values (tournament/domain/people.py
    merged_record), and the other record is deleted. Refused, with nothing changed, for the
    same record twice or when both have an entry in one tournament. League standings follow
    (they group entries by player), and so does every other row that points at a person
    (`_repoint`): a sign-up or a TD3 id of the other record is the kept one's. Event `player.merge`: ids and entry counts only."""
    first, second = sorted((kept.pk, other.pk))
    # The tournaments whose entries or sign-ups change, locked first and in one order, as every
    # action on a tournament (tournament/locks.py): a correction or a check-in holds its
    # tournament and then needs the person's row.
    tournaments = _tournaments_of(first, second)
    for tournament_id in tournaments:
        lock_tournament(tournament_id, only=("id",))
    locked = {p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[first, second])}
    if kept.pk not in locked or other.pk not in locked:
        raise Conflict(_("One of the two records has been deleted or merged meanwhile."))
    # With the people locked, nothing new can name them: read again, and if a tournament came
    # in between (an entry or a sign-up given to one of them), ask for the merge again.
    if set(_tournaments_of(first, second)) - set(tournaments):
        raise Conflict(_("One of the two records changed meanwhile: merge again."))
    kept, other = locked[kept.pk], locked[other.pk]
    refusal = merge_refusal(kept, other)
    if refusal:
        raise FloorError(refusal)
    values = merged_record(
        {f: getattr(kept, f) for f in MERGED_FIELDS}, {f: getattr(other, f) for f in MERGED_FIELDS}
    )
    filled = [f for f in MERGED_FIELDS if values[f] != getattr(kept, f)]
    kept_entries = kept.entries.count()
    moved = other.entries.update(player=kept)
    _repoint(kept, other)  # (deleting the record would unlink or delete them)
    merged_id = other.pk
    live = (
        Tournament.objects.filter(entries__player=kept)
        .exclude(status=Status.FINISHED)
        .values_list("pk", flat=True)
        .distinct()
    )
    other.delete()
    for field in filled:
        setattr(kept, field, values[field])
    if filled:
        _save(kept, filled)
    event_record(
        tournament=None,
        action=PLAYER_MERGE,
        actor=actor,
        payload={
            "kept": kept.pk,
            "merged": merged_id,
            "entries_moved": moved,
            "entries_kept": kept_entries,
            "filled": filled,
        },
    )
    for tournament_id in live:
        notify_board(tournament_id, "entries")
    return MergeResult(kept=kept, merged_id=merged_id, entries_moved=moved, filled=filled)


def _repoint(kept: Player, other: Player) -> None:
    """Every row of any app that points at `other` points at `kept` instead: sign-ups, the ids
    of other programs (imports.ExternalId: the next TD3 file finds the kept person), whatever
    an app adds later. Read from the model's relations, so this app imports none of them. A
    one-to-one row moves only when the kept person has none (else it goes with the record)."""
    for relation in Player._meta.related_objects:
        if relation.many_to_many:
            manager = getattr(kept, relation.get_accessor_name() or "")
            manager.add(*getattr(other, relation.get_accessor_name() or "").all())
            continue
        model = relation.related_model
        assert not isinstance(model, str)  # resolved once the apps are loaded
        rows = model._base_manager.filter(**{relation.field.name: other})
        if (
            relation.one_to_one
            and model._base_manager.filter(**{relation.field.name: kept}).exists()
        ):
            continue
        rows.update(**{relation.field.name: kept})


def _tournaments_of(*player_ids: int) -> list[int]:
    """The tournaments with an entry or a sign-up of these people, in id order."""
    with_entries = Tournament.objects.filter(entries__player_id__in=player_ids)
    with_signups = Tournament.objects.filter(signup_sheet__signups__player_id__in=player_ids)
    ids = {*with_entries.values_list("pk", flat=True), *with_signups.values_list("pk", flat=True)}
    return sorted(ids)


# --- The club -----------------------------------------------------------------------------


@transaction.atomic
def club_update(*, name: str, public_profiles: bool, actor: Actor) -> Club:
    """Set the club's name and whether players' public profiles are shown (directors)."""
    club = Club.current()
    club = Club.objects.select_for_update().get(pk=club.pk)
    name = " ".join(_text(name).split())
    if len(name) > 120:
        raise FloorError(_("A name has at most 120 characters."), field="name")
    changed = []
    if club.name != name:
        changed.append("name")
    if club.public_profiles != bool(public_profiles):
        changed.append("public_profiles")
    if not changed:
        return club
    club.name, club.public_profiles = name, bool(public_profiles)
    club.save(update_fields=changed)
    event_record(
        tournament=None,
        action=CLUB_UPDATE,
        actor=actor,
        payload={"changed": changed, "public_profiles": club.public_profiles},
    )
    return club
