"""Who may enter a starting flight, by the event's policy (docs/festivals.md): a survivor of
one flight plays no other when every bag advances; a player still playing a flight enters no
other until it has bagged; with no re-entry across flights, a player out in one flight enters
no other.

Checked by the registration's command (actions/registration.py) before an entry is written."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import FloorError
from festivals.models import Advance, Flight
from tournament.models import Entry, EntryStatus, Player, Tournament


def flight_entry_check(*, tournament: Tournament, player: Player) -> None:
    """Refuse (FloorError) an entry the event's policy keeps out: a Day 2's, or one in a
    starting flight while the player plays, survived or (without re-entry across flights)
    played another. `tournament` is the locked row."""
    if tournament.pooled:
        # A Day 2's entries are the bags its flights' closed days carried in (services._carry);
        # a player registered here would have no bag, and the Day-2 draw would refuse the field.
        raise FloorError(
            _("A Day 2's players come from its flights' bags: register %(p)s in a flight.")
            % {"p": player.display_name},
            code="day2_entry",
        )
    flight = Flight.objects.filter(tournament_id=tournament.pk).select_related("event").first()
    if flight is None:
        return
    event = flight.event
    others = (
        Flight.objects.filter(event=event)
        .exclude(pk=flight.pk)
        .values_list("tournament_id", "label", "tournament__status")
    )
    label_of = {tid: (label, status) for tid, label, status in others}
    for tid, status in Entry.objects.filter(
        tournament_id__in=list(label_of), player_id=player.pk
    ).values_list("tournament_id", "status"):
        label, flight_status = label_of[tid]
        if status == EntryStatus.ACTIVE and flight_status != "finished":
            raise FloorError(
                _("%(p)s is still playing Day %(f)s.") % {"p": player.display_name, "f": label},
                code="flight_playing",
            )
        if status == EntryStatus.ACTIVE and event.advance == Advance.ALL:
            raise FloorError(
                _("%(p)s bagged chips in Day %(f)s; in this event a survivor plays one flight.")
                % {"p": player.display_name, "f": label},
                code="flight_survived",
            )
        if status == EntryStatus.BUSTED and not event.reentry_across_flights:
            raise FloorError(
                _("%(p)s played Day %(f)s; this event allows no re-entry in another flight.")
                % {"p": player.display_name, "f": label},
                code="flight_reentry",
            )
