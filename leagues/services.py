"""Writes: leagues, seasons, their scoring and their tournaments. Each checks first and changes
nothing when it refuses (FloorError with a message for a person)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from core.errors import FloorError
from leagues.domain.formula import EVERY, FormulaError, formula_check
from leagues.domain.points import PointsError, table_parse
from leagues.models import League, Scoring, Season, SeasonTournament
from leagues.words import formula_error, table_error
from tournament.models import Tournament


def _name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise FloorError(_("Give it a name."), field="name")
    if len(name) > 120:
        raise FloorError(_("A name has at most 120 characters."), field="name")
    return name


def league_create(*, name: str, public: bool = False) -> League:
    return League.objects.create(name=_name(name), public=public)


def league_update(*, league: League, name: str, public: bool) -> League:
    league.name = _name(name)
    league.public = public
    league.save(update_fields=["name", "public"])
    return league


def season_create(*, league: League, name: str) -> Season:
    return Season.objects.create(league=league, name=_name(name))


def scoring_check(
    *, scoring: str, formula: str, table_text: str, best_n: int | None, participation: object
) -> tuple[str, list[dict[str, object]], Decimal]:
    """The formula and table as stored, and the participation points; FloorError naming the
    field when one is refused."""
    if scoring not in Scoring.values:
        raise FloorError(_("Choose a scoring."), field="scoring")
    if best_n is not None and best_n < 1:
        raise FloorError(_("Best N must be at least 1."), field="best_n")
    try:
        bonus = Decimal(str(participation or 0)).quantize(Decimal("0.01"))
    except InvalidOperation as exc:
        raise FloorError(_("Not a number."), field="participation") from exc
    if bonus < 0 or bonus >= Decimal("1000000"):
        raise FloorError(_("Between 0 and 999999.99 points."), field="participation")
    formula = (formula or "").strip()
    if scoring == Scoring.FORMULA or formula:
        try:
            formula_check(formula, given=EVERY)  # standings give every figure
        except FormulaError as exc:
            raise FloorError(formula_error(exc), field="formula") from exc
    table: list[dict[str, object]] = []
    if scoring == Scoring.TABLE or (table_text or "").strip():
        try:
            table = table_parse(table_text or "").as_json()
        except PointsError as exc:
            raise FloorError(table_error(exc), field="table_text") from exc
    return formula, table, bonus


def season_update(
    *,
    season: Season,
    name: str,
    scoring: str,
    formula: str = "",
    table_text: str = "",
    best_n: int | None = None,
    participation: object = 0,
) -> Season:
    """Change a season's scoring. The standings follow at once (they are computed on reading)."""
    name = _name(name)
    formula, table, bonus = scoring_check(
        scoring=scoring,
        formula=formula,
        table_text=table_text,
        best_n=best_n,
        participation=participation,
    )
    with transaction.atomic():
        locked = Season.objects.select_for_update().get(pk=season.pk)
        locked.name, locked.scoring, locked.formula, locked.table = name, scoring, formula, table
        locked.best_n, locked.participation = best_n, bonus
        locked.save()
    return locked


def season_tournament_add(*, season: Season, tournament: Tournament) -> SeasonTournament:
    """A tournament counts for one season at most."""
    taken = SeasonTournament.objects.filter(tournament=tournament).select_related("season").first()
    if taken is not None:
        raise FloorError(
            _("%(tournament)s already counts for the season %(season)s.")
            % {"tournament": tournament.name, "season": str(taken.season)},
            field="tournament",
            code="taken",
        )
    try:
        with transaction.atomic():
            return SeasonTournament.objects.create(season=season, tournament=tournament)
    except IntegrityError as exc:  # added at the same moment from another console
        raise FloorError(
            _("%(tournament)s already counts for a season.") % {"tournament": tournament.name},
            field="tournament",
            code="taken",
        ) from exc


def season_tournament_remove(*, season: Season, tournament: Tournament) -> None:
    deleted, _rows = SeasonTournament.objects.filter(season=season, tournament=tournament).delete()
    if not deleted:
        raise FloorError(_("That tournament does not count for this season."), code="missing")
