"""The ruling log: what the engine suggested and what the floor decided."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from rules_engine.domain.rulesets import citation
from tournament.models import Entry, Tournament


class Ruling(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rulings")
    situation = models.CharField(_("situation"), max_length=40)
    table = models.PositiveIntegerField(_("table"), null=True, blank=True)
    hand = models.PositiveIntegerField(_("hand"), null=True, blank=True)
    players = models.CharField(_("players"), max_length=120, blank=True)
    facts = models.JSONField(_("facts"), default=dict)
    suggested = models.JSONField(_("suggested ruling"), default=dict)
    rules = models.JSONField(_("rules cited"), default=list)
    # The ruleset and its version in force when the ruling was made: the rules cited are theirs.
    ruleset = models.CharField(_("ruleset"), max_length=10, blank=True)
    ruleset_version = models.CharField(_("ruleset version"), max_length=20, blank=True)
    decision = models.CharField(_("decision"), max_length=300)
    follows_suggestion = models.BooleanField(_("follows the suggestion"), default=True)
    reason = models.CharField(_("reason for a different decision"), max_length=300, blank=True)
    decided_by = models.CharField(_("decided by"), max_length=120, blank=True)
    decided_at = models.DateTimeField(_("decided at"), auto_now_add=True)

    class Meta:
        ordering = ["-decided_at", "-id"]
        verbose_name = _("ruling")
        verbose_name_plural = _("rulings")

    @property
    def citations(self) -> list[str]:
        """The rules cited, with the version they were ruled under ("tda-de 1.0 · 49")."""
        return [citation(r, self.ruleset_version) for r in self.rules]


class PenaltyKind(models.TextChoices):
    WARNING = "warning", _("warning")
    HANDS = "hands", _("missed hands")
    ROUNDS = "rounds", _("missed rounds")
    DISQUALIFICATION = "disqualification", _("disqualification")


class Penalty(models.Model):
    """A penalty given to one entry (tda-de 69, bdpv 6); hands_left counts down with each hand
    the player's table finishes."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="penalties")
    kind = models.CharField(_("penalty"), max_length=20, choices=PenaltyKind.choices)
    count = models.PositiveSmallIntegerField(_("hands or rounds"), default=0)
    hands = models.PositiveSmallIntegerField(_("hands to sit out"), default=0)
    hands_left = models.PositiveSmallIntegerField(_("hands left"), default=0)
    table = models.PositiveIntegerField(_("table"), null=True, blank=True)
    reason = models.CharField(_("reason"), max_length=200)
    rule = models.CharField(_("rule"), max_length=20)
    ruleset_version = models.CharField(_("ruleset version"), max_length=20, blank=True)
    given_by = models.CharField(_("given by"), max_length=120, blank=True)
    given_at = models.DateTimeField(_("given at"), auto_now_add=True)

    class Meta:
        ordering = ["-given_at", "-id"]
        verbose_name = _("penalty")
        verbose_name_plural = _("penalties")
        indexes = [models.Index(fields=["tournament", "hands_left"])]

    @property
    def citation(self) -> str:
        """The rule with the version in force when the penalty was given ("tda-de 1.0 · 69")."""
        return citation(self.rule, self.ruleset_version)


class ColourUp(models.Model):
    """A colour-up at one table (tda-de 24 round-up or bdpv 6.8 race), every card dealt kept."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="colour_ups")
    table = models.PositiveIntegerField(_("table"))
    removed = models.PositiveIntegerField(_("chip taken out"))
    new_value = models.PositiveIntegerField(_("new chip"))
    method = models.CharField(_("method"), max_length=10)
    result = models.JSONField(_("result"), default=dict)
    done_by = models.CharField(_("done by"), max_length=120, blank=True)
    done_at = models.DateTimeField(_("done at"), auto_now_add=True)

    class Meta:
        ordering = ["-done_at", "-id"]
        verbose_name = _("colour-up")
        verbose_name_plural = _("colour-ups")
