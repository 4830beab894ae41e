"""Event-log sentences of corrections at the desk ("Correction: registration of Anna Schäfer
(#33) voided, buy-in refunded"). The person's name is read from the player record when the
line is shown, so a name erased on request disappears from the log too."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from tournament.models import Player


def _name(player_id: Any) -> str:
    name = Player.objects.filter(pk=player_id or 0).values_list("name", flat=True).first()
    return name or "–"


def _money(p: dict[str, Any]) -> str:
    if p.get("refunded"):
        return _("buy-in refunded")
    moved = p.get("moved_to") or {}
    return _("money moved to #%(to)s") % {"to": moved.get("number")}


def _void(p: dict[str, Any]) -> str:
    return _("registration of %(name)s (#%(n)s) voided, %(money)s") % {
        "name": _name(p.get("player")),
        "n": p.get("number"),
        "money": _money(p),
    }


def _person(p: dict[str, Any]) -> str:
    return _("#%(n)s belongs to %(name)s, not %(before)s") % {
        "n": p.get("number"),
        "name": _name(p.get("player")),
        "before": _name(p.get("player_before")),
    }


def _spelling(p: dict[str, Any]) -> str:
    before = (p.get("before") or {}).get("name", "–")
    after = (p.get("after") or {}).get("name", "–")
    if p.get("number"):
        return _("name of #%(n)s spelt “%(after)s”, not “%(before)s”") % {
            "n": p.get("number"),
            "after": after,
            "before": before,
        }
    return _("name spelt “%(after)s”, not “%(before)s”") % {
        "after": after,
        "before": before,
    }


def _moved(p: dict[str, Any]) -> str:
    kinds = {
        "buyin": _("buy-in"),
        "reentry": _("re-entry"),
        "rebuy": _("rebuy"),
        "addon": _("add-on"),
    }
    return _("%(kind)s moved from #%(a)s to #%(b)s") % {
        "kind": kinds.get(str(p.get("kind")), "–"),
        "a": (p.get("from") or {}).get("number"),
        "b": (p.get("to") or {}).get("number"),
    }


_DETAILS = {
    "correction.void": _void,
    "correction.person": _person,
    "correction.name": _spelling,
    "correction.money": _moved,
}


def correction_detail(action: str, p: dict[str, Any]) -> str:
    """What a correction changed, without the leading "Correction:" (for the desk's list)."""
    make = _DETAILS.get(action)
    return make(p) if make else "–"


def _correction(action: str) -> Any:
    return lambda p: _("Correction: %(what)s") % {"what": correction_detail(action, p)}


def undo_sentence(p: dict[str, Any]) -> str:
    return _("Correction undone: %(what)s") % {
        "what": correction_detail(str(p.get("correction")), p)
    }


def payout_correction_sentence(p: dict[str, Any]) -> str:
    numbers = ", ".join(f"#{e.get('number')}" for e in p.get("entries", []))
    return _("Payment to collect back at the payout desk: %(who)s") % {"who": numbers or "–"}


SENTENCES: dict[str, Any] = {
    **{action: _correction(action) for action in _DETAILS},
    "correction.undo": undo_sentence,
    "payout.correction": payout_correction_sentence,
}
