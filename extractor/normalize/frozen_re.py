"""Compiled stdlib ``re`` patterns kept across processes: :func:`_freeze` turns each ``re``
pattern in a tuple (or named tuple) of tables into its compiled code (:class:`_ReCode`), which
pickles as it is; :func:`_thaw` makes the patterns again with ``_sre.compile``, without parsing
their sources.  A pickled ``re.Pattern`` is compiled again from its source on loading."""
from __future__ import annotations

import re
from typing import NamedTuple


class _ReCode(NamedTuple):
    """A compiled stdlib ``re`` pattern as ``re`` itself compiles it (``re._compiler.compile``): the
    arguments of ``_sre.compile``.  ``re.Pattern`` pickles as its source and is compiled again on
    loading; this keeps the compiled code."""

    pattern: str
    flags: int
    code: list[int]
    groups: int
    groupindex: dict[str, int]
    indexgroup: tuple


def _freeze_re(p: "re.Pattern[str]") -> "_ReCode | re.Pattern[str]":
    """``p`` as a :class:`_ReCode`, or ``p`` itself (recompiled from its source on loading) when the
    code made here is not exactly ``p``'s (``==`` compares flags, code and source)."""
    import _sre
    from re import _compiler, _parser

    for flags in (0, p.flags):  # (the flags given to re.compile: 0 for ours, or p.flags)
        try:
            parsed = _parser.parse(p.pattern, flags)
            code = _compiler._code(parsed, flags)
            groupindex = dict(parsed.state.groupdict)
            indexgroup = [None] * parsed.state.groups
            for k, i in groupindex.items():
                indexgroup[i] = k
            rc = _ReCode(p.pattern, int(flags | parsed.state.flags), [int(c) for c in code], parsed.state.groups - 1,
                         groupindex, tuple(indexgroup))
            if _sre.compile(*rc) == p:
                return rc
        except Exception:  # (another Python's internals: keep the source)
            pass
    return p


def _freeze(value):
    """``value`` (a table tuple) with each ``re`` pattern in it made a :class:`_ReCode`."""
    if isinstance(value, re.Pattern):
        return _freeze_re(value)
    if isinstance(value, tuple) and not isinstance(value, _ReCode):
        items = [_freeze(v) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    return value


def _thaw(value):
    """:func:`_freeze` undone: each :class:`_ReCode` compiled by ``_sre.compile`` (no parsing)."""
    if isinstance(value, _ReCode):
        import _sre

        return _sre.compile(*value)
    if isinstance(value, tuple):
        items = [_thaw(v) for v in value]
        return type(value)(*items) if hasattr(value, "_fields") else tuple(items)
    return value
