"""Checks of one text on its own: does it look cut off (:func:`truncation`)?"""
from __future__ import annotations

import regex

from ..frame import Frame
from ..normalize import lang_family

__all__ = ["truncation", "NO_FINAL_PUNCT"]

_PAIRS = (("「", "」"), ("『", "』"), ("(", ")"), ("[", "]"), ("【", "】"), ("《", "》"))
#: full-width brackets read as their half-width kind ("（…)" is one pair)
_SAME_KIND = str.maketrans({"（": "(", "）": ")", "［": "[", "］": "]"})
#: double quotes, straight and curly: one kind (‟Archfiend" and “X" are pairs)
_DOUBLE_QUOTES = ('"', "“", "”", "„", "‟", "＂", "〝", "〞")
#: the text ends a sentence: final punctuation, then only closing brackets or quotes
_ENDS_SENTENCE = regex.compile(r"[.。!！?？…](?:[\"'”’」』)）\]］】》]|\s)*$")
_TERMINAL = set(".。!！?？…)）」』\"”'’]】》♪～~")
_CLAUSE_INTERNAL = set(",，、:：;；(（「『“[【《-—/+＋")
_EN_DANGLING = {"the", "a", "an", "and", "or", "of", "to", "by", "from", "with", "your", "this", "that", "if",
                "in", "on", "for", "its", "their", "then", "but", "except", "when", "while", "as", "at", "you",
                "can", "cannot", "must", "be", "is", "are", "was", "will", "which", "than", "have", "has", "also"}
_ZH_DANGLING = set("的把从将和或以在对于为让被与及向使由并且而其该")
#: words that end in a dangling character but end a clause (只能有1张表侧表示存在)
_ZH_WORD_ENDS = ("存在", "所在", "现在", "現在")
_INVISIBLE = "\u200b\u200c\u200d\ufeff \t\r\n\u3000"
_MATERIAL_HINT = regex.compile(r"[+＋×]|\b[xX]\s*\d|\d\+|^\d+ .*\bmonsters?$|怪兽\s*\d+\s*只|\d+\s*只以上|降临$|^以.*降临")


NO_FINAL_PUNCT = "no closing punctuation (possibly cut off)"


def truncation(text: str, lang: str, frame: Frame | None = None) -> str | None:
    """Why ``text`` looks cut off, or ``None`` when it looks complete.

    A cut-off text has lost its END.  Evidence of that:

    - a bracket still open at the end (「 / 『 / ( or （ / [ or ［ / 【 / 《; half- and full-width
      parentheses are one kind, so "（…)" is closed) or an odd number of double quotes (straight
      and curly ones together: ‟Archfiend" is a pair) -- but only when the text does NOT end a
      sentence: a text ending in ``.`` / ``。`` / ``!`` / ``?`` (then any closing brackets or
      quotes) is complete, and the bracket or quote is a typo of a complete text (Armed Ninja's
      unclosed reminder "(If the target is Set, ... original position.");
    - a closing bracket with no opening one is never evidence (a cut removes the end, not the
      start): "LIGHT monsters]by 400 points." is a typo;
    - a last character that only occurs inside a clause (comma, colon, 、, an opening bracket);
    - a last word that cannot end a sentence (English "the", "by", "from", ...; Chinese 的, 把,
      从, 将, ...);
    - in English, a last line with no closing punctuation (:data:`NO_FINAL_PUNCT`, the weakest:
      most such texts are complete sentences that lost their period, e.g. Token texts; reported
      with severity ``low``, every other reason with ``high``).

    Complete: a text ending in closing punctuation, a quote or a bracket; a material line (the
    first line of an Extra Deck or Ritual monster, or any line with +, ×, "N monsters",
    怪兽N只); a ``●`` list item.
    """
    t = (text or "").rstrip(_INVISIBLE)
    if not t:
        return None
    ends_sentence = _ENDS_SENTENCE.search(t) is not None
    if not ends_sentence:
        u = t.translate(_SAME_KIND)
        for o, c in _PAIRS:
            depth = 0
            for ch in u:
                if ch == o:
                    depth += 1
                elif ch == c and depth:
                    depth -= 1
            if depth > 0:
                return f"unbalanced {o}{c}: {depth} {o} not closed"
        if sum(t.count(q) for q in _DOUBLE_QUOTES) % 2:
            return 'unbalanced quotes: odd number of "'
    last = t[-1]
    if last in _TERMINAL:
        return None
    if last in _CLAUSE_INTERNAL:
        return f"ends mid-clause with {last!r}"
    fam = lang_family(lang)
    if fam == "en":
        m = regex.search(r"([A-Za-z']+)$", t)
        if m and m.group(1).lower() in _EN_DANGLING:
            return f"ends mid-clause with {m.group(1)!r}"
    elif last in _ZH_DANGLING and not t.endswith(_ZH_WORD_ENDS):
        return f"ends mid-clause with {last!r}"
    lines = [ln.strip(_INVISIBLE) for ln in t.split("\n") if ln.strip(_INVISIBLE)]
    last_line = lines[-1]
    if last_line[:1] in "●・•·-":
        return None
    is_material = bool(_MATERIAL_HINT.search(last_line)) or (
        len(lines) == 1 and frame is not None and (frame.extra_deck or frame.kind == "ritual"))
    if is_material:
        return None
    if fam == "en":
        return NO_FINAL_PUNCT
    return None  # Chinese: a missing 。 alone is common in complete texts
