"""Eliminations: finishing places, prizes, simultaneous busts by ruleset, undo of the last bust."""

from __future__ import annotations

import functools
import secrets
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import F, Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from core import figures
from core.errors import FloorError
from tournament.domain.bounties import BountyError, award
from tournament.domain.eliminations import (
    Bust,
    BustGroup,
    EliminationError,
    elimination_ranks,
    group_offsets,
    place_of,
    split_shared_prize,
)
from tournament.domain.payouts import default_places_paid
from tournament.events import Actor, event_record
from tournament.field import field_is_final
from tournament.live import notify_seats
from tournament.locks import lock_tournament
from tournament.models import BountyKind, Entry, EntryStatus, Player, Status, Tournament
from tournament.selectors import (
    event_renumbered,
    payout_amounts,
    satellite_seats,
    tournament_numbers,
)
from tournament.services.deals import deal_prizes

# Where entries sit: entry id -> (table id, table number, seats at the table, seat, the table's
# button, the hand being played); the tables' read, passed in by the bust's command.
WhereSat = Callable[[list[int]], dict[int, tuple[int, int, int, int, int | None, int]]]

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
    if connection.vendor == "postgresql":
        # The row is built from the cursor's values: psycopg returns them as the fields keep
        # them (times with their zone), and the raw query set's matching of 66 columns to 63
        # fields cost more than the statement (2.0-2.2 -> 1.1-1.2 ms on a slow machine).
        names, sql = _lock_for_bust_sql()
        with connection.cursor() as cursor:
            cursor.execute(sql, [pk])
            row = cursor.fetchone()
        if row is None:
            raise Tournament.DoesNotExist
        return _tournament_of(names, row)
    sql = _LOCK_FOR_BUST
    if connection.features.has_select_for_update:
        sql += " FOR UPDATE"
    found = list(Tournament.objects.raw(sql, [pk]))
    if not found:
        raise Tournament.DoesNotExist
    return found[0]


def _tournament_of(names: list[str], row: Sequence[Any]) -> Tournament:
    """The tournament from the first values of a `_LOCK_FOR_BUST` row, with its three extras."""
    tournament = Tournament.from_db(connection.alias, names, row[: len(names)])
    # The three values the statement adds, as a raw query set's annotations would be.
    extras = row[len(names) : len(names) + len(_LOCK_EXTRAS)]
    vars(tournament).update(zip(_LOCK_EXTRAS, extras, strict=True))
    return tournament


def _lock_for_bust_with_entries(pk: int, ids: list[int]) -> tuple[Tournament, dict[int, Entry]]:
    """The tournament locked as `_lock_for_bust` locks it and, in the same statement, the
    entries `ids` of that tournament locked after it (in the order of their keys) with their
    players: one round trip instead of two on a bust's path (PostgreSQL). Within the statement
    the tournament's row is locked before each entry's (`FOR UPDATE OF t, en`), the order every
    writer keeps. When the join does not find every entry (one of another tournament, or one
    changed while the statement waited for a lock), the tournament and the entries are locked
    and read as two statements, as before: the same answer and the same refusals."""
    if connection.vendor != "postgresql":
        tournament = _lock_for_bust(pk)
        return tournament, _lock_entries(tournament, ids)
    names, entry_names, player_names, sql = _lock_with_entries_sql()
    with connection.cursor() as cursor:
        cursor.execute(sql, [ids, pk])
        rows = cursor.fetchall()
    if len(rows) != len(ids):
        tournament = _lock_for_bust(pk)
        return tournament, _lock_entries(tournament, ids)
    tournament = _tournament_of(names, rows[0])
    start = len(names) + len(_LOCK_EXTRAS)
    middle = start + len(entry_names)
    player_field = Entry._meta.get_field("player")
    entries: dict[int, Entry] = {}
    for row in rows:
        entry = Entry.from_db(connection.alias, entry_names, row[start:middle])
        player_field.set_cached_value(
            entry, Player.from_db(connection.alias, player_names, row[middle:])
        )
        entries[entry.pk] = entry
    return tournament, entries


def _lock_entries(tournament: Tournament, ids: list[int]) -> dict[int, Entry]:
    # In the order of their keys: the entries' default order (by the tournament's start) joins
    # the tournament row to sort, which a lock of a few rows by key does not need.
    return {
        e.pk: e
        for e in Entry.objects.select_for_update(of=("self",))
        .select_related("player")
        .filter(pk__in=ids, tournament=tournament)
        .order_by("pk")
    }


_LOCK_EXTRAS = ("has_manual_payouts", "has_deal", "last_sequence")


@functools.cache
def _lock_for_bust_sql() -> tuple[list[str], str]:
    """The tournament's fields in order and `_LOCK_FOR_BUST` naming their columns (PostgreSQL)."""
    fields = Tournament._meta.concrete_fields
    columns = ", ".join(f"t.{connection.ops.quote_name(f.column)}" for f in fields)
    sql = _LOCK_FOR_BUST.replace("SELECT t.*", f"SELECT {columns}", 1) + " FOR UPDATE OF t"
    return [f.attname for f in fields], sql


