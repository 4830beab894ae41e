"""Players' personal data (docs/players.md): who reads contact data in bulk is recorded, a
person's data leaves as one file, and a person can be erased without breaking any result.

Contact data (e-mail, phone, notes) is for directors only; floor accounts see names and
numbers. Each bulk read or export of contact data writes a `players.contact_read` event (no
tournament), which the directors' players page lists.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import Conflict
from tournament.events import Actor, event_record
from tournament.models import Entry, EntryStatus, Event, Player, Status

CONTACT_READ = "players.contact_read"
PLAYER_EXPORT = "player.export"
PLAYER_ERASE = "player.erase"
# The actions the directors' audit list shows.
AUDITED = (CONTACT_READ, PLAYER_EXPORT, PLAYER_ERASE)


def contact_read_record(*, actor: Actor, what: str, count: int, query: str = "") -> None:
    """Record that `actor` read the contact data of `count` players (`what`: where)."""
    event_record(
        tournament=None,
        action=CONTACT_READ,
        actor=actor,
        payload={"what": what, "count": count, "query": query[:100]},
    )


def contact_reads(*, limit: int = 50) -> list[Event]:
    """The latest reads, exports and erasures of personal data, newest first."""
    return list(Event.objects.filter(action__in=AUDITED).order_by("-id")[:limit])


def _entry_data(entry: Entry) -> dict[str, Any]:
    return {
        "tournament": {"id": entry.tournament_id, "name": entry.tournament.name},
        "number": entry.number,
        "status": entry.status,
        "is_reentry": entry.is_reentry,
        "place": entry.place,
        "busted_at": entry.busted_at.isoformat() if entry.busted_at else None,
        "prize_cents": entry.prize,
        "bounties_won_cents": entry.bounties_won,
        "paid_cents": entry.paid_amount,
        "paid_at": entry.paid_at.isoformat() if entry.paid_at else None,
        "currency": entry.tournament.currency,
        "payments": [
            {
                "kind": p.kind,
                "price_cents": p.price,
                "fee_cents": p.fee,
                "chips": p.chips,
                "at": p.created_at.isoformat(),
            }
            for p in entry.purchases.order_by("id")
        ],
    }


@transaction.atomic
def player_export(*, player: Player, actor: Actor) -> dict[str, Any]:
    """Everything Floor holds about one person: the record, entries, results and payments."""
    entries = player.entries.select_related("tournament").prefetch_related("purchases")
    data = {
        "format": "floor-player/1",
        "exported_at": timezone.now().isoformat(),
        "player": {
            "id": player.pk,
            "name": player.name,
            "display_name": player.display_name,
            "membership_number": player.membership_number,
            "birth_year": player.birth_year,
            "country": player.country,
            "email": player.email,
            "phone": player.phone,
            "needs_accessible_seat": player.needs_accessible_seat,
            "notes": player.notes,
            "created_at": player.created_at.isoformat(),
        },
        "entries": [_entry_data(e) for e in entries.order_by("id")],
    }
    event_record(tournament=None, action=PLAYER_EXPORT, actor=actor, payload={"player": player.pk})
    return data


def erased_name(pk: int) -> str:
    return _("Erased player #%(id)s") % {"id": pk}


@transaction.atomic
def player_erase(*, player: Player, actor: Actor) -> Player:
    """Anonymise a person: the name becomes "Erased player #<id>", contact data, notes, the
    membership number, the country and the year of birth are deleted. Entries, places, prizes and payments
    stay as they are (the books and the results need them) and show the new name. Refused
    while the player is in a running tournament."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    live = player.entries.filter(
        status__in=[EntryStatus.ACTIVE, EntryStatus.ALTERNATE],
    ).exclude(tournament__status=Status.FINISHED)
    if live.exists():
        raise Conflict(_("This player is still in a tournament: erase them once they are out."))
    player.name = player.display_name = erased_name(player.pk)
    player.email = player.phone = player.notes = player.membership_number = ""
    player.country = ""
    player.birth_year = None
    player.needs_accessible_seat = False
    player.save(
        update_fields=[
            "name",
            "display_name",
            "membership_number",
            "birth_year",
            "country",
            "email",
            "phone",
            "notes",
            "needs_accessible_seat",
        ]
    )
    event_record(tournament=None, action=PLAYER_ERASE, actor=actor, payload={"player": player.pk})
    return player
