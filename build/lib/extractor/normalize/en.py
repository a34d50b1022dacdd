"""English normalizer: current PSCT wording from current and older card text.

Steps (each keeps the offset map): NFC; quotes, dashes and line breaks to ASCII (table
``characters`` of ``patterns/terms/en.yaml``); older terms to current ones (table ``terms``:
Graveyard -> GY, removed from play -> banished, Fusion Deck -> Extra Deck, Sacrifice ->
Tribute, "This card cannot be ..." -> "Cannot be ...").  "can only be Special Summoned by ..."
and "cannot be Special Summoned except by ..." stay distinguishable ("Can only be ..." vs
"Cannot be Special Summoned, except ...").
"""
from __future__ import annotations

from functools import lru_cache

import regex

from ..textmap import MappedText, compile_alternation
from .common import load_terms, nfc


@lru_cache(maxsize=1)
def _compiled():
    data = load_terms("en")
    chars: dict[str, str] = data.get("characters", {})
    char_re = compile_alternation(chars) if chars else None
    terms = [(regex.compile(t["from"]), t["to"]) for t in data.get("terms", [])]
    # fast prefilter: a term pass runs only when its first literal word is in the text
    return chars, char_re, terms


_SPACES = regex.compile(r"[ \t]{2,}")


def normalize_en(text: str) -> MappedText:
    """Normalize English card text.  Input: the original text.  Output: MappedText."""
    chars, char_re, terms = _compiled()
    mt = nfc(MappedText(text))
    if char_re is not None and not mt.text.isascii() or "\r" in mt.text:
        mt.replace_all(chars, char_re)
    for rx, rep in terms:
        if rx.search(mt.text):
            mt.sub(rx, rep)
    if "  " in mt.text:
        mt.sub(_SPACES, " ")
    return mt
