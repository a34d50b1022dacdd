"""Pairing the conditions of two texts within a group.

:func:`pair` pairs greedily, fewest differing slots first, then text order (the distance between
positions in each side's list); what is left on either side is reported as missing or extra.
:func:`differing` lists the slots of two views that do not agree (the ``agree`` rules of
:mod:`extractor.validate.rules`, plain equality otherwise).
"""
from __future__ import annotations

from typing import Any, Iterable

from .rules import rules_for
from .views import View

__all__ = ["same", "differing", "pair"]


def same(slot: str, x: Any, y: Any, skip: Iterable[str] = ()) -> bool:
    """Whether the values ``x`` and ``y`` of ``slot`` agree: the first ``agree`` rule with an
    opinion decides, else plain equality."""
    for r in rules_for("agree", skip):
        verdict = r.fn(slot, x, y)
        if verdict is not None:
            return verdict
    return x == y


def differing(a: View, b: View, skip: Iterable[str] = ()) -> list[str]:
    """The slots both views have whose values do not agree, in ``a``'s slot order."""
    return [s for s in a.slots if s in b.slots and not same(s, a.slots[s], b.slots[s], skip)]


def pair(src: list[View], tgt: list[View], skip: Iterable[str] = ()
         ) -> tuple[list[tuple[View, View]], list[View], list[View]]:
    """Greedy pairing within one group: fewest differing slots first, then text order.

    Returns ``(pairs, source views left, target views left)``; pairs in source text order.
    """
    skip = frozenset(skip)
    cands = sorted((len(differing(a, b, skip)), abs(i - j), i, j)
                   for i, a in enumerate(src) for j, b in enumerate(tgt))
    used_s: set[int] = set()
    used_t: set[int] = set()
    pairs = []
    for _, _, i, j in cands:
        if i in used_s or j in used_t:
            continue
        used_s.add(i)
        used_t.add(j)
        pairs.append((src[i], tgt[j]))
    pairs.sort(key=lambda p: (p[0].field, p[0].span))
    return (pairs, [a for i, a in enumerate(src) if i not in used_s],
            [b for j, b in enumerate(tgt) if j not in used_t])
