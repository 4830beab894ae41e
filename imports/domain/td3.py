"""The Tournament Director 3 (TD3) `.tdt` file, read as data into typed records.

TD3 saves a tournament as a JavaScript expression (`{ V: "3.7.2", T: new Tournament({...}) }`);
`imports.domain.jslit` reads the notation, this module finds the tournament in it: its players,
buy-ins and re-entries, rebuys and add-ons with their amounts and rake, the busts with their round,
hitmen and seat, the prizes as TD3 computed them, the league, season and points formula. Where
each field's meaning comes from: docs/td3-format.md. Nothing is evaluated; any file that is not
what this reader expects is refused with `Td3Error`, whose message names what is wrong.

Pure Python: no framework.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from decimal import ROUND_DOWN, Decimal
from typing import TypeVar

from imports.domain.jslit import JsMap, JsNew, JsSyntaxError, JsValue, parse

# The versions whose files this reader was written from (docs/td3-format.md): 3.0 to 3.7.x.
SUPPORTED_MAJOR = 3
SUPPORTED_MINOR_MAX = 7
MAX_PLAYERS = 5_000
CENT = Decimal("0.01")
MAX_BUYINS_PER_PLAYER = 200

_VERSION = re.compile(r"^(\d{1,3})\.(\d{1,3})(?:\.(\d{1,3}))?(?:-[0-9A-Za-z.]{1,20})?$")


class Td3Error(ValueError):
    """The file is refused; the message says why, for the director."""


@dataclass(frozen=True, slots=True)
class FeeProfile:
    """One of TD3's fee profiles: what a buy-in, a rebuy or an add-on costs and gives."""

    kind: str  # "buyin", "rebuy", "addon"
    name: str
    fee: Decimal
    rake: Decimal
    chips: int
    bounty_cost: Decimal


@dataclass(frozen=True, slots=True)
class Td3Player:
    uuid: str
    nickname: str
    first_name: str
    last_name: str
    email: str
    country: str = ""  # PlayerInfo.Country as the file writes it (a name or a code, often empty)

    @property
    def full_name(self) -> str:
        both = f"{self.first_name} {self.last_name}".strip()
        return both or self.nickname

    @property
    def shown_name(self) -> str:
        return self.nickname or self.full_name


@dataclass(frozen=True, slots=True)
class Td3Bust:
    round: int
    time: datetime | None
    hitmen: tuple[str, ...]  # the players' UUIDs; more than one when a pot was split
    table: str
    seat: int | None  # TD3's seat index counts from 0


@dataclass(frozen=True, slots=True)
class Td3Entry:
    """One `GameBuyin`: a buy-in, or a re-entry after a bust (TD3 calls both buy-ins)."""

    player_uuid: str
    index: int  # 0 for the player's first buy-in
    is_reentry: bool
    round: int
    time: datetime | None
    amount: Decimal  # what the player paid, rake included
    rake: Decimal
    chips: int
    personal_bounty: Decimal
    bounty_cost: Decimal
    profile: str
    bust: Td3Bust | None


@dataclass(frozen=True, slots=True)
class Td3Purchase:
    """A rebuy without a bust before it, or an add-on, bought on an entry."""

    player_uuid: str
    entry_index: int
    kind: str  # "rebuy" or "addon"
    round: int
    time: datetime | None
    amount: Decimal
    rake: Decimal
    chips: int
    profile: str


@dataclass(frozen=True, slots=True)
class Td3Prize:
    place: int  # TD3's "Recipient": the finishing place it goes to
    description: str
    amount: Decimal  # TD3's calculated amount
    winners: tuple[str, ...]  # players' UUIDs where TD3 recorded who got it
    non_monetary: str
    percent: Decimal | None  # the share of the pot, for a prize given as one (amount type 0)
    rounding: Decimal  # TD3 rounds calculated prizes to this step


@dataclass(frozen=True, slots=True)
class Td3Finish:
    """An entry's finish: its place among all entries (re-entries count) and the player's rank."""

    player_uuid: str
    entry_index: int
    place: int
    player_rank: int | None  # TD3's rank of the player (its `r`), on the player's last entry
    prize: Decimal
    bounties: int  # how many entries this entry's player busted with it
    bounties_won: Decimal = Decimal(0)  # their bounty chips' worth (a shared hit shares it)


