"""Format detection: which of :data:`FORMATS` an input is, from its first bytes."""
from __future__ import annotations

import re
from pathlib import Path

import orjson

from .source import _BOM, _SQLITE, InputError, _not_sqlite, _Source, _source

FORMATS = ("cdb", "yaml-yugi", "ygoprodeck", "i18n", "jsonl")


def detect_source(src: _Source) -> str:
    """The format of ``src``, from its first bytes :attr:`_Source.head` (see :func:`detect_format`)."""
    head = src.head
    if head.startswith(_SQLITE):
        return "cdb"
    if src.suffix == ".cdb":
        raise InputError(_not_sqlite(src))
    if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
        raise InputError(f"{src.label}: UTF-16 text; save it as UTF-8")
    s = head[len(_BOM):] if head.startswith(_BOM) else head
    s = s.lstrip()
    if not s:
        return "jsonl"  # an empty input: no cards
    if s.startswith(b"{"):
        first = s.split(b"\n", 1)[0]
        if b'"password"' in first or b'"konami_id"' in first:
            return "yaml-yugi"
        try:
            obj = orjson.loads(first)
        except orjson.JSONDecodeError:
            obj = None
        if isinstance(obj, dict):  # a whole object on the first line: JSONL, or one-line JSON
            if isinstance(obj.get("data"), list):
                return "ygoprodeck"
            if isinstance(obj.get("cards"), list):
                return "i18n"
            return "jsonl"
        # one JSON document over several lines (pretty-printed), or a first line longer than head
        m = _LIST_KEY.search(s)
        if m:
            return "ygoprodeck" if m.group(1) == b"data" else "i18n"
        return "jsonl"
    if s.startswith(b"["):
        return "ygoprodeck"
    raise InputError(f"{src.label}: unknown format (expected a cards.cdb, yaml-yugi JSONL, YGOPRODeck JSON or JSONL)")


_LIST_KEY = re.compile(rb'"(data|cards)"\s*:\s*\[')


def detect_format(path: str | Path) -> str:
    """Guess the format of ``path`` from its first bytes (a UTF-8 byte-order mark is skipped).

    Input: a file path.  (For standard input or a pipe use :func:`read_cards`, which detects the
    format and reads the cards from one opening: detecting here would use up the first bytes.)
    Output: one of :data:`FORMATS`; an empty file is ``jsonl`` (no cards).

    Raises:
        InputError: missing file, a folder, unknown format, UTF-16 text, a ``.cdb`` file that is
        empty or not SQLite.
    """
    return detect_source(_source(path))
