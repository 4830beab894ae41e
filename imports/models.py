"""What the imports keep: the people's ids in other programs, and the tournaments imported."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Player, Tournament


class Source(models.TextChoices):
    TD3 = "td3", _("The Tournament Director")


class ExternalId(models.Model):
    """A person's id in another program (a TD3 player's UUID): the next file of that program
    finds the same person instead of making another."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="external_ids")
    source = models.CharField(_("program"), max_length=10, choices=Source.choices)
    value = models.CharField(_("id in that program"), max_length=80)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("external id")
        verbose_name_plural = _("external ids")
        constraints = [
            models.UniqueConstraint(fields=["source", "value"], name="unique_external_id"),
        ]


class Kind(models.TextChoices):
    LEAGUE = "league", _("league")
    SEASON = "season", _("season")


class ExternalRecord(models.Model):
    """A league's or a season's id in another program (a TD3 league's or season's UUID) and the
    Floor record it became: the next file of that league and season finds them again. The record
    is named by its id only (this app knows no league): whoever reads it checks it still exists."""

    source = models.CharField(_("program"), max_length=10, choices=Source.choices)
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    value = models.CharField(_("id in that program"), max_length=255)
    record_id = models.PositiveBigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("external record")
        verbose_name_plural = _("external records")
        constraints = [
            models.UniqueConstraint(
                fields=["source", "kind", "value"], name="unique_external_record"
            ),
        ]


class ImportedTournament(models.Model):
    """A tournament imported from another program's file: its id there (imported once), the
    file, who imported it and when, and what the file says of its league, season and points
    formula, as the file wrote them (the league and season it counts for: actions/imports.py)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="imported_from"
    )
    source = models.CharField(_("program"), max_length=10, choices=Source.choices)
    external_id = models.CharField(_("id in that program"), max_length=80)
    file_name = models.CharField(_("file"), max_length=255)
    version = models.CharField(_("program version"), max_length=40, blank=True)
    imported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    imported_at = models.DateTimeField(auto_now_add=True)
    league_name = models.CharField(_("league"), max_length=200, blank=True)
    season_name = models.CharField(_("season"), max_length=200, blank=True)
    points_formula = models.TextField(_("points formula"), blank=True)

    class Meta:
        ordering = ["-imported_at"]
        verbose_name = _("imported tournament")
        verbose_name_plural = _("imported tournaments")
        constraints = [
            models.UniqueConstraint(
                fields=["source", "external_id"], name="unique_imported_tournament"
            ),
        ]


class HeldFile(models.Model):
    """A file uploaded for a preview, held until the director confirms the import (or a day
    passes): the preview and the import are two requests, possibly to two server processes."""

    batch = models.CharField(max_length=40, db_index=True)
    position = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=255)
    data = models.BinaryField()
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, related_name="+"
    )
    uploaded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["batch", "position"]
