"""The run plan of a pattern list (:class:`_Plan`): which patterns to try on a region and how,
decided by literal tests before any regex runs (the ``requires`` literals, the key literal, the
required-literal checks, written out as one generated gate function).  Built and run by
:class:`.runner.Catalog`."""
from __future__ import annotations

from typing import Any

import regex

from ..literals import required_literals
from .captures import _Vocab
from .model import Pattern


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


#: how :meth:`Catalog.run` tries a pattern (``_Plan.hows``): ``finditer`` over the region; over the
#: pieces its ``within`` gate names; ``match`` at the positions of its anchor; at the region's start
_PLAIN, _WITHIN, _ANCHORED, _AT_START = 0, 1, 2, 3


class _Plan:
    """The run plan of one pattern list (one language, some scopes): which patterns to try on a
    region, decided by literal tests before any regex runs, and how to try each.

    - ``requires`` literals: bit ``i`` of a literal's mask is the ``i``-th pattern (catalog order);
      a pattern without ``requires`` is always a candidate;
    - the KEY: the one literal that most patterns cannot match without (a clause of their
      ``requires`` or of :func:`required_literals` whose every literal holds it: ``召唤`` / ``Summon``
      in Chinese / English).  When the region lacks it, only the literals of the other patterns
      are looked up (~40 % of the card texts have no "Summon" at all);
    - ``checks``: per pattern, the clauses of :func:`_checks`, tested on the candidates;
    - ``gate``: all of the above as one generated Python function (:func:`_gate_source`): region
      -> the indices of the patterns to try, ascending.  It looks a literal up only when every
      literal it holds is present (nested ``if`` blocks: no literal holding 召唤 is looked up in a
      text without 召唤), and has no loop, tuple or dict work of its own.  Built from its source on
      first use in a process (the function itself is not pickled with the catalog);
    - ``hows`` / ``at``: per pattern, how :meth:`Catalog.run` tries it, and the expression it
      calls ``match`` with at its anchor's positions (:func:`_after_anchor`);
    - ``anchor_keys``: per anchored pattern, ``(anchor, within)``: the positions of one anchor are
      found once a region for all the patterns with that anchor and that ``within`` gate (with a
      gate, only inside the pieces it names: :func:`_pieces`).

    A speed device only: each test is a necessary condition of a match or the pattern's written
    ``requires``, so a pattern left out could not have matched."""

    __slots__ = ("patterns", "checks", "voc", "key", "with_key", "without_key", "at_start", "hows", "at",
                 "anchor_keys", "gate_source", "gate")

    def __init__(self, ps: list[Pattern], checks: list[tuple[tuple[str, ...], ...]], voc: "_Vocab | None"):
        self.patterns = ps
        self.checks = checks
        self.voc = voc
        # per pattern: its anchor is ``^`` without MULTILINE (it holds at the region's start only)
        self.at_start = [p.anchor is not None and p.anchor.pattern == "^" and not p.anchor.flags & regex.MULTILINE
                         for p in ps]
        self.hows = [_PLAIN if p.anchor is None and p.within is None else _WITHIN if p.anchor is None
                     else _AT_START if self.at_start[i] else _ANCHORED for i, p in enumerate(ps)]
        # per anchored pattern: the key its anchor's positions are kept under in a region (patterns
        # with the same anchor and the same `within` gate share one scan)
        self.anchor_keys = [(p.anchor.pattern, p.within, p.anchor_after) if p.anchor is not None else None for p in ps]
        self.at = [_after_anchor(p) if p.anchor is not None else None for p in ps]
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
        self.gate_source = _gate_source(ps, checks, self.key)
        self.gate = None
        self.ready()

    def ready(self) -> "_Plan":
        """Compile :attr:`gate` from its source when this process has not yet (after unpickling)."""
        if self.gate is None:
            space: dict[str, Any] = {}
            exec(compile(self.gate_source, "<run plan gate>", "exec"), space)
            self.gate = space["gate"]
        return self

    def __getstate__(self) -> tuple[None, dict[str, Any]]:
        return None, {k: getattr(self, k) for k in self.__slots__ if k != "gate"}

    def __setstate__(self, state: tuple[None, dict[str, Any]]) -> None:
        for k, v in state[1].items():
            setattr(self, k, v)
        self.gate = None

    def mask(self, region: str) -> int:
        """The candidates for ``region``: bit ``i`` = pattern ``i`` (before its checks).  The plain
        reading of what :attr:`gate` decides (for the tests)."""
        literal_masks, mask = self.with_key if self.key is None or self.key in region else self.without_key
        for lit, bits in literal_masks:
            if lit in region:
                mask |= bits
        return mask