@dataclass(frozen=True, slots=True)
class Td3Level:
    """A level of the blind structure (`GameRound`) or a break (`GameBreak`)."""

    minutes: int
    small_blind: int
    big_blind: int
    ante: int
    is_break: bool


@dataclass(frozen=True, slots=True)
class Td3Tournament:
    uuid: str
    title: str
    description: str
    version: str
    started_at: datetime | None
    ended_at: datetime | None
    league_uuid: str
    league_name: str
    season_uuid: str
    season_name: str
    points_formula: str
    uses_bounties: bool
    house_contribution: Decimal
    guaranteed_pot: Decimal
    profiles: tuple[FeeProfile, ...]
    levels: tuple[Td3Level, ...] = ()


@dataclass(frozen=True, slots=True)
class Td3File:
    tournament: Td3Tournament
    players: tuple[Td3Player, ...]
    entries: tuple[Td3Entry, ...]
    purchases: tuple[Td3Purchase, ...]
    prizes: tuple[Td3Prize, ...]
    finishes: tuple[Td3Finish, ...]

    @property
    def money_in(self) -> Decimal:
        return sum((e.amount for e in self.entries), Decimal(0)) + sum(
            (p.amount for p in self.purchases), Decimal(0)
        )


# --- reading fields ---------------------------------------------------------------------------

_T = TypeVar("_T")


def _fields(value: JsValue, ctor: str | tuple[str, ...], where: str) -> dict[str, JsValue]:
    """The object inside `new Ctor({...})` (or a bare object), refused otherwise."""
    names = (ctor,) if isinstance(ctor, str) else ctor
    if isinstance(value, JsNew) and value.name in names:
        if len(value.args) == 1 and isinstance(value.args[0], dict):
            return value.args[0]
        raise Td3Error(f"{where}: {value.name} without its fields")
    if isinstance(value, dict):
        return value
    raise Td3Error(f"{where} is not a {names[0]}")


def _get(
    obj: dict[str, JsValue], key: str, kind: Callable[[JsValue, str], _T], where: str, default: _T
) -> _T:
    if key not in obj or obj[key] is None:
        return default
    return kind(obj[key], f"{where}.{key}")


def _text(value: JsValue, where: str) -> str:
    if isinstance(value, str):
        return value
    raise Td3Error(f"{where} should be text")


def _number(value: JsValue, where: str) -> Decimal:
    if isinstance(value, Decimal):
        return value
    if isinstance(value, str):
        # TD3 3.4 wrote some chip ids as text; amounts are numbers. Accept a plain decimal.
        try:
            number = Decimal(value)
        except ArithmeticError:
            raise Td3Error(f"{where} should be a number") from None
        if number.is_finite() and abs(number.adjusted()) <= 30:
            return number
    raise Td3Error(f"{where} should be a number")


def _amount(value: JsValue, where: str) -> Decimal:
    number = _number(value, where)
    if number < 0:
        raise Td3Error(f"{where} is negative ({number})")
    return number


def _integer(value: JsValue, where: str) -> int:
    number = _number(value, where)
    if number != number.to_integral_value() or abs(number) > 10**15:
        raise Td3Error(f"{where} should be a whole number")
    return int(number)


def _flag(value: JsValue, where: str) -> bool:
    if isinstance(value, bool):
        return value
    raise Td3Error(f"{where} should be true or false")


_NONE: list[JsValue] = []


def _list(value: JsValue, where: str) -> list[JsValue]:
    if isinstance(value, list):
        return value
    raise Td3Error(f"{where} should be a list")


def _instant(value: JsValue, where: str) -> datetime | None:
    """TD3's times are milliseconds since 1970 (UTC); 0 means not set."""
    millis = _integer(value, where)
    if millis <= 0:
        return None
    if millis > 253_402_300_799_000:  # after the year 9999
        raise Td3Error(f"{where} is not a time")
    return datetime.fromtimestamp(millis / 1000, tz=UTC)


def _rake(value: JsValue, where: str) -> Decimal:
    """`new PerPlayerRake([a, b, ...])`: one or more rakes taken from each payment; their sum."""
    if value is None:
        return Decimal(0)
    if (
        isinstance(value, JsNew)
        and value.name == "PerPlayerRake"
        and len(value.args) == 1
        and isinstance(value.args[0], list)
    ):
        return sum((_amount(v, f"{where}[{i}]") for i, v in enumerate(value.args[0])), Decimal(0))
    if isinstance(value, Decimal):
        return _amount(value, where)
    raise Td3Error(f"{where} is not a rake")