@functools.cache
def _lock_with_entries_sql() -> tuple[list[str], list[str], list[str], str]:
    """The fields of the tournament, the entry and the player in order, and `_LOCK_FOR_BUST`
    joined to the entries named (an array) and their players (PostgreSQL)."""
    quote = connection.ops.quote_name

    def columns(alias: str, model: Any) -> tuple[list[str], str]:
        fields = model._meta.concrete_fields
        return [f.attname for f in fields], ", ".join(f"{alias}.{quote(f.column)}" for f in fields)

    names, tournament_columns = columns("t", Tournament)
    entry_names, entry_columns = columns("en", Entry)
    player_names, player_columns = columns("pl", Player)
    head, tail = _LOCK_FOR_BUST.split(" FROM tournament_tournament t ", 1)
    assert tail == "WHERE t.id = %s", tail  # the statement above, as written
    sql = (
        head.replace("SELECT t.*", f"SELECT {tournament_columns}", 1)
        + f", {entry_columns}, {player_columns} "
        + f"FROM {quote(Tournament._meta.db_table)} t "
        + f"JOIN {quote(Entry._meta.db_table)} en ON en.tournament_id = t.id "
        + "AND en.id = ANY(%s) "
        + f"JOIN {quote(Player._meta.db_table)} pl ON pl.id = en.player_id "
        + "WHERE t.id = %s ORDER BY en.id FOR UPDATE OF t, en"
    )
    return names, entry_names, player_names, sql


@dataclass(frozen=True)
class BustReport:
    """One player out in a hand.

    The stack at the start of the hand ranks players out in the same hand; where the player sat
    relative to the button is worked out from the seat and the table's button, never typed.
    A dealer's report says which hand it is about: the table's hand number, the button of that
    hand and the hand-for-hand round. A bust at the desk leaves them empty (the player's table,
    its current button and the tournament's hand-for-hand round are taken)."""

    entry: Entry
    stack_at_hand_start: int | None = None
    eliminated_by: tuple[int, ...] = ()  # entry numbers of who knocked the player out
    hand_number: int | None = None
    button_seat: int | None = None
    h4h_round: int | None = None


@dataclass
class _Out:
    """A bust being recorded, with where it happened."""

    entry: Entry
    bust: Bust
    table_number: int | None
    hand: int | None
    h4h_round: int | None


@dataclass
class BustPlan:
    """A bust checked and ranked (`bust_check`), nothing written yet: the busted entries carry
    their finish, the entries already out whose finish moves their new one, the hunters their
    bounties. `bust_record` writes it."""

    tournament: Tournament
    outs: list[_Out]
    sequence: int
    moved: dict[int, int]  # entry id -> new rank, of entries out before whose finish moves
    earlier: dict[int, Entry]  # those entries, locked
    prizes: dict[int, int]
    payouts: list[int]
    deal: tuple[dict[int, int], int] | None
    paid_places: int
    seats_to_win: int
    satellite_done: bool
    alive_after: int
    final: bool
    transfers: list[dict[str, int]]
    hunters: list[Entry]
    # The entries that made a hit (one per player knocked out), for the log and an undo.
    hits: list[int] = field(default_factory=list)

    @property
    def busted(self) -> list[Entry]:
        return [o.entry for o in self.outs]

    @property
    def entry_ids(self) -> list[int]:
        return [o.entry.pk for o in self.outs]


@dataclass(frozen=True)
class BustDone:
    """What a recorded bust changed (`bust_record`), for the layer above to tell the screens."""

    tournament: Tournament
    busted: list[Entry]  # by place
    seats: dict[int, list[int]]  # entry id -> [table id, seat] freed
    reranked: list[dict[str, int]]  # entries out before whose finish moved
    winner: Entry | None
    seat_winners: list[Entry]  # a satellite's last busts: everyone left wins a seat
    paid_at_most: int

    @property
    def finished(self) -> bool:
        return self.tournament.status == Status.FINISHED

    @property
    def promotes_alternate(self) -> bool:
        """The field still grows: the seat freed goes to the first alternate waiting."""
        return (
            self.winner is None and not self.seat_winners and self.tournament.alternates_waiting > 0
        )

    @property
    def table_ids(self) -> list[int]:
        return [table_id for table_id, _seat in self.seats.values()]

    @property
    def places_moved(self) -> list[int]:
        """Entries whose finish moved with this bust, and the winners: their phones show it."""
        winner = [self.winner.pk] if self.winner is not None else []
        return [r["entry"] for r in self.reranked] + [e.pk for e in self.seat_winners] + winner


