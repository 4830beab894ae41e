"""The Tournament Director's files imported as finished tournaments (docs/td3-format.md).

`td3_read` reads a file (refused with `FloorError`, the reader's reason in it), `td3_preview`
says what an import would do (who is known by their TD3 id, who looks like a record already here,
through the duplicate finder), and `td3_import` writes the tournament in one transaction: its
people (a TD3 player's UUID kept as an external id; a likely duplicate joined only when the
director says so), its structure, entries, re-entries, rebuys and add-ons with their amounts and
fees, the busts with their places, hitmen's bounties, the prizes, and the event log's line naming
the file. Like the import of an export (tournament/services/archive.py), a historical night is
written as rows, and the kept counters are recounted after.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import FloorError
from imports.domain.td3 import (
    Td3Entry,
    Td3Error,
    Td3File,
    Td3Level,
    Td3Player,
    Td3Tournament,
    entry_in_play,
    read_td3,
)
from imports.models import ExternalId, ExternalRecord, HeldFile, ImportedTournament, Kind, Source
from tournament import counters
from tournament.domain.countries import country_clean
from tournament.domain.people import PersonKeys, Reason, duplicate_pairs
from tournament.events import Actor, event_record
from tournament.locks import lock_tournament
from tournament.models import (
    BountyKind,
    ChipDenomination,
    ChipSet,
    Entry,
    EntryStatus,
    Level,
    Payout,
    Player,
    Purchase,
    PurchaseKind,
    Status,
    Structure,
    Tournament,
)

IMPORT_TD3 = "import.td3"
_NO_TIME = datetime(1970, 1, 1, tzinfo=UTC)
MAX_FILE_BYTES = 8_000_000
CHIP_SET_NAME = "The Tournament Director"


@dataclass(frozen=True)
class Likely:
    """A player of the file who looks like a record already here (the duplicate finder's
    reasons): joined to it only when the director confirms."""

    td3_uuid: str
    td3_name: str
    player: Player
    reasons: tuple[Reason, ...]


@dataclass(frozen=True)
class Preview:
    file: Td3File
    file_name: str
    known: dict[str, Player]  # TD3 uuid -> the person found by the external id
    likely: list[Likely]
    already: ImportedTournament | None  # this tournament was imported before: refused

    @property
    def new_people(self) -> int:
        return len(self.file.players) - len(self.known)


def td3_read(data: bytes, file_name: str = "") -> Td3File:
    """The file read, or `FloorError` with the reader's reason and the file's name."""
    if len(data) > MAX_FILE_BYTES:
        raise FloorError(
            _("%(file)s: the file is larger than %(mb)s MB.")
            % {"file": file_name or "?", "mb": MAX_FILE_BYTES // 1_000_000}
        )
    try:
        return read_td3(data)
    except Td3Error as err:
        raise FloorError(
            _("%(file)s is refused: %(reason)s.") % {"file": file_name or "?", "reason": err}
        ) from None


def _keys(p: Td3Player, pk: int) -> PersonKeys:
    return PersonKeys(id=pk, name=p.full_name, email=p.email)


def td3_preview(file: Td3File, file_name: str = "") -> Preview:
    """What importing `file` would do; writes nothing."""
    uuids = [p.uuid for p in file.players]
    known = {
        x.value: x.player
        for x in ExternalId.objects.filter(source=Source.TD3, value__in=uuids).select_related(
            "player"
        )
    }
    fresh = [p for p in file.players if p.uuid not in known]
    # The file's people get ids below zero, the records here keep theirs: a pair across the two
    # is a likely duplicate. Only records of the same folded name or e-mail can pair: read those.
    here = Player.objects.values_list(
        "pk", "name", "birth_year", "email", "phone", "membership_number"
    )
    keys = [
        PersonKeys(id=pk, name=n, birth_year=y, email=e, phone=ph, membership_number=m)
        for pk, n, y, e, ph, m in here.iterator(chunk_size=5000)
    ]
    keys += [_keys(p, -(i + 1)) for i, p in enumerate(fresh)]
    pairs = duplicate_pairs(keys)
    found: list[tuple[int, int, tuple[Reason, ...]]] = []
    for (a, b), reasons in pairs.items():
        if a < 0 < b:
            found.append((-a - 1, b, tuple(sorted(reasons, key=lambda r: list(Reason).index(r)))))
    players = Player.objects.in_bulk([b for _a, b, _r in found])
    likely = [
        Likely(fresh[i].uuid, fresh[i].shown_name, players[b], reasons)
        for i, b, reasons in sorted(found)
        if b in players
    ]
    already = (
        ImportedTournament.objects.filter(source=Source.TD3, external_id=file.tournament.uuid)
        .select_related("tournament")
        .first()
    )
    return Preview(file, file_name, known, likely, already)


def _cents(amount: Decimal) -> int:
    return int((amount * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def _refuse_twice(file: Td3File, file_name: str) -> None:
    done = ImportedTournament.objects.filter(
        source=Source.TD3, external_id=file.tournament.uuid
    ).first()
    if done is not None:
        raise FloorError(
            _(
                "%(file)s is refused: this tournament (%(uuid)s) was imported already, from "
                "%(first)s. Nothing was imported."
            )
            % {"file": file_name or "?", "uuid": file.tournament.uuid, "first": done.file_name},
            code="duplicate",
        )


def _people(file: Td3File, matches: Mapping[str, int]) -> tuple[dict[str, Player], dict[str, int]]:
    """Every player of the file as a person here: by the TD3 id kept before, by the director's
    confirmed match, or a new record. Returns the people and how many came each way."""
    uuids = {p.uuid for p in file.players}
    stray = sorted(set(matches) - uuids)
    if stray:
        raise FloorError(
            _("A match names a player not in the file: %(uuid)s.") % {"uuid": stray[0][:40]}
        )
    chosen = Player.objects.in_bulk(list(matches.values()))
    missing = sorted({pk for pk in matches.values() if pk not in chosen})
    if missing:
        raise FloorError(
            _("A match names a person who does not exist: %(pk)s.") % {"pk": missing[0]}
        )
    people: dict[str, Player] = {
        x.value: x.player
        for x in ExternalId.objects.filter(source=Source.TD3, value__in=uuids).select_related(
            "player"
        )
    }
    counts = {"known": len(people), "matched": 0, "added": 0}
    links: list[ExternalId] = []
    for p in file.players:
        if p.uuid in people:
            continue
        if p.uuid in matches:
            people[p.uuid] = chosen[matches[p.uuid]]
            counts["matched"] += 1
        else:
            people[p.uuid] = _person_create(p)
            counts["added"] += 1
        links.append(ExternalId(player=people[p.uuid], source=Source.TD3, value=p.uuid))
    ids = [person.pk for person in people.values()]
    if len(set(ids)) != len(ids):
        raise FloorError(
            _("Two players of the file would be one person here; match each to its own record.")
        )
    ExternalId.objects.bulk_create(links)
    return people, counts


def _person_create(p: Td3Player) -> Player:
    email = p.email
    try:
        validate_email(email)
    except ValidationError:
        email = ""
    try:
        country = country_clean(p.country)
    except ValueError:
        country = ""  # a country TD3 lets one type freely that is none: left out, not guessed
    # One by one: the search key is kept by a pre_save receiver (tournament/signals.py).
    return Player.objects.create(
        name=p.full_name[:120],
        display_name=p.shown_name[:60],
        email=email[:254],
        country=country,
    )


def _structure(file: Td3File) -> Structure:
    t = file.tournament
    structure = Structure.objects.create(name=t.title[:100])
    # A tournament plays a structure of at least one level (every page of the clock reads it).
    # A file that records none gets one level of unknown blinds as long as the night lasted.
    levels = [lv for lv in t.levels if lv.minutes > 0] or [_level_unknown(t)]
    Level.objects.bulk_create(
        Level(
            structure=structure,
            position=n,
            is_break=lv.is_break,
            small_blind=max(lv.small_blind, 0),
            big_blind=max(lv.big_blind, 0),
            ante=max(lv.ante, 0),
            minutes=lv.minutes,
        )
        for n, lv in enumerate(levels, start=1)
    )
    return structure


def _level_unknown(t: Td3Tournament) -> Td3Level:
    minutes = 60
    if t.started_at is not None and t.ended_at is not None and t.ended_at > t.started_at:
        minutes = max(1, int((t.ended_at - t.started_at).total_seconds() // 60))
    return Td3Level(minutes=minutes, small_blind=0, big_blind=0, ante=0, is_break=False)


def _chip_set() -> ChipSet:
    chip_set = ChipSet.objects.filter(name=CHIP_SET_NAME).first()
    if chip_set is None:
        chip_set = ChipSet.objects.create(name=CHIP_SET_NAME)
        ChipDenomination.objects.create(chip_set=chip_set, value=1, label="1")
    return chip_set


def _tournament_row(file: Td3File, currency: str) -> Tournament:
    t = file.tournament
    first = file.entries[0]
    profile = next((p for p in t.profiles if p.kind == "buyin"), None)
    price = profile.fee if profile else first.amount
    rake = profile.rake if profile else first.rake
    chips = profile.chips if profile and profile.chips else first.chips
    bounty = profile.bounty_cost if profile else Decimal(0)
    started = t.started_at or timezone.now()
    return Tournament.objects.create(
        name=t.title[:120],
        starts_at=started,
        currency=currency,
        buy_in=_cents(max(price - rake, Decimal(0))),
        fee=_cents(rake),
        starting_stack=max(chips, 1),
        bounty_kind=BountyKind.FIXED if t.uses_bounties and bounty > 0 else BountyKind.NONE,
        bounty=_cents(bounty) if t.uses_bounties else 0,
        house_contribution=_cents(t.house_contribution),
        guarantee=_cents(t.guaranteed_pot),
        status=Status.FINISHED,
        registration_closed_at=t.ended_at or started,
        structure=_structure(file),
        chip_set=_chip_set(),
    )


def _entries(tournament: Tournament, file: Td3File, people: dict[str, Player]) -> list[Entry]:
    """The entries with their finishes, then their purchases; returns the entries."""
    finishes = {(f.player_uuid, f.entry_index): f for f in file.finishes}
    field = len(file.entries)
    end = file.tournament.ended_at
    # Numbered in the order they bought in (a file without times keeps its own order).
    ordered = sorted(file.entries, key=lambda e: e.time or _NO_TIME)
    rows: list[Entry] = []
    sequence = _bust_sequence(file)
    for number, e in enumerate(ordered, start=1):
        f = finishes[(e.player_uuid, e.index)]
        winner = f.place == 1
        rows.append(
            Entry(
                tournament=tournament,
                player=people[e.player_uuid],
                number=number,
                is_reentry=e.is_reentry,
                status=EntryStatus.ACTIVE if winner else EntryStatus.BUSTED,
                place=f.place,
                elimination_rank=field + 1 - f.place,
                busted_at=None if winner else (e.bust.time if e.bust and e.bust.time else end),
                bust_sequence=sequence.get((e.player_uuid, e.index)),
                prize=_cents(f.prize),
                bounty=_cents(e.bounty_cost + e.personal_bounty),
                bounties_won=_cents(f.bounties_won),
                hits=f.bounties,  # the entries it knocked out (a league formula's h)
            )
        )
    Entry.objects.bulk_create(rows)
    _purchases(file, list(zip(ordered, rows, strict=True)))
    return rows


def _bust_sequence(file: Td3File) -> dict[tuple[str, int], int]:
    """The order the entries went out in, 1 first; the winner last."""
    by_place = sorted(file.finishes, key=lambda f: -f.place)
    return {(f.player_uuid, f.entry_index): n for n, f in enumerate(by_place, start=1)}


def _purchases(file: Td3File, entries: list[tuple[Td3Entry, Entry]]) -> None:
    """Each entry's buy-in or re-entry, then the file's rebuys and add-ons."""
    rows = {(e.player_uuid, e.index): row for e, row in entries}
    bought: list[Purchase] = []
    for e, row in entries:
        kind = PurchaseKind.REENTRY if e.is_reentry else PurchaseKind.BUYIN
        bought.append(_purchase(row, kind, e.amount, e.rake, e.chips))
    for p in file.purchases:
        kind = PurchaseKind.REBUY if p.kind == "rebuy" else PurchaseKind.ADDON
        bought.append(
            _purchase(rows[(p.player_uuid, p.entry_index)], kind, p.amount, p.rake, p.chips)
        )
    Purchase.objects.bulk_create(bought)


def _purchase(row: Entry, kind: str, amount: Decimal, rake: Decimal, chips: int) -> Purchase:
    fee = min(rake, amount)
    return Purchase(
        entry=row, kind=kind, price=_cents(amount - fee), fee=_cents(fee), chips=max(chips, 0)
    )


def _busts(file: Td3File, rows: list[Entry]) -> list[dict[str, Any]]:
    """Who knocked out whom, for the log's line: each bust's entry number, place, TD3 level
    (round), instant, and the numbers of the hitmen's entries in play then."""
    paired = _paired(file, rows)
    number = {(r.player_id, e.index): r.number for r, e in paired}
    players = {e.player_uuid: r.player_id for r, e in paired}
    out: list[dict[str, Any]] = []
    for row, e in _paired(file, rows):
        if e.bust is None:
            continue
        by = [
            number[(players[h], entry_in_play(file.entries, h, e.bust.time))]
            for h in e.bust.hitmen
            if h in players
        ]
        out.append(
            {
                "number": row.number,
                "place": row.place,
                "round": e.bust.round,
                "at": e.bust.time,
                "by": by,
            }
        )
    out.sort(key=lambda b: -(b["place"] or 0))
    return out


