"""A season of The Tournament Director's files (docs/td3-format.md, "A season from TD3 files").

Each file names its league and season (TD3's LeagueName/LeagueUUID, SeasonName/SeasonUUID) and
the league's points formula. `td3_files_import` imports the files as finished tournaments
(imports), then, in the same transaction, finds or makes the league and the season they name
and counts each tournament for its season (leagues): a league or season is found again by the
TD3 UUID kept as an external record (imports), never by its name — a league of the same name
that came from elsewhere is left alone and named in the answer. The file's formula is
translated (leagues.domain.td3_formula) and becomes the season's scoring only while the season
has none of its own (the default: DPSB, no formula, no table); a formula the director set is
never overwritten, and one Floor cannot express, or that reads figures standings do not give
yet, stays as text on the import record, with the construct named, in the reader's language.
`td3_season_plan` says beforehand what the import would do with the league, season and formula.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import FloorError
from imports.domain.td3 import Td3File, Td3Tournament
from imports.models import ImportedTournament, Kind
from imports.services import (
    external_record,
    external_record_keep,
    imports_serialized,
    td3_import_many,
)
from leagues.domain.td3_formula import td3_translate
from leagues.models import League, Scoring, Season
from leagues.services import (
    league_create,
    scoring_check,
    season_create,
    season_tournament_add,
    season_update,
)
from leagues.words import td3_refusal
from tournament.events import Actor
from tournament.models import Tournament


class Fate(StrEnum):
    """What became of the file's points formula."""

    NONE = "none"  # the file has no formula
    SET = "set"  # it is the season's scoring now
    SAME = "same"  # the season scores by it already
    KEPT = "kept"  # the season has a scoring of its own: left as it is
    REFUSED = "refused"  # Floor cannot score it (yet): kept as text, the construct named


@dataclass(frozen=True)
class FormulaOutcome:
    fate: Fate
    td3: str  # the file's text
    floor: str = ""  # its translation, when there is one
    reason: str = ""  # why it was refused, naming the construct (the reader's language)


@dataclass(frozen=True)
class SeasonLink:
    """The league and season a file counts for (found, or made when `*_created`), or what an
    import would do (`league`/`season` None: made by the import)."""

    league_name: str
    season_name: str
    league: League | None
    season: Season | None
    league_created: bool
    season_created: bool
    namesake: bool  # a league of this name is here already, not the file's: kept apart
    formula: FormulaOutcome

    def lines(self) -> list[str]:
        """What happened (or would happen), in sentences for the director."""
        names = {"league": self.league_name, "season": self.season_name}
        out = [_("League %(league)s, season %(season)s.") % names]
        if self.league_created:
            out.append(_("The league %(league)s was created.") % names)
        if self.season_created:
            out.append(_("The season %(season)s was created.") % names)
        if self.namesake:
            out.append(
                _(
                    "A league named %(league)s was here already and is not the file's (no TD3 "
                    "league id joins them): the file's league is kept apart from it."
                )
                % names
            )
        out += formula_lines(self.formula)
        return out


def formula_lines(outcome: FormulaOutcome) -> list[str]:
    if outcome.fate == Fate.SET:
        return [_("The season scores by the file's points formula: %(f)s") % {"f": outcome.floor}]
    if outcome.fate == Fate.KEPT:
        return [
            _(
                "The season keeps the scoring chosen for it; the file's points formula was not "
                "applied."
            )
        ]
    if outcome.fate == Fate.REFUSED:
        return [
            _(
                "The file's points formula (%(td3)s) is kept as text only: %(reason)s The season "
                "keeps the scoring chosen for it; choose one on the season's page."
            )
            % {"td3": outcome.td3, "reason": outcome.reason}
        ]
    return []


@dataclass(frozen=True)
class FileImported:
    file_name: str
    tournament: Tournament
    link: SeasonLink | None  # None: the file names no league


# --- the checks, shared by the plan and the import -----------------------------------------


def _untouched(season: Season) -> bool:
    """The season scores as a new season does: nobody chose a scoring for it."""
    return season.scoring == Scoring.DPSB and not season.formula.strip() and not season.table


def _formula(text: str, season: Season | None) -> FormulaOutcome:
    """What the file's formula `text` would do to `season` (None: a new season)."""
    text = text.strip()
    if not text:
        return FormulaOutcome(Fate.NONE, "")
    translation = td3_translate(text)
    if not translation.ok:
        return FormulaOutcome(Fate.REFUSED, text, reason=td3_refusal(translation))
    floor = translation.formula
    try:  # the leagues' own check: the figures standings give, every field size
        scoring_check(
            scoring=Scoring.FORMULA, formula=floor, table_text="", best_n=None, participation=0
        )
    except FloorError as exc:
        reason = _("it translates to %(f)s, but league standings cannot score it yet: %(r)s") % {
            "f": floor,
            "r": str(exc),
        }
        return FormulaOutcome(Fate.REFUSED, text, floor, reason)
    if season is not None:
        if season.scoring == Scoring.FORMULA and season.formula.strip() == floor.strip():
            return FormulaOutcome(Fate.SAME, text, floor)
        if not _untouched(season):
            return FormulaOutcome(Fate.KEPT, text, floor)
    return FormulaOutcome(Fate.SET, text, floor)