def bust_check(
    *, tournament: Tournament, busts: Sequence[BustReport], where_sat: WhereSat
) -> BustPlan:
    """Lock the tournament and the entries, refuse what cannot be, rank the hand and price it.
    Writes nothing (the hunters are locked and their bounties added in memory). Call inside
    the transaction of the bust (`actions.bust.entries_bust`).

    One ranking decides for every path (desk, bust page, API, dealer reports): bdpv 6.28;
    tda-de: TDA practice, see `group_offsets`. Players out in a hand that already has a
    recorded bust (the same table and hand from a dealer report, or the same hand-for-hand
    round) are ranked together with it. While the field may still grow (registration open,
    alternates waiting) places are provisional and no prize is given: a bust that would reach
    the money is refused until the floor closes registration. The last player left wins.

    `where_sat` is the tables' read of where entries sit (`tables.selectors.where_entries_sit`),
    passed in by the command: the tournament app knows no table (the layers in pyproject.toml)."""
    if not busts:
        raise FloorError(_("Choose who is out."))
    ids = [b.entry.pk for b in busts]
    # The tournament first, then the entries with their players, in one statement.
    tournament, entries = _lock_for_bust_with_entries(tournament.pk, sorted(set(ids)))
    _refuse_bust(tournament, busts, entries)
    outs = _where_they_sat(tournament, busts, entries, where_sat)
    known = {b.entry.pk for b in busts if b.stack_at_hand_start is not None}
    if any(o.h4h_round is not None and o.entry.pk not in known for o in outs):
        # Players out in the same round at other tables, confirmed before or after, are ranked
        # with this one: without the stack nobody could rank them.
        raise FloorError(
            _("Hand-for-hand: enter the stack at the start of the hand of every player out.")
        )
    group = _hand_already_recorded(tournament, outs)
    sequence = (getattr(tournament, "last_sequence", None) or 0) + 1
    ranks, moved, changed = _rank_hand(tournament, outs, group, known)
    plan = _price_hand(tournament, outs, sequence, changed, moved)
    plan.transfers, plan.hunters = _bounty_transfers(tournament, busts, entries)
    plan.hits = [e.pk for b in busts for e in plan.hunters if e.number in set(b.eliminated_by)]
    now = timezone.now()
    for out in outs:
        pk = out.entry.pk
        _set_finish(out, plan, group_id=group or sequence, rank=ranks[pk], now=now)
        out.entry.bust_stack = out.bust.stack_at_hand_start if pk in known else None
    return plan


def _refuse_bust(
    tournament: Tournament, busts: Sequence[BustReport], entries: dict[int, Entry]
) -> None:
    """Refuse a bust while the tournament is not running, a player listed twice or out
    already, a stack above the chips in play, or nobody left to win."""
    if tournament.status not in (Status.RUNNING, Status.FINAL_TABLE):
        raise FloorError(_("Players can only bust while the tournament is running."))
    ids = [b.entry.pk for b in busts]
    if len(set(ids)) != len(ids):
        raise FloorError(_("The same player is listed twice."))
    for b in busts:
        entry = entries.get(b.entry.pk)
        if entry is None or entry.status != EntryStatus.ACTIVE:
            raise FloorError(_("#%(n)s is not in the tournament any more.") % {"n": b.entry.number})
        if b.stack_at_hand_start is not None and not 0 <= b.stack_at_hand_start <= max(
            tournament.chips_in, 0
        ):
            raise FloorError(
                _("#%(n)s: a stack of %(stack)s is more than the chips in play (%(chips)s).")
                % {
                    "n": entry.number,
                    "stack": figures.chips(b.stack_at_hand_start),
                    "chips": figures.chips(tournament.chips_in),
                }
            )
    # The locked row holds the head counts (kept by the database: tournament/counters.py).
    if len(busts) >= tournament.players_left:
        raise FloorError(_("At least one player must remain: the winner."))


def _rank_hand(
    tournament: Tournament, outs: Sequence[_Out], group: int | None, known: set[int]
) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    """The ranks of the players out in this hand, the new ranks of entries out before whose
    finish moves (a hand recorded before joined by this one), and the places of both."""
    field = tournament.entries_counted
    try:
        if group is None:
            busts = [o.bust for o in outs]
            _require_stacks(tournament.ruleset, busts, _h4h(outs), known)
            offsets = group_offsets(busts, ruleset=tournament.ruleset, hand_for_hand=_h4h(outs))
            below = field - tournament.players_left  # entries out before this hand
            ranks = {pk: below + len(outs) - offset for pk, offset in offsets.items()}
            moved: dict[int, int] = {}
        else:
            ranks, moved = _ranks_with_joined(tournament, outs, group, known)
        changed = {pk: place_of(r, field) for pk, r in {**moved, **ranks}.items()}
    except EliminationError as exc:
        raise FloorError(str(exc)) from exc
    return ranks, moved, changed


