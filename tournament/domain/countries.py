"""A person's country, kept as its ISO 3166-1 alpha-2 code ("DE"), as results databases take it.

What a person types or a spreadsheet holds is read generously: the two- or three-letter code in
any case ("de", "DEU"), or the country's name in English or German ("Germany", "Deutschland",
"Österreich"), names from the iso-codes project through pycountry, folded for case and accents.
Anything else is refused (ValueError), never guessed.
"""

from __future__ import annotations

import gettext
import unicodedata
from functools import cache

import pycountry

CODES: frozenset[str] = frozenset(c.alpha_2 for c in pycountry.countries)


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    kept = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(kept.replace("-", " ").replace(".", " ").split())


@cache
def _translation(language: str) -> gettext.NullTranslations:
    return gettext.translation(
        "iso3166-1", pycountry.LOCALES_DIR, languages=[language], fallback=True
    )


def country_name(code: str, language: str = "en") -> str:
    """The country's common name in `language` ("de" or "en"); "" for no or an unknown code."""
    country = pycountry.countries.get(alpha_2=code.upper()) if code else None
    if country is None:
        return ""
    name = getattr(country, "common_name", None) or country.name
    if language[:2] == "en":
        return str(name)
    translated = _translation(language[:2]).gettext(country.name)
    return translated if translated != country.name else str(name)


_UMLAUTS = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss"})


@cache
def _names() -> dict[str, str]:
    """Every name a country goes by, folded, in English and German -> its code."""
    names: dict[str, str] = {}
    german = _translation("de")
    for country in pycountry.countries:
        for name in (
            country.name,
            getattr(country, "common_name", None),
            getattr(country, "official_name", None),
            german.gettext(country.name),
            german.gettext(getattr(country, "official_name", "") or country.name),
        ):
            if name:
                names.setdefault(_fold(name), country.alpha_2)
                # German written without umlauts: "Oesterreich", "Tuerkei".
                plain = name.casefold().translate(_UMLAUTS)
                names.setdefault(_fold(plain), country.alpha_2)
    return names


def country_clean(value: str) -> str:
    """The alpha-2 code for what was typed; "" for nothing. ValueError: not a country."""
    text = " ".join(str(value).split())
    if not text:
        return ""
    if len(text) > 80:
        raise ValueError(text[:80])
    upper = text.upper()
    if len(upper) == 2 and upper in CODES:
        return upper
    if len(upper) == 3 and upper.isalpha():
        country = pycountry.countries.get(alpha_3=upper)
        if country is not None:
            return str(country.alpha_2)
    code = _names().get(_fold(text))
    if code is None:
        raise ValueError(text)
    return code


def country_choices(language: str) -> list[tuple[str, str]]:
    """(code, name) for a select, in the reader's language, sorted by name as they read it."""
    pairs = [(code, country_name(code, language)) for code in CODES]
    return sorted(pairs, key=lambda pair: _fold(pair[1]))
