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

__all__ = ["MappedText", "Edit", "compile_alternation", "split_alternation", "trie_alternation"]

# (norm_start, norm_end, src_start, src_end) of one rewrite, in the coordinates of the
# text before (src) and after (norm) one pass.
Edit = tuple[int, int, int, int]


class _Pass:
    """The changes of one rewriting pass, in text order; maps positions back one step.

    Built from ``(start, end, replacement length)`` of each change in the text BEFORE the pass, or
    from the pieces of a table pass (:meth:`MappedText.replace_table`: the text cut around its
    matches, and the matched words) from which those changes are read on first use; the edits
    (positions after the pass too) are computed on first use as well, so a pass whose spans are
    never mapped back costs only the list of its changes (or of its pieces)."""

    __slots__ = ("_changes", "_pieces", "_edits", "_starts")

    def __init__(self, changes: list[tuple[int, int, int]] | None,
                 pieces: tuple[list[str], list[str]] | None = None):
        self._changes = changes
        self._pieces = pieces  # (parts after the pass: text, replacement, text, ...; the matched words)
        self._edits: list[Edit] | None = None
        self._starts: list[int] = []

    @property
    def changes(self) -> list[tuple[int, int, int]]:
        """``(start, end, replacement length)`` of each change, in the text before the pass."""
        if self._changes is None:
            parts, words = self._pieces
            changes: list[tuple[int, int, int]] = []
            add = changes.append
            pos = 0
            for i, w in enumerate(words):
                pos += len(parts[2 * i])
                r = parts[2 * i + 1]
                n = len(w)
                if r != w:
                    add((pos, pos + n, len(r)))
                pos += n
            self._changes = changes
            self._pieces = None
        return self._changes

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

    def replace_table(self, table: dict[str, str], splitter: "re.Pattern[str] | regex.Pattern[str]") -> list[str]:
        """Rewrite every match of ``splitter`` by ``table[match]``, with no Python call per match.

        ``splitter``: a compiled pattern whose matches are keys of ``table`` and which holds exactly
        one capturing group around the whole expression (``(此卡|不可|...)``, see
        :func:`split_alternation`), so that its ``split`` gives the text around the matches and the
        matches themselves.  The same rewrite as :meth:`sub` with ``lambda m: table[m.group()]``
        (the same matches, the same map back: only the matches whose replacement differs are
        changes), but the changes are read from the pieces only when a span is mapped back.

        Output: the matched words, in text order (identity entries included).
        Raises:
            KeyError: a match that is not a key of ``table``."""
        parts = splitter.split(self.text)
        if len(parts) == 1:
            return []
        words = parts[1::2]
        reps = [table[w] for w in words]
        if reps != words:
            parts[1::2] = reps
            self.text = "".join(parts)
            self._passes.append(_Pass(None, (parts, words)))
        return words

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


def trie_alternation(keys: Iterable[str]) -> "re.Pattern[str]":
    """One regex for literal ``keys`` written as a prefix tree (``此(?:卡|怪兽)|不(?:可(?:以)?|得)...``):
    at each position it matches the longest key there, exactly like the flat alternation of
    :func:`extractor.textmap.compile_alternation` (longest first), but the engine follows one
    branch per character instead of trying every key.  Compiled with the standard ``re`` module:
    for a literal alternation it finds the same matches as ``regex`` and scans Chinese and
    Japanese card text 2-4x faster.  Input: at least one non-empty literal key.  Output: a compiled
    ``re`` pattern without capturing groups (wrap it with :func:`split_alternation` for
    :meth:`MappedText.replace_table`).

    Raises:
        ValueError: no key, or an empty key (the pattern would match the empty string)."""
    keys = set(keys)
    if not keys or "" in keys:
        raise ValueError("trie_alternation needs at least one key and no empty key")
    trie: dict = {}
    for k in keys:
        node = trie
        for ch in k:
            node = node.setdefault(ch, {})
        node[""] = {}

    def build(node: dict) -> str:
        alts = [re.escape(c) + build(n) for c, n in sorted(node.items()) if c]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        # "" marks the end of a key: the longer keys (greedy ?) are tried first
        return "(?:" + body + ")?" if "" in node else body

    return re.compile(build(trie))


def split_alternation(pattern: "re.Pattern[str] | regex.Pattern[str]") -> "re.Pattern[str] | regex.Pattern[str]":
    """``pattern`` (an expression without capturing groups, such as a literal alternation) inside
    one capturing group, compiled by the same module with the same flags: the ``splitter`` of
    :meth:`MappedText.replace_table`.

    Raises:
        ValueError: ``pattern`` already holds a capturing group (``split`` would return it too)."""
    if pattern.groups:
        raise ValueError(f"split_alternation needs an expression without capturing groups: {pattern.pattern!r}")
    module = regex if isinstance(pattern, regex.Pattern) else re
    return module.compile("(" + pattern.pattern + ")", pattern.flags)
