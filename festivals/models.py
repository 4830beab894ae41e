"""An event with starting flights (docs/festivals.md): several flights (Day 1A, 1B, ...), each
run as a tournament of its own, whose survivors bag their chips and meet in one Day 2.

Each flight is a `Tournament` whose buy-ins go to the Day 2's prize pool (`pool_to`); the Day 2
is a `Tournament` that gathers them (`pooled`) and pays the places of the whole event. A bag and
tag (`Bagging`) is the end of one day of one tournament: the bag counts are the chip counts
with a bag number recorded after it opened (counts/models.py); it closes when a director
confirms the day. The Day-2 draw carries the closed flights' bags onto the Day 2's seats."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament


class Advance(models.TextChoices):
    ALL = "all", _("Every bag advances (one flight per survivor)")
    BEST = "best", _("Best stack forward (the biggest bag advances)")


class FlightEvent(models.Model):
    name = models.CharField(_("name"), max_length=120)
    day2 = models.OneToOneField(
        Tournament, on_delete=models.PROTECT, related_name="flight_event", verbose_name=_("Day 2")
    )
    advance = models.CharField(
        _("who advances"), max_length=10, choices=Advance.choices, default=Advance.ALL
    )
    reentry_across_flights = models.BooleanField(
        _("a player out in one flight may enter another"), default=True
    )
    flight_cap = models.PositiveIntegerField(
        _("players per flight at most"), null=True, blank=True, validators=[MinValueValidator(2)]
    )
    # How far the bags may be from the chips in play before a recount (basis points).
    tolerance_bp = models.PositiveIntegerField(
        _("count tolerance (hundredths of a percent of the chips in play)"),
        default=50,
        validators=[MaxValueValidator(1000)],
    )
    drawn_at = models.DateTimeField(_("Day 2 drawn at"), null=True, blank=True)
    seeded = models.BooleanField(_("seeded Day-2 draw"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("event with starting flights")
        verbose_name_plural = _("events with starting flights")

    def __str__(self) -> str:
        return self.name


class Flight(models.Model):
    event = models.ForeignKey(FlightEvent, on_delete=models.CASCADE, related_name="flights")
    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="flight")
    label = models.CharField(_("flight"), max_length=20)
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["event", "position"]
        constraints = [
            models.UniqueConstraint(fields=["event", "position"], name="flight_position_unique"),
            models.UniqueConstraint(fields=["event", "label"], name="flight_label_unique"),
        ]

    def __str__(self) -> str:
        return self.label


class Bagging(models.Model):
    """The end of one day of one tournament: every player left bags and tags their chips."""

    event = models.ForeignKey(FlightEvent, on_delete=models.CASCADE, related_name="baggings")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="baggings")
    day = models.CharField(_("day"), max_length=20)
    # Bag counts are this tournament's chip counts with a bag number and an id above this one.
    after_count = models.PositiveBigIntegerField(default=0)
    opened_at = models.DateTimeField(auto_now_add=True)
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The director closed the day with plausibility flags standing (and said so).
    closed_with_flags = models.BooleanField(default=False)
    # Players and chips when the day closed (the report's header, kept as it was).
    survivors = models.PositiveIntegerField(default=0)
    chips = models.PositiveBigIntegerField(default=0)

    class Meta:
        ordering = ["event", "opened_at", "id"]
        constraints = [
            # One open bag and tag per tournament at a time.
            models.UniqueConstraint(
                fields=["tournament"],
                condition=models.Q(closed_at__isnull=True),
                name="bagging_one_open",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} {self.day}"


class Carried(models.Model):
    """A closed flight's bag and what became of it in the Day 2: the Day-2 entry it was carried
    into (its chips a carried purchase, its count a confirmed chip count), or forfeited (`entry`
    empty: best stack forward kept a bigger bag of the same player).

    Closing a flight's day carries its bags and reopening it takes them back out, so until the
    draw the Day 2's entries are exactly the closed flights' advancing bags (festivals/services.py,
    `_carry`); the Day-2 draw then only seats them."""

    event = models.ForeignKey(FlightEvent, on_delete=models.CASCADE, related_name="carried")
    flight = models.ForeignKey(Flight, on_delete=models.CASCADE, related_name="carried")
    # The survivor's entry in its flight, and the Day-2 entry its bag became.
    bag_entry = models.OneToOneField(
        "tournament.Entry", on_delete=models.CASCADE, related_name="carried_to"
    )
    entry = models.OneToOneField(
        "tournament.Entry",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="carried_from",
    )
    chips = models.PositiveBigIntegerField()
    bag = models.CharField(max_length=20)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.bag_entry_id} -> {self.entry_id}"
