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


#: every scope: what :meth:`Catalog.run` tries when it is not told (``extra``: the material lines)
ALL_SCOPES = ("monster", "any", "extra")
#: the scopes the pipeline runs with (the monster text of an Extra Deck monster or of a card of
#: unknown frame; of another monster; any other text): their run plans are built with the catalog
PLANNED_SCOPES = (ALL_SCOPES, ("monster", "any"), ("any",))


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
        # (language family, scopes) -> the run plan (see _Plan), built here for the scopes the
        # pipeline asks for, so that they are kept in the cached catalog (~15 ms each to build)
        self._fam_plans: dict[tuple[str, tuple[str, ...]], _Plan] = {}
        for fam in self.by_lang:
            for scopes in PLANNED_SCOPES:
                self._fam_plan(fam, scopes)
        # (language code, scopes) -> the same plans, by the codes run() is called with
        self._plans: dict[tuple[str, tuple[str, ...]], _Plan] = {}

    def __len__(self) -> int:
        return len(self.patterns)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_plans"] = {}  # filled again on first use, from _fam_plans
        return state

    def get(self, pattern_id: str) -> Pattern:
        for p in self.patterns:
            if p.id == pattern_id:
                return p
        raise KeyError(pattern_id)

    def _plan(self, lang: str, scopes: tuple[str, ...]) -> "_Plan":
        """Build (and keep) the run plan of ``lang`` and ``scopes``.

        Raises:
            ValueError: a language the project does not read (from ``lang_family``)."""
        plan = self._plans[(lang, scopes)] = self._fam_plan(lang_family(lang), scopes)
        return plan

    def _fam_plan(self, fam: str, scopes: tuple[str, ...]) -> "_Plan":
        plan = self._fam_plans.get((fam, scopes))
        if plan is None:
            ps = [p for p in self.by_lang.get(fam, ()) if p.scope in scopes]
            plan = self._fam_plans[(fam, scopes)] = _Plan(ps, [self.checks[p.id] for p in ps], self.vocabs.get(fam))
        return plan

    def gated(self, region: str, lang: str, scopes: tuple[str, ...] = ALL_SCOPES) -> list[Pattern]:
        """The patterns :meth:`run` tries on ``region`` (normalized text), in catalog order: those
        its gates (``requires``, the key literal, the required-literal checks) let through.  For
        ``bench/speed.py --patterns`` and the tests; ``run`` does the same inline."""
        plan = self._plans.get((lang, scopes)) or self._plan(lang, scopes)
        mask = plan.mask(region)
        known: dict[str, bool] = {}
        return [p for i, p in enumerate(plan.patterns)
                if mask >> i & 1 and (not plan.checks[i] or _holds(plan.checks[i], region, known))]

    def run(self, text: str, lang: str, start: int = 0, end: int | None = None,
            scopes: tuple[str, ...] = ALL_SCOPES) -> list[RawMatch]:
        """Every match of every pattern of ``lang`` with a scope in ``scopes`` inside
        ``text[start:end]`` (normalized text), in catalog order.  Overlapping matches of different
        patterns are all kept (like spaCy's SpanRuler); each knows its pattern.

        Raises:
            TimeoutError: the patterns ran longer than ``REGEX_TIMEOUT`` seconds (CPU time) on this
                text; the message names the pattern that was running.
        """
        plan = self._plans.get((lang, scopes)) or self._plan(lang, scopes)
        if end is None:
            end = len(text)
        region = text[start:end] if (start or end != len(text)) else text
        mask = plan.mask(region)
        if not mask:
            return []
        patterns, voc, at_start = plan.patterns, plan.voc, plan.at_start
        checks = plan.checks
        known: dict[str, bool] = {}  # literal -> in region, for this text
        out: list[RawMatch] = []
        p = None
        starts: dict[str, list[int]] = {}  # anchor -> positions in region where it holds
        guarded = None  # armed before the first search (often no pattern has to run)
        try:
            while mask:
                low = mask & -mask
                mask ^= low
                i = low.bit_length() - 1
                p = patterns[i]
                clauses = checks[i]
                if clauses and not _holds(clauses, region, known):
                    continue  # the text lacks something every match needs
                if guarded is None:
                    guarded = _arm()
                if p.within is not None:  # only the pieces of the text that hold a cue
                    breaks, cues = p.within
                    for a, b in _pieces(region, breaks, cues):
                        it = (p.regex.finditer(region, a, b) if guarded
                              else p.regex.finditer(region, a, b, timeout=REGEX_TIMEOUT))
                        for m in it:
                            out.append(RawMatch(p, m.start() + start, m.end() + start, _fields(p, m, voc)))
                    continue
                if p.anchor is not None:
                    pos = starts.get(p.anchor.pattern)
                    if pos is None:
                        if at_start[i]:
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


