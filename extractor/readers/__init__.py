"""Readers for the card databases ``tag`` accepts.  Each yields :class:`ReadItem` s: a
:class:`~extractor.card.Card`, or an error naming the record and the problem (a bad record
never stops the rest).

Formats (``detect_format`` picks one from the file):
- ``cdb``: ygopro / EDOPro ``cards.cdb`` SQLite (``datas`` + ``texts``), opened read-only;
- ``yaml-yugi``: yaml-yugi JSONL (``password``, ``text{lang}``, ``monster_type_line`` ...);
- ``ygoprodeck``: ``{"data": [{"id", "name", "desc", "type", "level", ...}]}``;
- ``i18n``: ``{"cards": [{"id", "name", "lore"}]}`` (a 2012 multilingual card file);
- ``jsonl``: one ``{id, name, text, lang}`` per line, optional ``type`` (a type line such as
  "Dragon / Synchro / Effect") and ``level``.

Where the input comes from: a file, or ``-`` (standard input), ``/dev/stdin``, a named pipe or a
process substitution (``<(cat f)``) for every format but ``cdb`` (SQLite needs a file it can seek
in: a cdb on a pipe is an :class:`InputError`).  The input is opened once: the first bytes read
to detect the format are put back in front of the rest, so no card is lost.  A UTF-8 byte-order
mark is skipped.  A JSONL line (or a JSON file) that orjson cannot decode strictly (invalid UTF-8
bytes, a lone surrogate escape such as ``\\udc00``, raw control characters) is read again leniently
with the bad characters replaced by U+FFFD, and the card carries a warning saying so.

The package, one idea a module: :mod:`.source` (the input opened once), :mod:`.detect` (format
detection), :mod:`.item` (:class:`ReadItem`), :mod:`.values` (ids and numbers), :mod:`.lenient`
(lenient JSON), :mod:`.cdb`, :mod:`.jsonl`, :mod:`.yaml_yugi`, :mod:`.json_docs` (YGOPRODeck and
i18n), :mod:`.lang` (the language of a file read without ``--lang``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from .cdb import read_cdb
from .detect import FORMATS, detect_format, detect_source
from .item import ReadItem
from .json_docs import _json_records, read_i18n, read_ygoprodeck
from .jsonl import _read_jsonl, read_jsonl
from .lang import _relabel, guess_lang
from .source import STDIN, InputError, _source
from .yaml_yugi import _read_yaml_yugi, read_yaml_yugi, yaml_yugi_key

__all__ = ["FORMATS", "STDIN", "InputError", "ReadItem", "detect_format", "guess_lang", "open_input", "read_cards", "read_cdb",
           "read_i18n", "read_jsonl", "read_yaml_yugi", "read_ygoprodeck", "yaml_yugi_key"]


def open_input(path: str | Path) -> _Source:
    """The input ``path`` opened once (its first bytes read, to detect the format), for
    :func:`read_cards`; after a reader has read a regular file whole, its ``digest`` holds the
    file's ``(sha256 hex, size)`` (else ``None``), which ``tag`` hands to the metadata sidecar so
    the file is not read twice.

    Raises:
        InputError: a missing file, a folder, a file that cannot be opened or read.
    """
    return _source(path)


def read_cards(path: "str | Path | _Source", lang: str | None = None, fmt: str | None = None) -> Iterator[ReadItem]:
    """Read any supported input.

    Input: ``path``: a file, ``-`` for standard input, ``/dev/stdin`` or a pipe (every format but
    ``cdb``), or an input :func:`open_input` opened; ``lang``: the language of the texts; when ``None`` it is guessed from the texts of a
    cdb, YGOPRODeck or i18n file (:func:`guess_lang`), is ``en`` for yaml-yugi, and comes from
    each record of a JSONL file; ``fmt``: one of :data:`FORMATS`, detected when ``None``.
    Output: an iterator of :class:`ReadItem`, one per record.

    Raises:
        InputError: the input as a whole cannot be read (at once for a missing file, an unknown
        format, a cdb or JSON document that cannot be opened; a read failure midway through a
        JSONL stream is raised when it happens).
    """
    if fmt is not None and fmt not in FORMATS:
        raise InputError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")
    src = _source(path)
    fmt = fmt or detect_source(src)
    lg = lang or "en"
    if fmt == "cdb":
        items = read_cdb(src, lg)
    elif fmt == "yaml-yugi":
        items = _read_yaml_yugi(src, lg)
    elif fmt == "ygoprodeck":
        items = _json_records(src, "data", "desc", lg, pendulum_key="pend_desc", bare_list=True)
    elif fmt == "i18n":
        items = _json_records(src, "cards", "lore", lg)
    else:
        return _read_jsonl(src, lang)
    return _relabel(items) if lang is None else items
