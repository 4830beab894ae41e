"""Sign-ups before the night (docs/signups.md): a tournament's sign-up sheet (open or not, how
many places, how many held back, the check-in deadline) and the sign-ups on it, each with its
arrival number, its status and a private link (an unguessable token) to see it and cancel."""

from __future__ import annotations

import secrets

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models import Entry, Player, Tournament


def new_token() -> str:
    return secrets.token_urlsafe(24)


class SignUpSheet(models.Model):
    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="signup_sheet"
    )
    is_open = models.BooleanField(_("sign-ups open"), default=False)
    places = models.PositiveIntegerField(
        _("places"),
        null=True,
        blank=True,
        help_text=_("Blank: the tournament's capacity."),
    )
    reserved = models.PositiveIntegerField(
        _("places held back (staff, invited players)"), default=0
    )
    check_in_deadline = models.DateTimeField(_("check-in deadline"), null=True, blank=True)
    deadline_applied_at = models.DateTimeField(null=True, blank=True, editable=False)
    # The last arrival number given (under the sheet's row lock).
    sequence = models.PositiveIntegerField(default=0, editable=False)
    # Places held (confirmed or checked in) and sign-ups waiting, kept on the row that is locked
    # anyway: a new sign-up reads and counts them in the statement that takes its number, so the
    # count costs the same on a sheet of 30,000 as of 30. Every other change of a status counts
    # them again from the sign-ups under the same lock (signups/services.py `_tell`).
    held = models.PositiveIntegerField(default=0, editable=False)
    # Of those, the places promised: sign-ups with a place not checked in yet (a checked-in one
    # is an entry, counted in the tournament's players left).
    promised = models.PositiveIntegerField(default=0, editable=False)
    waiting = models.PositiveIntegerField(default=0, editable=False)
    # Whether the last arrival got a place: the statement that takes a number sets it from the
    # counts before its change and reads it back (RETURNING shows only the row after it).
    last_placed = models.BooleanField(default=False, editable=False)

    class Meta:
        verbose_name = _("sign-up sheet")

    def __str__(self) -> str:
        return f"{self.tournament_id}"


class SignUpStatus(models.TextChoices):
    CONFIRMED = "confirmed", _("Has a place")
    WAITING = "waiting", _("Waiting list")
    CANCELLED = "cancelled", _("Cancelled")
    CHECKED_IN = "checked_in", _("Checked in")
    NO_SHOW = "no_show", _("No-show")


# The statuses of a sign-up on the list: holding a place or waiting for one.
ON_THE_LIST = (SignUpStatus.CONFIRMED.value, SignUpStatus.WAITING.value)
# ... or checked in: a person's contact data tells them apart on the sheet in all three.
ON_THE_SHEET = (*ON_THE_LIST, SignUpStatus.CHECKED_IN.value)


class SignUp(models.Model):
    # Every index is written by each sign-up while the sheet's lock is held (signups/services.py):
    # none of its own for the sheet (the arrival number's unique index starts with it) or the
    # person (a partial one below: a player's sign-up has no person record), and the token's
    # unique constraint without the pattern index Django adds to a unique text field.
    sheet = models.ForeignKey(
        SignUpSheet, on_delete=models.CASCADE, related_name="signups", db_index=False
    )
    sequence = models.PositiveIntegerField(_("arrival"))
    # The waiting order when a director moved the sign-up to the top (else the arrival).
    rank = models.IntegerField(null=True, blank=True)
    display_name = models.CharField(_("name"), max_length=60)
    # Contact data, optional, given with consent; directors only; erased on request.
    email = models.EmailField(_("e-mail"), blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    # The e-mail and phone as they tell a person apart (signups/domain/places.py `email_key`,
    # `phone_key`): one person holds one sign-up of a sheet.
    email_key = models.CharField(max_length=254, blank=True, editable=False)
    phone_key = models.CharField(max_length=40, blank=True, editable=False)
    consent_at = models.DateTimeField(null=True, blank=True)
    # The language the player signed up in: a mail to them is written in it.
    language = models.CharField(max_length=10, blank=True)
    status = models.CharField(
        _("status"), max_length=12, choices=SignUpStatus.choices, default=SignUpStatus.WAITING
    )
    token = models.CharField(max_length=40, default=new_token)  # unique: Meta.constraints
    # A form sent twice (double tap, retry) carries the same nonce: one sign-up.
    nonce = models.CharField(max_length=40, blank=True)
    player = models.ForeignKey(
        Player,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="signups",
        db_index=False,
    )
    entry = models.OneToOneField(
        Entry, on_delete=models.SET_NULL, null=True, blank=True, related_name="signup"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    moved_up_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)  # cancelled, checked in or no-show
    by_staff = models.BooleanField(default=False)

    class Meta:
        ordering = ["sheet", "sequence"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "sequence"], name="signup_arrival_unique"),
            models.UniqueConstraint(fields=["token"], name="signup_token_unique"),
            models.UniqueConstraint(
                fields=["sheet", "nonce"], condition=~Q(nonce=""), name="signup_nonce_unique"
            ),
            # One sign-up on the list per person (docs/signups.md, "the same person"): the
            # services refuse a second one under the lock; these are the last word.
            models.UniqueConstraint(
                fields=["sheet", "player"],
                condition=Q(player__isnull=False, status__in=ON_THE_LIST),
                name="signup_one_per_person",
            ),
            models.UniqueConstraint(
                fields=["sheet", "email_key"],
                condition=~Q(email_key="") & Q(status__in=ON_THE_SHEET),
                name="signup_one_per_email",
            ),
            models.UniqueConstraint(
                fields=["sheet", "phone_key"],
                condition=~Q(phone_key="") & Q(status__in=ON_THE_SHEET),
                name="signup_one_per_phone",
            ),
        ]
        indexes = [
            models.Index(fields=["sheet", "status", "sequence"], name="signup_by_status"),
            models.Index(
                fields=["player"], condition=Q(player__isnull=False), name="signup_by_person"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sequence} {self.display_name}"
