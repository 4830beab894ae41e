"""An endpoint a director registered, and the outbox of what is sent to it."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament


class Endpoint(models.Model):
    """A receiver of webhooks: one tournament's events, or every tournament's (`tournament`
    empty: a club's website or chat follows every night).

    `secret` signs every message (Standard Webhooks, `whsec_…`); the pages show it once, on
    the page that answers its creation, and never again."""

    url = models.URLField(_("URL"), max_length=500)
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("tournament"),
    )
    kinds = models.JSONField(_("events"), default=list)
    secret = models.CharField(max_length=100, editable=False)
    description = models.CharField(_("description"), max_length=120, blank=True)
    active = models.BooleanField(_("active"), default=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.url


class Delivery(models.Model):
    """One message to one endpoint, kept until it is delivered or its attempts are spent.

    `message_id` is the `webhook-id` header: the same on every attempt, so a receiver that got
    it twice (an answer lost on the way back) knows. `event` is the event-log row it tells of
    (none for a test message); one row per endpoint, event and kind."""

    PENDING = "pending"
    DELIVERED = "delivered"
    FAILED = "failed"
    STATES = [
        (PENDING, _("waiting")),
        (DELIVERED, _("delivered")),
        (FAILED, _("failed")),
    ]

    endpoint = models.ForeignKey(Endpoint, on_delete=models.CASCADE, related_name="deliveries")
    event_id = models.BigIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=40)
    message_id = models.CharField(max_length=80, unique=True)
    payload = models.JSONField()
    state = models.CharField(max_length=10, choices=STATES, default=PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status = models.PositiveIntegerField(null=True, blank=True)
    last_answer = models.CharField(max_length=200, blank=True)
    last_error = models.CharField(max_length=200, blank=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["endpoint", "event_id", "kind"], name="webhook_delivery_once"
            )
        ]
        indexes = [
            models.Index(fields=["state", "next_attempt_at"], name="webhook_delivery_due"),
        ]
