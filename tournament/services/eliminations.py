"""Eliminations: finishing places, prizes, simultaneous busts by ruleset, undo of the last bust."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournament.domain.bounties import BountyError, award
from tournament.domain.eliminations import (
    Bust,
    EliminationError,
    rank_simultaneous_busts,
    split_shared_prize,
)
from tournament.domain.payouts import default_places_paid
from tournament.errors import FloorError
from tournament.events import Actor, event_record
from tournament.models import BountyKind, Entry, EntryStatus, Status, Tournament
from tournament.realtime import broadcast_on_commit, entry_group, tournament_group
from tournament.selectors import payout_amounts, satellite_seats, tournament_numbers
from tournament.services.deals import deal_prizes
from tournament.services.registration import alternate_promote_next

_LOCK_FOR_BUST = (
    "SELECT t.*, "
    "EXISTS (SELECT 1 FROM tournament_payout p WHERE p.tournament_id = t.id) "
    "AS has_manual_payouts, "
    "EXISTS (SELECT 1 FROM tournament_deal d WHERE d.tournament_id = t.id) AS has_deal, "
    "(SELECT e.bust_sequence FROM tournament_entry e WHERE e.tournament_id = t.id "
    "AND e.bust_sequence IS NOT NULL ORDER BY e.bust_sequence DESC LIMIT 1) AS last_sequence "
    "FROM tournament_tournament t WHERE t.id = %s"
)


def _lock_for_bust(pk: int) -> Tournament:
    """Lock the tournament row and read, in the same statement, whether prizes were set by
    hand, whether a deal was made (most busts need neither) and the last bust's sequence number
    (the (tournament, sequence) index). Written out: the ORM spends 2 ms building this query on
    every bust."""
    sql = _LOCK_FOR_BUST
    if connection.features.has_select_for_update_of:
        sql += " FOR UPDATE OF t"
    elif connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    found = list(Tournament.objects.raw(sql, [pk]))
    if not found:
        raise Tournament.DoesNotExist
    return found[0]


@dataclass(frozen=True)
class BustReport:
    """One player out in a hand. Stack and position only matter when several bust at once."""

    entry: Entry
    stack_at_hand_start: int | None = None
    seats_from_button: int | None = None
    eliminated_by: tuple[int, ...] = ()  # entry numbers of who knocked the player out


@transaction.atomic
def entries_bust(
    *, tournament: Tournament, busts: Sequence[BustReport], actor: Actor
) -> list[Entry]:
    """Bust one entry, or several in the same hand (ranked by the ruleset: bdpv 6.28, tda-de
    hand-for-hand shares the place). The last player left is the winner."""
    if not busts:
        raise FloorError(_("Choose who is out."))
    tournament = _lock_for_bust(tournament.pk)
    if tournament.status not in (Status.RUNNING, Status.FINAL_TABLE):
        raise FloorError(_("Players can only bust while the tournament is running."))
    ids = [b.entry.pk for b in busts]
    if len(set(ids)) != len(ids):
        raise FloorError(_("The same player is listed twice."))
    entries = {
        e.pk: e
        for e in Entry.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(pk__in=ids, tournament=tournament)
    }
    for b in busts:
        entry = entries.get(b.entry.pk)
        if entry is None or entry.status != EntryStatus.ACTIVE:
            raise FloorError(_("#%(n)s is not in the tournament any more.") % {"n": b.entry.number})
    # The locked row holds the head counts (kept by the database: tournament/counters.py).
    alive_before = tournament.players_left
    if len(busts) >= alive_before:
        raise FloorError(_("At least one player must remain: the winner."))
    if len(busts) > 1:
        missing = [b.entry.number for b in busts if b.stack_at_hand_start is None]
        shares = tournament.ruleset == "tda-de" and tournament.hand_for_hand
        if missing and not shares:
            raise FloorError(
                _(
                    "Several players are out in one hand: enter each one's stack at the start of the hand."
                )
            )
    try:
        places = rank_simultaneous_busts(
            [
                Bust(
                    entry_id=b.entry.pk,
                    stack_at_hand_start=b.stack_at_hand_start or 0,
                    seats_from_button=b.seats_from_button or 0,
                )
                for b in busts
            ],
            ruleset=tournament.ruleset,
            hand_for_hand=tournament.hand_for_hand,
            players_remaining_before=alive_before,
        )
    except EliminationError as exc:
        raise FloorError(str(exc)) from exc

    alive_after = alive_before - len(busts)
    numbers = tournament_numbers(tournament) if tournament.satellite_seat_value else None
    seats_to_win = satellite_seats(tournament, numbers) if numbers else 0
    # A satellite ends when no more players are left than it has seats (they all win one).
    satellite_done = 0 < alive_after <= seats_to_win
    winner_now = alive_after == 1 or satellite_done
    if (
        winner_now
        or seats_to_win
        or min(places.values()) <= _most_places_paid(tournament, tournament.entries_counted)
    ):
        payouts = payout_amounts(tournament, numbers)
    else:
        payouts = []  # nobody in this hand reaches the money: skip the prize arithmetic
    prizes = _prizes_for(places, payouts, tournament.payout_unit)
    deal = deal_prizes(tournament) if getattr(tournament, "has_deal", True) else None
    if deal is not None:  # the agreed shares replace the places' prizes
        for entry_id in places:
            if entry_id in deal[0]:
                prizes[entry_id] = deal[0][entry_id]
    transfers = _bounties(tournament, busts, entries)
    sequence = (getattr(tournament, "last_sequence", None) or 0) + 1
    now = timezone.now()
    busted: list[Entry] = []
    for entry_id, place in places.items():
        entry = entries[entry_id]
        entry.status = EntryStatus.BUSTED
        entry.place = place
        entry.prize = prizes[entry_id]
        entry.busted_at = now
        entry.bust_sequence = sequence
        entry.won_seat = seats_to_win > 0 and place <= seats_to_win
        busted.append(entry)
    if len(busted) == 1 and connection.vendor == "postgresql":
        # The usual case: the seat freed and the entry written in one statement.
        seats = _bust_one(busted[0])
    else:
        seats = _release_seats(busted)
        Entry.objects.bulk_update(
            busted, ["status", "place", "prize", "busted_at", "bust_sequence", "won_seat"]
        )

    winner = None
    winner_bounty = 0
    previous_status = tournament.status
    seat_winners: list[Entry] = []
    if satellite_done:
        # No finishing order among the seat winners: all share first place and a seat.
        seat_winners = list(
            tournament.entries.select_for_update().filter(status=EntryStatus.ACTIVE)
        )
        for e in seat_winners:
            e.place, e.prize, e.won_seat, e.bust_sequence = 1, payouts[0], True, sequence
        Entry.objects.bulk_update(seat_winners, ["place", "prize", "won_seat", "bust_sequence"])
        tournament.status = Status.FINISHED
        tournament.save(update_fields=["status"])
    elif alive_after == 1:
        winner = tournament.entries.select_for_update().get(status=EntryStatus.ACTIVE)
        winner.place = 1
        winner.prize = payouts[0] if payouts else 0
        if deal is not None and winner.pk in deal[0]:
            winner.prize = deal[0][winner.pk] + deal[1]
        winner.bust_sequence = sequence
        if tournament.bounty_kind != BountyKind.NONE:  # the winner collects their own bounty
            winner_bounty = winner.bounty
            winner.bounties_won += winner_bounty
        winner.save(update_fields=["place", "prize", "bust_sequence", "bounties_won"])
        tournament.status = Status.FINISHED
        tournament.save(update_fields=["status"])

    event_record(
        tournament=tournament,
        action="entry.bust",
        actor=actor,
        payload={
            "sequence": sequence,
            "busts": [
                {
                    "entry": e.pk,
                    "number": e.number,
                    "place": e.place,
                    "prize": e.prize,
                    "seat": seats.get(e.pk),
                }
                for e in sorted(busted, key=lambda x: x.place or 0)
            ],
            "winner": winner.pk if winner else None,
            "seat_winners": [e.pk for e in seat_winners],
            "winner_bounty": winner_bounty,
            "bounties": transfers,
            "previous_status": previous_status,
            "hand_for_hand": tournament.hand_for_hand,
        },
    )
    if winner is None and not seat_winners and tournament.alternates_waiting:
        alternate_promote_next(tournament=tournament, actor=actor)
    group = tournament_group(tournament.pk)
    broadcast_on_commit(group, "bust", {"entries": [e.pk for e in busted]})
    for e in busted:
        broadcast_on_commit(entry_group(e.pk), "bust", {"place": e.place, "prize": e.prize})
    return sorted(busted, key=lambda x: x.place or 0)


def _bounties(
    tournament: Tournament, busts: Sequence[BustReport], entries: dict[int, Entry]
) -> list[dict[str, int]]:
    """Pay the bounties of this hand's busted players to who knocked them out (locked rows).
    Returns the transfers for the event log (and for an undo)."""
    numbers = {n for b in busts for n in b.eliminated_by}
    if not numbers and tournament.bounty_kind == BountyKind.NONE:
        return []
    busted_numbers = {e.number for e in entries.values()}
    if numbers & busted_numbers:
        raise FloorError(_("A player out in this hand cannot have knocked someone out in it."))
    hunters = list(
        Entry.objects.select_for_update().filter(
            tournament=tournament, number__in=numbers, status=EntryStatus.ACTIVE
        )
    )
    by_number = {e.number: e for e in hunters}
    by_pk = {e.pk: e for e in hunters}
    unknown = sorted(numbers - set(by_number))
    if unknown:
        raise FloorError(
            _("#%(n)s is not playing in this tournament.") % {"n": ", #".join(map(str, unknown))}
        )
    transfers: list[dict[str, int]] = []
    if tournament.bounty_kind == BountyKind.NONE:
        return transfers
    for b in busts:
        if not b.eliminated_by:
            raise FloorError(
                _("Who knocked #%(n)s out? The bounty goes to the eliminator.")
                % {"n": b.entry.number}
            )
        if len(set(b.eliminated_by)) != len(b.eliminated_by):
            raise FloorError(_("An eliminator is listed twice."))
        busted = entries[b.entry.pk]
        try:
            won = award(
                tournament.bounty_kind,  # type: ignore[arg-type]
                busted.bounty,
                [by_number[n].pk for n in b.eliminated_by],
                unit=tournament.payout_unit if busted.bounty % tournament.payout_unit == 0 else 1,
            )
        except BountyError as exc:
            raise FloorError(str(exc)) from exc
        for pk, cash in won.cash.items():
            hunter = by_pk[pk]
            hunter.bounties_won += cash
            hunter.bounty += won.added[pk]
            transfers.append(
                {
                    "from": busted.pk,
                    "to": pk,
                    "number": hunter.number,
                    "cash": cash,
                    "added": won.added[pk],
                }
            )
    Entry.objects.bulk_update(hunters, ["bounties_won", "bounty"])
    return transfers


def _undo_bounties(payload: dict) -> None:
    for t in payload.get("bounties", []):
        hunter = Entry.objects.select_for_update().get(pk=t["to"])
        hunter.bounties_won -= t["cash"]
        hunter.bounty -= t["added"]
        hunter.save(update_fields=["bounties_won", "bounty"])
    if payload.get("winner_bounty") and payload.get("winner"):
        winner = Entry.objects.select_for_update().get(pk=payload["winner"])
        winner.bounties_won -= payload["winner_bounty"]
        winner.save(update_fields=["bounties_won"])


def _most_places_paid(tournament: Tournament, entries: int) -> int:
    """The number of places paid, cheaply (the full prize arithmetic is only needed in the
    money)."""
    manual = tournament.payouts.count() if getattr(tournament, "has_manual_payouts", True) else 0
    if manual:
        return manual
    if tournament.places_paid is not None:
        return min(tournament.places_paid, entries)
    return default_places_paid(entries)


def _prizes_for(places: dict[int, int], payouts: list[int], unit: int) -> dict[int, int]:
    by_place: dict[int, list[int]] = defaultdict(list)
    for entry_id, place in places.items():
        by_place[place].append(entry_id)
    prizes: dict[int, int] = {}
    for place, entry_ids in by_place.items():
        if len(entry_ids) == 1:
            prizes[entry_ids[0]] = payouts[place - 1] if place <= len(payouts) else 0
            continue
        shares = split_shared_prize([place] * len(entry_ids), payouts, unit)
        for entry_id, share in zip(sorted(entry_ids), shares, strict=True):
            prizes[entry_id] = share
    return prizes


def _bust_one(e: Entry) -> dict[int, list[int]]:
    """Free the seat of one busted entry and write its finish, in one statement (PostgreSQL);
    returns entry id -> [table id, seat] for undo."""
    from tables.models import SeatAssignment

    seat_table = connection.ops.quote_name(SeatAssignment._meta.db_table)
    entry_table = connection.ops.quote_name(Entry._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"WITH freed AS (DELETE FROM {seat_table} WHERE entry_id = %s "  # noqa: S608
            "RETURNING entry_id, table_id, seat), "
            f"finished AS (UPDATE {entry_table} SET status = %s, place = %s, prize = %s, "
            "busted_at = %s, bust_sequence = %s, won_seat = %s WHERE id = %s) "
            "SELECT entry_id, table_id, seat FROM freed",
            [
                e.pk,
                e.status,
                e.place,
                e.prize,
                e.busted_at,
                e.bust_sequence,
                e.won_seat,
                e.pk,
            ],
        )
        return {entry_id: [table_id, seat] for entry_id, table_id, seat in cursor.fetchall()}


def _release_seats(entries: list[Entry]) -> dict[int, list[int]]:
    """Free the seats of busted entries; returns entry id -> [table id, seat] for undo."""
    from tables.models import SeatAssignment

    table = SeatAssignment._meta.db_table
    with connection.cursor() as cursor:
        placeholders = ", ".join(["%s"] * len(entries))
        cursor.execute(
            f"DELETE FROM {table} WHERE entry_id IN ({placeholders}) "  # noqa: S608
            "RETURNING entry_id, table_id, seat",
            [e.pk for e in entries],
        )
        return {entry_id: [table_id, seat] for entry_id, table_id, seat in cursor.fetchall()}


@transaction.atomic
def bust_undo_last(*, tournament: Tournament, actor: Actor) -> list[Entry]:
    """Undo the most recent bust (all players of that hand). Seats come back if still free."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    last = tournament.entries.aggregate(m=Max("bust_sequence"))["m"]
    if last is None:
        raise FloorError(_("There is no bust to undo."))
    event = (
        tournament.events.filter(action="entry.bust", payload__sequence=last)
        .order_by("-id")
        .first()
    )
    affected = list(tournament.entries.select_for_update().filter(bust_sequence=last))
    restored: list[Entry] = []
    for entry in affected:
        if entry.status == EntryStatus.BUSTED:
            entry.status = EntryStatus.ACTIVE
        entry.place = None
        entry.prize = 0
        entry.busted_at = None
        entry.bust_sequence = None
        entry.won_seat = False
        restored.append(entry)
    Entry.objects.bulk_update(
        restored, ["status", "place", "prize", "busted_at", "bust_sequence", "won_seat"]
    )
    if event is not None:
        _restore_seats(event.payload.get("busts", []))
        _undo_bounties(event.payload)
        previous = event.payload.get("previous_status")
        if tournament.status == Status.FINISHED and previous:
            tournament.status = previous
            tournament.save(update_fields=["status"])
    event_record(
        tournament=tournament,
        action="entry.bust_undo",
        actor=actor,
        payload={"sequence": last, "entries": [e.pk for e in restored]},
    )
    broadcast_on_commit(tournament_group(tournament.pk), "bust_undo", {"sequence": last})
    return restored


def _restore_seats(busts: list[dict]) -> None:
    from tables.models import SeatAssignment

    for item in busts:
        seat = item.get("seat")
        if not seat:
            continue
        table_id, seat_no = seat
        taken = SeatAssignment.objects.filter(table_id=table_id, seat=seat_no).exists()
        if not taken:
            SeatAssignment.objects.create(entry_id=item["entry"], table_id=table_id, seat=seat_no)
