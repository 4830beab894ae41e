"""Events with starting flights: making one, bag and tag at the end of a day, closing the day
and the Day-2 draw (docs/festivals.md). The arithmetic is in festivals/domain/; this module
checks, writes and logs, each operation in one transaction that changes nothing when refused.

This app sits above the others (like actions/): it calls the tournament, tables and counts
services and nothing below imports it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from random import Random
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, npgettext

from actions.tournaments import tournament_reopen, tournament_status_set
from config.bulk import insert_columns
from core.errors import Conflict, FloorError, NotFound
from counts.models import ChipCount, CountSource
from counts.services import counts_record
from festivals.domain.bagging import bag_refusal, normalise_bag
from festivals.domain.day2 import FestivalError, Survivor, day2_draw, merge_survivors
from festivals.models import Advance, Bagging, Carried, Flight, FlightEvent
from festivals.selectors import (
    bag_holders,
    bagging_report,
    counted_by,
    disputed,
    festival_of,
    flight_labels,
    last_bagging,
    latest_bags,
    open_bagging,
)
from live.realtime import broadcast_on_commit, tournament_group
from tables.domain.seating import secure_random, tables_needed
from tables.services import seats_place
from tournament.events import Actor, event_record
from tournament.locks import lock_tournament
from tournament.models import (
    Entry,
    EntryStatus,
    Purchase,
    PurchaseKind,
    Status,
    Tournament,
    new_public_token,
)
from tournament.services.registration import registration_close
from tournament.services.tournaments import (
    TOURNAMENT_FIELDS,
    tournament_create,
    tournament_update,
)

MAX_FLIGHTS = 26
# What a flight and the Day 2 copy from the tournament the event is made from.
_NOT_COPIED = {"name", "starts_at", "capacity", "guarantee", "places_paid"}


def _label(position: int) -> str:
    return f"1{chr(ord('A') + position)}"


@transaction.atomic
def event_create(
    *,
    template: Tournament,
    name: str,
    flights: int,
    actor: Actor,
    advance: str = Advance.ALL,
    reentry_across_flights: bool = True,
    flight_cap: int | None = None,
    tolerance_bp: int = 50,
    days_between: int = 1,
) -> FlightEvent:
    """Make an event of `flights` starting flights and a Day 2 from `template`, which becomes
    Day 1A. The other flights copy its settings and start `days_between` days apart; the Day 2
    starts a day after the last flight, holds the guarantee and pays the places; each flight's
    buy-ins go to the Day 2's prize pool."""
    template = lock_tournament(template.pk, key=True)
    name = (name or "").strip()
    _event_checked(
        template,
        name=name,
        flights=flights,
        advance=advance,
        flight_cap=flight_cap,
        tolerance_bp=tolerance_bp,
        days_between=days_between,
    )
    copied = {f: getattr(template, f) for f in TOURNAMENT_FIELDS if f not in _NOT_COPIED} | {
        "capacity": flight_cap,
        "guarantee": 0,
    }
    structure, chip_set = template.structure, template.chip_set
    gap = timedelta(days=days_between)
    day2 = tournament_create(
        actor=actor,
        name=f"{name} – {_('Day 2')}"[:120],
        starts_at=template.starts_at + gap * (flights - 1) + timedelta(days=1),
        buy_in=copied.pop("buy_in"),
        starting_stack=copied.pop("starting_stack"),
        structure=structure,
        chip_set=chip_set,
        **(copied | {"capacity": None, "guarantee": template.guarantee}),
        places_paid=template.places_paid,
    )
    copied |= {"buy_in": day2.buy_in, "starting_stack": day2.starting_stack}
    Tournament.objects.filter(pk=day2.pk).update(pooled=True)
    day2.pooled = True
    event = FlightEvent.objects.create(
        name=name,
        day2=day2,
        advance=advance,
        reentry_across_flights=reentry_across_flights,
        flight_cap=flight_cap,
        tolerance_bp=tolerance_bp,
    )
    made = _flights_made(template, name=name, flights=flights, copied=copied, gap=gap, actor=actor)
    Tournament.objects.filter(pk__in=[t.pk for t in made]).update(pool_to=day2)
    Flight.objects.bulk_create(
        Flight(event=event, tournament=t, label=_label(i), position=i) for i, t in enumerate(made)
    )
    event_record(
        tournament=day2,
        action="festival.create",
        actor=actor,
        payload={
            "event": event.pk,
            "flights": [t.pk for t in made],
            "advance": advance,
            "reentry_across_flights": reentry_across_flights,
            "flight_cap": flight_cap,
        },
    )
    return event


