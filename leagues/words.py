"""The refusals of the points domain in the reader's language."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from leagues.domain.formula import MAX_LENGTH, MAX_NODES, MAX_STATEMENTS, FormulaError
from leagues.domain.points import PointsError
from leagues.domain.td3_formula import Translation


def formula_error(exc: FormulaError, *, tournament: Any = None) -> str:
    v = exc.values
    texts = {
        "empty": _("Write a formula."),
        "long": _("A formula has at most %(n)s characters.") % {"n": MAX_LENGTH},
        "syntax": _(
            "The formula does not parse: use numbers, n p b k, names assigned before (name = …), + - * / ** % ( ), comparisons (< <= > >= == !=), and, or, not, IF(condition, then, else) and the functions sqrt, ln, log, log10, exp, pow, min, max, round, floor, ceil, abs."
        ),
        "name": _(
            "Unknown name in the formula: %(name)s. Use n, p, b, k, h, the night's figures (players, pool, prize, itm, paid_places, buyins_in, rebuys_in, addons_in, rebuys, addons, paid) or a name assigned before."
        )
        % {"name": v.get("name", "")},
        "assign": _("Assign one plain name at a time: name = expression."),
        "reserved": _("%(name)s cannot be assigned: choose another name.")
        % {"name": v.get("name", "")},
        "big": _(
            "The formula is too long or too complex (at most %(nodes)s parts and %(statements)s statements)."
        )
        % {"nodes": MAX_NODES, "statements": MAX_STATEMENTS},
        "unavailable": _("%(name)s is not available for league standings yet.")
        % {"name": v.get("name", "")},
        "function": _("Unknown function in the formula: %(name)s.") % {"name": v.get("name", "")},
        "arguments": _("Wrong number of arguments to %(name)s.") % {"name": v.get("name", "")},
        "deep": _("The formula is nested too deeply."),
        "zero": _("The formula divides by zero."),
        "negative": _("The formula takes a root of a negative number."),
        "log": _("The formula takes the logarithm of zero or less."),
        "overflow": _("The formula gives a number out of range."),
        "digits": _("round(x, d) takes 0 to 6 decimal places."),
    }
    text = texts.get(exc.code, _("The formula cannot be computed."))
    if v.get("at"):
        text += " " + _("(for n = %(n)s, p = %(p)s, b = %(b)s, k = %(k)s)") % {
            "n": v["n"],
            "p": v["p"],
            "b": f"{v['b']:g}",
            "k": f"{v['k']:g}",
        }
    if tournament is not None:
        text = _("%(tournament)s: %(reason)s No points were given for it.") % {
            "tournament": tournament.name,
            "reason": text,
        }
    return text


def table_error(exc: PointsError) -> str:
    v = exc.values
    texts = {
        "empty": _("Write the points of at least one place."),
        "band": _("Not a field size band: %(band)s. Write e.g. 10-14: or 80+:")
        % {"band": v.get("band", "")},
        "number": _("Not a number: %(word)s.") % {"word": v.get("word", "")},
        "negative": _("Points cannot be negative: %(word)s.") % {"word": v.get("word", "")},
        "overlap": _("Two bands of the table overlap."),
        "long": _("A table has points for at most 1000 places."),
        "best_n": _("Best N must be at least 1."),
    }
    return texts.get(exc.code, str(exc))


def td3_refusal(translation: Translation) -> str:
    """Why a TD3 formula did not translate, naming the construct, in the reader's language
    ("" when it translated)."""
    if translation.ok:
        return ""
    name = translation.name
    if translation.kind == "floor":
        reason = formula_error(FormulaError(name, ""))
        return _("Floor's formula language refuses the translation: %(reason)s") % {
            "reason": reason
        }
    if translation.kind in ("unexpected", "expected") and not name:
        return _("The TD3 formula ends too early.")
    texts = {
        "function": _("Floor cannot express the TD3 function %(name)s."),
        "variable": _("Floor does not know the TD3 variable %(name)s."),
        "before_assign": _("The TD3 formula reads %(name)s before assigning it."),
        "operator": _("Floor cannot express the TD3 operator %(name)s."),
        "list": _("Floor cannot express TD3's lists [ … ]."),
        "text": _("Floor cannot express the text “%(name)s” in a TD3 formula."),
        "assign": _('Floor understands assign() only as assign("name", value).'),
        "assign_logic": _("Floor cannot express assign() inside %(name)s."),
        "assign_compared": _("Floor cannot express assign() in the value %(name)s compares."),
        "arguments": _("Floor cannot express %(name)s with this number of arguments."),
        "parts": _("The TD3 formula is too long or nested too deeply."),
        "nesting": _("The TD3 formula is too long or nested too deeply."),
        "long": _("The TD3 formula is too long or nested too deeply."),
        "character": _("The TD3 formula does not parse: unexpected character %(name)s."),
        "unexpected": _("The TD3 formula does not parse at %(name)s."),
        "expected": _("The TD3 formula does not parse at %(name)s."),
        "end": _("The TD3 formula ends too early."),
        "empty": _("The TD3 formula is empty."),
    }
    text = texts.get(translation.kind, _("The TD3 formula does not parse at %(name)s."))
    return text % {"name": name} if "%(name)s" in text else text
