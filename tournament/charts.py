"""The night's story drawn: the field (players left, average stack), the entries per level, the
prize pool's payout ladder, each as an SVG (core.charts) with its data as a table beside it.

The interface the pages, the views and the printed report use:

- `story_svg(tournament, kind, *, dark, width, height)`: the chart of `kind` ("field",
  "entries", "prizes"), or a short sentence drawn when there is nothing to draw yet;
- `story_tables(tournament)`: per kind, the table's headers and rows (strings in the active
  language), the accessible text beside each chart and what a black-and-white print reads;
- `story_figures(tournament, url_of)`: what `templates/charts/figure.html` needs per kind.

Only counts and amounts: no name, nothing private (the public page shows them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from core.charts import Series, bar_svg, empty_svg, line_svg
from core.figures import chips, money
from tournament.domain.levels import RowLabel
from tournament.domain.story import EntriesPoint, FieldPoint, entries_story, field_story
from tournament.live import board_version
from tournament.models import Tournament
from tournament.story_selectors import StoryPrizes, story_counts, story_prizes

STORY_KINDS = ("field", "entries", "prizes")
# The ladder's chart shows the top rungs (a 30,000-entry event pays about 4,500 places in
# hundreds of rungs); its table names the rest in one line.
LADDER_DRAWN = 15
# The story and its drawings are kept per version of the tournament (its latest event-log row:
# every entry, bust, payout change and level start writes one), so a room of phones redrawing
# after a bust reads the entries once, not once per phone and chart. The time bounds what a
# change made without a log line (none is expected) could leave stale.
CACHE_SECONDS = 120


@dataclass(frozen=True)
class Story:
    field: list[FieldPoint]
    entries: list[EntriesPoint]
    prizes: StoryPrizes
    has_levels: bool


def story_data(tournament: Tournament, kinds: tuple[str, ...] = STORY_KINDS) -> Story:
    """The story's data for `kinds` (the others left empty): two grouped queries for the field
    and the entries, the payouts' reads for the prizes."""
    field: list[FieldPoint] = []
    entries: list[EntriesPoint] = []
    has_levels = True
    if "field" in kinds or "entries" in kinds:
        counts = story_counts(tournament)
        has_levels = bool(counts.breaks)
        field = field_story(counts.breaks, counts.tallies, counts.last_row)
        entries = entries_story(counts.breaks, counts.tallies, counts.last_row)
    prizes = (
        story_prizes(tournament) if "prizes" in kinds else StoryPrizes(tournament.currency, 0, [])
    )
    return Story(field, entries, prizes, has_levels)


def cached_story(tournament: Tournament, version: int | None = None) -> Story:
    """`story_data` for every kind, kept per version of the tournament."""
    version = board_version(tournament.pk) if version is None else version
    key = f"story:{tournament.pk}:{version}"
    story: Story | None = cache.get(key)
    if story is None:
        story = story_data(tournament)
        cache.set(key, story, CACHE_SECONDS)
    return story


def _row_name(label: RowLabel) -> str:
    return _("Break") if label.is_break else str(label.number)


def _row_long_name(label: RowLabel) -> str:
    if label.is_break:
        return _("Break after level %(n)s") % {"n": label.after} if label.after else _("Break")
    return _("Level %(n)s") % {"n": label.number}


def _places(first: int, last: int) -> str:
    return str(first) if first == last else f"{first}–{last}"


def _nothing(story: Story, kind: str) -> str:
    """Why there is nothing to draw yet ("" when there is something)."""
    if kind == "prizes":
        if story.prizes.broken:
            return _("The payouts cannot be shown: the tournament's settings break a rule.")
        if story.prizes.flight:
            return _("A starting flight: its event's Day 2 pays the places.")
        if not story.prizes.ladder:
            return _("Nothing to draw yet: the payouts appear once players have paid in.")
        return ""
    if not story.has_levels:
        return _("Nothing to draw yet: the tournament has no levels.")
    if not (story.field if kind == "field" else story.entries):
        return _("Nothing to draw yet: nobody has entered.")
    return ""


def story_svg(
    tournament: Tournament,
    kind: str,
    *,
    dark: bool = False,
    width: int = 800,
    height: int = 400,
    story: Story | None = None,
) -> str:
    """The chart of `kind` as an SVG document (in the active language); raises ValueError for
    an unknown kind. Kept per version of the tournament unless `story` is given."""
    if kind not in STORY_KINDS:
        raise ValueError(f"no story chart {kind!r}")
    if story is not None:
        return _drawn(story, kind, dark=dark, width=width, height=height)
    version = board_version(tournament.pk)
    key = (
        f"story-svg:{tournament.pk}:{version}:{kind}:{get_language()}:{int(dark)}:{width}:{height}"
    )
    svg: str | None = cache.get(key)
    if svg is None:
        svg = _drawn(cached_story(tournament, version), kind, dark=dark, width=width, height=height)
        cache.set(key, svg, CACHE_SECONDS)
    return svg