def _flights_made(
    template: Tournament,
    *,
    name: str,
    flights: int,
    copied: dict[str, Any],
    gap: timedelta,
    actor: Actor,
) -> list[Tournament]:
    """The flights: the template becomes Day 1A; 1B, 1C, … take its settings, `gap` apart."""
    tournament_update(
        tournament=template,
        actor=actor,
        name=f"{name} – {_('Day %(f)s') % {'f': _label(0)}}"[:120],
        capacity=copied["capacity"],
        guarantee=0,
    )
    made = [template]
    for i in range(1, flights):
        values = dict(copied)
        made.append(
            tournament_create(
                actor=actor,
                name=f"{name} – {_('Day %(f)s') % {'f': _label(i)}}"[:120],
                starts_at=template.starts_at + gap * i,
                buy_in=values.pop("buy_in"),
                starting_stack=values.pop("starting_stack"),
                structure=template.structure,
                chip_set=template.chip_set,
                **values,
            )
        )
    return made


def _event_checked(
    template: Tournament,
    *,
    name: str,
    flights: int,
    advance: str,
    flight_cap: int | None,
    tolerance_bp: int,
    days_between: int,
) -> None:
    """Refuse an event's settings that cannot be, or a template that cannot become Day 1A."""
    if not name or len(name) > 100:
        raise FloorError(_("Give the event a name of 1 to 100 characters."), field="name")
    if not 2 <= flights <= MAX_FLIGHTS:
        raise FloorError(_("An event has 2 to 26 starting flights."), field="flights")
    if advance not in Advance.values:
        raise FloorError(_("Choose who advances to Day 2."), field="advance")
    if flight_cap is not None and flight_cap < 2:
        raise FloorError(_("A flight holds at least 2 players."), field="flight_cap")
    if not 0 <= tolerance_bp <= 1000:
        raise FloorError(
            _("The count tolerance is 0 to 10 % of the chips in play."), field="tolerance_bp"
        )
    if not 0 <= days_between <= 7:
        raise FloorError(_("Flights start 0 to 7 days apart."), field="days_between")
    if template.status not in (Status.PLANNED, Status.REGISTERING):
        raise FloorError(
            _("Make an event from a tournament that has not started."), field="template"
        )
    if (
        template.pool_to_id
        or template.pooled
        or Flight.objects.filter(tournament=template).exists()
    ):
        raise FloorError(_("This tournament belongs to an event already."), field="template")
    if template.satellite_seat_value or template.bounty_kind != "none":
        raise FloorError(
            _("Satellites and bounty tournaments cannot be made into flights."), field="template"
        )


def event_of(tournament: Tournament) -> FlightEvent | None:
    """The event a flight or a Day 2 belongs to."""
    part = festival_of(tournament)
    return part["event"] if part is not None else None


def day_label(event: FlightEvent, tournament: Tournament) -> str:
    if tournament.pk == event.day2_id:
        days = Bagging.objects.filter(tournament=tournament).count()
        return str(2 + days)
    return flight_labels(event).get(tournament.pk, "?")


# --- Bag and tag ---------------------------------------------------------------------------