def _version(text: str) -> str:
    found = _VERSION.match(text.strip())
    if not found:
        raise Td3Error(f"unknown TD3 version {text[:30]!r}")
    major, minor = int(found.group(1)), int(found.group(2))
    if major != SUPPORTED_MAJOR or minor > SUPPORTED_MINOR_MAX:
        raise Td3Error(
            f"TD3 version {text[:30]} is not supported (files of 3.0 to "
            f"3.{SUPPORTED_MINOR_MAX} are)"
        )
    return text.strip()


# --- the parts of a tournament ----------------------------------------------------------------


def _profiles(financials: dict[str, JsValue], uses_bounties: bool) -> tuple[FeeProfile, ...]:
    out: list[FeeProfile] = []
    for key, kind in (("Buyins", "buyin"), ("Rebuys", "rebuy"), ("AddOns", "addon")):
        where = f"Financials.{key}"
        if key not in financials:
            continue
        config = _fields(financials[key], ("BuyConfig", "AddOnRebuy"), where)
        if "Profiles" in config:
            for i, raw in enumerate(_get(config, "Profiles", _list, where, _NONE)):
                here = f"{where}.Profiles[{i}]"
                profile = _fields(raw, "FeeProfile", here)
                out.append(_profile(profile, kind, here, uses_bounties))
        else:  # TD3 3.0: one price per kind (AddOnRebuy)
            out.append(_profile(config, kind, where, uses_bounties, name=kind))
    if "EntryFee" in financials:  # TD3 3.0: the buy-in's price sits on the financials
        bounty = _get(financials, "DefaultBounty", _amount, "Financials", Decimal(0))
        out.insert(
            0,
            FeeProfile(
                kind="buyin",
                name="buyin",
                fee=_get(financials, "EntryFee", _amount, "Financials", Decimal(0)),
                rake=_rake(financials.get("PPRake"), "Financials.PPRake"),
                chips=_get(financials, "StartingChips", _integer, "Financials", 0),
                bounty_cost=bounty if uses_bounties else Decimal(0),
            ),
        )
    return tuple(out)


def _profile(
    obj: dict[str, JsValue], kind: str, where: str, uses_bounties: bool, name: str = ""
) -> FeeProfile:
    bounty = _get(obj, "BountyChipCost", _amount, where, Decimal(0))
    return FeeProfile(
        kind=kind,
        name=name or _get(obj, "Name", _text, where, ""),
        fee=_get(obj, "Fee", _amount, where, Decimal(0)),
        rake=_rake(obj.get("Rake"), f"{where}.Rake"),
        chips=_get(obj, "Chips", _integer, where, 0),
        bounty_cost=bounty if uses_bounties else Decimal(0),
    )


def _player(uuid: str, obj: dict[str, JsValue], where: str) -> Td3Player:
    own = _get(obj, "UUID", _text, where, uuid)
    if own != uuid:
        raise Td3Error(f"{where}: the player is filed under {uuid!r} but says {own!r}")
    name = _fields(obj.get("Name", {}), "PlayerName", f"{where}.Name") if "Name" in obj else {}
    info = _fields(obj.get("Info", {}), "PlayerInfo", f"{where}.Info") if "Info" in obj else {}
    player = Td3Player(
        uuid=uuid,
        nickname=_get(name, "Nickname", _text, f"{where}.Name", "").strip(),
        first_name=_get(name, "Firstname", _text, f"{where}.Name", "").strip(),
        last_name=_get(name, "Lastname", _text, f"{where}.Name", "").strip(),
        email=_get(info, "Email1", _text, f"{where}.Info", "").strip(),
        country=_get(info, "Country", _text, f"{where}.Info", "").strip()[:80],
    )
    if not player.full_name:
        raise Td3Error(f"{where}: a player without a name")
    return player


