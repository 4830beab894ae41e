"""The league's charts (issue #61; docs/leagues.md "The season's race", docs/players.md): the
season's race and a person's history, drawn with core.charts from leagues.domain.race's data,
and what a page shows beside each picture (templates/charts/figure.html: the text alternative,
the caption, the data as a table). The SVG addresses are leagues/chart_views.py's."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.charts import Series, bar_svg, empty_svg, line_svg
from leagues.domain.points import Points
from leagues.domain.race import PersonHistory, Race
from leagues.models import Season
from leagues.selectors import SeasonStandings, person_nights, season_race, season_standings
from leagues.templatetags.leagues import points, points_decimal
from tournament.models import Player

# The big screen's picture: a column of the screen (leagues/screen.html), drawn small so that
# its words are large there. On a page: narrow enough that its words stay readable on a 390 px
# phone, where the picture is 330 px wide.
SCREEN_SIZE = (580, 660)  # under 600 wide: the legend in two columns, names never overlap
PAGE_SIZE = (560, 580)
PERSON_SIZE = (560, 380)


def _value(total: Points | None) -> float | None:
    return None if total is None else float(points_decimal(total))


def _nothing_yet() -> str:
    return _("No finished tournament in this season yet.")


# --- The season's race -----------------------------------------------------------------------


def race_svg(season: Season, *, dark: bool = False, screen: bool = False) -> str:
    """The race as a picture: one line per player of the top ten, their points after each
    night; "nothing to draw" before the first finished night. `dark`: the public pages' and
    screens' style; `screen`: the big screen's size."""
    race = season_race(season, season_standings(season, public=True))
    width, height = SCREEN_SIZE if screen else PAGE_SIZE
    if race.empty:
        return empty_svg(_nothing_yet(), dark=dark, width=width, height=height // 2)
    return line_svg(
        title=_("The race: points after each night"),
        x_labels=[n.label for n in race.nights],
        series=[
            Series(line.name, [_value(t) for t in line.totals], emphasis=i == 0)
            for i, line in enumerate(race.lines)
        ],
        y_title=_("Points"),
        x_title=_("Night"),
        dark=dark,
        width=width,
        height=height,
        y_min=0,
    )


def _leader_text(race: Race) -> str:
    if race.empty:
        return _nothing_yet()
    leaders = [line for line in race.lines if line.ranks[-1] == 1]
    values = {"n": len(race.nights), "points": points(leaders[0].totals[-1])}
    if len(leaders) > 1:  # equal totals share the first rank
        return ngettext(
            "After %(n)s night: %(names)s share the lead with %(points)s points.",
            "After %(n)s nights: %(names)s share the lead with %(points)s points.",
            len(race.nights),
        ) % {**values, "names": ", ".join(line.name for line in leaders)}
    return ngettext(
        "After %(n)s night: %(name)s leads with %(points)s points.",
        "After %(n)s nights: %(name)s leads with %(points)s points.",
        len(race.nights),
    ) % {**values, "name": leaders[0].name}


def race_figure(
    season: Season, standings: SeasonStandings, *, screen: bool = False
) -> dict[str, Any]:
    """What templates/charts/figure.html needs for the race (public names: `standings` read
    with public=True): a row per night, each shown player's points and rank after it."""
    race = season_race(season, standings)
    url = reverse("season-race-svg", args=[season.pk])
    headers = [_("Night"), *(line.name for line in race.lines)]
    rows = []
    for k, night in enumerate(race.nights):
        row = [night.label]
        for line in race.lines:
            total, rank = line.totals[k], line.ranks[k]
            row.append(
                "–"
                if total is None
                else _("%(points)s (rank %(rank)s)") % {"points": points(total), "rank": rank}
            )
        rows.append(row)
    return {
        "src": url + ("?dark=1&screen=1" if screen else "?dark=1"),  # public pages are dark
        "alt": ngettext(
            "The season's race: the leader's points after each night",
            "The season's race: the points of the first %(n)s players after each night",
            len(race.lines),
        )
        % {"n": len(race.lines)},
        "caption": _leader_text(race),
        "headers": headers if rows else [],
        "rows": rows,
        "empty": race.empty,
    }


# --- A person's history ----------------------------------------------------------------------

KINDS = ("finishes", "points")


def person_svg(history: PersonHistory, kind: str, *, dark: bool = False) -> str:
    """`finishes`: their place and the field per night (lines; a lower place is better);
    `points`: their league points per night (bars). "Nothing to draw" without a result."""
    if history.empty:
        return empty_svg(_("No results to draw yet."), dark=dark, width=PERSON_SIZE[0])
    labels = history.x_labels
    if kind == "points":
        if not history.with_points:
            return empty_svg(_("No league points to draw yet."), dark=dark, width=PERSON_SIZE[0])
        return bar_svg(
            title=_("League points per night"),
            x_labels=labels,
            series=[Series(_("Points"), [_value(p) for p in history.points])],
            y_title=_("Points"),
            x_title=_("Night"),
            dark=dark,
            width=PERSON_SIZE[0],
            height=PERSON_SIZE[1],
        )
    return line_svg(
        title=_("Finishes: place and field per night"),
        x_labels=labels,
        series=[
            Series(_("Place"), list(history.places), emphasis=True),
            Series(_("Entries"), list(history.fields)),
        ],
        y_title=_("Players"),
        x_title=_("Night"),
        dark=dark,
        width=PERSON_SIZE[0],
        height=PERSON_SIZE[1],
        y_min=0,
    )


def person_figures(player: Player, *, public: bool) -> list[dict[str, Any]]:
    """The person's charts for their page (public: the public profile's results only): the
    finishes, and the league points when a night counted for a season. Empty: no result."""
    history = person_nights(player, public=public)
    if history.empty:
        return []
    name = "player-chart-svg" if public else "console-player-chart-svg"
    dark = "?dark=1" if public else ""  # the public pages are dark
    rows = [
        [n.label, f"{n.place}." if n.place is not None else "–", n.field] for n in history.nights
    ]
    headers = [_("Night"), _("Place"), _("Entries")]
    best = min(p for p in history.places if p is not None)
    figures = [
        {
            "src": reverse(name, args=[player.pk, "finishes"]) + dark,
            "alt": _("Finishes: place and field per night"),
            "caption": ngettext(
                "%(n)s night; best place: %(best)s. A lower line is a better finish.",
                "%(n)s nights; best place: %(best)s. A lower line is a better finish.",
                len(history.nights),
            )
            % {"n": len(history.nights), "best": best},
            "headers": headers,
            "rows": rows,
            "chart_id": "person-finishes",
        }
    ]
    if history.with_points:
        total = sum((p for p in history.points if p is not None), 0)
        figures.append(
            {
                "src": reverse(name, args=[player.pk, "points"]) + dark,
                "alt": _("League points per night"),
                "caption": _("%(points)s league points in the nights shown.")
                % {"points": points(total)},
                "headers": [_("Night"), _("Points")],
                "rows": [
                    [n.label, points(n.points) if n.points is not None else "–"]
                    for n in history.nights
                ],
                "chart_id": "person-points",
            }
        )
    return figures