@transaction.atomic
def bagging_open(*, tournament: Tournament, actor: Actor) -> Bagging:
    """Bag and tag begins at the end of this tournament's day: every player still in must be
    bagged (count and bag number) and the count confirmed before the day can close."""
    locked = lock_tournament(tournament.pk, key=True)
    event = event_of(locked)
    if event is None:
        raise FloorError(_("Bag and tag is for events with starting flights."))
    if locked.status not in (Status.RUNNING, Status.FINAL_TABLE):
        raise FloorError(_("Bag and tag begins at the end of a day of play."))
    if event.drawn_at and locked.pk != event.day2_id:
        raise FloorError(_("The Day 2 has been drawn: this flight is over."))
    if open_bagging(locked) is not None:
        raise FloorError(_("Bag and tag is under way already."))
    if not locked.players_left:
        raise FloorError(_("Nobody is left to bag."))
    after = ChipCount.objects.aggregate(m=Max("id"))["m"] or 0
    bagging = Bagging.objects.create(
        event=event,
        tournament=locked,
        day=day_label(event, locked),
        after_count=after,
        opened_by=actor.user,
    )
    event_record(
        tournament=locked,
        action="festival.bagging_open",
        actor=actor,
        payload={"bagging": bagging.pk, "day": bagging.day, "players": locked.players_left},
    )
    return bagging


@transaction.atomic
def bags_record(
    *,
    bagging: Bagging,
    table_number: int,
    bags: Mapping[int, tuple[int | None, str]],
    actor: Actor,
    source: str = CountSource.FLOOR,
) -> list[ChipCount]:
    """One table's bags: {entry id: (count, bag number)}; a blank count leaves that player as
    is. A player counted before in this bag and tag by another person with the same count and
    bag is confirmed by this count; a different result stands as the latest and is flagged as
    disputed until the counts agree. A bag number used for another player is refused."""
    tournament = lock_tournament(bagging.tournament_id, key=True)
    bagging = Bagging.objects.select_for_update().get(pk=bagging.pk)
    if bagging.closed_at is not None:
        raise FloorError(_("This day is closed: a director reopens it to change a bag."))
    typed = {e: (c, b) for e, (c, b) in bags.items() if c is not None}
    if not typed:
        raise FloorError(_("Enter at least one count."))
    _at_table(tournament, table_number, list(typed))
    latest = latest_bags(bagging, typed)
    held = bag_holders(bagging, [b for _c, b in typed.values()])
    taken = {bag: row.entry_id for bag, row in held.items()}
    holders = {row.entry_id: row for row in held.values()}
    numbers = dict(Entry.objects.filter(pk__in=[*typed, *holders]).values_list("pk", "number"))
    counts: dict[int, int] = {}
    bag_of: dict[int, str] = {}
    verified: set[int] = set()
    me = counted_by(source, actor.user.pk if actor.user else None, actor.label)
    for entry_id, (chips, bag) in typed.items():
        n = numbers.get(entry_id, "?")
        why = bag_refusal(bag, entry_id=entry_id, taken=taken)
        if why == "bag_empty":
            raise FloorError(_("#%(n)s: enter the bag number.") % {"n": n}, code=why)
        if why == "bag_format":
            raise FloorError(
                _("#%(n)s: a bag number has 1 to 20 letters, digits or dashes.") % {"n": n},
                code=why,
            )
        if why == "bag_taken":
            holder = taken[normalise_bag(bag)]
            where = holders[holder].table if holder in holders else table_number
            raise FloorError(
                _("#%(n)s: bag %(bag)s is used already for #%(other)s (table %(t)s).")
                % {
                    "n": n,
                    "bag": normalise_bag(bag),
                    "other": numbers.get(holder, "?"),
                    "t": where if where is not None else "–",
                },
                code=why,
            )
        taken[normalise_bag(bag)] = entry_id
        counts[entry_id] = int(chips)  # type: ignore[arg-type]
        bag_of[entry_id] = normalise_bag(bag)
        before = latest.get(entry_id)
        if (
            before is not None
            and before.chips == chips
            and normalise_bag(before.bag) == bag_of[entry_id]
            and counted_by(before.source, before.recorded_by_id, before.label) != me
        ):
            verified.add(entry_id)
    recorded = counts_record(
        tournament=tournament,
        counts=counts,
        actor=actor,
        source=source,
        table_number=table_number,
        bags=bag_of,
        verified=verified,
    )
    return recorded.counts


