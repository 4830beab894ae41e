"""Tables and seats. One player per seat and one seat per player are database constraints."""

from __future__ import annotations

import secrets

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from tables.domain.button import Blinds
from tournament.models import DatabaseCounted, Entry, Tournament


def new_dealer_token() -> str:
    return secrets.token_urlsafe(24)


def blinds_of(button: int | None, small_blind: int | None, big_blind: int | None) -> Blinds | None:
    """The stored positions as the button rules see them (None until the button is set)."""
    if button is None or big_blind is None:
        return None
    return Blinds(button=button, small_blind=small_blind or button, big_blind=big_blind)


class Table(DatabaseCounted):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("table number"))
    seats = models.PositiveSmallIntegerField(
        _("seats"), default=9, validators=[MinValueValidator(2), MaxValueValidator(10)]
    )
    area = models.CharField(_("area / room"), max_length=60, blank=True)
    is_open = models.BooleanField(_("open"), default=True)
    opening_order = models.PositiveIntegerField(_("opening order"), default=0)
    # Positions of the hand in progress (dead-button rules: button and small blind may point
    # at empty seats). Null until the floor sets the button.
    button_seat = models.PositiveSmallIntegerField(_("button seat"), null=True, blank=True)
    small_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    big_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # Positions of the hand played before the current one: the current hand's positions are
    # worked out again from them when the players dealt into it turn out different (a reported
    # bust dismissed after "hand done").
    previous_button_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    previous_small_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    previous_big_blind_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    hand_number = models.PositiveIntegerField(_("hands played"), default=0)
    # Clock level (0-based index) in force when the current hand was dealt (tda-de 23: a new
    # level starts with the next hand).
    hand_level = models.IntegerField(default=-1)
    # Hand-for-hand: the number of the hand-for-hand round this table has finished.
    h4h_done_round = models.PositiveIntegerField(default=0)
    accessible_seats = models.JSONField(
        _("seats kept for players with special needs"), default=list, blank=True
    )
    dealer_token = models.CharField(max_length=64, unique=True, default=new_dealer_token)
    closed_at = models.DateTimeField(null=True, blank=True)
    # Players seated here, kept by the database on every seat change (tournament/counters.py):
    # balancing reads the room's head counts from the tables alone.
    players = models.PositiveSmallIntegerField(default=0, editable=False)

    counters = ("players",)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        indexes = [
            # Balancing reads the fullest and the emptiest open tables (tables/selectors.py).
            models.Index(
                fields=["tournament", "players", "number"],
                condition=models.Q(is_open=True),
                name="open_tables_emptiest",
            ),
            models.Index(
                fields=["tournament", "-players", "number"],
                condition=models.Q(is_open=True),
                name="open_tables_fullest",
            ),
            # How many tables are open, and the lowest and highest open number (table breaks).
            models.Index(
                fields=["tournament", "number"],
                condition=models.Q(is_open=True),
                name="open_tables_by_number",
            ),
        ]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="unique_table_number"),
            models.CheckConstraint(
                condition=models.Q(seats__gte=2) & models.Q(seats__lte=10),
                name="table_seats_2_to_10",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {self.number}"

    def blinds(self) -> Blinds | None:
        return blinds_of(self.button_seat, self.small_blind_seat, self.big_blind_seat)

    def set_blinds(self, blinds: Blinds | None) -> None:
        self.button_seat = blinds.button if blinds else None
        self.small_blind_seat = blinds.small_blind if blinds else None
        self.big_blind_seat = blinds.big_blind if blinds else None


class SeatAssignment(models.Model):
    # Declared foreign keys, checked at commit (DEFERRABLE INITIALLY DEFERRED on PostgreSQL and
    # SQLite); Django's deletion collector deletes a deleted entry's or table's seat first.
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="seat")
    # No index of its own: the unique (table, seat) index serves lookups by table.
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="assignments", db_index=False
    )
    seat = models.PositiveSmallIntegerField(
        _("seat"), validators=[MinValueValidator(1), MaxValueValidator(10)]
    )
    # tda-de 7: seated between the small blind and the button, the player waits for the button.
    must_wait = models.BooleanField(default=False)
    stack = models.PositiveIntegerField(null=True, blank=True)
    seated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["table", "seat"]
        verbose_name = _("seat assignment")
        verbose_name_plural = _("seat assignments")
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="one_player_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} @ {self.table.number}/{self.seat}"