def _price_hand(
    tournament: Tournament,
    outs: Sequence[_Out],
    sequence: int,
    changed: dict[int, int],
    moved: dict[int, int],
) -> BustPlan:
    """The places and prizes of this hand and of the finishes it moves; refuses a bust that
    reaches the money while the field may still grow, or that changes a prize paid already."""
    field = tournament.entries_counted
    alive_after = tournament.players_left - len(outs)
    numbers = tournament_numbers(tournament) if tournament.satellite_seat_value else None
    seats_to_win = satellite_seats(tournament, numbers) if numbers else 0
    # A satellite ends when no more players are left than it has seats (they all win one).
    satellite_done = 0 < alive_after <= seats_to_win
    # An event's Day 2 pays by the entries of all its flights (festivals/), not its own field.
    paying = tournament_numbers(tournament).entries if tournament.pooled else field
    paid_places = max(_most_places_paid(tournament, paying), seats_to_win)
    in_money = alive_after == 1 or satellite_done or min(changed.values()) <= paid_places
    final = field_is_final(tournament)
    if in_money and not final:
        raise FloorError(
            _(
                "This bust reaches the money, but registration is still open (or alternates are "
                "waiting): the places are not final yet. Close registration first."
            ),
            code="registration_open",
        )
    payouts = payout_amounts(tournament, numbers) if in_money else []
    deal = deal_prizes(tournament) if getattr(tournament, "has_deal", True) else None
    prizes = _prizes_by_place(tournament, changed, payouts, deal)
    return BustPlan(
        tournament=tournament,
        outs=list(outs),
        sequence=sequence,
        moved=moved,
        earlier=_check_moved_payments(tournament, moved, prizes),
        prizes=prizes,
        payouts=payouts,
        deal=deal,
        paid_places=paid_places,
        seats_to_win=seats_to_win,
        satellite_done=satellite_done,
        alive_after=alive_after,
        final=final,
        transfers=[],
        hunters=[],
    )


def _set_finish(out: _Out, plan: BustPlan, *, group_id: int, rank: int, now: Any) -> None:
    """Give a busted entry its finish and where it was out (in memory)."""
    entry = out.entry
    entry.status = EntryStatus.BUSTED
    entry.place = place_of(rank, plan.tournament.entries_counted)
    entry.prize = plan.prizes[entry.pk]
    entry.busted_at = now
    entry.bust_sequence = plan.sequence
    entry.bust_group = group_id
    entry.elimination_rank = rank
    entry.bust_seats_from_button = out.bust.seats_from_button
    entry.bust_table = out.table_number
    entry.bust_hand = out.hand
    entry.bust_h4h_round = out.h4h_round
    entry.bust_lot = out.bust.lot
    entry.won_seat = plan.seats_to_win > 0 and entry.place <= plan.seats_to_win


def bust_finish_statement(plan: BustPlan) -> tuple[str, list[Any]] | None:
    """The statement that writes the finish of the one player out, for the tables app to run
    with the statement that frees the seat (`tables.services.seats.seats_free`: one round trip
    on the usual bust). None when several are out, or on SQLite: `bust_record` writes them."""
    if len(plan.outs) != 1 or connection.vendor != "postgresql":
        return None
    e = plan.outs[0].entry
    quote = connection.ops.quote_name
    column = {f.name: f.column for f in Entry._meta.concrete_fields}
    columns = ", ".join(f"{quote(column[name])} = %s" for name in _BUST_FIELDS)
    return (
        f"UPDATE {quote(Entry._meta.db_table)} SET {columns} WHERE id = %s",  # noqa: S608
        [*(getattr(e, name) for name in _BUST_FIELDS), e.pk],
    )


def bust_record(
    plan: BustPlan, *, seats: dict[int, list[int]], finish_written: bool, actor: Actor
) -> BustDone:
    """Write a checked bust: the finishes (unless `finish_written` with the seats freed), the
    finishes that moved, the bounties, the winner or a satellite's seat winners and the end of
    the tournament, and the event-log line. `seats`: the seats freed (entry id -> [table id,
    seat]), kept in the log for an undo. Call inside the transaction of `bust_check`."""
    tournament = plan.tournament
    busted = plan.busted
    if not finish_written:
        Entry.objects.bulk_update(busted, _BUST_FIELDS)
    field = tournament.entries_counted
    reranked = _write_moved(plan.earlier, plan.moved, field, plan.prizes)
    if plan.hunters:
        Entry.objects.bulk_update(plan.hunters, ["bounties_won", "bounty", "hits"])
    previous_status = tournament.status
    winner, winner_bounty, seat_winners = _winners(plan)
    event_record(
        tournament=tournament,
        action="entry.bust",
        actor=actor,
        payload={
            "sequence": plan.sequence,
            "group": busted[0].bust_group,
            # The places paid at most (a satellite's cash remainder pays one more): the bubble
            # announcement is only worked out for a bust near it (clocks/announcements.py).
            "paid_at_most": plan.paid_places,
            "busts": [
                {
                    "entry": e.pk,
                    "number": e.number,
                    "place": e.place,
                    "prize": e.prize,
                    "seat": seats.get(e.pk),
                    "stack": e.bust_stack,
                    "seats_from_button": e.bust_seats_from_button,
                    "table": e.bust_table,
                    "hand": e.bust_hand,
                }
                for e in sorted(busted, key=lambda x: x.place or 0)
            ],
            "reranked": reranked,
            "provisional": not plan.final,
            "winner": winner.pk if winner else None,
            "seat_winners": [e.pk for e in seat_winners],
            "winner_bounty": winner_bounty,
            "bounties": plan.transfers,
            # The entries that made a hit (one per player they knocked out), for an undo.
            "hits": plan.hits,
            "previous_status": previous_status,
            "hand_for_hand": tournament.hand_for_hand,
        },
    )
    return BustDone(
        tournament=tournament,
        busted=sorted(busted, key=lambda x: x.place or 0),
        seats=seats,
        reranked=reranked,
        winner=winner,
        seat_winners=seat_winners,
        paid_at_most=plan.paid_places,
    )


