"""Segmentation of normalized card text: the Pendulum Effect apart from the monster text, and
the material line of an Extra Deck monster.

All offsets are character offsets into the NORMALIZED text (map them back with
``MappedText.to_original``).
"""
from __future__ import annotations

from dataclasses import dataclass

import regex

__all__ = ["Segments", "segment"]

# Pendulum blocks as they appear in cdb texts (English and Chinese, after normalization).
_PEND_EN = regex.compile(r"\[\s*Pendulum Effect\s*\]")
_MON_EN = regex.compile(r"\[\s*(?:Monster Effect|Flavor Text|Monster Text)\s*\]")
_PEND_ZH = regex.compile(r"(?:←\s*\d+\s*)?【\s*(?:灵摆效果|灵摆|灵摆卡效果|灵摆刻度)\s*】(?:\s*\d+\s*→)?")
_MON_ZH = regex.compile(r"【\s*(?:怪兽效果|怪兽描述|怪兽说明|效果)\s*】")


@dataclass(slots=True)
class Segments:
    """Where the parts of one normalized card text are.

    monster: ``(start, end)`` of the monster text (the whole text when there is no Pendulum block).
    pendulum: ``(start, end)`` of the Pendulum Effect inside the same text, or ``None``.
    material: ``(start, end)`` of the material line of an Extra Deck monster, or ``None``.
    """

    monster: tuple[int, int]
    pendulum: tuple[int, int] | None = None
    material: tuple[int, int] | None = None


def _pendulum_split(text: str, fam: str) -> tuple[tuple[int, int], tuple[int, int] | None]:
    pend_re, mon_re, bracket = (_PEND_EN, _MON_EN, "[") if fam == "en" else (_PEND_ZH, _MON_ZH, "\u3010")
    if bracket not in text:  # every Pendulum block holds its bracket: most texts need no regex scan
        return (0, len(text)), None
    p = pend_re.search(text)
    if not p:
        return (0, len(text)), None
    m = mon_re.search(text, p.end())
    if not m:
        return (0, p.start()), (p.end(), len(text))
    pend_end = m.start()
    # drop the ---- rule between the blocks
    seg = text[p.end():pend_end]
    dash = seg.find("----")
    if dash >= 0:
        pend_end = p.end() + dash
    return (m.end(), len(text)), (p.end(), pend_end)


def segment(text: str, lang_family: str, extra_deck: bool = False) -> Segments:
    """Split normalized ``text`` (language family ``en`` / ``zh`` / ``ja``).

    ``extra_deck``: the card is an Extra Deck monster, so a first line naming materials
    (holding ``+`` or ending without a full stop) is the material line.
    """
    monster, pend = _pendulum_split(text, lang_family)
    ms, me = monster
    while ms < me and text[ms] in " \n":
        ms += 1
    material = None
    if extra_deck:
        nl = text.find("\n", ms, me)
        first_end = nl if nl >= 0 else me
        line = text[ms:first_end].strip()
        if line and ("+" in line or not line.endswith((".", "。")) or "Materials" in line) and nl >= 0:
            material = (ms, first_end)
    return Segments(monster=(ms, me), pendulum=pend, material=material)
