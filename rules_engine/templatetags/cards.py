"""{{ "Th"|card }} renders a playing card: rank and suit symbol, hearts and diamonds in red."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()

SUITS = {"s": ("♠", False), "h": ("♥", True), "d": ("♦", True), "c": ("♣", False)}


@register.filter
def card(code: str) -> SafeString:
    code = str(code)
    if len(code) != 2 or code[1] not in SUITS:
        return format_html('<span class="pc">{}</span>', code)
    rank = "10" if code[0] == "T" else code[0]
    symbol, red = SUITS[code[1]]
    return format_html(
        '<span class="pc{}" title="{}">{}{}</span>', " red" if red else "", code, rank, symbol
    )