def _winners(plan: BustPlan) -> tuple[Entry | None, int, list[Entry]]:
    """The winner when one player is left (who collects their own bounty), or a satellite's
    seat winners when no more are left than it has seats: they share first place. Either ends
    the tournament. Returns the winner, the winner's own bounty and the seat winners."""
    tournament, sequence, payouts = plan.tournament, plan.sequence, plan.payouts
    field = tournament.entries_counted
    if plan.satellite_done:
        # No finishing order among the seat winners: all share first place and a seat.
        seat_winners = list(
            tournament.entries.select_for_update().filter(status=EntryStatus.ACTIVE)
        )
        for e in seat_winners:
            e.place, e.prize, e.won_seat, e.bust_sequence = 1, payouts[0], True, sequence
            e.elimination_rank = field
        Entry.objects.bulk_update(
            seat_winners, ["place", "prize", "won_seat", "bust_sequence", "elimination_rank"]
        )
        tournament.status = Status.FINISHED
        tournament.save(update_fields=["status"])
        return None, 0, seat_winners
    if plan.alive_after != 1:
        return None, 0, []
    winner = tournament.entries.select_for_update().get(status=EntryStatus.ACTIVE)
    winner.place = 1
    winner.elimination_rank = field
    winner.prize = payouts[0] if payouts else 0
    if plan.deal is not None and winner.pk in plan.deal[0]:
        winner.prize = plan.deal[0][winner.pk] + plan.deal[1]
    winner.bust_sequence = sequence
    winner_bounty = 0
    if tournament.bounty_kind != BountyKind.NONE:  # the winner collects their own bounty
        winner_bounty = winner.bounty
        winner.bounties_won += winner_bounty
    winner.save(
        update_fields=["place", "prize", "bust_sequence", "bounties_won", "elimination_rank"]
    )
    tournament.status = Status.FINISHED
    tournament.save(update_fields=["status"])
    return winner, winner_bounty, []


_BUST_FIELDS = [
    "status",
    "place",
    "prize",
    "busted_at",
    "bust_sequence",
    "bust_group",
    "elimination_rank",
    "bust_stack",
    "bust_seats_from_button",
    "bust_table",
    "bust_hand",
    "bust_h4h_round",
    "bust_lot",
    "won_seat",
]


def _h4h(outs: Sequence[_Out]) -> bool:
    return any(o.h4h_round is not None for o in outs)


def _where_they_sat(
    tournament: Tournament,
    busts: Sequence[BustReport],
    entries: dict[int, Entry],
    where_sat: WhereSat,
) -> list[_Out]:
    """Each bust with its table, hand and seat distance from that hand's button (one query)."""
    # The usual desk bust (one player, no hand named, no hand-for-hand) is a hand of its own:
    # nothing ranks it and nothing joins it later, so where the player sat is not needed.
    alone = len(busts) == 1 and busts[0].hand_number is None and not tournament.hand_for_hand
    rows = {} if alone else where_sat(list(entries))
    outs = []
    for b in busts:
        entry = entries[b.entry.pk]
        found = rows.get(entry.pk)
        table_number = hand = distance = None
        if found is not None:
            _table_id, table_number, size, seat_no, button, current_hand = found
            button = b.button_seat if b.button_seat is not None else button
            if button is not None and 1 <= button <= size:
                distance = (seat_no - button) % size
            # A dealer's report names its hand; a desk bust is in the hand being played.
            hand = b.hand_number if b.hand_number is not None else current_hand
        h4h_round = b.h4h_round
        if h4h_round is None and tournament.hand_for_hand:
            h4h_round = tournament.h4h_round
        outs.append(
            _Out(
                entry=entry,
                bust=Bust(
                    entry_id=entry.pk,
                    stack_at_hand_start=b.stack_at_hand_start or 0,
                    seats_from_button=distance,
                    table=table_number or 0,
                    lot=secrets.randbelow(2**31),
                ),
                table_number=table_number,
                hand=hand if b.hand_number is not None or h4h_round is not None else None,
                h4h_round=h4h_round,
            )
        )
    return outs