def _gate_source(ps: list[Pattern], checks: list[tuple[tuple[str, ...], ...]], key: str | None) -> str:
    """The Python source of a function ``gate(r)`` -> the indices ``i`` (ascending) of the patterns
    ``ps[i]`` that a region ``r`` lets through: those without ``requires`` or with a ``requires``
    literal in ``r``, and whose every clause of ``checks[i]`` has a literal in ``r`` -- what
    :meth:`_Plan.mask` and :func:`_holds` decide, written out.

    The ``requires`` literals are looked up in nested ``if`` blocks: a literal inside the block of
    the longest other literal (or the plan's ``key``) it holds, or of a shorter piece that several
    of them hold (:func:`_group`), so it is looked up only where that one is present; a literal is
    not looked up when every pattern naming it is a candidate already.  A check literal is looked
    up at most once per region (a local variable keeps it; one the blocks look up is not looked up
    again).  A block's answer is relied on outside it only when the literal's presence means the
    block runs (every block around it looks up a piece of it); a piece grouped in the block of a
    literal it does not hold (能 in the 解放 block) keeps its answer in a variable that starts as
    ``None``, and outside the block it is looked up where that block did not run.  Literals enter
    the source through ``repr`` only.  Raises nothing."""
    req: dict[str, list[int]] = {}
    for i, p in enumerate(ps):
        for lit in p.requires:
            req.setdefault(lit, []).append(i)
    nodes = sorted(set(req) | ({key} if key else set()), key=lambda x: (len(x), x))
    children: dict[str | None, list[str]] = {}
    for lit in nodes:
        holders = [q for q in nodes if len(q) < len(lit) and q in lit]
        parent = max(holders, key=lambda q: (len(q), q)) if holders else None
        children.setdefault(parent, []).append(lit)
    texts = [e["text"] for p in ps for e in p.examples_match]
    texts += [e if isinstance(e, str) else e.get("text", "") for p in ps for e in p.examples_no_match]
    _group(children, None, texts)
    flags = [i for i, p in enumerate(ps) if p.requires]
    uses: dict[str, int] = {}
    for c in checks:
        for clause in c:
            for lit in clause:
                uses[lit] = uses.get(lit, 0) + 1
    parent_of = {kid: par for par, kids in children.items() for kid in kids}

    def sound(lit: str) -> bool:
        """``lit`` present => its block runs: every block around it looks up a piece of it."""
        par = parent_of.get(lit)
        while par is not None:
            if par not in lit:
                return False
            par = parent_of.get(par)
        return True
    # check literals the blocks look up anyway, where their presence means their block runs: the
    # block's answer is kept (False where the block of a piece they hold did not run: that piece
    # is absent, so they are too)
    known = {lit: f"t{j}" for j, lit in enumerate(sorted(x for x in uses if x in parent_of and sound(x)))}
    # check literals used by several patterns, and those a block looks up where they may be present
    # outside it (a piece grouped in the block of a literal it does not hold: 能 in the 解放 block):
    # looked up once, when first needed (the block records its answer; outside it, it is looked
    # up again where it was not)
    kept = {lit: f"k{j}" for j, lit in enumerate(sorted(x for x, n in uses.items() if x not in known
                                                         and (n > 1 or x in parent_of)))}
    lines = ["def gate(r):"]
    if flags:
        lines.append("    " + " = ".join(f"c{i}" for i in flags) + " = False")
    if known:
        lines.append("    " + " = ".join(known.values()) + " = False")
    if kept:
        lines.append("    " + " = ".join(kept.values()) + " = None")

    def block(parent: str | None, depth: int) -> None:
        for lit in children.get(parent, ()):
            pad = "    " * depth
            sets = [f"c{i}" for i in req.get(lit, ())] + ([known[lit]] if lit in known else [])
            if lit in kept:  # (a piece, not a `requires` literal: nothing to set but its answer)
                lines.append(f"{pad}if ({kept[lit]} := {lit!r} in r):")
            elif children.get(lit) or lit not in req or lit in known:
                lines.append(f"{pad}if {lit!r} in r:")
            else:  # a leaf: not looked up when every pattern naming it is a candidate already
                lines.append(f"{pad}if not ({' and '.join(sets)}) and {lit!r} in r:")
            lines.append(f"{pad}    " + (" = ".join(sets) + " = True" if sets else "pass"))
            block(lit, depth + 1)
    block(None, 1)

    def test(lit: str) -> str:
        if lit in known:
            return known[lit]
        k = kept.get(lit)
        return f"{lit!r} in r" if k is None else f"({k} if {k} is not None else ({k} := {lit!r} in r))"
    lines.append("    o = []")
    for i, p in enumerate(ps):
        tests = [f"c{i}"] if p.requires else []
        tests += ["(" + " or ".join(test(lit) for lit in clause) + ")" for clause in checks[i]]
        lines.append(f"    if {' and '.join(tests)}:" if tests else "    if True:")
        lines.append(f"        o.append({i})")
    lines.append("    return o")
    return "\n".join(lines) + "\n"


