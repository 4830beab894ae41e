"""The night's report for the director's books (docs/results.md, "The night's report"): one
A4 page per tournament with its key figures, results, payout table, the deal, the bounties, the
cage's summary and the night's charts.

It reads what several apps know (the tournament's results and money, the cage, the clock, the
night's story), so it lives here, above them. Every amount is read from the same functions the
results page (`tournament.results.tournament_results`) and the cage page
(`tournament.ledger_selectors`) use, so the report agrees with both to the cent.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Max, Min, Sum
from django.utils.translation import gettext as _

from clocks.models import ClockEvent, ClockEventKind
from clocks.selectors import clock_state_for
from core.charts import svg_data_uri
from tournament.charts import STORY_KINDS, story_svg, story_tables
from tournament.domain.ledger import METHODS, REAL
from tournament.domain.levels import level_reached
from tournament.ledger_selectors import TournamentCage, event_cage, tournament_cage
from tournament.models import (
    BountyKind,
    DealMethod,
    EntryStatus,
    Level,
    PaymentMethod,
    Tournament,
)
from tournament.results import Finish, tournament_results
from tournament.selectors import payout_amounts
from tournament.validation import SettingsBroken

# The results list the places paid (or given a seat or a deal share) and at least this many:
# a club night's 60 finishes would not fit one page; the results page has them all.
PLACES_AT_LEAST = 3
# The knock-out leaders listed under the bounties.
HUNTERS = 5


@dataclass(frozen=True)
class KeyFigures:
    entries: int
    buyins: int
    reentries: int
    rebuys: int
    addons: int
    players: int  # people who played (an entry and its re-entries are one person)
    prize_pool: int | None
    started_at: datetime | None
    ended_at: datetime | None
    levels_played: int
    last_level: Level | None

    @property
    def minutes(self) -> int | None:
        if self.started_at is None or self.ended_at is None:
            return None
        return max(0, int((self.ended_at - self.started_at).total_seconds() // 60))

    @property
    def hours(self) -> int:
        return (self.minutes or 0) // 60

    @property
    def minutes_over(self) -> int:
        return (self.minutes or 0) % 60


@dataclass(frozen=True)
class ReportFinish:
    place: int
    number: int
    name: str
    prize: int
    deal_share: int | None
    bounties: int
    hits: int
    paid: int  # paid out at the payout desk
    won_seat: bool


@dataclass(frozen=True)
class DealLine:
    number: int
    name: str
    stack: int
    amount: int


@dataclass(frozen=True)
class DealSummary:
    method: str
    players: int
    total: int
    play_for: int
    recorded_at: datetime
    shares: list[DealLine]


@dataclass(frozen=True)
class Hunter:
    number: int
    name: str
    hits: int
    won: int


@dataclass(frozen=True)
class BountySummary:
    kind: str
    bounty: int  # on each head at the start
    pool: int  # the bounties taken out of the buy-ins (the cage's figure)
    won: int  # won by the eliminators so far
    hunters: list[Hunter]

    @property
    def on_heads(self) -> int:
        """Still on the heads of the players left (the winner's own, at the end): owed too."""
        return self.pool - self.won


@dataclass(frozen=True)
class MethodRow:
    method: str
    taken: int
    paid: int
    held: int | None  # None: no money moves by this method (voucher, seat, comp)


@dataclass(frozen=True)
class NightReport:
    tournament: Tournament
    final: bool
    figures: KeyFigures
    finishes: list[ReportFinish]
    more_finishes: int
    payouts: list[int]
    deal: DealSummary | None
    bounties: BountySummary | None
    cage: TournamentCage
    methods: list[MethodRow]

    @property
    def payouts_total(self) -> int:
        return sum(self.payouts)


PROVISIONAL_SHOWN = 5


def night_report(tournament: Tournament) -> NightReport:
    """Everything the printed report shows (its charts: `report_charts`)."""
    results = tournament_results(tournament)
    shown = [
        f
        for f in results.finishes
        if f.prize or f.won_seat or f.deal_share is not None or f.place <= PLACES_AT_LEAST
    ]
    if not results.final and not shown:
        # While the night runs, the best places given so far (those out last), not "nobody".
        shown = results.finishes[:PROVISIONAL_SHOWN]
    try:
        payouts = payout_amounts(tournament)
    except SettingsBroken:
        payouts = []
    cage = report_cage(tournament)
    return NightReport(
        tournament=tournament,
        final=results.final,
        figures=key_figures(tournament, results.prize_pool),
        finishes=_finishes(tournament, shown),
        more_finishes=len(results.finishes) - len(shown),
        payouts=payouts,
        deal=deal_summary(tournament),
        bounties=bounty_summary(tournament, cage),
        cage=cage,
        methods=method_rows(cage),
    )


def report_cage(tournament: Tournament) -> TournamentCage:
    """The tournament's cage report as the cage page shows it: an event's flight or Day 2 as
    its part of the whole event (the money counted once), a tournament alone by itself."""
    event = event_cage(tournament)
    if event is not None:
        return next(p for p in event.parts if p.tournament.pk == tournament.pk)
    return tournament_cage(tournament)


def _finishes(tournament: Tournament, finishes: list[Finish]) -> list[ReportFinish]:
    """The results page's finishes shown (the same places and prizes), with the display names
    in full (the report is the staff's, not the public's), knock-outs and what was paid out:
    one query for the places shown, not the whole field."""
    extra = {
        number: (name, hits, paid)
        for number, name, hits, paid in tournament.entries.filter(
            number__in=[f.number for f in finishes]
        ).values_list("number", "player__display_name", "hits", "paid_amount")
    }
    return [
        ReportFinish(
            place=f.place,
            number=f.number,
            name=extra.get(f.number, (f.name, 0, 0))[0],
            prize=f.prize,
            deal_share=f.deal_share,
            bounties=f.bounties,
            hits=extra.get(f.number, (f.name, 0, 0))[1],
            paid=extra.get(f.number, (f.name, 0, 0))[2],
            won_seat=f.won_seat,
        )
        for f in finishes
    ]


def key_figures(tournament: Tournament, prize_pool: int | None) -> KeyFigures:
    row = Tournament.objects.values(
        "entries_counted", "bought_buyins", "bought_reentries", "bought_rebuys", "bought_addons"
    ).get(pk=tournament.pk)
    players = (
        tournament.entries.filter(status__in=[EntryStatus.ACTIVE, EntryStatus.BUSTED])
        .values("player_id")
        .distinct()
        .count()
    )
    started, ended = _start_and_end(tournament)
    levels_played, last = _levels_played(tournament, ended)
    return KeyFigures(
        entries=row["entries_counted"],
        buyins=row["bought_buyins"],
        reentries=row["bought_reentries"],
        rebuys=row["bought_rebuys"],
        addons=row["bought_addons"],
        players=players,
        prize_pool=prize_pool,
        started_at=started,
        ended_at=ended,
        levels_played=levels_played,
        last_level=last,
    )


def _start_and_end(tournament: Tournament) -> tuple[datetime | None, datetime | None]:
    """When the clock first started, and when it stopped for good (the tournament's end; the
    last bust when the clock was never stopped). No end while it still runs."""
    events = ClockEvent.objects.filter(clock__tournament=tournament)
    started = events.filter(kind=ClockEventKind.START).aggregate(at=Min("at"))["at"]
    last = events.order_by("-at", "-id").first()
    if last is not None and last.kind == ClockEventKind.STOP:
        return started, last.at
    if tournament.status != "finished":
        return started, None
    ended = tournament.entries.aggregate(at=Max("busted_at"))["at"]
    return started, ended


def _levels_played(tournament: Tournament, ended: datetime | None) -> tuple[int, Level | None]:
    """The playing levels reached (breaks not counted) and the last level played."""
    levels = list(tournament.structure.levels.all())
    if not levels:
        return 0, None
    state = clock_state_for(tournament, ended, levels)
    if not state.started:
        return 0, None
    index = min(state.level_index, len(levels) - 1)
    reached = level_reached([lv.is_break for lv in levels], index)
    playing = [lv for lv in levels[: index + 1] if not lv.is_break]
    return reached, playing[-1] if playing else None


def deal_summary(tournament: Tournament) -> DealSummary | None:
    deal = tournament.deals.first()
    if deal is None:
        return None
    shares = [
        DealLine(
            number=s.entry.number,
            name=s.entry.player.display_name,
            stack=s.stack,
            amount=s.amount,
        )
        for s in deal.shares.select_related("entry__player").order_by("-amount", "entry__number")
    ]
    return DealSummary(
        method=str(DealMethod(deal.method).label),
        players=len(shares),
        total=deal.total,
        play_for=deal.play_for,
        recorded_at=deal.created_at,
        shares=shares,
    )


def bounty_summary(tournament: Tournament, cage: TournamentCage) -> BountySummary | None:
    if tournament.bounty_kind == BountyKind.NONE:
        return None
    won = tournament.entries.aggregate(s=Sum("bounties_won"))["s"] or 0
    rows = (
        tournament.entries.filter(hits__gt=0)
        .select_related("player")
        .order_by("-bounties_won", "-hits", "number")[:HUNTERS]
    )
    return BountySummary(
        kind=str(BountyKind(tournament.bounty_kind).label),
        bounty=tournament.bounty,
        pool=cage.bounty_pool,
        won=won,
        hunters=[
            Hunter(number=e.number, name=e.player.display_name, hits=e.hits, won=e.bounties_won)
            for e in rows
        ],
    )


def method_rows(cage: TournamentCage) -> list[MethodRow]:
    """Money by method as the cage page's table adds it up (taken in with its corrections,
    paid out, held)."""
    labels = dict(PaymentMethod.choices)
    report = cage.report
    rows = []
    for m in METHODS:
        if not (report.taken[m] or report.paid[m] or report.corrected[m]):
            continue
        taken = report.taken[m] + report.corrected[m]
        rows.append(
            MethodRow(
                method=str(labels[m]),
                taken=taken,
                paid=report.paid[m],
                held=taken - report.paid[m] if m in REAL else None,
            )
        )
    return rows


def report_title(tournament: Tournament) -> str:
    return _("Report: %(name)s") % {"name": tournament.name}


@dataclass(frozen=True)
class ReportChart:
    kind: str
    src: str  # the SVG as a data: address (the page's CSP allows images from data:)
    caption: str
    headers: list[str]
    rows: list[list[str]]


# The charts' drawing size: three side by side across the A4 sheet (about 60 mm each).
CHART_WIDTH, CHART_HEIGHT = 400, 300  # about 6 cm wide in print: type about 2 mm


def report_charts(tournament: Tournament) -> list[ReportChart]:
    """The night's charts (the story: the field, the entries, the prize pool) for the sheet,
    each with its data as a table (on the screen; the printed sheet has no room for it)."""
    captions = {
        "field": _("Players left and average stack, level by level"),
        "entries": _("Entries and re-entries, level by level"),
        "prizes": _("The payout ladder: prize per place"),
    }
    tables = story_tables(tournament)
    charts = []
    for kind in STORY_KINDS:
        svg = story_svg(tournament, kind, width=CHART_WIDTH, height=CHART_HEIGHT)
        headers, rows = tables.get(kind, ([], []))
        charts.append(
            ReportChart(
                kind=kind,
                src=svg_data_uri(svg),
                caption=captions[kind],
                headers=headers,
                rows=rows,
            )
        )
    return charts
