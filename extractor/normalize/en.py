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

from ..literals import required_literals
from ..textmap import MappedText, compile_alternation
from .common import load_terms, nfc


@lru_cache(maxsize=1)
def _compiled():
    data = load_terms("en")
    chars: dict[str, str] = data.get("characters", {})
    char_re = compile_alternation(chars) if chars else None
    terms = []
    for t in data.get("terms", []):
        rx = regex.compile(t["from"])
        # a term pass is tried only on a text holding what its expression requires (a literal
        # test costs a small part of a regex search; most texts need none of the older wordings)
        need = required_literals(t["from"]) if not rx.flags & (regex.IGNORECASE | regex.VERBOSE) else None
        # one clause is enough for a prefilter: the one whose shortest literal is longest
        terms.append((rx, t["to"], max(need, key=lambda c: min(map(len, c))) if need else ()))
    return chars, char_re, terms


_SPACES = regex.compile(r"[ \t]{2,}")


def normalize_en(text: str) -> MappedText:
    """Normalize English card text.  Input: the original text.  Output: MappedText."""
    chars, char_re, terms = _compiled()
    mt = nfc(MappedText(text))
    if char_re is not None and not mt.text.isascii() or "\r" in mt.text:
        mt.replace_all(chars, char_re)
    for rx, rep, lits in terms:
        text = mt.text
        if lits:  # one of these is in every text the term matches
            for lit in lits:
                if lit in text:
                    break
            else:
                continue
        if rx.search(text):
            mt.sub(rx, rep)
    if "  " in mt.text:
        mt.sub(_SPACES, " ")
    return mt