def _keys(t: Td3Tournament) -> tuple[str, str] | None:
    """The external ids of the file's league and season (the TD3 UUIDs; a file without them is
    known by its names), or None when the file names no league."""
    if not (t.league_uuid or t.league_name):
        return None
    league = t.league_uuid or f"name:{t.league_name}"
    season = t.season_uuid or f"{league}/name:{_season_name(t)}"
    return league, season


def _league_name(t: Td3Tournament) -> str:
    return (t.league_name or _("TD3 league"))[:120]


def _season_name(t: Td3Tournament) -> str:
    if t.season_name:
        return t.season_name[:120]
    return str(t.started_at.year) if t.started_at else _("TD3 season")


def _found(t: Td3Tournament) -> tuple[League | None, Season | None]:
    """The league and season the file's ids became before (when they still exist)."""
    keys = _keys(t)
    if keys is None:
        return None, None
    league_id = external_record(Kind.LEAGUE, keys[0])
    league = League.objects.filter(pk=league_id).first() if league_id else None
    if league is None:
        return None, None
    season_id = external_record(Kind.SEASON, keys[1])
    season = Season.objects.filter(pk=season_id, league=league).first() if season_id else None
    return league, season


def _namesake(t: Td3Tournament, league: League | None) -> bool:
    return league is None and League.objects.filter(name__iexact=_league_name(t)).exists()


def td3_season_plan(file: Td3File) -> SeasonLink | None:
    """What importing `file` would do with its league, season and formula; writes nothing."""
    t = file.tournament
    if _keys(t) is None:
        return None
    league, season = _found(t)
    return SeasonLink(
        league_name=_league_name(t),
        season_name=_season_name(t),
        league=league,
        season=season,
        league_created=False,
        season_created=False,
        namesake=_namesake(t, league),
        formula=_formula(t.points_formula, season),
    )


# --- the command ----------------------------------------------------------------------------


def _season_of(t: Td3Tournament) -> SeasonLink | None:
    """The file's league and season, found by their TD3 ids or made (and remembered)."""
    keys = _keys(t)
    if keys is None:
        return None
    league, season = _found(t)
    namesake = _namesake(t, league)
    league_created = league is None
    if league is None:
        league = league_create(name=_league_name(t))
        external_record_keep(Kind.LEAGUE, keys[0], league.pk)
    season_created = season is None
    if season is None:
        season = season_create(league=league, name=_season_name(t))
        external_record_keep(Kind.SEASON, keys[1], season.pk)
    return SeasonLink(
        league_name=league.name,
        season_name=season.name,
        league=league,
        season=season,
        league_created=league_created,
        season_created=season_created,
        namesake=namesake,
        formula=FormulaOutcome(Fate.NONE, ""),
    )


def _formula_apply(link: SeasonLink, text: str) -> SeasonLink:
    """The file's formula made the season's scoring while the season has none of its own."""
    season = link.season
    assert season is not None
    outcome = _formula(text, season)
    if outcome.fate == Fate.SET:
        season = season_update(
            season=season,
            name=season.name,
            scoring=Scoring.FORMULA,
            formula=outcome.floor,
            best_n=season.best_n,
            participation=season.participation,
        )
    return replace(link, season=season, formula=outcome)


@transaction.atomic
def td3_files_import(
    files: list[tuple[str, Td3File]],
    *,
    actor: Actor,
    matches: Mapping[str, int] | None = None,
    currency: str = "EUR",
) -> list[FileImported]:
    """Import the files (imports.services.td3_import_many: in the order they were played, one
    refused and none is), then count each tournament for the league and season its file names,
    found by their TD3 ids or made, and give a new season the file's formula. One transaction:
    a refusal anywhere writes nothing."""
    imports_serialized()
    done = td3_import_many(files, actor=actor, matches=matches, currency=currency)
    uuids = dict(
        ImportedTournament.objects.filter(
            tournament_id__in=[t.pk for _name, t in done]
        ).values_list("tournament_id", "external_id")
    )
    by_uuid = {file.tournament.uuid: file for _name, file in files}
    out: list[FileImported] = []
    for name, tournament in done:
        t = by_uuid[uuids[tournament.pk]].tournament
        link = _season_of(t)
        if link is not None:
            assert link.season is not None
            season_tournament_add(season=link.season, tournament=tournament)
            link = _formula_apply(link, t.points_formula)
        out.append(FileImported(name, tournament, link))
    return out


def lines_of(done: list[FileImported]) -> list[str]:
    """What the import did with leagues, seasons and formulas, each sentence once."""
    seen: dict[str, None] = {}
    for item in done:
        for line in item.link.lines() if item.link else []:
            seen.setdefault(line, None)
    return list(seen)