def _bust(value: JsValue, where: str) -> Td3Bust:
    obj = _fields(value, "GameBustOut", where)
    hitmen_raw = obj.get("HitmanUUID")
    if isinstance(hitmen_raw, str):  # one hitman written as text
        hitmen: tuple[str, ...] = (hitmen_raw,) if hitmen_raw else ()
    elif hitmen_raw is None:
        hitmen = ()
    else:
        hitmen = tuple(
            _text(v, f"{where}.HitmanUUID[{i}]") for i, v in enumerate(_list(hitmen_raw, where))
        )
    table, seat = "", None
    if obj.get("Seat") is not None:
        seat_obj = _fields(obj["Seat"], "GameSeat", f"{where}.Seat")
        table = _get(seat_obj, "TableName", _text, f"{where}.Seat", "")
        if seat_obj.get("SeatIndex") is not None:
            seat = _integer(seat_obj["SeatIndex"], f"{where}.Seat.SeatIndex")
    return Td3Bust(
        round=_get(obj, "Round", _integer, where, 0),
        time=_get(obj, "Time", _instant, where, None),
        hitmen=hitmen,
        table=table,
        seat=seat,
    )


def _entries_of(
    uuid: str, obj: dict[str, JsValue], where: str, profiles: dict[str, FeeProfile]
) -> tuple[list[Td3Entry], list[Td3Purchase]]:
    entries: list[Td3Entry] = []
    purchases: list[Td3Purchase] = []
    buyins = _get(obj, "Buyins", _list, where, _NONE)
    if len(buyins) > MAX_BUYINS_PER_PLAYER:
        raise Td3Error(f"{where}: more than {MAX_BUYINS_PER_PLAYER} buy-ins")
    for i, raw in enumerate(buyins):
        here = f"{where}.Buyins[{i}]"
        b = _fields(raw, "GameBuyin", here)
        profile = _get(b, "ProfileName", _text, here, "")
        amount = _get(b, "Amount", _amount, here, Decimal(0))
        rake = _rake(b.get("Rake"), f"{here}.Rake")
        bust = _bust(b["BustOut"], f"{here}.BustOut") if b.get("BustOut") is not None else None
        known = profiles.get(profile) or profiles.get("")
        previous_open = bool(entries) and entries[-1].bust is None
        if previous_open:
            # A rebuy while still in (TD3's in-tournament rebuy): more chips on the same entry.
            if bust is not None:
                last = entries[-1]
                entries[-1] = replace(last, bust=bust)
            purchases.append(
                Td3Purchase(
                    player_uuid=uuid,
                    entry_index=entries[-1].index,
                    kind="rebuy",
                    round=_get(b, "Round", _integer, here, 0),
                    time=_get(b, "Time", _instant, here, None),
                    amount=amount,
                    rake=rake,
                    chips=_get(b, "Chips", _integer, here, 0),
                    profile=profile,
                )
            )
            continue
        entries.append(
            Td3Entry(
                player_uuid=uuid,
                index=len(entries),
                is_reentry=bool(entries),
                round=_get(b, "Round", _integer, here, 0),
                time=_get(b, "Time", _instant, here, None),
                amount=amount,
                rake=rake,
                chips=_get(b, "Chips", _integer, here, 0),
                personal_bounty=_get(b, "PersonalBounty", _amount, here, Decimal(0)),
                bounty_cost=known.bounty_cost if known else Decimal(0),
                profile=profile,
                bust=bust,
            )
        )
    for i, raw in enumerate(_get(obj, "AddOns", _list, where, _NONE)):
        here = f"{where}.AddOns[{i}]"
        a = _fields(raw, "GameAddOn", here)
        if not entries:
            raise Td3Error(f"{here}: an add-on without a buy-in")
        time = _get(a, "Time", _instant, here, None)
        owner = entries[-1]
        for entry in entries:  # the entry that was in play when the add-on was bought
            if time is not None and entry.time is not None and entry.time <= time:
                owner = entry
        purchases.append(
            Td3Purchase(
                player_uuid=uuid,
                entry_index=owner.index,
                kind="addon",
                round=_get(a, "Round", _integer, here, 0),
                time=time,
                amount=_get(a, "Amount", _amount, here, Decimal(0)),
                rake=_rake(a.get("Rake"), f"{here}.Rake"),
                chips=_get(a, "Chips", _integer, here, 0),
                profile=_get(a, "ProfileName", _text, here, ""),
            )
        )
    return entries, purchases


