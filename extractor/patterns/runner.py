"""The matcher: :class:`Catalog` runs the patterns of one language over a text, behind its gates
(the ``requires`` literals, the required-literal checks, the shared ``anchor`` scans)."""
from __future__ import annotations

from typing import Any

import regex

from ..literals import required_literals
from ..normalize.common import lang_family
from .captures import _fields, _Vocab
from .guard import REGEX_TIMEOUT, _arm, _disarm
from .model import Pattern, RawMatch


class Catalog:
    """All patterns of every language, compiled, grouped by language family."""

    def __init__(self, patterns: list[Pattern], vocabs: dict[str, _Vocab]):
        self.patterns = patterns
        self.by_lang: dict[str, list[Pattern]] = {}
        for p in patterns:
            self.by_lang.setdefault(p.lang, []).append(p)
        self.vocabs = vocabs
        # pattern id -> the literal clauses run() tests before trying it (see required_literals)
        self.checks: dict[str, tuple[tuple[str, ...], ...]] = {p.id: _checks(p) for p in patterns}
        # (language code, scopes) -> the run plan (see _plan) and the capture vocabulary
        self._plans: dict[tuple[str, tuple[str, ...]], tuple[list[tuple[str, int]], int, list[Pattern], _Vocab | None]] = {}

    def __len__(self) -> int:
        return len(self.patterns)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_plans"] = {}  # run plans are rebuilt on first use
        return state

    def get(self, pattern_id: str) -> Pattern:
        for p in self.patterns:
            if p.id == pattern_id:
                return p
        raise KeyError(pattern_id)

    def run(self, text: str, lang: str, start: int = 0, end: int | None = None,
            scopes: tuple[str, ...] = ("monster", "any")) -> list[RawMatch]:
        """Every match of every pattern of ``lang`` with a scope in ``scopes`` inside
        ``text[start:end]`` (normalized text), in catalog order.  Overlapping matches of different
        patterns are all kept (like spaCy's SpanRuler); each knows its pattern.

        Raises:
            TimeoutError: the patterns ran longer than ``REGEX_TIMEOUT`` seconds (CPU time) on this
                text; the message names the pattern that was running.
        """
        plan = self._plans.get((lang, scopes))
        if plan is None:  # lang_family raises ValueError for a language the project does not read
            fam = lang_family(lang)
            plan = self._plans[(lang, scopes)] = (*_plan([p for p in self.by_lang.get(fam, ()) if p.scope in scopes]),
                                                  self.vocabs.get(fam))
        literal_masks, always, patterns, voc = plan
        if end is None:
            end = len(text)
        region = text[start:end] if (start or end != len(text)) else text
        # every `requires` literal is looked up once per text; a pattern runs when one of its
        # literals is present (bit i of the mask = the i-th pattern, catalog order)
        mask = always
        for lit, bits in literal_masks:
            if lit in region:
                mask |= bits
        if not mask:
            return []
        checks = self.checks
        known: dict[str, bool] = {}  # literal -> in region, for this text
        out: list[RawMatch] = []
        p = None
        starts: dict[str, list[int]] = {}  # anchor -> positions in region where it holds
        guarded = None  # armed before the first search (often no pattern has to run)
        try:
            while mask:
                low = mask & -mask
                mask ^= low
                p = patterns[low.bit_length() - 1]
                clauses = checks.get(p.id)
                if clauses and not _holds(clauses, region, known):
                    continue  # the text lacks something every match needs
                if guarded is None:
                    guarded = _arm()
                if p.anchor is not None:
                    pos = starts.get(p.anchor.pattern)
                    if pos is None:
                        if p.anchor.pattern == "^" and not p.anchor.flags & regex.MULTILINE:
                            pos = [0]  # the start of the region only: no scan (~2 us a text)
                        else:
                            it = p.anchor.finditer(region) if guarded else p.anchor.finditer(region, timeout=REGEX_TIMEOUT)
                            pos = [m.start() for m in it]
                        starts[p.anchor.pattern] = pos
                    found = _anchored(p.regex, region, pos, guarded)
                    if found is not None:
                        out.extend(RawMatch(p, m.start() + start, m.end() + start, _fields(p, m, voc)) for m in found)
                        continue
                it = p.regex.finditer(region) if guarded else p.regex.finditer(region, timeout=REGEX_TIMEOUT)
                for m in it:
                    out.append(RawMatch(p, m.start() + start, m.end() + start, _fields(p, m, voc)))
        except TimeoutError as e:
            where = f"pattern {p.id} ({p.file})" if p is not None else "pattern matching"
            raise TimeoutError(f"{where} timed out") from e
        finally:
            if guarded:
                _disarm()
        return out


def _checks(p: Pattern, keep: int = 3) -> tuple[tuple[str, ...], ...]:
    """The clauses of :func:`required_literals` that :meth:`Catalog.run` tests for pattern ``p``:
    at most ``keep``, those whose shortest literal is longest (they rule out the most texts),
    leaving out any that the pattern's own ``requires`` already implies; ``()`` for a pattern
    compiled with flags that change what a literal matches."""
    if p.regex.flags & (regex.IGNORECASE | regex.VERBOSE | regex.FULLCASE):
        return ()
    cnf = required_literals(p.regex.pattern)
    if not cnf:
        return ()
    req = set(p.requires)
    # a clause is implied by `requires` when each of its literals holds one of the clause's
    useful = [c for c in cnf if not (req and all(any(lit in r for lit in c) for r in req))]
    useful.sort(key=lambda c: -min(map(len, c)))
    return tuple(useful[:keep])


def _holds(clauses: tuple[tuple[str, ...], ...], region: str, known: dict[str, bool]) -> bool:
    """Every clause has a literal in ``region`` (``known`` remembers each literal looked up)."""
    for clause in clauses:
        for lit in clause:
            found = known.get(lit)
            if found is None:
                found = known[lit] = lit in region
            if found:
                break
        else:
            return False
    return True


def _plan(ps: list[Pattern]) -> tuple[list[tuple[str, int]], int, list[Pattern]]:
    """The run plan of a pattern list: for each ``requires`` literal the bit mask of the patterns
    that name it, the mask of the patterns without ``requires`` (always run), and the patterns."""
    masks: dict[str, int] = {}
    always = 0
    for i, p in enumerate(ps):
        if not p.requires:
            always |= 1 << i
        for r in p.requires:
            masks[r] = masks.get(r, 0) | (1 << i)
    return sorted(masks.items()), always, ps


def _anchored(rx: "regex.Pattern[str]", region: str, positions: list[int],
              guarded: bool) -> list["regex.Match[str]"] | None:
    """``rx.finditer(region)`` when every match of ``rx`` starts at one of ``positions``
    (ascending): ``rx.match`` at each position not inside the previous match.  ``None`` when
    ``rx`` matched the empty string (then ``finditer`` itself must run)."""
    found = []
    last = 0
    for a in positions:
        if a < last:
            continue
        m = rx.match(region, a) if guarded else rx.match(region, a, timeout=REGEX_TIMEOUT)
        if m is not None:
            if m.end() == a:
                return None
            found.append(m)
            last = m.end()
    return found