def _pieces(region: str, breaks: str, cues: tuple[str, ...]) -> list[tuple[int, int]]:
    """The pieces of ``region`` between two ``breaks`` characters (or an end) that hold one of
    ``cues`` (literals without a break character), as ascending ``(start, end)`` offsets: where
    a pattern with the gate ``within`` can match.  ``finditer(region, start, end)`` over them
    gives what ``finditer(region)`` gives when, as the gate claims, no match holds a break
    character (so none crosses from one piece into another, and none lies in a piece without a
    cue) and no lookaround looks across one (``(?!的|成功)`` at a piece's end sees the break
    character or the end alike: neither starts 的; a ``$`` would hold at a piece's end, so a gated
    pattern must not need one there; a lookbehind sees the text before the piece as usual).  Input: normalized text, the gate's breaks
    and cues.  Output: the pieces.  Raises nothing."""
    spans: set[tuple[int, int]] = set()
    n = len(region)
    for cue in cues:
        i = region.find(cue)
        while i >= 0:
            a = max(region.rfind(c, 0, i) for c in breaks) + 1
            b = n
            for c in breaks:
                j = region.find(c, i, b)
                if j >= 0:
                    b = j
            spans.add((a, b))
            i = region.find(cue, b)
    return sorted(spans)


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
    # longest shortest literal first; last, clauses whose every literal holds a `requires` literal
    # (" Special Summoned" after requires "Special Summoned" rules out little)
    useful.sort(key=lambda c: (bool(req) and all(any(r in lit for r in req) for lit in c), -min(map(len, c))))
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


class _Plan:
    """The run plan of one pattern list (one language, some scopes): which patterns to try on a
    region, decided by literal tests before any regex runs.

    - ``requires`` literals: bit ``i`` of a literal's mask is the ``i``-th pattern (catalog order);
      a pattern without ``requires`` is always a candidate;
    - the KEY: the one literal that most patterns cannot match without (a clause of their
      ``requires`` or of :func:`required_literals` whose every literal holds it: ``召唤`` / ``Summon``
      in Chinese / English).  It is looked up first; when the region lacks it, only the literals
      of the other patterns are looked up (~40 % of the card texts have no "Summon" at all);
    - ``checks``: per pattern, the clauses of :func:`_checks`, tested on the candidates.

    A speed device only: each test is a necessary condition of a match, so a pattern left out
    could not have matched."""

    __slots__ = ("patterns", "checks", "voc", "key", "with_key", "without_key", "at_start")

    def __init__(self, ps: list[Pattern], checks: list[tuple[tuple[str, ...], ...]], voc: "_Vocab | None"):
        self.patterns = ps
        self.checks = checks
        self.voc = voc
        # per pattern: its anchor is ``^`` without MULTILINE (it holds at the region's start only)
        self.at_start = [p.anchor is not None and p.anchor.pattern == "^" and not p.anchor.flags & regex.MULTILINE
                         for p in ps]
        needs = [_needed(p) for p in ps]
        self.with_key = _masks(ps, range(len(ps)))
        self.key: str | None = None
        self.without_key = self.with_key
        best = 0
        written = {lit for lm in (self.with_key[0],) for lit, _ in lm} | {lit for c in checks for cl in c for lit in cl}
        for k in sorted({lit for n in needs for lit in n if lit in written and len(lit) > 1 and not lit.isspace()},
                        key=lambda x: (len(x), x)):
            plan = _masks(ps, [i for i, n in enumerate(needs) if k not in n])
            saved = len(self.with_key[0]) - len(plan[0])
            if saved > best:
                best, self.key, self.without_key = saved, k, plan

    def mask(self, region: str) -> int:
        """The candidates for ``region``: bit ``i`` = pattern ``i`` (before its checks)."""
        literal_masks, mask = self.with_key if self.key is None or self.key in region else self.without_key
        for lit, bits in literal_masks:
            if lit in region:
                mask |= bits
        return mask


def _masks(ps: list[Pattern], keep) -> tuple[list[tuple[str, int]], int]:
    """For the patterns ``ps[i]``, ``i`` in ``keep``: each ``requires`` literal with the bit mask of
    the patterns that name it, and the mask of those without ``requires`` (always candidates)."""
    masks: dict[str, int] = {}
    always = 0
    for i in keep:
        p = ps[i]
        if not p.requires:
            always |= 1 << i
        for r in p.requires:
            masks[r] = masks.get(r, 0) | (1 << i)
    return sorted(masks.items()), always


def _needed(p: Pattern) -> set[str]:
    """Literals that every text ``p`` matches holds (whole, or inside each literal of a clause of
    its ``requires`` or of :func:`required_literals`); the key of a :class:`_Plan` is one of them."""
    clauses = [tuple(p.requires)] if p.requires else []
    if not p.regex.flags & (regex.IGNORECASE | regex.VERBOSE | regex.FULLCASE):
        clauses.extend(required_literals(p.regex.pattern) or ())
    out: set[str] = set()
    for c in clauses:
        first = min(c, key=len)
        # every substring of the shortest literal that is in each literal of the clause
        for i in range(len(first)):
            for j in range(i + 1, len(first) + 1):
                sub = first[i:j]
                if all(sub in lit for lit in c):
                    out.add(sub)
    return out


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