def _at_table(tournament: Tournament, table_number: int, entry_ids: list[int]) -> None:
    """Refuse the whole form when a count is for a player who is no longer at this table (out,
    or moved since the form was drawn), naming them: a count is never dropped silently."""
    entries = {
        e.pk: e
        for e in Entry.objects.filter(tournament_id=tournament.pk, pk__in=entry_ids)
        .select_related("player", "seat__table")
        .only("id", "number", "status", "player__display_name", "seat__table__number")
    }
    for entry_id in entry_ids:
        entry = entries.get(entry_id)
        if entry is None:
            raise NotFound(_("No such player in this tournament."))
        who = {"n": entry.number, "name": entry.player.display_name, "t": table_number}
        if entry.status == EntryStatus.BUSTED:
            raise Conflict(
                _(
                    "#%(n)s %(name)s busted after this form was drawn and gets no bag. Nothing "
                    "was recorded: check the other counts and record them again."
                )
                % who,
                code="not_playing",
            )
        if entry.status != EntryStatus.ACTIVE:
            raise Conflict(
                _(
                    "#%(n)s %(name)s is no longer in the field and gets no bag. Nothing was "
                    "recorded: check the other counts and record them again."
                )
                % who,
                code="not_playing",
            )
        seat = getattr(entry, "seat", None)
        if seat is None or seat.table.number != table_number:
            raise Conflict(
                (
                    _(
                        "#%(n)s %(name)s moved to table %(now)s after this form was drawn: "
                        "count them there. Nothing was recorded: check the other counts and "
                        "record them again."
                    )
                    if seat is not None
                    else _(
                        "#%(n)s %(name)s has no seat at table %(t)s any more. Nothing was "
                        "recorded: check the other counts and record them again."
                    )
                )
                % (who | {"now": seat.table.number if seat is not None else ""}),
                code="moved",
            )


@transaction.atomic
def bags_confirm(
    *, bagging: Bagging, table_number: int, entry_ids: list[int] | None, actor: Actor
) -> int:
    """A second person confirms the latest bags at a table (all unconfirmed ones, or those
    listed): refused for bags this person counted. Returns how many were confirmed."""
    lock_tournament(bagging.tournament_id, key=True)
    bagging = Bagging.objects.select_for_update().get(pk=bagging.pk)
    if bagging.closed_at is not None:
        raise FloorError(_("This day is closed: a director reopens it to change a bag."))
    if actor.user is None:
        raise FloorError(_("A floor account confirms the counts."))
    at_table = Entry.objects.filter(
        tournament_id=bagging.tournament_id,
        status=EntryStatus.ACTIVE,
        seat__table__number=table_number,
    ).values_list("pk", "number")
    numbers = dict(at_table)
    latest = latest_bags(bagging, list(numbers))
    chosen = [
        r
        for r in latest.values()
        if not r.verified and (entry_ids is None or r.entry_id in entry_ids)
    ]
    mine = [r for r in chosen if r.recorded_by_id == actor.user.pk and r.source != "dealer"]
    if mine:
        raise FloorError(
            _("You counted #%(n)s yourself: another person confirms the count.")
            % {"n": ", #".join(str(numbers[r.entry_id]) for r in mine)}
        )
    if not chosen:
        raise FloorError(_("Nothing to confirm at this table."))
    again = disputed(bagging, [r.entry_id for r in chosen])
    if again:
        raise FloorError(
            _("The two counts of #%(n)s disagree: count again, then confirm.")
            % {"n": ", #".join(str(numbers[e]) for e in sorted(again))},
            code="disputed",
        )
    now = timezone.now()
    ChipCount.objects.filter(pk__in=[r.id for r in chosen]).update(
        verified_by=actor.user, verified_at=now
    )
    event = event_record(
        tournament=bagging.tournament,
        action="chips.bag_confirm",
        actor=actor,
        payload={"table": table_number, "numbers": sorted(numbers[r.entry_id] for r in chosen)},
    )
    # The bag-and-tag pages follow (festivals/bagging.js), as after any count.
    broadcast_on_commit(
        tournament_group(bagging.tournament_id),
        "counts",
        {"version": event.pk, "table": table_number, "counts": len(chosen)},
    )
    return len(chosen)


