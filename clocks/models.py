"""The clock is data: the start instant plus the history of pauses, resumes and adjustments.

`clocks.domain.clock.clock_state` replays this history for any instant; nothing has to fire for
the clock to be right, and a restart loses nothing.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament


class Clock(models.Model):
    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="clock")
    # Highest level index (0-based) whose start has been announced. The ticker advances it with
    # a conditional UPDATE so each level start is announced exactly once.
    announced_level = models.IntegerField(default=-1)
    one_minute_warned_level = models.IntegerField(default=-1)
    # When the announcer has something to do next: the end of the running level, or now when a
    # level start is not announced yet; empty while nothing is due (not started, paused,
    # stopped, the last level). Kept by every command, announcement and structure edit, so a
    # ticker pass reads only the clocks that are due (an index), not every running clock.
    next_due_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        verbose_name = _("clock")
        verbose_name_plural = _("clocks")

    def __str__(self) -> str:
        return f"clock of {self.tournament}"


class ClockEventKind(models.TextChoices):
    START = "start", _("Start")
    PAUSE = "pause", _("Pause")
    RESUME = "resume", _("Resume")
    ADD = "add", _("Add or remove time")
    SET_REMAINING = "set_remaining", _("Set remaining time")
    JUMP = "jump", _("Jump to level")
    STOP = "stop", _("Stop (tournament ended)")
    REOPEN = "reopen", _("Go on (tournament reopened)")


class ClockEvent(models.Model):
    clock = models.ForeignKey(Clock, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=20, choices=ClockEventKind.choices)
    at = models.DateTimeField()
    seconds = models.IntegerField(default=0)
    level = models.IntegerField(default=0)

    class Meta:
        ordering = ["at", "id"]
        verbose_name = _("clock event")
        verbose_name_plural = _("clock events")


class AnnouncementText(models.Model):
    """A venue's own words for one spoken announcement in one language (clocks/announcements.py
    has the defaults; a missing row means the default). Checked by
    clocks.domain.announcements.check_text: plain words, known placeholders only."""

    kind = models.CharField(_("announcement"), max_length=40)
    language = models.CharField(_("language"), max_length=8)
    text = models.CharField(_("text"), max_length=300)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("announcement text")
        verbose_name_plural = _("announcement texts")
        constraints = [
            models.UniqueConstraint(fields=["kind", "language"], name="one_text_per_announcement")
        ]

    def __str__(self) -> str:
        return f"{self.kind} ({self.language})"