def _group(children: dict[str | None, list[str]], parent: str | None, texts: list[str]) -> None:
    """Put siblings (the literals looked up in one block of the gate) that share a piece into a
    new block that looks that piece up first, when that is expected to save look-ups: a piece
    held by ``n`` siblings and found in a share ``f`` of ``texts`` (the patterns' examples, a
    stand-in for card texts) saves ``n * (1 - f) - 1`` look-ups a region.  Repeated while a piece
    saves at least half a look-up, then in every block (a piece of the block's own literal is
    never looked up in it: it is present there; a literal of the gate is never made a block twice).
    A piece may be looked up in the block of a literal it does not hold: :func:`_gate_source`
    then does not take its absence there for its absence.  Changes ``children`` in place."""
    if parent is not None:  # what is found where the block runs: texts that hold its piece
        texts = [t for t in texts if parent in t]
    while True:
        sibs = children.get(parent, [])
        best, gain = None, 0.5
        pieces = {lit[i:j] for lit in sibs for i in range(len(lit)) for j in range(i + 1, len(lit))}
        # (a piece that is a literal of the gate anywhere already is not made a second block)
        nodes = set(children).union(*children.values())
        pieces = {x for x in pieces if x not in nodes and (parent is None or x not in parent)}
        for piece in sorted(pieces, key=lambda x: (-len(x), x)):
            held = [lit for lit in sibs if piece in lit]
            if len(held) < 2:
                continue
            share = sum(1 for t in texts if piece in t) / len(texts) if texts else 1.0
            g = len(held) * (1 - share) - 1
            if g > gain:
                best, gain = piece, g
        if best is None:
            break
        held = [lit for lit in sibs if best in lit]
        children[parent] = [lit for lit in sibs if best not in lit] + [best]
        children[best] = held
    for lit in children.get(parent, []):
        if lit in children:
            _group(children, lit, texts)


def _after_anchor(p: Pattern) -> "regex.Pattern[str]":
    """The expression :meth:`Catalog.run` calls ``match`` with at a position where ``p``'s anchor
    holds: ``p.regex`` without its anchor (the loader checks that the regex starts with it) when
    the anchor is zero-width (by the standard library's reading of it: only lookarounds, ``^``),
    holds no group, and what follows compiles alone to the same groups and flags -- then a match
    of the rest at that position is the match of the whole (the anchor's lookarounds were
    checked by the scan that found the position); else ``p.regex`` itself.  Raises nothing."""
    a = p.anchor.pattern if p.anchor is not None else ""
    if not a or a == "^" or p.anchor.groups or not p.regex.pattern.startswith(a):
        return p.regex
    try:
        import re._parser as sre_parse  # (the standard library's parser, only to read the anchor's width)

        if sre_parse.parse(a).getwidth() != (0, 0):
            return p.regex
        rest = regex.compile(p.regex.pattern[len(a):], p.regex.flags & ~(regex.UNICODE | regex.VERSION0))
    except Exception:  # a construct the standard parser does not read, or no expression alone
        return p.regex
    if rest.flags != p.regex.flags or rest.groups != p.regex.groups or rest.groupindex != p.regex.groupindex:
        return p.regex
    return rest


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