def _tables_text(tables: list[int]) -> str:
    """ "table 3" or "tables 2, 5" in the reader's language."""
    return npgettext("the tables a refusal names", "table %(t)s", "tables %(t)s", len(tables)) % {
        "t": ", ".join(map(str, tables))
    }


@transaction.atomic
def bagging_close(*, bagging: Bagging, actor: Actor, despite_flags: bool = False) -> Bagging:
    """A director closes the day: refused while a player has no bag or a bag is not confirmed
    (naming the tables); plausibility flags need `despite_flags`. A flight's day closing ends
    the flight (its survivors wait for the Day-2 draw); a Day 2's closing only ends the day."""
    tournament = lock_tournament(bagging.tournament_id, key=True)
    bagging = Bagging.objects.select_for_update().get(pk=bagging.pk)
    if bagging.closed_at is not None:
        raise FloorError(_("This day is closed already."))
    report = bagging_report(bagging)
    if report.missing:
        tables = sorted({t.table for t in report.tables if t.missing})
        raise Conflict(
            _("%(who)s (%(where)s).")
            % {
                "who": ngettext(
                    "%(n)s player has no bag yet",
                    "%(n)s players have no bag yet",
                    report.missing,
                )
                % {"n": report.missing},
                "where": _tables_text(tables),
            },
            code="missing",
        )
    if report.unverified:
        tables = sorted({t.table for t in report.tables if t.unverified})
        raise Conflict(
            _("%(who)s (%(where)s).")
            % {
                "who": ngettext(
                    "%(n)s count waits for a second person",
                    "%(n)s counts wait for a second person",
                    report.unverified,
                )
                % {"n": report.unverified},
                "where": _tables_text(tables),
            },
            code="unverified",
        )
    if report.findings and not despite_flags:
        raise Conflict(
            ngettext(
                "%(n)s count is flagged for a recount; recount it or close the day despite the "
                "flag.",
                "%(n)s counts are flagged for a recount; recount them or close the day despite "
                "the flags.",
                len(report.findings),
            )
            % {"n": len(report.findings)},
            code="flagged",
        )
    bagging.closed_at = timezone.now()
    bagging.closed_by = actor.user
    bagging.closed_with_flags = bool(report.findings)
    bagging.survivors = sum(t.players for t in report.tables)
    bagging.chips = report.total
    bagging.save()
    payload = {
        "bagging": bagging.pk,
        "day": bagging.day,
        "survivors": bagging.survivors,
        "chips": bagging.chips,
        "flags": len(report.findings),
    }
    if tournament.pk != bagging.event.day2_id:
        # The flight's bags go into the Day 2 now; the draw only seats them.
        payload["carried"], payload["taken_back"] = _carry(
            event=bagging.event, flight=tournament.flight, closed=bagging, actor=actor
        )
    event_record(
        tournament=tournament, action="festival.bagging_close", actor=actor, payload=payload
    )
    if tournament.pk != bagging.event.day2_id:
        tournament_status_set(tournament=tournament, status=Status.FINISHED, actor=actor)
    return bagging


