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
