"""Searching people by name the way a German floor spells them.

`fold` maps a name to a key in which the spellings a person might type for the same name
agree: case, accents, the German umlauts written with or without their e (ä = ae = a, ö = oe =
o, ü = ue = u) and ß = ss. A query matches when every folded word of it is contained in the
folded name, in any order.
"""

from __future__ import annotations

import unicodedata

# Applied after the accents are gone, to both the name and the query, so "Schaefer",
# "Schäfer" and "Schafer" all become "schafer". The same pairs inside other names fold too
# ("Michael" -> "michal"); both sides fold alike, so that only widens a match a little.
_DIGRAPHS = (("ae", "a"), ("oe", "o"), ("ue", "u"))


def fold(text: str) -> str:
    """The search key of `text`: lower case, ß as ss, accents removed, ae/oe/ue as a/o/u,
    words separated by one space."""
    lowered = text.casefold()  # casefold turns ß into ss
    decomposed = unicodedata.normalize("NFKD", lowered)
    # Once more after the decomposition: a compatibility character can decompose into a
    # capital letter (the modifier letter "ᴬ" becomes "A").
    plain = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    folded = ""
    while folded != plain:  # until stable: "aee" -> "ae" -> "a", so fold(fold(x)) == fold(x)
        folded = plain
        for digraph, letter in _DIGRAPHS:
            plain = plain.replace(digraph, letter)
    return " ".join(plain.split())


def query_words(query: str) -> list[str]:
    """The folded words of a search query, each to be found somewhere in the folded name."""
    return [word for word in fold(query).split() if word]


def name_matches(name_key: str, query: str) -> bool:
    """Whether every word of `query` occurs in `name_key` (a `fold`ed name)."""
    words = query_words(query)
    return bool(words) and all(word in name_key for word in words)