@transaction.atomic
def bagging_reopen(*, bagging: Bagging, actor: Actor, reason: str) -> Bagging:
    """A director reopens a closed day to correct a bag, before the Day 2 is drawn."""
    tournament = lock_tournament(bagging.tournament_id, key=True)
    bagging = Bagging.objects.select_for_update().select_related("event").get(pk=bagging.pk)
    if bagging.closed_at is None:
        raise FloorError(_("This day is not closed."))
    if bagging.event.drawn_at and tournament.pk != bagging.event.day2_id:
        raise FloorError(_("The Day 2 has been drawn from these bags: they stay as they are."))
    reason = (reason or "").strip()
    if not reason:
        raise FloorError(_("Say why the day is reopened."))
    if last_bagging(tournament) != bagging:
        raise FloorError(_("Only the last day of a tournament can be reopened."))
    bagging.closed_at = None
    bagging.closed_by = None
    bagging.save(update_fields=["closed_at", "closed_by"])
    payload: dict[str, object] = {"bagging": bagging.pk, "day": bagging.day, "reason": reason[:200]}
    if tournament.pk != bagging.event.day2_id:
        # Its bags leave the Day 2 until the day closes again.
        payload["carried"], payload["taken_back"] = _carry(
            event=bagging.event, flight=tournament.flight, closed=None, actor=actor
        )
    event_record(
        tournament=tournament, action="festival.bagging_reopen", actor=actor, payload=payload
    )
    if tournament.status == Status.FINISHED:
        tournament_reopen(tournament=tournament, actor=actor, reason=reason)
    return bagging


# --- The Day-2 draw -------------------------------------------------------------------------


@dataclass(frozen=True)
class Drawn:
    players: int
    tables: int
    forfeited: int
    seeded: bool


def _refuse(exc: FestivalError) -> FloorError:
    if exc.code == "two_bags":
        return FloorError(
            _("Player %(p)s bagged in two flights, which this event's policy does not allow.")
            % {"p": exc.player_id},
            code=exc.code,
        )
    if exc.code == "empty":
        return FloorError(_("No flight has survivors to draw."), code=exc.code)
    reasons = {
        "no_room": _("the Day 2's tables do not have a seat for every bag."),
        "table_twice": _("a table is listed twice."),
        "entry_twice": _("a player is listed twice."),
    }
    reason = reasons.get(exc.code, str(exc))
    return FloorError(_("The Day-2 draw is not possible: %(r)s") % {"r": reason}, code=exc.code)


def _bags_of(flight: Flight, bagging: Bagging) -> list[Survivor]:
    """The bags of a flight whose day closed: one per player still in, their latest bag."""
    latest = latest_bags(bagging)
    alive = Entry.objects.filter(tournament_id=flight.tournament_id, status=EntryStatus.ACTIVE)
    survivors = []
    for entry_id, player_id in alive.values_list("pk", "player_id"):
        bag = latest[entry_id]  # closing the day refused a player without a bag
        survivors.append(
            Survivor(
                player_id=player_id,
                entry_id=entry_id,
                flight=flight.position,
                chips=bag.chips,
                bag=bag.bag,
            )
        )
    return survivors