def _prizes(value: JsValue, players: set[str]) -> tuple[Td3Prize, ...]:
    obj = _fields(value, "GamePrizes", "Prizes")
    step = _get(obj, "RoundToNearest", _amount, "Prizes", Decimal(0))
    out: list[Td3Prize] = []
    for i, raw in enumerate(_get(obj, "Prizes", _list, "Prizes", _NONE)):
        where = f"Prizes[{i}]"
        p = _fields(raw, "GamePrize", where)
        winners = tuple(
            _text(v, f"{where}.AwardedToPlayers[{j}]")
            for j, v in enumerate(_get(p, "AwardedToPlayers", _list, where, _NONE))
        )
        for uuid in winners:
            if uuid not in players:
                raise Td3Error(f"{where} is awarded to a player not in the file ({uuid[:40]})")
        out.append(
            Td3Prize(
                place=_get(p, "Recipient", _integer, where, 0),
                description=_get(p, "Description", _text, where, ""),
                amount=_get(p, "CalculatedAmount", _amount, where, Decimal(0)),
                winners=winners,
                non_monetary=_get(p, "NonMonetary", _text, where, ""),
                percent=(
                    _get(p, "Amount", _amount, where, Decimal(0))
                    if _get(p, "AmountType", _integer, where, 0) == 0
                    else None
                ),
                rounding=step,
            )
        )
    return tuple(out)


def _levels(value: JsValue) -> tuple[Td3Level, ...]:
    obj = _fields(value, "GameLevels", "Levels")
    out: list[Td3Level] = []
    for i, raw in enumerate(_get(obj, "Levels", _list, "Levels", _NONE)):
        where = f"Levels[{i}]"
        level = _fields(raw, ("GameRound", "GameBreak"), where)
        is_break = isinstance(raw, JsNew) and raw.name == "GameBreak"
        out.append(
            Td3Level(
                minutes=_get(level, "Minutes", _integer, where, 0),
                small_blind=_get(level, "SmallBlind", _integer, where, 0),
                big_blind=_get(level, "BigBlind", _integer, where, 0),
                ante=_get(level, "Ante", _integer, where, 0),
                is_break=is_break,
            )
        )
    return tuple(out)


def _finishes(
    entries: list[Td3Entry], prizes: tuple[Td3Prize, ...], chip_counts: dict[str, int]
) -> tuple[Td3Finish, ...]:
    """Places over all entries from the bust order; TD3's rank of each player; the prizes."""
    order = {e.player_uuid: n for n, e in enumerate(entries)}
    busted = [e for e in entries if e.bust is not None]
    standing = [e for e in entries if e.bust is None]
    prize_place: dict[str, int] = {}
    for prize in prizes:
        for uuid in prize.winners:
            prize_place.setdefault(uuid, prize.place)
    # Still in at the end: the winner, or the players of a deal: by the prize TD3 gave them,
    # then by their chips.
    standing.sort(
        key=lambda e: (
            prize_place.get(e.player_uuid, 10**9),
            -chip_counts.get(e.player_uuid, 0),
            order[e.player_uuid],
        )
    )
    busted.sort(
        key=lambda e: (
            -(e.bust.time.timestamp() if e.bust and e.bust.time else 0.0),
            -(e.bust.round if e.bust else 0),
            order[e.player_uuid],
            -e.index,
        )
    )
    ranked = standing + busted
    last_entry = {e.player_uuid: e.index for e in entries}
    hits: dict[tuple[str, int], int] = {}
    worth: dict[tuple[str, int], Decimal] = {}
    for e in entries:
        if e.bust is None:
            continue
        head = e.bounty_cost + e.personal_bounty
        for hitman in e.bust.hitmen:
            alive = entry_in_play(entries, hitman, e.bust.time)
            hits[(hitman, alive)] = hits.get((hitman, alive), 0) + 1
            share = (head / len(e.bust.hitmen)).quantize(CENT, rounding=ROUND_DOWN)
            worth[(hitman, alive)] = worth.get((hitman, alive), Decimal(0)) + share
    paid: dict[str, Decimal] = {}
    rank = 0
    out: list[Td3Finish] = []
    for place, e in enumerate(ranked, start=1):
        player_rank = None
        if last_entry[e.player_uuid] == e.index:
            rank += 1
            player_rank = rank
        out.append(
            Td3Finish(
                player_uuid=e.player_uuid,
                entry_index=e.index,
                place=place,
                player_rank=player_rank,
                prize=Decimal(0),
                bounties=hits.get((e.player_uuid, e.index), 0),
            )
        )
    # The prizes: to the players TD3 awarded them to, else to the player of that rank.
    for prize in prizes:
        if prize.amount == 0:
            continue
        targets = list(prize.winners)
        if not targets:
            targets = [f.player_uuid for f in out if f.player_rank == prize.place]
        if not targets:
            continue  # a place nobody reached (fewer players than prizes): given to nobody
        share = (prize.amount / len(targets)).quantize(CENT, rounding=ROUND_DOWN)
        for n, uuid in enumerate(targets):
            extra = prize.amount - share * len(targets) if n == 0 else Decimal(0)
            paid[uuid] = paid.get(uuid, Decimal(0)) + share + extra
    return tuple(
        Td3Finish(
            player_uuid=f.player_uuid,
            entry_index=f.entry_index,
            place=f.place,
            player_rank=f.player_rank,
            prize=paid.get(f.player_uuid, Decimal(0)) if f.player_rank is not None else Decimal(0),
            bounties=f.bounties,
            bounties_won=worth.get((f.player_uuid, f.entry_index), Decimal(0)),
        )
        for f in out
    )


