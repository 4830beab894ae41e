"""Writes of the display manager: open a screen, pair it, tell it what to show, rename, remove.

Each write checks, changes the row in one transaction, records the event-log line and queues
the screen's `assignment` message for after the commit (docs/displays.md).
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import FloorError, NotFound
from displays.domain.views import (
    NAME_MAX,
    Kind,
    Step,
    StepRefused,
    check_steps,
    missing_ids,
    new_pairing_code,
    normal_code,
    step_from_dict,
)
from displays.messages import DisplayAssignment, DisplayView
from displays.models import Display, token_hash
from leagues.models import Season
from live.realtime import broadcast_on_commit, display_group
from tournament.events import Actor, event_record
from tournament.models import Tournament

UNPAIRED_HOURS = 24  # a code nobody typed in this long is dropped (the screen gets a new one)
MAX_UNPAIRED = 500  # screens waiting for a code at once; more are refused (anyone may open one)


def step_refusal(error: StepRefused) -> str:
    """The reason a step was refused, in the reader's words."""
    words = {
        "empty": _("A rotation needs at least one view."),
        "too_many": _("A rotation has at most %(limit)s views."),
        "seconds": _("Each view of a rotation stays between %(low)s and %(high)s seconds."),
        "no_tournament": _("Choose the tournament to show."),
        "lobby_size": _("A lobby shows at most %(limit)s tournaments."),
        "no_season": _("Choose the season to show."),
        "no_figures": _("Choose at least one figure beside the clock, or the layout “clock only”."),
        "empty_slide": _("A slide needs a title or a text."),
        "top": _("The chip leaders show between %(low)s and %(high)s players."),
        "slide_length": _("A slide's title has at most %(title)s characters, its text %(text)s."),
        "markup": _(
            "A slide is plain text: remove the markup (angle brackets < > or entities like &amp;)."
        ),
    }
    text = words.get(error.code, _("This view cannot be shown.")) % error.params
    if error.step:
        return _("View %(n)s: %(reason)s") % {"n": error.step, "reason": text}
    return text


def display_open() -> tuple[Display, str]:
    """A new screen waiting for its pairing code; returns the row and the token the screen keeps
    (stored only as its hash)."""
    stale = timezone.now() - timedelta(hours=UNPAIRED_HOURS)
    Display.objects.filter(paired_at__isnull=True, created_at__lt=stale).delete()
    if Display.objects.filter(paired_at__isnull=True).count() >= MAX_UNPAIRED:
        raise FloorError(_("Too many screens are waiting to be paired. Try again later."))
    token = secrets.token_urlsafe(32)
    for _attempt in range(3):
        code = new_pairing_code(lambda c: Display.objects.filter(code=c).exists())
        with transaction.atomic():
            if not Display.objects.select_for_update().filter(code=code).exists():
                return Display.objects.create(token_hash=token_hash(token), code=code), token
    raise FloorError(_("No pairing code is free. Try again."))


@transaction.atomic
def display_pair(*, code: str, name: str, actor: Actor) -> Display:
    """Pair the screen that shows `code`, under `name`."""
    name = _clean_name(name)
    typed = normal_code(code)
    display = (
        Display.objects.select_for_update().filter(code=typed, paired_at__isnull=True).first()
        if typed
        else None
    )
    if display is None:
        raise FloorError(
            _("No screen shows the code “%(code)s”. Check the letters on the screen.")
            % {"code": typed or code.strip()},
            field="code",
        )
    display.name = name
    display.code = ""
    display.paired_at = timezone.now()
    display.version += 1
    display.save(update_fields=["name", "code", "paired_at", "version"])
    event_record(
        tournament=None,
        action="display.pair",
        actor=actor,
        payload={"display": display.pk, "name": name},
    )
    notify_display(display)
    return display