def _carry(
    *, event: FlightEvent, flight: Flight, closed: Bagging | None, actor: Actor
) -> tuple[int, int]:
    """Bring the Day 2's entries in line with the closed flights' bags, when a flight's day
    closes or is reopened: each advancing bag (merged by the event's policy,
    festivals/domain/day2.py) is one Day-2 entry whose chips are the bag (a purchase of chips
    without money, `PurchaseKind.CARRIED`) with a confirmed count and the bag number; a bag best
    stack forward did not keep is recorded as forfeited. Bags that changed or left (a reopened
    day, a bigger bag of the same player in a later flight) take their Day-2 entry with them.
    `flight` is the flight whose day closed (`closed`, its bag and tag) or was reopened
    (`closed` None); the other flights' bags are read from what was carried when their days
    closed. Returns (bags carried now, bags taken back). The caller holds the flight's lock."""
    lock_tournament(event.day2_id, key=True)
    event = FlightEvent.objects.select_for_update().get(pk=event.pk)
    if event.drawn_at is not None:
        raise FloorError(_("The Day 2 has been drawn: the flights' bags stay as they are."))
    flights = list(event.flights.order_by("position"))
    rows = list(
        Carried.objects.filter(event=event).values_list(
            "bag_entry_id", "pk", "entry_id", "chips", "bag", "bag_entry__player_id", "flight_id"
        )
    )
    position = {f.pk: f.position for f in flights}
    survivors = [
        Survivor(player_id=p, entry_id=e, flight=position[f], chips=c, bag=b)
        for e, _pk, _entry, c, b, p, f in rows
        if f != flight.pk
    ]
    if closed is not None:
        survivors += _bags_of(flight, closed)
    try:
        merged = merge_survivors(survivors, best_stack=event.advance == Advance.BEST)
    except FestivalError as exc:
        raise _refuse(exc) from exc
    wanted = {s.entry_id: (s, True) for s in merged.advancing}
    wanted |= {s.entry_id: (s, False) for s in merged.forfeited}
    kept: set[int] = set()
    stale: list[tuple[int, int | None]] = []
    for bag_entry, pk, entry_id, had_chips, had_bag, _player, _flight in rows:
        want = wanted.get(bag_entry)
        if want is not None and (want[0].chips, want[0].bag, want[1]) == (
            had_chips,
            had_bag,
            entry_id is not None,
        ):
            kept.add(bag_entry)
        else:
            stale.append((pk, entry_id))
    if stale:
        Carried.objects.filter(pk__in=[pk for pk, _e in stale]).delete()
        # Their purchases and counts go with them; nothing else refers to an entry not seated.
        Entry.objects.filter(pk__in=[e for _pk, e in stale if e is not None]).delete()
    advancing = [s for s in merged.advancing if s.entry_id not in kept]
    forfeited = [s for s in merged.forfeited if s.entry_id not in kept]
    if advancing:
        _day2_entries(event=event, flights=flights, advancing=advancing, actor=actor)
    if forfeited:
        flight_ids = {f.position: f.pk for f in flights}
        insert_columns(
            Carried,
            {
                "flight_id": [flight_ids[s.flight] for s in forfeited],
                "bag_entry_id": [s.entry_id for s in forfeited],
                "chips": [s.chips for s in forfeited],
                "bag": [s.bag for s in forfeited],
            },
            constants={"event_id": event.pk, "entry_id": None},
        )
    return len(advancing) + len(forfeited), len(stale)


def _day2_entries(
    *, event: FlightEvent, flights: list[Flight], advancing: list[Survivor], actor: Actor
) -> None:
    """One Day-2 entry per advancing bag: the entry, its chips (a purchase without money), its
    confirmed count with the bag number, and the record of what was carried."""
    flight_ids = {f.position: f.pk for f in flights}
    start = Entry.objects.filter(tournament_id=event.day2_id).aggregate(n=Max("number"))
    first = (start["n"] or 0) + 1
    # Thousands of rows: column by column in one statement each (config/bulk.py).
    entries = insert_columns(
        Entry,
        {
            "player_id": [s.player_id for s in advancing],
            "number": list(range(first, first + len(advancing))),
            "public_token": [new_public_token() for _s in advancing],
        },
        constants={"tournament_id": event.day2_id, "status": EntryStatus.ACTIVE},
    )
    chips = [s.chips for s in advancing]
    insert_columns(
        Purchase,
        {"entry_id": entries, "chips": chips},
        constants={"kind": PurchaseKind.CARRIED, "price": 0, "fee": 0},
    )
    labels = {f.position: (_("Bag from Day %(f)s") % {"f": f.label})[:120] for f in flights}
    now = timezone.now()
    insert_columns(
        ChipCount,
        {
            "entry_id": entries,
            "count": chips,
            "recorded_by_label": [labels[s.flight] for s in advancing],
            "bag_number": [s.bag for s in advancing],
        },
        constants={
            "tournament_id": event.day2_id,
            "recorded_at": now,
            "recorded_by_id": actor.user.pk if actor.user else None,
            "verified_at": now,
        },
    )
    insert_columns(
        Carried,
        {
            "flight_id": [flight_ids[s.flight] for s in advancing],
            "bag_entry_id": [s.entry_id for s in advancing],
            "entry_id": entries,
            "chips": chips,
            "bag": [s.bag for s in advancing],
        },
        constants={"event_id": event.pk},
    )