def entry_in_play(entries: Sequence[Td3Entry], uuid: str, at: datetime | None) -> int:
    """Which of a player's entries was in play at an instant (the last one bought by then)."""
    mine = [e for e in entries if e.player_uuid == uuid]
    chosen = mine[-1].index if mine else 0
    if at is not None:
        for e in mine:
            if e.time is not None and e.time <= at:
                chosen = e.index
    return chosen


# --- the file ---------------------------------------------------------------------------------


def read_td3(data: bytes | str) -> Td3File:
    """The tournament a `.tdt` file holds; `Td3Error` when the file is refused."""
    text = _decode(data)
    head = text.lstrip("\ufeff \t\r\n")[:200]
    if not head.startswith("{"):
        raise Td3Error("not a TD3 file: it does not start as TD3's saved tournament does")
    try:
        root = parse(text)
    except JsSyntaxError as err:
        if "end of the file" in err.reason:
            raise Td3Error("the file ends early: it looks truncated") from None
        raise Td3Error(f"not a readable TD3 file: {err}") from None
    except RecursionError:
        raise Td3Error("not a readable TD3 file: values nested too deep") from None
    if not isinstance(root, dict) or not isinstance(root.get("T"), JsNew):
        raise Td3Error("not a TD3 file: no tournament in it")
    version = _version(_get(root, "V", _text, "V", ""))
    return _tournament(_fields(root["T"], "Tournament", "T"), version)


def _decode(data: bytes | str) -> str:
    if isinstance(data, str):
        return data
    if b"\x00" in data[:4096]:
        raise Td3Error("not a TD3 file: it is binary")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        # Older TD3 files on Windows are in the ANSI code page; Latin-1 never fails.
        return data.decode("cp1252", errors="replace")


def _tournament(t: dict[str, JsValue], version: str) -> Td3File:
    uuid = _get(t, "UUID", _text, "T", "").strip()
    if not uuid:
        raise Td3Error("the tournament has no UUID")
    fin = (
        _fields(t["Financials"], ("FinancialConfig", "GameFinancials"), "Financials")
        if ("Financials" in t)
        else {}
    )
    uses_bounties = _get(fin, "UseBounties", _flag, "Financials", False)
    profiles = _profiles(fin, uses_bounties)
    formula = ""
    if fin.get("PointsForPlaying") is not None:
        formula = _get(
            _fields(fin["PointsForPlaying"], "UserFormula", "Financials.PointsForPlaying"),
            "Text",
            _text,
            "Financials.PointsForPlaying",
            "",
        )
    players, entries, purchases, chip_counts = _players(t, profiles)
    known = {p.uuid for p in players}
    for e in entries:
        for hitman in e.bust.hitmen if e.bust else ():
            if hitman not in known:
                raise Td3Error(
                    f"a bust of {e.player_uuid[:40]} names a hitman not in the file ({hitman[:40]})"
                )
    prizes = _prizes(t["Prizes"], known) if t.get("Prizes") is not None else ()
    tournament = Td3Tournament(
        uuid=uuid,
        title=_get(t, "Title", _text, "T", "").strip() or "TD3",
        description=_get(t, "Description", _text, "T", ""),
        version=version,
        started_at=_get(t, "StartTime", _instant, "T", None)
        or min((e.time for e in entries if e.time), default=None),
        ended_at=_get(t, "EndTime", _instant, "T", None),
        league_uuid=_get(t, "LeagueUUID", _text, "T", ""),
        league_name=_get(t, "LeagueName", _text, "T", "").strip(),
        season_uuid=_get(t, "SeasonUUID", _text, "T", ""),
        season_name=_get(t, "SeasonName", _text, "T", "").strip(),
        points_formula=formula,
        uses_bounties=uses_bounties,
        house_contribution=_get(fin, "HouseContribution", _amount, "Financials", Decimal(0)),
        guaranteed_pot=_get(fin, "GuaranteedPot", _amount, "Financials", Decimal(0)),
        profiles=profiles,
        levels=_levels(t["Levels"]) if t.get("Levels") is not None else (),
    )
    file = Td3File(
        tournament=tournament,
        players=tuple(players),
        entries=tuple(entries),
        purchases=tuple(purchases),
        prizes=prizes,
        finishes=_finishes(entries, prizes, chip_counts),
    )
    _check_money(file)
    return file