def _paired(file: Td3File, rows: list[Entry]) -> list[tuple[Entry, Td3Entry]]:
    """The rows with the file's entries they were made from (rows are in buy-in order)."""
    ordered = sorted(file.entries, key=lambda e: e.time or _NO_TIME)
    return list(zip(rows, ordered, strict=True))


def _payouts(tournament: Tournament, rows: list[Entry]) -> None:
    Payout.objects.bulk_create(
        Payout(tournament=tournament, place=row.place, amount=row.prize)
        for row in rows
        if row.prize > 0 and row.place is not None
    )


@transaction.atomic
def td3_import(
    file: Td3File,
    *,
    file_name: str,
    actor: Actor,
    matches: Mapping[str, int] | None = None,
    currency: str = "EUR",
) -> Tournament:
    """Write `file` as a finished tournament, in one transaction; refused (nothing written)
    when this tournament was imported before, or a match is not one. `matches`: the director's
    confirmation that a player of the file (TD3 uuid) is a person here (id)."""
    _refuse_twice(file, file_name)
    people, counts = _people(file, matches or {})
    tournament = _tournament_row(file, currency)
    lock_tournament(tournament.pk)
    rows = _entries(tournament, file, people)
    _payouts(tournament, rows)
    t = file.tournament
    ImportedTournament.objects.create(
        tournament=tournament,
        source=Source.TD3,
        external_id=t.uuid,
        file_name=file_name[:255],
        version=t.version,
        imported_by=actor.user,
        league_name=t.league_name[:200],
        season_name=t.season_name[:200],
        points_formula=t.points_formula,
    )
    payload: dict[str, Any] = {
        "file": file_name,
        "version": t.version,
        "uuid": t.uuid,
        "players": len(file.players),
        "entries": len(file.entries),
        **counts,
        "busts": _busts(file, rows),
    }
    event_record(tournament=tournament, action=IMPORT_TD3, actor=actor, payload=payload)
    counters.recount(tournament.pk)
    tournament.refresh_from_db()
    return tournament


