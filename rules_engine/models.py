"""The ruling log: what the engine suggested and what the floor decided."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament


class Ruling(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rulings")
    situation = models.CharField(_("situation"), max_length=40)
    table = models.PositiveIntegerField(_("table"), null=True, blank=True)
    hand = models.PositiveIntegerField(_("hand"), null=True, blank=True)
    players = models.CharField(_("players"), max_length=120, blank=True)
    facts = models.JSONField(_("facts"), default=dict)
    suggested = models.JSONField(_("suggested ruling"), default=dict)
    rules = models.JSONField(_("rules cited"), default=list)
    decision = models.CharField(_("decision"), max_length=300)
    follows_suggestion = models.BooleanField(_("follows the suggestion"), default=True)
    reason = models.CharField(_("reason for a different decision"), max_length=300, blank=True)
    decided_by = models.CharField(_("decided by"), max_length=120, blank=True)
    decided_at = models.DateTimeField(_("decided at"), auto_now_add=True)

    class Meta:
        ordering = ["-decided_at", "-id"]
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")