def _drawn(story: Story, kind: str, *, dark: bool, width: int, height: int) -> str:
    nothing = _nothing(story, kind)
    if nothing:
        return empty_svg(nothing, dark=dark, width=width)
    if kind == "field":
        labels = [_row_name(p.label) for p in story.field]
        return line_svg(
            title=_("Players left and average stack"),
            x_labels=labels,
            series=[
                Series(
                    _("Players (left)"),
                    [p.players_left for p in story.field],
                    emphasis=True,
                ),
                Series(
                    _("Average stack (right)"),
                    [
                        None if p.average_stack is None else round(p.average_stack)
                        for p in story.field
                    ],
                    secondary=True,
                ),
            ],
            x_title=_("Level"),
            dark=dark,
            width=width,
            height=height,
            y_min=0,
        )
    if kind == "entries":
        return bar_svg(
            title=_("Entries and re-entries per level"),
            x_labels=[_row_name(p.label) for p in story.entries],
            series=[
                Series(_("Entries"), [p.entries for p in story.entries]),
                Series(_("Re-entries"), [p.reentries for p in story.entries]),
            ],
            x_title=_("Level"),
            y_title=_("Entries"),
            dark=dark,
            width=width,
            height=height,
        )
    prizes = story.prizes
    drawn = prizes.ladder[:LADDER_DRAWN][::-1]  # pygal stacks bars from the bottom: 1st on top
    return bar_svg(
        title=_("Prize pool %(pool)s: prize per place")
        % {"pool": money(prizes.prize_pool, prizes.currency)},
        x_labels=[_places(r.first, r.last) for r in drawn],
        series=[Series(_("Prize per place"), [r.amount for r in drawn])],
        # a horizontal chart: the places stand on the left, the amounts along the bottom
        y_title=_("Places"),
        currency=prizes.currency,
        dark=dark,
        width=width,
        height=height,
        horizontal=True,
    )


def _field_table(story: Story) -> tuple[list[str], list[list[str]]]:
    headers = [
        _("Level"),
        _("Players left"),
        _("Entries"),
        _("Busts"),
        _("Average stack"),
        _("Chips in play"),
    ]
    rows = [
        [
            _row_long_name(p.label),
            chips(p.players_left),
            chips(p.entries),
            chips(p.busts),
            "–" if p.average_stack is None else chips(round(p.average_stack)),
            chips(p.chips_in_play),
        ]
        for p in story.field
    ]
    return headers, rows


def _entries_table(story: Story) -> tuple[list[str], list[list[str]]]:
    headers = [_("Level"), _("Entries"), _("Re-entries"), _("All entries so far")]
    rows = [
        [_row_long_name(p.label), chips(p.entries), chips(p.reentries), chips(p.total_so_far)]
        for p in story.entries
    ]
    return headers, rows


def _prizes_table(story: Story) -> tuple[list[str], list[list[str]]]:
    prizes = story.prizes
    cur = prizes.currency
    headers = [_("Places"), _("Prize per place"), _("Together")]
    rows = [
        [_places(r.first, r.last), money(r.amount, cur), money(r.amount * r.places, cur)]
        for r in prizes.ladder[:LADDER_DRAWN]
    ]
    rest = prizes.ladder[LADDER_DRAWN:]
    if rest:
        rows.append(
            [
                _places(rest[0].first, rest[-1].last),
                f"{money(rest[-1].amount, cur)} – {money(rest[0].amount, cur)}",
                money(sum(r.amount * r.places for r in rest), cur),
            ]
        )
    if rows:
        rows.append([_("Prize pool"), "", money(prizes.prize_pool, cur)])
    return headers, rows


def story_tables(
    tournament: Tournament, story: Story | None = None
) -> dict[str, tuple[list[str], list[list[str]]]]:
    """Per kind, the data beside its chart: headers and rows, in the active language. Empty
    rows when there is nothing to draw yet."""
    story = story or cached_story(tournament)
    return {
        "field": _field_table(story),
        "entries": _entries_table(story),
        "prizes": _prizes_table(story),
    }


def story_figures(
    tournament: Tournament, url_of: Callable[[str], str], *, live: bool
) -> list[dict[str, Any]]:
    """What the pages include per chart (templates/charts/figure.html): the image's URL, its
    short text, its caption and its table."""
    story = cached_story(tournament)
    tables = story_tables(tournament, story)
    words = {
        "field": (
            _("Players left and average stack per level"),
            _("How the field shrank over the levels, breaks marked, and the average stack."),
        ),
        "entries": (
            _("Entries and re-entries per level"),
            _("Entries and re-entries bought in each level (bars per level)."),
        ),
        "prizes": (
            _("The payout ladder"),
            _("The prize pool and what each place pays."),
        ),
    }
    figures = []
    for kind in STORY_KINDS:
        headers, rows = tables[kind]
        alt, caption = words[kind]
        nothing = _nothing(story, kind)
        figures.append(
            {
                "kind": kind,
                "src": url_of(kind),
                "alt": nothing or alt,
                "caption": caption,
                "headers": headers,
                "rows": rows,
                "live": live,
                "chart_id": f"story-{kind}",
            }
        )
    return figures
