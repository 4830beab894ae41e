"""League points: the points of each place (a table, a formula, the DPSB preset), shared places,
and the season standings with best-N results and participation points (docs/leagues.md).

Points are counted in hundredths of a point (`Points`: an int, or an exact Fraction where
players share a place): a place's points are rounded to two decimals once, and everything after
(shares, totals) is exact and fast, so shared points always sum to the places they cover.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
from typing import NamedTuple

from leagues.domain.formula import Formula

# dpsb.org, "Regelwerk Einzelmeisterschaft": a pool of 100 points per entry, shared by these
# percentages per field-size band (the last band also for 130 entries or more).
DPSB_BANDS: tuple[tuple[int, int | None, tuple[int, ...]], ...] = (
    (9, 9, (60, 40)),
    (10, 14, (50, 30, 20)),
    (15, 24, (42, 27, 18, 13)),
    (25, 34, (38, 24, 17, 12, 9)),
    (35, 44, (36, 23, 16, 12, 8, 5)),
    (45, 59, (35, 22, 15, 11, 8, 5, 4)),
    (60, 79, (34, 21, 15, 11, 7, 5, 4, 3)),
    (80, None, (33, 21, 14, 11, 7, 5, 4, 3, 2)),
)
DPSB_MIN_FIELD = 9
DPSB_POOL_PER_ENTRY = 100

# Hundredths of a point; a Fraction only where a shared place's average is not whole.
Points = int | Fraction
ZERO = 0


class PointsError(ValueError):
    """A points table refused; `code` names the reason."""

    def __init__(self, code: str, message: str, **values: object) -> None:
        super().__init__(message)
        self.code = code
        self.values = values


def to_points(value: float | int | str | Decimal) -> int:
    """A place's points in hundredths, rounded half up to two decimals."""
    try:
        d = Decimal(str(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    except InvalidOperation as exc:
        raise PointsError("number", f"Not a number: {value}.") from exc
    return int(d * 100)


# --- Points by place -----------------------------------------------------------------------


@lru_cache(maxsize=4096)
def dpsb_percentages(n: int) -> tuple[int, ...]:
    """The DPSB percentages of the band `n` falls in; () below 9 entries (no points)."""
    if n < DPSB_MIN_FIELD:
        return ()
    for low, high, shares in DPSB_BANDS:
        if low <= n and (high is None or n <= high):
            return shares
    return DPSB_BANDS[-1][2]


def dpsb_points(n: int, p: int) -> int:
    """Place `p`'s share of the pool (100 points per entry); 0 beyond the places paid."""
    shares = dpsb_percentages(n)
    if not 1 <= p <= len(shares):
        return ZERO
    return DPSB_POOL_PER_ENTRY * n * shares[p - 1]  # hundredths: pool * n * share / 100 * 100


@dataclass(frozen=True)
class Band:
    """Points by place for fields of `low`..`high` entries (`high` None: no upper end)."""

    low: int
    high: int | None
    points: tuple[int, ...]

    def holds(self, n: int) -> bool:
        return self.low <= n and (self.high is None or n <= self.high)


@dataclass(frozen=True)
class PointsTable:
    bands: tuple[Band, ...]

    def points(self, n: int, p: int) -> int:
        for band in self.bands:
            if band.holds(n):
                return band.points[p - 1] if 1 <= p <= len(band.points) else ZERO
        return ZERO

    def as_json(self) -> list[dict[str, object]]:
        return [
            {"min": b.low, "max": b.high, "points": [_plain(x) for x in b.points]}
            for b in self.bands
        ]

    def as_text(self) -> str:
        lines = []
        for b in self.bands:
            head = f"{b.low}+" if b.high is None else f"{b.low}-{b.high}"
            lines.append(f"{head}: " + " ".join(_plain(x) for x in b.points))
        return "\n".join(lines)


def _plain(x: int) -> str:
    d = Decimal(x) / 100
    text = f"{d.quantize(Decimal('0.01'), rounding=ROUND_HALF_UP)}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _number(word: str) -> int:
    try:
        value = to_points(word.replace(",", "."))
    except PointsError as exc:
        raise PointsError("number", f"Not a number: {word}.", word=word) from exc
    if value < 0:
        raise PointsError("negative", f"Points cannot be negative: {word}.", word=word)
    return value


def table_parse(text: str) -> PointsTable:
    """A table from lines `10-14: 50 30 20` (fields of 10 to 14), `80+: ...` (80 or more) or
    just `100 70 50` (every field size). Bands may not overlap."""
    bands: list[Band] = []
    for raw in text.strip().splitlines():
        line = raw.strip()
        if not line:
            continue
        head, sep, rest = line.partition(":")
        low, high = 1, None
        if sep:
            rng = head.strip()
            try:
                if rng.endswith("+"):
                    low = int(rng[:-1])
                elif "-" in rng:
                    a, b = rng.split("-", 1)
                    low, high = int(a), int(b)
                else:
                    low = high = int(rng)
            except ValueError as exc:
                raise PointsError("band", f"Not a field size band: {rng}.", band=rng) from exc
            if low < 1 or (high is not None and high < low):
                raise PointsError("band", f"Not a field size band: {rng}.", band=rng)
        else:
            rest = line
        points = tuple(_number(w) for w in rest.replace(";", " ").split())
        if not points:
            raise PointsError("empty", "A line of the table has no points.")
        if len(points) > 1000:
            raise PointsError("long", "A table has points for at most 1000 places.")
        bands.append(Band(low, high, points))
    if not bands:
        raise PointsError("empty", "Write the points of at least one place.")
    ordered = sorted(bands, key=lambda b: b.low)
    for lower, upper in pairwise(ordered):
        if lower.high is None or lower.high >= upper.low:
            raise PointsError("overlap", "Two bands of the table overlap.")
    return PointsTable(tuple(ordered))


def table_from_json(data: object) -> PointsTable:
    """The table as stored (PointsTable.as_json)."""
    if not isinstance(data, list):
        raise PointsError("empty", "Write the points of at least one place.")
    bands = []
    for row in data:
        if not isinstance(row, dict):
            raise PointsError("empty", "Write the points of at least one place.")
        high = row.get("max")
        bands.append(
            Band(
                int(row["min"]),
                None if high is None else int(high),
                tuple(_number(str(x)) for x in row["points"]),
            )
        )
    return PointsTable(tuple(bands))


# --- A tournament's finishes ---------------------------------------------------------------

PlacePoints = Callable[[int, int, int], int]  # (n, p, index of the finish) -> hundredths


def formula_points(
    formula: Formula,
    *,
    buy_in: float,
    bounties: Sequence[float],
    more: Sequence[Mapping[str, float]] | None = None,
) -> PlacePoints:
    """Points by place from a formula; `bounties[i]` is the k of the i-th finish and `more[i]`
    its further figures (`h`, `players`, … of formula.EXTRA), when the formula reads them."""

    def points(n: int, p: int, i: int) -> int:
        return to_points(
            formula.points(n=n, p=p, b=buy_in, k=bounties[i], more=more[i] if more else None)
        )

    return points


def shared_points(places: Sequence[int], n: int, points: Callable[[int, int], int]) -> list[Points]:
    """Each finish's points; `k` players on the same place `p` get the average of the points of
    places p..p+k-1 each (tda-de: players out in one hand share the place)."""
    count: dict[int, int] = defaultdict(int)
    for p in places:
        count[p] += 1
    average = {p: _average([points(n, q) for q in range(p, p + k)]) for p, k in count.items()}
    return [average[p] for p in places]


def shared_finish_points(places: Sequence[int], n: int, points: PlacePoints) -> list[Points]:
    """Like shared_points, for a scoring whose points may differ by finish (a formula with `k`):
    each shared place's points are computed with the finish's own values, then averaged."""
    groups: dict[int, list[int]] = defaultdict(list)
    for i, p in enumerate(places):
        groups[p].append(i)
    result: list[Points] = [ZERO] * len(places)
    for p, members in groups.items():
        k = len(members)
        for i in members:
            result[i] = (
                points(n, p, i) if k == 1 else _average([points(n, q, i) for q in range(p, p + k)])
            )
    return result


def _average(values: list[int]) -> Points:
    share = Fraction(sum(values), len(values))
    return share.numerator if share.denominator == 1 else share


# --- Standings -----------------------------------------------------------------------------


class Result(NamedTuple):
    """One player's result in one tournament of the season (a tuple: tens of thousands are
    read per standings, and few objects that outlive a call keep the collector quiet)."""

    tournament: int
    place: int
    points: Points


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: int
    results: Sequence[Result]
    counted: tuple[bool, ...]  # per result: counted (within the best N) or struck
    participation: int
    total: Points

    @property
    def played(self) -> int:
        return len(self.results)

    @property
    def counted_points(self) -> Points:
        return sum((r.points for r, c in zip(self.results, self.counted, strict=True) if c), ZERO)


def results_by_player(pairs: Iterable[tuple[int, Result]]) -> dict[int, list[Result]]:
    by_player: dict[int, list[Result]] = defaultdict(list)
    for player, result in pairs:
        by_player[player].append(result)
    return by_player


class Tally(NamedTuple):
    """One player's season from their results: which count, the participation points, the total."""

    counted: tuple[bool, ...]  # per result: counted (within the best N) or struck
    participation: int
    total: Points


def tally(own: Sequence[Result], *, best_n: int | None, participation: int) -> Tally:
    """Only the best `best_n` results count (the rest are kept, not counted; equal points: the
    earlier tournament counts), plus `participation` points per tournament played."""
    if best_n is None or len(own) <= best_n:
        counted = (True,) * len(own)
        total: Points = sum((r.points for r in own), ZERO)
    else:
        best = sorted(range(len(own)), key=lambda i: (-own[i].points, own[i].tournament))
        keep = set(best[:best_n])
        counted = tuple(i in keep for i in range(len(own)))
        total = sum((own[i].points for i in keep), ZERO)
    bonus = participation * len(own)
    return Tally(counted, bonus, total + bonus)


def shared_ranks(totals: Sequence[Points]) -> list[int]:
    """The ranks of totals listed best first: equal totals share a rank (1, 1, 3)."""
    ranks: list[int] = []
    for i, total in enumerate(totals):
        ranks.append(ranks[-1] if i and totals[i - 1] == total else i + 1)
    return ranks


def standings(
    by_player: Mapping[int, Sequence[Result]],
    *,
    best_n: int | None,
    participation: int,
    order: Callable[[int], str] = lambda player: f"{player:012d}",
) -> list[Standing]:
    """The standings from each player's results: only the best `best_n` results count (the rest
    are kept, not counted), `participation` points per tournament played; ranked by total,
    equal totals share a rank (1, 1, 3), then in `order` (e.g. by name)."""
    if best_n is not None and best_n < 1:
        raise PointsError("best_n", "Best N must be at least 1.")
    rows = [
        (player, own, tally(own, best_n=best_n, participation=participation))
        for player, own in by_player.items()
    ]
    rows.sort(key=lambda r: (-r[2].total, order(r[0])))
    ranks = shared_ranks([t.total for _player, _own, t in rows])
    return [
        Standing(rank, player, own, t.counted, t.participation, t.total)
        for rank, (player, own, t) in zip(ranks, rows, strict=True)
    ]


# --- A night's further figures -------------------------------------------------------------


class NightFinish(NamedTuple):
    """What a formula's further figures need of one finish: money in cents."""

    player: int
    prize: int  # this finish's prize, cents
    in_money: bool  # a prize or a seat won
    hits: int  # players this entry knocked out


# Purchase kinds (tournament.models.PurchaseKind) and the figure their money counts for.
_MONEY_IN = {
    "buyin": "buyins_in",
    "reentry": "buyins_in",
    "rebuy": "rebuys_in",
    "addon": "addons_in",
}


def _money(cents: int) -> float:
    """Cents as the currency unit: sums are kept in whole cents, divided once (exact to the
    cent: the float nearest the amount)."""
    return cents / 100


def night_figures(
    finishes: Sequence[NightFinish],
    bought: Iterable[tuple[int, str, int, int]],
    *,
    pool: int,
) -> list[dict[str, float]]:
    """The figures of formula.EXTRA for each finish of one tournament (in the order given),
    as docs/leagues.md defines them. `bought`: (player, purchase kind, how many, cents paid
    with fees) of the tournament's purchases, refunds left out; `pool`: the prize pool in cents.

    Per tournament: `players` (distinct players of the finishes), `buyins_in` / `rebuys_in` /
    `addons_in` (cents paid for buy-ins and re-entries / rebuys / add-ons, fees included),
    `pool`, `paid_places` (finishes in the money). Per player, over all their entries (TD3
    keeps one record per player with all their buy-ins): `h` (hits), `rebuys`, `addons`,
    `paid` (everything they paid, fees included). Per finish: `prize`, `itm`."""
    totals = {"buyins_in": 0, "rebuys_in": 0, "addons_in": 0}
    counts: dict[int, dict[str, int]] = defaultdict(lambda: {"rebuy": 0, "addon": 0, "paid": 0})
    for player, kind, many, cents in bought:
        if kind in _MONEY_IN:
            totals[_MONEY_IN[kind]] += cents
        mine = counts[player]
        mine["paid"] += cents
        if kind in ("rebuy", "addon"):
            mine[kind] += many
    hits: dict[int, int] = defaultdict(int)
    for f in finishes:
        hits[f.player] += f.hits
    night = {
        "players": float(len(hits)),
        "buyins_in": _money(totals["buyins_in"]),
        "rebuys_in": _money(totals["rebuys_in"]),
        "addons_in": _money(totals["addons_in"]),
        "pool": _money(pool),
        "paid_places": float(sum(1 for f in finishes if f.in_money)),
    }
    out: list[dict[str, float]] = []
    for f in finishes:
        mine = counts.get(f.player) or {"rebuy": 0, "addon": 0, "paid": 0}
        out.append(
            {
                **night,
                "h": float(hits[f.player]),
                "rebuys": float(mine["rebuy"]),
                "addons": float(mine["addon"]),
                "paid": _money(mine["paid"]),
                "prize": _money(f.prize),
                "itm": 1.0 if f.in_money else 0.0,
            }
        )
    return out
