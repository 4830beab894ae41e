"""Leagues, their seasons, and which tournaments count for a season (docs/leagues.md).

The tournament app knows nothing of leagues: the link lives here, one row per tournament.
"""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


class League(models.Model):
    name = models.CharField(_("name"), max_length=120)
    public = models.BooleanField(
        _("public standings"), default=False, help_text=_("Anyone may read the standings.")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]
        verbose_name = _("league")
        verbose_name_plural = _("leagues")

    def __str__(self) -> str:
        return self.name


class Scoring(models.TextChoices):
    DPSB = "dpsb", _("DPSB percentages (100 points per entry)")
    TABLE = "table", _("Points table by place")
    FORMULA = "formula", _("Formula")


class Season(models.Model):
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="seasons")
    name = models.CharField(_("name"), max_length=120)
    scoring = models.CharField(
        _("scoring"), max_length=10, choices=Scoring.choices, default=Scoring.DPSB
    )
    formula = models.CharField(_("formula"), max_length=2000, blank=True)  # MAX_LENGTH
    # PointsTable.as_json(): [{"min": 10, "max": 14, "points": ["50", "30", "20"]}, ...]
    table = models.JSONField(_("points table"), default=list, blank=True)
    best_n = models.PositiveSmallIntegerField(
        _("results counted (best N)"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    participation = models.DecimalField(
        _("points per tournament played"), max_digits=8, decimal_places=2, default=0
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["league", "-created_at"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(best_n__isnull=True) | models.Q(best_n__gte=1),
                name="season_best_n_at_least_1",
            ),
            models.CheckConstraint(
                condition=models.Q(participation__gte=0), name="season_participation_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league.name}: {self.name}"


class SeasonTournament(models.Model):
    """A tournament counts for one season at most (the unique tournament)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="links")
    tournament = models.OneToOneField(
        "tournament.Tournament", on_delete=models.CASCADE, related_name="+"
    )

    class Meta:
        verbose_name = _("tournament of a season")
        verbose_name_plural = _("tournaments of a season")
