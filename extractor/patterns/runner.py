"""The matcher: :class:`Catalog` runs the patterns of one language over a text, behind its gates
(the ``requires`` literals, the required-literal checks, the shared ``anchor`` scans)."""
from __future__ import annotations

from typing import Any

import regex

from ..normalize.common import lang_family
from .captures import _fields, _Vocab
from .guard import REGEX_TIMEOUT, _arm, _disarm
from .model import Pattern, RawMatch
from .plan import _AT_START, _PLAIN, _WITHIN, _checks, _Plan


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
        d = self.__dict__
        if d.get("_parts") is not None:  # split (see below): the count kept with it
            return d["_orders"]["count"]
        return len(self.patterns)

    def has_patterns(self, fam: str) -> bool:
        """Whether language family ``fam`` has patterns (``fam in self.by_lang``, without
        unpickling the other families' parts of a split catalog: see below)."""
        d = self.__dict__
        if d.get("_parts") is not None:
            return fam in d["_orders"]["by_lang"]
        return fam in self.by_lang

    def fragments_of(self, fam: str) -> dict:
        """``self.fragments[fam]`` (the expanded fragments of language family ``fam``), without
        unpickling the other families' parts of a split catalog (see below).

        Raises:
            KeyError: no fragments of ``fam``.
            AttributeError: a catalog without fragments (one not made by ``load_catalog``)."""
        d = self.__dict__
        if d.get("_parts") is not None and d["_orders"]["fragments"] is not None:
            part = self._load_part(fam)
            if part is None or not part[4]:
                raise KeyError(fam)
            return part[4][0]
        return self.fragments[fam]

    # -- pickling: one part per language family, unpickled when first used (a speed device) -------
    # The cached catalog (:mod:`.cache`) holds every language; a ``tag`` run reads one.  Unpickling
    # the whole catalog cost ~69 M instructions at every start (callgrind, zh-CN ``tag`` of 3,000
    # cards: ~1.9 % of the run), most of it the other languages' patterns, plans and fragments.  So
    # the pickled state keeps each family's share of :attr:`patterns`, :attr:`by_lang`,
    # :attr:`vocabs`, :attr:`checks`, :attr:`fragments` and the run plans as its own pickle
    # (``_parts``: family -> bytes), with each dict's key order.  :meth:`run` (through
    # :meth:`_fam_plan`) unpickles only the part of the family it runs; reading any of those
    # attributes (``len``, :meth:`get`, ``by_lang``, ...) unpickles every part first
    # (:meth:`__getattr__`), so each caller sees the catalog it pickled, in the same order.  The
    # split is made only when every object lies in one family's part (patterns grouped by family,
    # in catalog order; plans keyed by a family); else the state is the plain ``__dict__``.

    _LAZY = ("patterns", "by_lang", "vocabs", "checks", "fragments", "_fam_plans")

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_plans"] = {}  # filled again on first use, from _fam_plans
        if state.get("_parts") is not None:  # still split: every part as read (none can change unread)
            return state
        split = _split_state(state)
        return state if split is None else split

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if state.get("_parts") is not None:
            self._loaded: dict[str, tuple] = {}

    def __getattr__(self, name: str) -> Any:
        """A catalog attribute kept in the unread parts (see above): every part is unpickled, then
        the attribute read as usual.

        Raises:
            AttributeError: no such attribute."""
        d = self.__dict__
        if name in Catalog._LAZY and d.get("_parts") is not None:
            self._load_all()
            if name in d:
                return d[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _load_part(self, fam: str) -> tuple | None:
        """The unpickled part of family ``fam`` (kept), None when the split state has no such
        family."""
        part = self._loaded.get(fam)
        if part is None:
            blob = self._parts.get(fam)
            if blob is None:
                return None
            import pickle

            part = self._loaded[fam] = pickle.loads(blob)
        return part

    def _load_all(self) -> None:
        """Unpickle every part (the ones already read are kept as they are) and set the catalog's
        attributes from them, in the order they were pickled."""
        orders = self._orders
        parts = {fam: self._load_part(fam) for fam in self._parts}
        by_lang = {fam: parts[fam][0] for fam in orders["by_lang"]}
        self.patterns = [p for ps in by_lang.values() for p in ps]
        self.by_lang = by_lang
        self.vocabs = {fam: parts[fam][1][0] for fam in orders["vocabs"]}
        self.checks = {pid: c for fam in orders["by_lang"] for pid, c in parts[fam][2].items()}
        if orders["fragments"] is not None:
            self.fragments = {fam: parts[fam][4][0] for fam in orders["fragments"]}
        self._fam_plans = {key: parts[key[0]][3][key[1]] for key in orders["plans"]}
        self._parts = None
        del self._loaded, self._orders

    def get(self, pattern_id: str) -> Pattern:
        for p in self.patterns:
            if p.id == pattern_id:
                return p
        raise KeyError(pattern_id)

    def _plan(self, lang: str, scopes: tuple[str, ...]) -> "_Plan":
        """Build (and keep) the run plan of ``lang`` and ``scopes``.

        Raises:
            ValueError: a language the project does not read (from ``lang_family``)."""
        plan = self._plans[(lang, scopes)] = self._fam_plan(lang_family(lang), scopes).ready()
        return plan

    def _fam_plan(self, fam: str, scopes: tuple[str, ...]) -> "_Plan":
        if self.__dict__.get("_parts") is not None:  # split: the family's part holds its planned scopes
            part = self._load_part(fam)
            if part is not None and scopes in part[3]:
                return part[3][scopes]
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
        return [plan.patterns[i] for i in plan.gate(region)]

    def run(self, text: str, lang: str, start: int = 0, end: int | None = None,
            scopes: tuple[str, ...] = ALL_SCOPES) -> list[RawMatch]:
        """Every match of every pattern of ``lang`` with a scope in ``scopes`` inside
        ``text[start:end]`` (normalized text), in catalog order.  Overlapping matches of different
        patterns are all kept (like spaCy's SpanRuler); each knows its pattern.

        Every ``finditer`` / ``match`` call passes ``concurrent=False`` (positionally: keywords
        cost ``regex`` a dict and a look-up of each name per call): by default ``regex`` releases
        the GIL while it matches a ``str`` and takes it again for each allocation, ~1,000
        instructions a call spent on the lock (~70 M of 4.63 G instructions in a replay of the
        zh-CN regions of one ``tag`` run, callgrind).  The same matches; the CPU-time guard still
        stops a runaway search (``regex`` checks for signals either way).

        Raises:
            TimeoutError: the patterns ran longer than ``REGEX_TIMEOUT`` seconds (CPU time) on this
                text; the message names the pattern that was running.
        """
        plan = self._plans.get((lang, scopes)) or self._plan(lang, scopes)
        if end is None:
            end = len(text)
        region = text[start:end] if (start or end != len(text)) else text
        todo = plan.gate(region)  # the patterns whose gates let them through, in catalog order
        if not todo:
            return []
        patterns, voc, hows, at, anchor_keys = plan.patterns, plan.voc, plan.hows, plan.at, plan.anchor_keys
        out: list[RawMatch] = []
        append = out.append
        p = None
        starts: dict[tuple, list[int]] = {}  # (anchor, within gate, anchor_after) -> positions in region where it holds
        cut: dict[tuple, list[tuple[int, int]]] = {}  # within gate -> the pieces of region it lets through
        guarded = _arm()
        try:
            for i in todo:
                p = patterns[i]
                how = hows[i]
                if how == _PLAIN:
                    it = p.regex.finditer(region, None, None, False, False) if guarded else p.regex.finditer(region, concurrent=False, timeout=REGEX_TIMEOUT)
                elif how == _WITHIN:  # only the pieces of the text that hold a cue
                    pieces = cut.get(p.within)
                    if pieces is None:  # (patterns with the same gate share the pieces)
                        pieces = cut[p.within] = _pieces(region, *p.within)
                    for a, b in pieces:
                        for m in (p.regex.finditer(region, a, b, False, False) if guarded
                                  else p.regex.finditer(region, a, b, concurrent=False, timeout=REGEX_TIMEOUT)):
                            a, b = m.span()
                            append(RawMatch(p, a + start, b + start, _fields(p, m, voc)))
                    continue
                else:  # anchored: tried at the positions where its anchor holds
                    if how == _AT_START:
                        pos = _START  # the start of the region only: no scan (~2 us a text)
                    else:
                        key = anchor_keys[i]
                        pos = starts.get(key)
                        if pos is None:
                            if p.within is None:
                                it = p.anchor.finditer(region, None, None, False, False) if guarded else p.anchor.finditer(region, concurrent=False, timeout=REGEX_TIMEOUT)
                                pos = [m.start() for m in it]
                            else:  # the anchor only over the pieces its `within` gate names
                                pieces = cut.get(p.within)
                                if pieces is None:
                                    pieces = cut[p.within] = _pieces(region, *p.within)
                                if p.anchor_after:  # tried at the pieces' starts and after its literals
                                    pos = _after_positions(region, pieces, p.anchor, p.anchor_after, guarded)
                                else:  # scanned
                                    pos = [m.start() for a, b in pieces
                                           for m in (p.anchor.finditer(region, a, b, False, False) if guarded
                                                     else p.anchor.finditer(region, a, b, concurrent=False, timeout=REGEX_TIMEOUT))]
                            starts[key] = pos
                    it = _anchored(at[i], region, pos, guarded)
                    if it is None:  # it matched the empty string: finditer itself must run
                        it = p.regex.finditer(region, None, None, False, False) if guarded else p.regex.finditer(region, concurrent=False, timeout=REGEX_TIMEOUT)
                for m in it:
                    a, b = m.span()
                    append(RawMatch(p, a + start, b + start, _fields(p, m, voc)))
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
    and cues.  Output: the pieces.  Raises nothing.

    One break character and one cue (the zh procedure patterns' gate): each piece is found after
    the previous one's end, so they come ascending and distinct without a set (``str.rfind`` /
    ``find`` of the one character instead of a generator over the breaks)."""
    n = len(region)
    if len(cues) == 1 and len(breaks) == 1:
        cue = cues[0]
        i = region.find(cue)
        out: list[tuple[int, int]] = []
        while i >= 0:
            b = region.find(breaks, i)
            if b < 0:
                b = n
            out.append((region.rfind(breaks, 0, i) + 1, b))
            i = region.find(cue, b)
        return out
    spans: set[tuple[int, int]] = set()
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


def _after_positions(region: str, pieces: list[tuple[int, int]], anchor: "regex.Pattern[str]",
                     literals: tuple[str, ...], guarded: bool = True) -> list[int]:
    """The positions inside ``pieces`` (of :func:`_pieces`) where ``anchor`` holds, ascending,
    found by trying ``anchor`` (``match`` up to the piece's end, as
    the scan ``anchor.finditer(region, start, end)`` tries it) only at each piece's start and
    right after each occurrence of ``literals`` in the piece: the same positions as the scan when,
    as the pattern's ``anchor_after`` claims, the anchor holds nowhere else.  A zero-width scan
    runs the engine at every character (~1,400 instructions each in ``regex``); ``str.find`` of a
    few literals and a ``match`` at the few places they give cost a fraction of it.  ``guarded``:
    the CPU-time guard is armed (else each ``match`` gets ``REGEX_TIMEOUT``).  Raises
    ``TimeoutError`` as ``match`` does."""
    pos: list[int] = []
    match = anchor.match
    for a, b in pieces:
        cand = {a}
        for lit in literals:
            n = len(lit)
            j = region.find(lit, a, b)
            while j >= 0:
                cand.add(j + n)
                j = region.find(lit, j + 1, b)
        for c in sorted(cand):
            if (match(region, c, b, False) if guarded else match(region, c, b, concurrent=False, timeout=REGEX_TIMEOUT)) is not None:
                pos.append(c)
    return pos


#: the positions :meth:`Catalog.run` tries an ``_AT_START`` pattern at (the region's start)
_START = (0,)


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
        m = rx.match(region, a, None, False) if guarded else rx.match(region, a, concurrent=False, timeout=REGEX_TIMEOUT)
        if m is not None:
            if m.end() == a:
                return None
            found.append(m)
            last = m.end()
    return found


def _split_state(state: dict[str, Any]) -> dict[str, Any] | None:
    """The pickled state of a catalog whose ``__dict__`` is ``state`` split by language family
    (see :meth:`Catalog.__getstate__`): the other attributes as they are, ``_parts`` (family ->
    the pickle of ``(its patterns, (its vocab,) or (), its checks, its run plans by scopes,
    (its fragments,) or ())``) and ``_orders`` (each dict's keys in order).  None when the
    catalog cannot be split so (patterns of one family not together in catalog order, a run plan
    of a family the catalog has no part for, an attribute missing)."""
    import pickle

    try:
        patterns, by_lang, vocabs, checks = state["patterns"], state["by_lang"], state["vocabs"], state["checks"]
        plans = state["_fam_plans"]
    except KeyError:
        return None
    fragments = state.get("fragments")
    if ([p for ps in by_lang.values() for p in ps] != patterns or list(checks) != [p.id for p in patterns]
            or len({p.id for p in patterns}) != len(patterns)):
        return None
    fams = list(by_lang)
    for fam in list(vocabs) + list(fragments or ()):
        if fam not in fams:
            fams.append(fam)
    if any(fam not in fams for fam, _ in plans):
        return None
    parts = {}
    for fam in fams:
        ps = by_lang.get(fam, [])
        part = (ps, (vocabs[fam],) if fam in vocabs else (), {p.id: checks[p.id] for p in ps},
                {scopes: plan for (f, scopes), plan in plans.items() if f == fam},
                (fragments[fam],) if fragments is not None and fam in fragments else ())
        parts[fam] = pickle.dumps(part, protocol=5)
    out = {k: v for k, v in state.items() if k not in Catalog._LAZY and k != "_fam_plans"}
    out["_parts"] = parts
    out["_orders"] = {"count": len(patterns), "by_lang": list(by_lang), "vocabs": list(vocabs), "plans": list(plans),
                      "fragments": None if fragments is None else list(fragments)}
    return out