def _hand_already_recorded(tournament: Tournament, outs: Sequence[_Out]) -> int | None:
    """The group of busts already recorded for the same hand, if any: the same hand-for-hand
    round anywhere, or the same table and hand number from a dealer report."""
    rounds = {o.h4h_round for o in outs if o.h4h_round is not None}
    hands = {(o.table_number, o.hand) for o in outs if o.hand is not None}
    if not rounds and not hands:
        return None  # a desk bust outside hand-for-hand is a hand of its own
    busted = tournament.entries.filter(status=EntryStatus.BUSTED)
    if rounds:
        found = busted.filter(bust_h4h_round__in=rounds).values_list("bust_group", flat=True)
    else:
        cond = Q()
        for number, hand in hands:
            cond |= Q(bust_table=number, bust_hand=hand)
        found = busted.filter(cond, bust_h4h_round__isnull=True).values_list(
            "bust_group", flat=True
        )
    groups = {g for g in found if g is not None}
    return max(groups) if groups else None


def _require_stacks(
    ruleset: str, busts: Sequence[Bust], hand_for_hand: bool, known: set[int]
) -> None:
    """Several players out in one hand are ranked by their stacks at the start of it (`known`:
    the entries whose stack was given); under tda-de hand-for-hand only players at the same
    table need one, as tables tie."""
    if len(busts) < 2:
        return
    missing = [b for b in busts if b.entry_id not in known]
    if not missing:
        return
    if ruleset == "tda-de" and hand_for_hand:
        tables = [b.table for b in busts]
        if all(b.table and tables.count(b.table) == 1 for b in missing):
            return
    raise FloorError(
        _("Several players are out in one hand: enter each one's stack at the start of the hand.")
    )


def _ranks_with_joined(
    tournament: Tournament, outs: Sequence[_Out], group: int, known: set[int]
) -> tuple[dict[int, int], dict[int, int]]:
    """Rank the new busts together with the hand's busts recorded before, and move every later
    finish up accordingly. Returns the new busts' ranks and the changed ranks of entries
    already out."""
    groups, old_rank, known_before = _recorded_groups(tournament)
    for o in outs:
        groups[group].append((o.bust, o.h4h_round is not None))
    joined = groups[group]
    _require_stacks(
        tournament.ruleset,
        [b for b, _h in joined],
        any(h for _b, h in joined),
        known | known_before,
    )
    ranks = _ranks_of(groups, tournament.ruleset)
    new_ids = {o.entry.pk for o in outs}
    # Everyone of the joined hand gets their prize again (a shared place may now be shared by
    # more), and every finish that moved.
    moved = {
        pk: r
        for pk, r in ranks.items()
        if pk not in new_ids and (old_rank.get(pk) != r or pk in {b.entry_id for b, _h in joined})
    }
    return {pk: ranks[pk] for pk in new_ids}, moved


_Groups = dict[int, list[tuple[Bust, bool]]]


def _recorded_groups(tournament: Tournament) -> tuple[_Groups, dict[int, int | None], set[int]]:
    """The busts recorded so far, by hand (group id = the sequence of the hand's first bust),
    with each entry's current rank and the entries whose stack is known."""
    groups: _Groups = defaultdict(list)
    old_rank: dict[int, int | None] = {}
    known: set[int] = set()
    for pk, gid, stack, distance, table, h4h, lot, rank in tournament.entries.filter(
        status=EntryStatus.BUSTED
    ).values_list(
        "pk",
        "bust_group",
        "bust_stack",
        "bust_seats_from_button",
        "bust_table",
        "bust_h4h_round",
        "bust_lot",
        "elimination_rank",
    ):
        bust = Bust(
            entry_id=pk,
            stack_at_hand_start=stack or 0,
            seats_from_button=distance,
            table=table or 0,
            lot=lot or 0,
        )
        groups[gid or 0].append((bust, h4h is not None))
        old_rank[pk] = rank
        if stack is not None:
            known.add(pk)
    return groups, old_rank, known


def _ranks_of(groups: _Groups, ruleset: str) -> dict[int, int]:
    return elimination_ranks(
        [
            BustGroup(
                busts=tuple(b for b, _h in groups[g]), hand_for_hand=any(h for _b, h in groups[g])
            )
            for g in sorted(groups)
            if groups[g]
        ],
        ruleset=ruleset,
    )


def _prizes_by_place(
    tournament: Tournament,
    places: dict[int, int],
    payouts: list[int],
    deal: tuple[dict[int, int], int] | None,
) -> dict[int, int]:
    """Prizes of the given finishes (shared places split); the shares of an agreed `deal`
    (`deal_prizes`) replace them."""
    prizes = _prizes_for(places, payouts, tournament.payout_unit)
    if deal is not None:
        for entry_id in places:
            if entry_id in deal[0]:
                prizes[entry_id] = deal[0][entry_id]
    return prizes


def _check_moved_payments(
    tournament: Tournament, moved: dict[int, int], prizes: dict[int, int]
) -> dict[int, Entry]:
    """Entries already out whose finish moves; refuse when that would change a prize that has
    been paid (the payout desk settles it first)."""
    if not moved:
        return {}
    earlier = {e.pk: e for e in tournament.entries.select_for_update().filter(pk__in=moved)}
    for pk, e in earlier.items():
        if e.paid_amount > 0 and prizes.get(pk, e.prize) != e.prize:
            raise FloorError(
                _(
                    "Ranking this hand together changes the prize of #%(n)s, which has been "
                    "paid already. Settle that payment at the payout desk first."
                )
                % {"n": e.number}
            )
    return earlier


