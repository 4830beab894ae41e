"""Writes of the clock layouts: save a tournament's layout or the venue's default (with its
logo), and drop a tournament's layout so that the venue's applies again.

Checked by displays/domain/layouts.py; one event-log line per save (`layout.save`); the paired
screens that show a clock the layout concerns are sent their assignment again (a new version),
so they load the clock in its new look (docs/displays.md#clock-layouts).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import FloorError
from displays.domain.layouts import (
    LayoutRefused,
    check_layout,
    check_logo,
)
from displays.domain.views import Figure, Kind, step_from_dict
from displays.models import ClockLayout, Display
from displays.services import notify_display
from tournament.events import Actor, event_record
from tournament.locks import lock_tournament
from tournament.models import Club, Tournament


def layout_refusal(error: LayoutRefused) -> str:
    """Why a layout was refused, in the reader's words."""
    p = error.params
    if error.code == "contrast_text":
        return (
            _(
                "The background %(colour)s is too light for the white text: contrast %(ratio)s:1, "
                "at least %(need)s:1 is needed (WCAG AA). Choose a darker background."
            )
            % p
        )
    if error.code == "contrast_accent":
        return (
            _(
                "The accent %(colour)s is too close to the background %(background)s: contrast "
                "%(ratio)s:1, at least %(need)s:1 is needed for the level line (WCAG AA, large "
                "text). Choose a lighter or a darker accent."
            )
            % p
        )
    if error.code == "contrast_warn":
        return (
            _(
                "On the background %(colour)s the warnings (last minute, break) would not be "
                "readable: contrast %(ratio)s:1, at least %(need)s:1 is needed. Choose a darker "
                "background."
            )
            % p
        )
    words = {
        "colour": _("A colour is written #rrggbb, e.g. #0b0f14."),
        "arrangement": _("Choose one of the layouts."),
        "no_figures": _("Choose at least one figure beside the clock, or the layout “clock only”."),
        "logo_missing": _("The layout with logo needs a logo: upload one (PNG or JPEG)."),
        "logo_size": _("The logo is too large: at most %(kb)s KB."),
        "logo_type": _(
            "The logo must be a PNG or a JPEG image (SVG and other types are not accepted)."
        ),
        "logo_pixels": _(
            "The logo is %(w)s×%(h)s pixels: each side must be between %(low)s and %(high)s."
        ),
    }
    return words.get(error.code, _("This layout cannot be saved.")) % p


@transaction.atomic
def clock_layout_save(
    *,
    tournament: Tournament | None,
    arrangement: str,
    figures: Iterable[Figure | str],
    background: str,
    accent: str,
    logo: bytes | None = None,
    remove_logo: bool = False,
    actor: Actor,
) -> ClockLayout:
    """Save the layout of `tournament`, or the venue's default when `tournament` is None.
    `logo`: new logo bytes (replace); `remove_logo`: drop the one saved. Refused with nothing
    changed (FloorError) when the layout or the logo cannot be shown."""
    if tournament is not None:
        lock_tournament(tournament.pk, key=True)
        row = ClockLayout.objects.select_for_update().filter(tournament=tournament).first()
        row = row or ClockLayout(tournament=tournament)
    else:
        club = Club.current()
        row = ClockLayout.objects.select_for_update().filter(club=club).first()
        row = row or ClockLayout(club=club)
    try:
        info = check_logo(logo) if logo else None
        has_logo = info is not None or (row.has_logo and not remove_logo)
        checked = check_layout(
            arrangement=arrangement,
            figures=figures,
            background=background,
            accent=accent,
            has_logo=has_logo,
        )
    except LayoutRefused as error:
        field = "logo" if error.code.startswith("logo") else error.params.get("field")
        raise FloorError(layout_refusal(error), field=field) from error
    if info is not None:
        row.logo, row.logo_type = logo, info.content_type
        row.logo_width, row.logo_height = info.width, info.height
    elif remove_logo:
        row.logo, row.logo_type, row.logo_width, row.logo_height = None, "", 0, 0
    row.arrangement = checked.arrangement.value
    row.figures = [f.value for f in checked.figures]
    row.background, row.accent = checked.background, checked.accent
    row.version += 1
    row.save()
    event_record(
        tournament=tournament,
        action="layout.save",
        actor=actor,
        payload={
            "venue": tournament is None,
            "layout": row.arrangement,
            "figures": row.figures,
            "background": row.background,
            "accent": row.accent,
            "logo": row.has_logo,
        },
    )
    _tell_screens(tournament)
    return row


@transaction.atomic
def clock_layout_reset(*, tournament: Tournament, actor: Actor) -> None:
    """Drop the tournament's own layout: the venue's default (or the built-in one) applies."""
    lock_tournament(tournament.pk, only=("id",))
    deleted, _rows = ClockLayout.objects.filter(tournament=tournament).delete()
    if deleted:
        event_record(
            tournament=tournament, action="layout.reset", actor=actor, payload={"venue": False}
        )
        _tell_screens(tournament)


def _tell_screens(tournament: Tournament | None) -> None:
    """The paired screens showing a clock of `tournament` (None: any clock) load it again."""
    for display in Display.objects.select_for_update().filter(paired_at__isnull=False):
        steps = [step_from_dict(s) for s in display.steps or []]
        if any(
            s.kind == Kind.CLOCK and (tournament is None or s.tournament == tournament.pk)
            for s in steps
        ):
            display.version += 1
            display.save(update_fields=["version"])
            notify_display(display)
