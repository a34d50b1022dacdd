"""What every text a regular expression matches must contain, read from the expression itself.

:func:`required_literals` is a speed device: a pattern need not be tried on a text that lacks one of
its required literals (``Catalog.run``, the English normalizer).  It never decides a match.
"""
from __future__ import annotations

import re

__all__ = ["required_literals"]


# a group with inline flags that change only what ``.``, ``^`` and ``$`` match, never a literal
_SCOPED_FLAGS = re.compile(r"\(\?[sm]+(?:-[sm]+)?:")


class _Unknown(Exception):
    """A construct :func:`required_literals` does not read: it then states no requirement."""


def required_literals(rx: str) -> tuple[tuple[str, ...], ...] | None:
    """What every text in which ``rx`` matches must contain: clauses of literals, each clause a
    tuple of which at least one literal is in the text (and every clause holds).

    Read from the expression itself, conservatively: a literal run is required; a group, a
    repeat with a minimum of one or more, and a positive lookaround (its text is in the text too)
    require what they hold; of an alternation, one clause of each branch together (one of them is
    in the text); optional parts, negative lookarounds, classes, ``.`` and escapes other than an
    escaped character require nothing.  Any other construct (inline flags, atomic groups, back
    references, ``\\x``/``\\u`` escapes, nested sets, a ``{`` that is no repeat...) makes the whole
    answer ``None`` (no requirement known): the result can only be too weak, never wrong.
    ``()`` means nothing is required.  A speed device of :meth:`Catalog.run` (a pattern is not
    tried on a text that lacks a clause); pattern authors never write it."""
    pos = 0
    n = len(rx)

    def alternation(least: int = 1) -> tuple[list[frozenset[str]], str, str]:
        """The clauses, and the literal every match starts with and the one it ends with ("" when
        none is known).  ``least``: the branches there are at the fewest (a conditional without a
        "no" branch has an empty one)."""
        nonlocal pos
        seqs = [sequence()]
        while pos < n and rx[pos] == "|":
            pos += 1
            seqs.append(sequence())
        if len(seqs) < least:
            return [], "", ""
        if len(seqs) == 1:
            return seqs[0]
        # what every branch starts / ends with: a match is one branch's
        head = _common_prefix([h for _, h, _ in seqs])
        tail = _common_suffix([t for _, _, t in seqs])
        return _either([b for b, _, _ in seqs]), head, tail

    def _either(branches: list[list[frozenset[str]]]) -> list[frozenset[str]]:
        if any(not b for b in branches):
            return []
        # a clause every branch implies (a branch implies c when one of its clauses lies inside c),
        # and the longest piece of each one-literal clause of the first branch that every other
        # branch holds inside each literal of one of its clauses ("Cannot be Special Summoned,
        # except" | "(?<=cannot be Special Summoned, except (?:by|with) ...)": " except")
        common = [c for c in branches[0] if all(any(d <= c for d in b) for b in branches[1:])]
        for c in branches[0]:
            if len(c) == 1 and c not in common:
                piece = _shared_piece(next(iter(c)), branches[1:])
                if piece and not any(piece in x for d in common for x in d if len(d) == 1):
                    common.append(frozenset([piece]))
        # and one clause of each branch together, each the branch's most selective (longest
        # shortest literal) among those the common clauses do not already imply
        union = frozenset().union(*(max([d for d in b if not any(c <= d for c in common)] or b,
                                        key=lambda c: min(map(len, c))) for b in branches))
        return common + ([union] if not any(c <= union for c in common) else [])

    def sequence() -> tuple[list[frozenset[str]], str, str]:
        """The clauses of a sequence, and the literal every match of it starts with (``head``) and
        the one it ends with (``tail``), "" when none is known.  Besides the literal runs (broken
        by anything that is no literal character), the text around a zero-width atom (``a(?!x)b``:
        ``ab``), a run joined to the start of a group after it and a group's end joined to the run
        after it are required (``(?:特殊|通常)召喚できない``: ``召喚できない``): extra clauses, the plain
        runs are kept as they were."""
        nonlocal pos
        cnf: list[frozenset[str]] = []
        run: list[str] = []
        tail = ""  # the literal the text matched so far ends with (contiguous, across zero-width atoms)
        head, head_open = "", True  # the literal every match starts with; still growing

        def flush() -> None:
            if run:
                cnf.append(frozenset(["".join(run)]))
                run.clear()

        def cut() -> None:
            """Before ``tail`` is cut: keep it when it is more than the plain run ending here."""
            if tail and len(tail) > len("".join(run)):
                cnf.append(frozenset([tail]))

        while pos < n and rx[pos] not in "|)":
            lit, inner, ahead, atail, zero = atom()
            least = 1
            if pos < n and rx[pos] in "?*+{":
                if rx[pos] == "{":
                    close = rx.find("}", pos)
                    body = rx[pos + 1:close] if close > 0 else ""
                    if not body or body.count(",") > 1 or not body.replace(",", "").isdigit() and body != ",":
                        raise _Unknown(body)
                    least = int(body.split(",")[0] or 0)
                    pos = close + 1
                else:
                    least = 0 if rx[pos] in "?*" else 1
                    pos += 1
                if pos < n and rx[pos] in "?+":  # lazy / possessive
                    pos += 1
                if least == 0:
                    if not zero:
                        cut()
                        tail, head_open = "", False
                    flush()
                    continue
                if lit is not None:  # x+ / x{2,}: one x is in the text, the run stops after it
                    run.append(lit)
                    tail += lit
                    cut()
                    flush()
                    if head_open:
                        head, head_open = head + lit, False
                    tail = lit  # (the text ends with x)
                    continue
            if lit is not None:
                run.append(lit)
                tail += lit
                if head_open:
                    head += lit
                continue
            if zero:  # a lookaround, ^, \b: the text on both sides is contiguous
                flush()
                cnf.extend(inner)
                continue
            if ahead:
                tail += ahead
            cut()
            flush()
            cnf.extend(inner)
            if head_open:
                head, head_open = head + ahead, False
            tail = atail
        cut()
        flush()
        return cnf, head, tail

    def atom() -> tuple[str | None, list[frozenset[str]], str, str, bool]:
        """(the literal character or None, the clauses of a group, the literal a group's match starts
        with, the one it ends with, whether the atom is zero-width)."""
        nonlocal pos
        c = rx[pos]
        if c == "\\":
            d = rx[pos + 1]
            if d in "pP":
                pos = (rx.index("}", pos) + 1) if rx[pos + 2] == "{" else pos + 3
                return None, [], "", "", False
            pos += 2
            if d in "bBAZzGmM":  # word boundaries, text start / end: zero-width
                return None, [], "", "", True
            if d in "dDwWsShHvVXR":
                return None, [], "", "", False
            if d in "nt":
                return ("\n" if d == "n" else "\t"), [], "", "", False
            if d.isalnum():
                raise _Unknown("\\" + d)
            return d, [], "", "", False
        if c == "[":
            j = pos + 1
            if j < n and rx[j] == "^":
                j += 1
            if j < n and rx[j] == "]":
                j += 1
            while rx[j] != "]":
                if rx[j] == "\\":
                    j += 2
                elif rx[j] == "[":
                    raise _Unknown("nested set")
                else:
                    j += 1
            pos = j + 1
            return None, [], "", "", False
        if c == "(":
            kind, least = "group", 1
            for opening, k in (("(?:", "group"), ("(?=", "look"), ("(?<=", "look"), ("(?!", "not"), ("(?<!", "not")):
                if rx.startswith(opening, pos):
                    pos += len(opening)
                    kind = k
                    break
            else:
                if rx.startswith("(?(", pos):  # (?(name)yes|no): the text holds one branch, as for an alternation
                    pos = rx.index(")", pos + 3) + 1
                    least = 2  # (?(name)yes): yes, or nothing
                elif rx.startswith("(?P<", pos) or rx.startswith("(?<", pos):
                    pos = rx.index(">", pos) + 1
                elif (flags := _SCOPED_FLAGS.match(rx, pos)) is not None:  # (?s:...) (?m:...): literals unchanged
                    pos = flags.end()
                elif rx.startswith("(?", pos):
                    raise _Unknown(rx[pos:pos + 4])
                else:
                    pos += 1
            inner, head, tail = alternation(least)
            if pos >= n or rx[pos] != ")":
                raise _Unknown("unbalanced")
            pos += 1
            if kind != "group":  # a lookaround: zero-width
                return None, ([] if kind == "not" else inner), "", "", True
            return None, inner, head, tail, False
        if c in "^$":
            pos += 1
            return None, [], "", "", True
        if c == ".":
            pos += 1
            return None, [], "", "", False
        if c in "*+?{)":
            raise _Unknown(c)
        pos += 1
        return c, [], "", "", False

    try:
        cnf = alternation()[0]
        if pos != n:
            raise _Unknown("trailing")
    except (_Unknown, ValueError, IndexError):
        return None
    # a one-literal clause inside another one-literal clause (的效果 beside 」的效果) says nothing more
    ones = {next(iter(c)) for c in cnf if len(c) == 1}
    cnf = [c for c in cnf if len(c) > 1 or not any(x != y and x in y for x in c for y in ones)]
    out: list[tuple[str, ...]] = []
    for clause in cnf:
        t = tuple(sorted(clause, key=lambda x: (-len(x), x)))
        if t not in out:
            out.append(t)
    return tuple(out)


def _common_prefix(xs: list[str]) -> str:
    """The longest string every one of ``xs`` starts with."""
    first, last = min(xs), max(xs)
    i = 0
    while i < len(first) and first[i] == last[i]:
        i += 1
    return first[:i]


def _common_suffix(xs: list[str]) -> str:
    """The longest string every one of ``xs`` ends with."""
    return _common_prefix([x[::-1] for x in xs])[::-1]


def _shared_piece(lit: str, branches: list[list[frozenset[str]]]) -> str | None:
    """The longest piece of ``lit`` that each branch holds: inside every literal of one of its
    clauses.  ``None`` when there is none of 3 characters or more (5 in ASCII, where short pieces
    such as "mon" are in nearly every text and rule nothing out)."""
    n = len(lit)
    least = 5 if lit.isascii() else 3
    for size in range(n, least - 1, -1):
        for i in range(n - size + 1):
            piece = lit[i:i + size]
            if all(any(all(piece in x for x in d) for d in b) for b in branches):
                return piece
    return None
