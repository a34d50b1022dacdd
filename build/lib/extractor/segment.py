"""Segmentation of normalized card text: Pendulum Effect apart from the monster text, the
material line, effects split at ①②..., and sentences.

All offsets are character offsets into the NORMALIZED text (map them back with
``MappedText.to_original``).  ``●`` options stay inside their effect.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import regex

__all__ = ["Segments", "segment"]

# Pendulum blocks as they appear in cdb texts (English and Chinese, after normalization).
_PEND_EN = regex.compile(r"\[\s*Pendulum Effect\s*\]")
_MON_EN = regex.compile(r"\[\s*(?:Monster Effect|Flavor Text|Monster Text)\s*\]")
_PEND_ZH = regex.compile(r"(?:←\s*\d+\s*)?【\s*(?:灵摆效果|灵摆|灵摆卡效果|灵摆刻度)\s*】(?:\s*\d+\s*→)?")
_MON_ZH = regex.compile(r"【\s*(?:怪兽效果|怪兽描述|怪兽说明|效果)\s*】")
_EFFECT_NUM = regex.compile(r"[①②③④⑤⑥⑦⑧⑨⑩]")
_SENT_EN = regex.compile(r"[^.\n]+(?:\.(?!\d)|\n|$)(?:[\"')]*)")
_SENT_ZH = regex.compile(r"[^。\n]+(?:。|\n|$)")


@dataclass(slots=True)
class Segments:
    """Where the parts of one normalized card text are.

    monster: ``(start, end)`` of the monster text (the whole text when there is no Pendulum block).
    pendulum: ``(start, end)`` of the Pendulum Effect inside the same text, or ``None``.
    material: ``(start, end)`` of the material line of an Extra Deck monster, or ``None``.
    effects: ``(start, end)`` of each effect (split at ①②...; one effect when unnumbered).
    sentences: ``(start, end)`` of each sentence of the monster text.
    ``effects`` and ``sentences`` are computed on first use (the tag path needs neither).
    """

    monster: tuple[int, int]
    pendulum: tuple[int, int] | None = None
    material: tuple[int, int] | None = None
    text: str = ""
    lang_family: str = "en"
    _effects: list[tuple[int, int]] | None = field(default=None, repr=False)
    _sentences: list[tuple[int, int]] | None = field(default=None, repr=False)

    @property
    def effects(self) -> list[tuple[int, int]]:
        if self._effects is None:
            text, (ms, me) = self.text, self.monster
            starts = [m.start() for m in _EFFECT_NUM.finditer(text, ms, me)]
            if starts:
                bounds = [ms] + starts + [me]
                self._effects = [(a, b) for a, b in zip(bounds, bounds[1:]) if text[a:b].strip()]
            else:
                self._effects = [(ms, me)]
        return self._effects

    @property
    def sentences(self) -> list[tuple[int, int]]:
        if self._sentences is None:
            text, (ms, me) = self.text, self.monster
            sent_re = _SENT_EN if self.lang_family == "en" else _SENT_ZH
            self._sentences = [(m.start(), m.end()) for m in sent_re.finditer(text, ms, me)
                               if text[m.start():m.end()].strip()]
        return self._sentences

    def sentence_at(self, pos: int) -> tuple[int, int] | None:
        """The sentence holding offset ``pos``."""
        for s, e in self.sentences:
            if s <= pos < e:
                return s, e
        return None


def _pendulum_split(text: str, fam: str) -> tuple[tuple[int, int], tuple[int, int] | None]:
    pend_re, mon_re = (_PEND_EN, _MON_EN) if fam == "en" else (_PEND_ZH, _MON_ZH)
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
    return Segments(monster=(ms, me), pendulum=pend, material=material, text=text, lang_family=lang_family)