@transaction.atomic
def td3_import_many(
    files: list[tuple[str, Td3File]],
    *,
    actor: Actor,
    matches: Mapping[str, int] | None = None,
    currency: str = "EUR",
) -> list[tuple[str, Tournament]]:
    """Several files in one transaction, in the order they were played: one refused, none is
    imported. The same tournament twice in one upload is refused as well."""
    seen: dict[str, str] = {}
    for name, file in files:
        if file.tournament.uuid in seen:
            raise FloorError(
                _("%(file)s is refused: it is the same tournament as %(first)s.")
                % {"file": name, "first": seen[file.tournament.uuid]},
                code="duplicate",
            )
        seen[file.tournament.uuid] = name
    ordered = sorted(files, key=lambda nf: nf[1].tournament.started_at or _NO_TIME)
    done: list[tuple[str, Tournament]] = []
    for name, file in ordered:
        own = {u: pk for u, pk in (matches or {}).items() if u in {p.uuid for p in file.players}}
        done.append(
            (name, td3_import(file, file_name=name, actor=actor, matches=own, currency=currency))
        )
    return done


# One import at a time (pg_advisory_xact_lock's key: "TD3 import" in ASCII, as a 64-bit integer).
IMPORT_LOCK = int.from_bytes(b"TD3impt", "big")