def _write_moved(
    earlier: dict[int, Entry], moved: dict[int, int], field: int, prizes: dict[int, int]
) -> list[dict[str, int]]:
    """Write the new finishes of entries already out; returns them for the event log."""
    changed = []
    for pk, rank in moved.items():
        e = earlier[pk]
        before = {"place": e.place or 0, "prize": e.prize, "rank": e.elimination_rank or 0}
        e.elimination_rank = rank
        e.place = place_of(rank, field)
        e.prize = prizes.get(pk, e.prize)
        changed.append(
            {
                "entry": pk,
                "number": e.number,
                **{f"{k}_before": v for k, v in before.items()},
                "place": e.place,
                "prize": e.prize,
            }
        )
    if earlier:
        Entry.objects.bulk_update(list(earlier.values()), ["elimination_rank", "place", "prize"])
    return changed


def _bounty_transfers(
    tournament: Tournament, busts: Sequence[BustReport], entries: dict[int, Entry]
) -> tuple[list[dict[str, int]], list[Entry]]:
    """The bounties of this hand's busted players paid to who knocked them out: the transfers
    for the event log (and for an undo), and the hunters (locked) with their bounties and hits
    added in memory (`bust_record` writes them)."""
    numbers = {n for b in busts for n in b.eliminated_by}
    if not numbers and tournament.bounty_kind == BountyKind.NONE:
        return [], []
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
    for b in busts:  # each eliminator named makes a hit (TD3's hits, leagues' `h`)
        for n in set(b.eliminated_by):
            by_number[n].hits += 1
    transfers: list[dict[str, int]] = []
    if tournament.bounty_kind == BountyKind.NONE:
        return transfers, hunters
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
    return transfers, hunters


def _undo_bounties(payload: dict) -> None:
    for pk, hits in Counter(payload.get("hits", [])).items():
        Entry.objects.filter(pk=pk, hits__gte=hits).update(hits=F("hits") - hits)
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


@dataclass(frozen=True)
class BustUndone:
    """What an undone bust changed (`bust_undo_record`)."""

    restored: list[Entry]  # the entries of the hand, back in play (the winner's too)
    busted_ids: list[int]  # the players of the hand that was undone: their phones are told
    seats: list[tuple[int, int, int]]  # (entry id, table id, seat) they sat in, to give back


def bust_undo_record(
    *,
    tournament: Tournament,
    actor: Actor,
    correct_payments: bool = False,
    sequence: int | None = None,
) -> BustUndone:
    """Undo the most recent bust (all players of that hand): the players are back in play,
    finishes that moved when the hand was ranked together move back. The seats they sat in are
    returned for the tables app to give back where still free (`actions.bust.bust_undo_last`,
    whose transaction this runs in).

    Money already paid is never lost: when the undone bust's prize (or a bounty it paid) has
    been paid out, the undo is refused unless `correct_payments` is set; then each payment stays
    on the books as paid, the amount owed drops, and the payout desk shows the difference as a
    correction to collect (a `payout.correction` event records it).

    `sequence`: the bust the form showed as the last one. Another one last now (the same form
    sent twice, after a dropped connection or by a second desk) is refused: one tap undoes one
    bust, never the one before it too."""
    tournament = lock_tournament(tournament.pk, key=True)
    if tournament.status == Status.FINISHED:
        raise FloorError(
            _(
                "The tournament has ended. To undo its last bust, the director reopens it first "
                "(Overview → Reopen the tournament)."
            ),
            code="finished",
        )
    last = tournament.entries.aggregate(m=Max("bust_sequence"))["m"]
    if last is None:
        raise FloorError(_("There is no bust to undo."))
    if sequence is not None and sequence != last:
        raise FloorError(
            _(
                "The last bust has changed since this page was drawn (it was undone already, "
                "or another bust came in): nothing was undone. Look at the busts and undo again "
                "if you mean it."
            ),
            code="changed",
        )
    event = (
        tournament.events.filter(action="entry.bust", payload__sequence=last)
        .order_by("-id")
        .first()
    )
    if event is not None and event_renumbered(event=event):
        raise FloorError(
            _("This bust was recorded before the tournament was imported: undo it by hand.")
        )
    affected = list(tournament.entries.select_for_update().filter(bust_sequence=last))
    _refuse_undo_of_reentered(tournament, affected)
    payload = event.payload if event is not None else {}
    hunters = {t["to"] for t in payload.get("bounties", [])}
    paid = [e for e in [*affected, *tournament.entries.filter(pk__in=hunters)] if e.paid_amount > 0]
    if paid and not correct_payments:
        raise FloorError(
            _(
                "Money has been paid for this bust (%(who)s). Undoing it turns that payment into "
                "a correction at the payout desk: confirm to go on."
            )
            % {"who": ", ".join(f"#{e.number}" for e in paid)},
            code="paid",
        )
    return _undo_write(
        tournament,
        actor,
        last=last,
        affected=affected,
        payload=payload,
        paid=paid,
        logged=event is not None,
    )


