"""Nights in TD3 3.7's shape, made up: for the property tests (a file written from a known
night reads back as that night) and the benchmark (`python -m bench.td_import`). Pure Python.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

START_MS = 1_737_048_600_000
MINUTE_MS = 60_000


@dataclass(frozen=True)
class SampleNight:
    text: str
    uuid: str
    # Every entry as (player uuid, entry index), out first to the winner last.
    out_order: tuple[tuple[str, int], ...]
    prizes: tuple[int, ...]  # by place, first place first


def _uuid(rng: random.Random) -> str:
    h = f"{rng.getrandbits(128):032x}"
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-8{h[17:20]}-{h[20:32]}"


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


@dataclass(frozen=True)
class SampleLeague:
    """The league and season a night names, and the league's points formula (TD3's text)."""

    league: str = "Bench League"
    season: str = "2025"
    league_uuid: str = ""
    season_uuid: str = ""
    formula: str = "n-r+1"


BENCH_LEAGUE = SampleLeague()


def sample_night(
    seed: int,
    players: int = 40,
    reentries: int = 5,
    *,
    people: tuple[str, ...] = (),
    league: SampleLeague = BENCH_LEAGUE,
    start_ms: int = START_MS,
) -> SampleNight:
    """A finished night of `players` people and up to `reentries` re-entries, 200 to buy in.
    `people`: the TD3 uuids of the players (a season's regulars), else made up from `seed`."""
    rng = random.Random(seed)
    uuids = [_uuid(rng) for _ in range(players)]
    if people:
        uuids = list(people[:players])
    tid = _uuid(rng)
    # Entries alive over time: a bust takes one; a re-entry (early on) brings its player back.
    alive: list[tuple[str, int]] = [(u, 0) for u in uuids]
    entries: dict[str, list[dict[str, int | str]]] = {
        u: [{"t": n, "round": 1}] for n, u in enumerate(uuids)
    }
    out: list[tuple[str, int]] = []
    left = reentries
    minute = 10
    while len(alive) > 1:
        minute += rng.randint(1, 9)
        victim = alive.pop(rng.randrange(len(alive)))
        hitman = rng.choice(alive)[0]
        round_ = 1 + minute // 20
        entries[victim[0]][victim[1]].update({"bust": minute, "bround": round_, "hit": hitman})
        out.append(victim)
        if left and round_ <= 4 and rng.random() < 0.5:
            left -= 1
            index = victim[1] + 1
            entries[victim[0]].append({"t": minute + 1, "round": round_})
            alive.append((victim[0], index))
    out.append(alive[0])
    pot = 200 * sum(len(v) for v in entries.values())
    prizes = [pot * 50 // 100, pot * 30 // 100, pot - pot * 50 // 100 - pot * 30 // 100]
    ranked: list[str] = []  # players by their rank: the winner first
    for player, _index in reversed(out):
        if player not in ranked:
            ranked.append(player)
    winners = ranked[:3]
    parts = []
    for n, u in enumerate(uuids):
        buys = []
        for b in entries[u]:
            bust = ""
            if "bust" in b:
                bust = (
                    f", BustOut: new GameBustOut({{Time: {start_ms + int(b['bust']) * MINUTE_MS}, "
                    f"Round: {b['bround']}, HitmanUUID: [{_quote(str(b['hit']))}], Seat: new GameSeat("
                    f'{{TableName: "Table 1", SeatIndex: {n % 10}, Locked: false}})}})'
                )
            buys.append(
                f"new GameBuyin({{Time: {start_ms + int(b['t']) * MINUTE_MS}, Round: {b['round']}, "
                f"Amount: 200, PersonalBounty: 0, Rake: new PerPlayerRake([0]), Chips: 10000, "
                f'Points: 0{bust}, ProfileName: "Standard"}})'
            )
        name = f"Player {n}" if people else f"Player {seed}-{n}"
        parts.append(
            f"[{_quote(u)}, new GamePlayer({{ UUID: {_quote(u)}, Name: new PlayerName({{UUID: "
            f'{_quote(u)}, Nickname: {_quote(name)}, Firstname: "", Lastname: ""}}), Info: new '
            f'PlayerInfo({{UUID: {_quote(u)}, Email1: ""}}), Buyins: [{", ".join(buys)}], '
            f"AddOns: [], ChipCount: 0, PaidInFull: true }})]"
        )
    prize_text = ", ".join(
        f'new GamePrize({{Description: "{p + 1}", Type: 0, Recipient: {p + 1}, AmountType: 1, '
        f"Amount: {amount}, AwardedToPlayers: [{_quote(winners[p]) if p < len(winners) else ''}], "
        f"CalculatedAmount: {amount}}})"
        for p, amount in enumerate(prizes)
    )
    levels = ", ".join(
        f"new GameRound({{Minutes: 20, SmallBlind: {25 * 2**i}, BigBlind: {50 * 2**i}, Ante: 0}})"
        for i in range(12)
    )
    text = (
        f'{{ V: "3.7.2", T: new Tournament({{UUID: {_quote(tid)}, '
        f"LeagueName: {_quote(league.league)}, SeasonName: {_quote(league.season)}, "
        f"LeagueUUID: {_quote(league.league_uuid)}, SeasonUUID: {_quote(league.season_uuid)}, "
        f"Title: {_quote(f'Night {seed}')}, Financials: new FinancialConfig({{"
        f'Buyins: new BuyConfig({{Allow: true, Profiles: [new FeeProfile({{Name: "Standard", '
        f"Fee: 200, Rake: new PerPlayerRake([0]), Chips: 10000, BountyChipCost: 0}})]}}), "
        f"PointsForPlaying: new UserFormula({{Text: {_quote(league.formula)}}}), "
        f"UseBounties: false}}), "
        f"Players: new GamePlayers({{Players: Map.from([{', '.join(parts)}])}}), "
        f"Levels: new GameLevels({{Levels: [{levels}]}}), "
        f"Prizes: new GamePrizes({{Prizes: [{prize_text}], RoundToNearest: 1}}), "
        f"StartTime: {start_ms}, EndTime: {start_ms + (minute + 1) * MINUTE_MS}}}) }}\n"
    )
    return SampleNight(text, tid, tuple(out), tuple(prizes))