@transaction.atomic
def display_assign(*, display_id: int, steps: Sequence[Step], actor: Actor) -> Display:
    """Show `steps` (one view, or a rotation) on a paired screen. Refused, with nothing changed,
    when a step cannot be shown or names a tournament or season that is gone: the screen keeps
    what it shows."""
    display = _locked(display_id)
    try:
        checked = check_steps(steps)
    except StepRefused as error:
        raise FloorError(step_refusal(error)) from error
    _check_targets(checked)
    display.steps = [s.as_dict() for s in checked]
    display.version += 1
    display.save(update_fields=["steps", "version"])
    event_record(
        tournament=None,
        action="display.assign",
        actor=actor,
        payload={
            "display": display.pk,
            "name": display.name,
            "views": [s.kind.value for s in checked],
            "tournaments": sorted({i for s in checked for i in s.tournament_ids()}),
        },
    )
    notify_display(display)
    return display


@transaction.atomic
def display_rename(*, display_id: int, name: str, actor: Actor) -> Display:
    display = _locked(display_id)
    display.name = _clean_name(name)
    display.version += 1
    display.save(update_fields=["name", "version"])
    event_record(
        tournament=None,
        action="display.rename",
        actor=actor,
        payload={"display": display.pk, "name": display.name},
    )
    notify_display(display)
    return display


@transaction.atomic
def display_remove(*, display_id: int, actor: Actor) -> None:
    """Forget a screen: it is told, drops its token and shows a new pairing code."""
    display = _locked(display_id)
    group = display_group(display.pk)
    event_record(
        tournament=None,
        action="display.remove",
        actor=actor,
        payload={"display": display.pk, "name": display.name},
    )
    display.delete()
    broadcast_on_commit(group, "removed", {})


def display_seen(display_id: int) -> None:
    """The screen connected: the console shows when it was last seen."""
    Display.objects.filter(pk=display_id).update(seen_at=timezone.now())


def _locked(display_id: int) -> Display:
    display = Display.objects.select_for_update().filter(pk=display_id).first()
    if display is None:
        raise NotFound(_("No such screen."))
    if not display.paired:
        raise FloorError(_("Pair the screen first."))
    return display


def _clean_name(name: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise FloorError(_("Give the screen a name, e.g. “Bar” or “Main hall left”."), field="name")
    if len(name) > NAME_MAX:
        raise FloorError(
            _("A screen's name has at most %(n)s characters.") % {"n": NAME_MAX}, field="name"
        )
    return name


def _check_targets(steps: Sequence[Step]) -> None:
    wanted = {i for s in steps for i in s.tournament_ids()}
    gone = missing_ids(
        wanted, Tournament.objects.filter(pk__in=wanted).values_list("pk", flat=True)
    )
    if gone:
        raise FloorError(
            _("Tournament %(ids)s no longer exists: choose another.")
            % {"ids": ", ".join(f"#{i}" for i in gone)}
        )
    seasons = {s.season for s in steps if s.kind == Kind.STANDINGS and s.season is not None}
    public = set(
        Season.objects.filter(pk__in=seasons, league__public=True).values_list("pk", flat=True)
    )
    if seasons - public:
        raise FloorError(
            _("Only a season of a public league can be shown on a screen; season %(ids)s is not.")
            % {"ids": ", ".join(f"#{i}" for i in sorted(seasons - public))}
        )


# --- The screen's message -------------------------------------------------------------------


def assignment_payload(display: Display) -> DisplayAssignment:
    """What the screen is sent: the page of each view (framed by /display/) and its seconds.
    Built from the display's own row: no other read."""
    views: list[DisplayView] = []
    for index, data in enumerate(display.steps or []):
        step = step_from_dict(data)
        url = reverse("display-view", args=[index]) + f"?v={display.version}"
        views.append(
            {
                "kind": step.kind.value,
                "url": url,
                "seconds": step.seconds,
                "sound": step.kind.value == "clock" and step.sound,
            }
        )
    return {
        "display": display.pk,
        "name": display.name,
        "paired": display.paired,
        "version": display.version,
        "views": views,
    }


def notify_display(display: Display) -> None:
    payload: dict[str, Any] = dict(assignment_payload(display))
    broadcast_on_commit(display_group(display.pk), "assignment", payload)
