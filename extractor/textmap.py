"""Text with a map back to the original characters.

Every normalizer step rewrites parts of a string; :class:`MappedText` records each rewrite as
an *edit* so that any span of the normalized text can be mapped back to the span of the
ORIGINAL text it came from.  Offsets are Python string indices (Unicode code points), end
exclusive, everywhere in this project.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from typing import Callable, Iterable

import regex

__all__ = ["MappedText", "Edit"]

# (norm_start, norm_end, src_start, src_end) of one rewrite, in the coordinates of the
# text before (src) and after (norm) one pass.
Edit = tuple[int, int, int, int]


class _Pass:
    """The changes of one rewriting pass, in text order; maps positions back one step.

    Built from ``(start, end, replacement length)`` of each change in the text BEFORE the pass; the
    edits (positions after the pass too) are computed on first use, so a pass whose spans are
    never mapped back costs only the list of its changes."""

    __slots__ = ("changes", "_edits", "_starts")

    def __init__(self, changes: list[tuple[int, int, int]]):
        self.changes = changes
        self._edits: list[Edit] | None = None
        self._starts: list[int] = []

    @property
    def edits(self) -> list[Edit]:
        """``(norm_start, norm_end, src_start, src_end)`` of each change, sorted."""
        if self._edits is None:
            edits: list[Edit] = []
            shift = 0
            for s, e, n in self.changes:
                ns = s + shift
                edits.append((ns, ns + n, s, e))
                shift += n - (e - s)
            self._edits = edits
            self._starts = [e[0] for e in edits]
        return self._edits

    @property
    def starts(self) -> list[int]:
        if self._edits is None:
            self.edits
        return self._starts


class MappedText:
    """A normalized string plus the map from its offsets to the original string.

    Attributes:
        original: the text as it was read (never changed).
        text: the current normalized text.
        registers: what the normalizer found about the wording, when it reads that (the Chinese
            normalizer: the registers of the text, ``["official", "old", "community"]`` or a
            part of it); ``None`` otherwise.

    Build it with ``MappedText(original)`` then apply passes with :meth:`sub`,
    :meth:`translate_chars` or :meth:`replace_all`.  :meth:`to_original` maps a half-open span
    ``(start, end)`` of ``text`` (character offsets) to the half-open span of ``original``
    that produced it; a span inside one rewrite maps to that rewrite's whole source.
    """

    __slots__ = ("original", "text", "registers", "_passes")

    def __init__(self, original: str):
        self.original = original
        self.text = original
        self.registers: list[str] | None = None
        self._passes: list[_Pass] = []

    # -- building ---------------------------------------------------------------------------
    def sub(self, pattern: "regex.Pattern[str] | re.Pattern[str]",
            repl: Callable[["regex.Match[str]"], str] | str) -> "MappedText":
        """Rewrite every match of ``pattern`` (a compiled ``regex`` or ``re`` pattern) by ``repl``
        (a string, ``\\1`` templates allowed, or a function of the match).

        The text is rewritten by the pattern's own ``sub``; only the matches whose replacement
        differs from the matched text are recorded (a pass that changes nothing records none)."""
        changes: list[tuple[int, int, int]] = []
        add = changes.append
        if isinstance(repl, str):
            template = "\\" in repl

            def cb(m: "regex.Match[str]") -> str:
                rep = m.expand(repl) if template else repl
                if m.group() != rep:
                    s, e = m.span()
                    add((s, e, len(rep)))
                return rep
        else:
            def cb(m: "regex.Match[str]") -> str:
                rep = repl(m)
                if m.group() != rep:
                    s, e = m.span()
                    add((s, e, len(rep)))
                return rep
        new = pattern.sub(cb, self.text)
        if changes:
            self.text = new
            self._passes.append(_Pass(changes))
        return self

    def replace_all(self, table: dict[str, str], pattern: "regex.Pattern[str] | None" = None) -> "MappedText":
        """Rewrite every occurrence of a key of ``table`` by its value (longest key first)."""
        if not table:
            return self
        if pattern is None:
            pattern = compile_alternation(table)
        return self.sub(pattern, lambda m: table[m.group(0)])

    def translate_chars(self, converted: str) -> "MappedText":
        """Replace ``text`` by ``converted``, a same-length, char-for-char conversion of it.

        Through such a conversion every offset maps to itself (one-character edits in place), so
        no pass is recorded: :meth:`to_original` gives exactly what per-character edits would."""
        if len(converted) != len(self.text):
            raise ValueError("translate_chars needs a conversion of the same length")
        self.text = converted
        return self

    # -- mapping ----------------------------------------------------------------------------
    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Map the span ``[start, end)`` of ``text`` to the span of ``original`` it came from.

        Raises:
            ValueError: if the span is not inside ``text``.
        """
        if not (0 <= start <= end <= len(self.text)):
            raise ValueError(f"span ({start}, {end}) outside text of length {len(self.text)}")
        for p in reversed(self._passes):
            s2 = _back(p, start, False)
            e2 = _back(p, end, True) if end > start else s2
            start, end = s2, max(s2, e2)
        return start, end


def _back(p: _Pass, pos: int, is_end: bool) -> int:
    """Map one position back through one pass.

    Start positions inside (or at the start of) an edit go to the edit's source start; end
    positions inside (or at the end of) an edit go to the edit's source end.
    """
    starts = p.starts
    if is_end:
        # the edit that ends at or after pos and starts before pos
        i = bisect_right(starts, pos - 1) - 1
    else:
        i = bisect_right(starts, pos) - 1
    if i < 0:
        return pos
    ns, ne, ss, se = p.edits[i]
    if is_end:
        if pos <= ne:
            return se
        return pos - ne + se
    if pos < ne or (ns == ne == pos):
        return ss
    return pos - ne + se


def compile_alternation(keys: Iterable[str], flags: int = 0) -> "regex.Pattern[str]":
    """One compiled alternation of literal ``keys``, longest first."""
    ks = sorted(set(keys), key=len, reverse=True)
    return regex.compile("|".join(regex.escape(k) for k in ks), flags)