def _players(
    t: dict[str, JsValue], profiles: tuple[FeeProfile, ...]
) -> tuple[list[Td3Player], list[Td3Entry], list[Td3Purchase], dict[str, int]]:
    if t.get("Players") is None:
        raise Td3Error("the tournament has no players")
    holder = _fields(t["Players"], "GamePlayers", "Players")
    table = holder.get("Players")
    if not isinstance(table, JsMap):
        raise Td3Error("Players.Players should be a map of players")
    if len(table.entries) > MAX_PLAYERS:
        raise Td3Error(f"more than {MAX_PLAYERS} players")
    by_name = {p.name: p for p in profiles}
    first_buyin = next((p for p in profiles if p.kind == "buyin"), None)
    if first_buyin is not None:
        by_name[""] = first_buyin  # a buy-in that names no profile (TD3 3.0) costs the default
    players: list[Td3Player] = []
    entries: list[Td3Entry] = []
    purchases: list[Td3Purchase] = []
    chip_counts: dict[str, int] = {}
    seen: set[str] = set()
    for n, (key, raw) in enumerate(table.entries):
        where = f"Players[{n}]"
        uuid = _text(key, f"{where} key").strip()
        if not uuid:
            raise Td3Error(f"{where}: a player without a UUID")
        if uuid in seen:
            raise Td3Error(f"{where}: the player {uuid[:40]} is in the file twice")
        seen.add(uuid)
        obj = _fields(raw, "GamePlayer", where)
        player = _player(uuid, obj, where)
        mine, bought = _entries_of(uuid, obj, where, by_name)
        if not mine:
            continue  # on TD3's list, never bought in: not part of the night
        players.append(player)
        entries.extend(mine)
        purchases.extend(bought)
        chip_counts[uuid] = _get(obj, "ChipCount", _integer, where, 0)
    if not entries:
        raise Td3Error("nobody bought in: the file holds no tournament played")
    return players, entries, purchases, chip_counts


def _check_money(file: Td3File) -> None:
    """Refuse amounts that do not add up.

    A rake above what the buy-in cost; prizes given as shares of the pot (TD3's amount type 0)
    whose shares exceed the whole, or whose amounts exceed the money in with the house's
    contribution and the guarantee. Fixed prizes (amount type 1) may exceed the pot in TD3 (a
    club adds money), so they are not held to it.
    """
    t = file.tournament
    for e in file.entries:
        if e.rake > e.amount and e.amount > 0:
            raise Td3Error(
                f"a buy-in of {e.player_uuid[:40]} takes more rake ({e.rake}) than it costs "
                f"({e.amount}): the amounts do not add up"
            )
    shares = [p for p in file.prizes if p.percent is not None]
    total_share = sum((p.percent or Decimal(0) for p in shares), Decimal(0))
    if total_share > 100:
        raise Td3Error(
            f"the prizes share out {total_share} % of the pot: the amounts do not add up"
        )
    paid = sum((p.amount for p in shares), Decimal(0))
    slack = sum((p.rounding for p in shares), Decimal(0))
    available = file.money_in + t.house_contribution + t.guaranteed_pot + slack
    if paid > available:
        raise Td3Error(
            f"the prizes ({paid}) exceed the money in ({file.money_in}) with the house's "
            f"contribution and the guarantee: the amounts do not add up"
        )