def imports_serialized() -> None:
    """Hold the import lock to the end of the caller's transaction. Two imports of one season
    at once would each find no league for the file's id and make one: the second would then
    take the id over and leave the first league orphaned. With the lock the second import waits
    and finds the first's league. SQLite runs one writing transaction at a time anyway."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [IMPORT_LOCK])


def external_record(kind: Kind, value: str) -> int | None:
    """The id of the Floor record (a league, a season) that TD3's `value` became, if any; the
    caller checks the record still exists."""
    return (
        ExternalRecord.objects.filter(source=Source.TD3, kind=kind, value=value[:255])
        .values_list("record_id", flat=True)
        .first()
    )


def external_record_keep(kind: Kind, value: str, record_id: int) -> None:
    """Remember that TD3's `value` (a league's or season's UUID) is Floor's record `record_id`
    (replacing a record that no longer exists)."""
    ExternalRecord.objects.update_or_create(
        source=Source.TD3, kind=kind, value=value[:255], defaults={"record_id": record_id}
    )


HELD_FOR = timedelta(days=1)


def files_hold(files: list[tuple[str, bytes]], *, user: Any) -> str:
    """Keep uploaded files for the preview's confirmation; returns the batch's token. Batches
    older than a day are dropped on the way."""
    HeldFile.objects.filter(uploaded_at__lt=timezone.now() - HELD_FOR).delete()
    batch = secrets.token_urlsafe(24)
    HeldFile.objects.bulk_create(
        HeldFile(batch=batch, position=n, name=name[:255], data=data, uploaded_by=user)
        for n, (name, data) in enumerate(files)
    )
    return batch


def files_held(batch: str, *, user: Any) -> list[tuple[str, bytes]]:
    """The files of a batch this user uploaded (none when unknown or expired)."""
    rows = HeldFile.objects.filter(
        batch=batch[:40], uploaded_by=user, uploaded_at__gte=timezone.now() - HELD_FOR
    )
    return [(row.name, bytes(row.data)) for row in rows]


def files_release(batch: str) -> None:
    HeldFile.objects.filter(batch=batch[:40]).delete()
