"""A screen in the room: paired once with a code, then shown what the console assigns."""

from __future__ import annotations

import hashlib

from django.db import models
from django.utils.translation import gettext_lazy as _


def token_hash(token: str) -> str:
    """The stored form of a screen's token (the screen keeps the token in a cookie)."""
    return hashlib.sha256(token.encode()).hexdigest()


class Display(models.Model):
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    code = models.CharField(_("pairing code"), max_length=12, blank=True, db_index=True)
    name = models.CharField(_("name"), max_length=60, blank=True)
    steps = models.JSONField(_("what it shows"), default=list, blank=True)
    version = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    paired_at = models.DateTimeField(null=True, blank=True)
    seen_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["name", "pk"]
        verbose_name = _("display")
        verbose_name_plural = _("displays")

    def __str__(self) -> str:
        return self.name or self.code or f"#{self.pk}"

    @property
    def paired(self) -> bool:
        return self.paired_at is not None


class ClockLayout(models.Model):
    """How the big-screen clock of a tournament looks (or, with `club`, the venue's default):
    the arrangement, the figures in order, two colours, a logo. Checked by
    displays/domain/layouts.py before it is saved; the tournament's layout wins over the
    venue's."""

    tournament = models.OneToOneField(
        "tournament.Tournament",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="clock_layout",
    )
    club = models.OneToOneField(
        "tournament.Club",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="clock_layout",
    )
    arrangement = models.CharField(_("layout"), max_length=20, default="standard")
    figures = models.JSONField(_("figures in order"), default=list, blank=True)
    background = models.CharField(_("background colour"), max_length=7, default="#0b0f14")
    accent = models.CharField(_("accent colour"), max_length=7, default="#8fe0b8")
    logo = models.BinaryField(null=True, blank=True, editable=False)
    logo_type = models.CharField(max_length=20, blank=True)
    logo_width = models.PositiveIntegerField(default=0)
    logo_height = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("clock layout")
        verbose_name_plural = _("clock layouts")
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(tournament__isnull=False, club__isnull=True)
                    | models.Q(tournament__isnull=True, club__isnull=False)
                ),
                name="clocklayout_tournament_or_venue",
            )
        ]

    def __str__(self) -> str:
        return f"layout of tournament {self.tournament_id}" if self.tournament_id else "venue"

    @property
    def has_logo(self) -> bool:
        return bool(self.logo_type)