class KeepApart(models.Model):
    """Two entries who must not sit at the same table (bdpv seating rule 4)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="keep_apart")
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")

    class Meta:
        verbose_name = _("keep-apart pair")
        verbose_name_plural = _("keep-apart pairs")


class ReportKind(models.TextChoices):
    BUST = "bust", _("Bust")
    FLOOR = "floor", _("Floor call")
    # An action a tablet sent after a Wi-Fi drop that no longer fits what the floor did
    # meanwhile (docs/seating.md, "Through a Wi-Fi drop"): the floor reads the reason.
    CONFLICT = "conflict", _("Not applied")


class TableReport(models.Model):
    """What a dealer sends to the floor: a bust to confirm, or a call for the floor."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="reports")
    kind = models.CharField(max_length=10, choices=ReportKind.choices)
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, null=True, blank=True)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    stack_at_hand_start = models.PositiveIntegerField(null=True, blank=True)
    hand_number = models.PositiveIntegerField(default=0)
    # The button of the hand the report is about, and the hand-for-hand round (if any): the
    # ranking of simultaneous busts reads them (bdpv 6.28).
    button_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    h4h_round = models.PositiveIntegerField(null=True, blank=True)
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution = models.CharField(max_length=20, blank=True)  # confirmed | dismissed | done

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("table report")
        verbose_name_plural = _("table reports")


class TimeCall(models.Model):
    """A clock called on a player at a table (tda-de 29, bdpv No-Limit 12)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="time_calls")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    started_at = models.DateTimeField()
    seconds = models.PositiveSmallIntegerField()
    countdown = models.PositiveSmallIntegerField()
    cancelled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at"]


class ShotClock(models.Model):
    """The shot clock of a table (tables/domain/shotclock.py): idle while `started_at` is
    empty. `seconds` is the running decision's time with its time-bank cards; `version` grows
    with every change, so a tap made on an older view is recognised (a double tap)."""

    table = models.OneToOneField(Table, on_delete=models.CASCADE, related_name="shot_clock")
    started_at = models.DateTimeField(null=True, blank=True)
    seconds = models.PositiveSmallIntegerField(default=0)
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    cards_used = models.PositiveSmallIntegerField(default=0)
    version = models.PositiveIntegerField(default=0)

    class Meta:
        verbose_name = _("shot clock")
        verbose_name_plural = _("shot clocks")


class TimeBank(models.Model):
    """The time-bank cards an entry has used since they last came back (a new day, the final
    table). No row: none used."""

    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="time_bank")
    used = models.PositiveSmallIntegerField(default=0)

    class Meta:
        verbose_name = _("time bank")
        verbose_name_plural = _("time banks")


class TabletKey(models.Model):
    """The one-time key a dealer tablet sent an action with, and the first answer to it
    (tables/services/tablet_keys.py). Written in the transaction of the action itself: the
    same key sent again (a tablet sending its queue after a Wi-Fi drop, a request whose answer
    was lost) gets the first answer, without a second effect. Kept two days."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="tablet_keys")
    key = models.CharField(max_length=100)
    action = models.CharField(max_length=20)
    # A digest of what was asked: the same key with another request is refused.
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()  # the first answer's HTTP status
    message = models.CharField(max_length=300, blank=True)
    code = models.CharField(max_length=30, blank=True)
    # The refusal was reported to the floor (a report of kind "conflict").
    reported = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("tablet action key")
        verbose_name_plural = _("tablet action keys")
        constraints = [models.UniqueConstraint(fields=["table", "key"], name="unique_tablet_key")]