def _flights_closed(flights: list[Flight]) -> None:
    """Refuse the Day-2 draw while a flight has no closed day, or changed since it closed."""
    # Each flight's latest bag and tag (`last_bagging`'s order), the flights' in one read.
    latest: dict[int, Bagging] = {}
    for found in Bagging.objects.filter(
        tournament_id__in=[f.tournament_id for f in flights]
    ).order_by("-opened_at", "-id"):
        latest.setdefault(found.tournament_id, found)
    open_days: list[str] = []
    changed: list[str] = []
    for flight in flights:
        bagging = latest.get(flight.tournament_id)
        if bagging is None or bagging.closed_at is None:
            open_days.append(flight.label)
        elif flight.tournament.players_left != bagging.survivors:
            changed.append(flight.label)  # a bust or a correction after the day closed
    if open_days:
        raise Conflict(
            _("These flights have not closed their day yet: %(f)s.") % {"f": ", ".join(open_days)},
            code="open_days",
        )
    if changed:
        raise Conflict(
            _(
                "These flights changed after their day closed: %(f)s. Reopen their bag and tag "
                "and close it again."
            )
            % {"f": ", ".join(changed)},
            code="changed",
        )


@transaction.atomic
def day2_draw_run(
    *, event: FlightEvent, seeded: bool, actor: Actor, rng: Random | None = None
) -> Drawn:
    """Seat the Day 2, random or seeded (festivals/domain/day2.py), once every flight has closed
    its day: its entries are there already, one per advancing bag, carried when each flight's
    day closed (`_carry`); each sits down with its bag as the stack. Refused while a flight has
    no closed day (naming the flights), or when a flight changed since its day closed."""
    day2 = lock_tournament(event.day2_id, key=True)
    event = FlightEvent.objects.select_for_update().get(pk=event.pk)
    if event.drawn_at is not None:
        raise FloorError(_("The Day 2 has been drawn already."))
    flights = list(event.flights.select_related("tournament").order_by("position"))
    _flights_closed(flights)
    if day2.entries.filter(carried_from__isnull=True).exists():
        raise FloorError(_("The Day 2 has players of its own already."))
    # The carried bags in one read: the advancing (a Day-2 entry) and the forfeited (none).
    forfeited: list[int] = []
    advancing: list[Survivor] = []
    for e, p, f, c, b, bag_entry in Carried.objects.filter(event=event).values_list(
        "entry_id", "entry__player_id", "flight__position", "chips", "bag", "bag_entry_id"
    ):
        if e is None:
            forfeited.append(bag_entry)
        else:
            advancing.append(Survivor(player_id=p, entry_id=e, flight=f, chips=c, bag=b))
    try:
        if not advancing:
            raise FestivalError("no survivors", code="empty")
        needed = tables_needed(len(advancing), day2.seats_per_table)
        tables = [(n, day2.seats_per_table) for n in range(1, needed + 1)]
        seats = day2_draw(advancing, tables=tables, seeded=seeded, rng=rng or secure_random())
    except FestivalError as exc:
        raise _refuse(exc) from exc
    if day2.status == Status.PLANNED:
        tournament_status_set(tournament=day2, status=Status.REGISTERING, actor=actor)
    seats_place(
        tournament=day2,
        seats={s.entry_id: (seats[s.entry_id].table, seats[s.entry_id].seat) for s in advancing},
        stacks={s.entry_id: s.chips for s in advancing},
        actor=actor,
        how="seeded" if seeded else "random",
    )
    registration_close(tournament=day2, actor=actor)
    event.drawn_at = timezone.now()
    event.seeded = seeded
    event.save(update_fields=["drawn_at", "seeded"])
    event_record(
        tournament=day2,
        action="festival.day2_draw",
        actor=actor,
        payload={
            "seeded": seeded,
            "players": len(advancing),
            "tables": needed,
            "forfeited": sorted(forfeited),
        },
    )
    return Drawn(players=len(advancing), tables=needed, forfeited=len(forfeited), seeded=seeded)