def _refuse_undo_of_reentered(tournament: Tournament, affected: list[Entry]) -> None:
    """A player of the bust who has entered again cannot come back while the new entry lives."""
    again = (
        tournament.entries.filter(
            player_id__in=[e.player_id for e in affected if e.status == EntryStatus.BUSTED],
            status__in=[EntryStatus.ACTIVE, EntryStatus.ALTERNATE],
        )
        .order_by("number")
        .first()
    )
    if again is not None:
        raise FloorError(
            _(
                "The player of this bust has entered again (#%(n)s): the bust cannot be undone "
                "while the new entry is live."
            )
            % {"n": again.number}
        )


def _undo_write(
    tournament: Tournament,
    actor: Actor,
    *,
    last: int,
    affected: list[Entry],
    payload: dict[str, Any],
    paid: list[Entry],
    logged: bool,
) -> BustUndone:
    """Write an undo `bust_undo_record` checked: the hand's entries back in play, the finishes
    moved back, the bounties given back, the event-log lines."""
    joined_earlier = any(e.bust_group not in (None, last) for e in affected)
    restored: list[Entry] = []
    for entry in affected:
        if entry.status == EntryStatus.BUSTED:
            entry.status = EntryStatus.ACTIVE
        entry.place = None
        entry.prize = 0
        entry.busted_at = None
        entry.bust_sequence = None
        entry.won_seat = False
        for name in _BUST_FIELDS:
            if name.startswith("bust_") or name == "elimination_rank":
                setattr(entry, name, None)
        restored.append(entry)
    Entry.objects.bulk_update(restored, _BUST_FIELDS)
    reranked: list[dict[str, int]] = []
    if joined_earlier:
        reranked = _rerank_all(tournament)
    busts: list[dict[str, Any]] = payload.get("busts", []) if logged else []
    if logged:
        _undo_bounties(payload)
    corrections = [
        {"entry": e.pk, "number": e.number, "paid": e.paid_amount}
        for e in Entry.objects.filter(pk__in=[e.pk for e in paid])
    ]
    event_record(
        tournament=tournament,
        action="entry.bust_undo",
        actor=actor,
        payload={"sequence": last, "entries": [e.pk for e in restored], "reranked": reranked},
    )
    if corrections:
        event_record(
            tournament=tournament,
            action="payout.correction",
            actor=actor,
            payload={"sequence": last, "entries": corrections},
        )
    return BustUndone(
        restored=restored,
        busted_ids=[b["entry"] for b in busts],
        seats=[(b["entry"], *b["seat"]) for b in busts if b.get("seat")],
    )


def _rerank_all(tournament: Tournament) -> list[dict[str, int]]:
    """Rank every recorded bust again from the hands they were out in (after an undo took a
    player out of a hand recorded earlier) and write the finishes that changed."""
    groups, old_rank, _known = _recorded_groups(tournament)
    field = Tournament.objects.values_list("entries_counted", flat=True).get(pk=tournament.pk)
    ranks = _ranks_of(groups, tournament.ruleset)
    moved = {pk: r for pk, r in ranks.items() if old_rank.get(pk) != r}
    if not moved:
        return []
    places = {pk: place_of(r, field) for pk, r in moved.items()}
    final = field_is_final(tournament)
    payouts = payout_amounts(tournament) if final else []
    prizes = _prizes_by_place(tournament, places, payouts, deal_prizes(tournament))
    earlier = {e.pk: e for e in tournament.entries.select_for_update().filter(pk__in=moved)}
    return _write_moved(earlier, moved, field, prizes)


def prizes_changed(tournament: Tournament) -> list[Entry]:
    """The finishes recorded so far (locked) whose prize differs from the prize of their place
    now, each with its `new_prize`. Writes nothing."""
    rows = {
        e.pk: e
        for e in tournament.entries.select_for_update().filter(
            status=EntryStatus.BUSTED, place__isnull=False
        )
    }
    if not rows:
        return []
    payouts = payout_amounts(tournament)
    places = {pk: e.place for pk, e in rows.items() if e.place is not None}
    prizes = _prizes_by_place(tournament, places, payouts, deal_prizes(tournament))
    changed = [e for pk, e in rows.items() if e.prize != prizes[pk]]
    for e in changed:
        e.new_prize = prizes[e.pk]  # type: ignore[attr-defined]
    return changed


def prizes_write(changed: list[Entry]) -> None:
    """Write the `new_prize` of each entry `prizes_changed` returned."""
    for e in changed:
        e.prize = e.new_prize  # type: ignore[attr-defined]
    Entry.objects.bulk_update(changed, ["prize"])
    notify_seats(e.pk for e in changed)  # their phones show the prize


def prizes_refresh(*, tournament: Tournament) -> int:
    """Give every finish recorded so far the prize of its place, now that the field is final
    (registration closed). Returns how many prizes changed. Call inside the transaction that
    closed registration."""
    changed = prizes_changed(tournament)
    prizes_write(changed)
    return len(changed)
