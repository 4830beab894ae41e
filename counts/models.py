"""Chip counts: what the floor or a dealer counted in front of a player, append-only.

A correction is a new count (the latest wins) with its own event. A bag count at the end of a
day (issue #20 part 2) is the same row with a bag number, confirmed by a second person
(`verified_by`, `verified_at`)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournament.models import Entry, Tournament


class CountSource(models.TextChoices):
    FLOOR = "floor", _("Floor")
    DEALER = "dealer", _("Dealer")


class ChipCount(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chip_counts")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="chip_counts")
    count = models.PositiveBigIntegerField(_("chips"))
    recorded_at = models.DateTimeField(_("counted at"), default=timezone.now)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    recorded_by_label = models.CharField(max_length=120, blank=True)
    source = models.CharField(
        _("counted by"), max_length=10, choices=CountSource.choices, default=CountSource.FLOOR
    )
    # Where the player sat when counted (numbers, not keys: tables close and seats change).
    table_number = models.PositiveIntegerField(_("table"), null=True, blank=True)
    seat = models.PositiveSmallIntegerField(_("seat"), null=True, blank=True)
    # Bag and tag (later): the bag's number and the second person who confirmed the count.
    bag_number = models.CharField(_("bag number"), max_length=20, blank=True)
    verified_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "entry", "-id"]
        verbose_name = _("chip count")
        verbose_name_plural = _("chip counts")
        indexes = [
            # The latest count per player: DISTINCT ON (entry) ... ORDER BY entry, id DESC.
            models.Index(fields=["tournament", "entry", "-id"], name="chipcount_latest"),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id}: {self.count}"
