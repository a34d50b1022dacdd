"""JSON Lines: the lines of a JSONL input as objects (shared with yaml-yugi), and the plain JSONL
format ``{id, name, text, lang}`` with optional ``type`` and ``level``."""
from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Iterator

import orjson

from .item import ReadItem, _card, _frame_from_record
from .lenient import _NOT_JSON, _id_finder, _lenient_json
from .source import _BOM, InputError, _Source, _source
from .values import _as_id, _as_int

_JSONL_ID = _id_finder(("id",))


_BLOCK = 1 << 20  # bytes of a regular file read at a time


def _kept(line: bytes) -> bytes | None:
    """``line`` without a byte-order mark opening it; ``None`` for a blank line."""
    if line.startswith(_BOM):
        line = line[len(_BOM):]
    return line if line and not line.isspace() else None  # (not line.strip(): no copy of a long line)


def _lines(src: _Source) -> Iterator[tuple[int, bytes]]:
    """``(line number, line)`` of each non-blank line (its ``\\n`` kept, as iterating the file
    gives it); a byte-order mark opening a line is left out.  Lines are numbered from 1, blank
    ones counted.  A pipe or standard input is read a line at a time (each card as soon as its
    line comes); a regular file in 1 MiB blocks, each hashed as it is read: once it is read to its
    end, ``src.digest`` holds its sha256 and size (the sidecar's input digest: the file is not
    read a second time for it, :func:`extractor.meta.input_info`)."""
    with src.open() as f:
        try:
            if src.path is None:
                for n, line in enumerate(f, 1):
                    if (line := _kept(line)) is not None:
                        yield n, line
                return
            h = hashlib.sha256()
            size = n = 0
            tail = b""  # the start of a line the last block ended in
            while block := f.read(_BLOCK):
                h.update(block)
                size += len(block)
                start = 0
                if tail:  # the line that straddles two blocks: only it is joined
                    end = block.find(b"\n")
                    if end < 0:
                        tail += block
                        continue
                    start, n = end + 1, n + 1
                    if (line := _kept(tail + block[:start])) is not None:
                        yield n, line
                find = block.find
                while (end := find(b"\n", start)) >= 0:
                    line = block[start:end + 1]
                    start = end + 1
                    n += 1
                    if line.startswith(_BOM):
                        line = line[len(_BOM):]
                    if line and not line.isspace():
                        yield n, line
                tail = block[start:]
            if tail and (line := _kept(tail)) is not None:  # the last line, without a line break
                yield n + 1, line
            src.digest = (h.hexdigest(), size)
        except OSError as e:
            raise InputError(f"{src.label}: cannot be read ({e.strerror or e})") from e


def _refused(n: int, line: bytes, e: Exception, id_finder: re.Pattern[bytes]) -> tuple["dict | ReadItem", list[str]]:
    """``(object, warnings)`` of line ``n`` that orjson refused (``e``): read leniently
    (:func:`_lenient_json`) with a warning, or, when it is not JSON at all, an error
    :class:`ReadItem` with the id ``id_finder`` sees in the line (``"id": 12``) when there is one."""
    d, why = _lenient_json(line, e)
    if d is _NOT_JSON:
        m = id_finder.search(line)
        cid = int(m.group(1)) if m else None
        who = f"line {n}: card {cid}" if cid is not None else f"line {n}"
        return ReadItem(error=f"{who}: {why} ({e})", id=cid), []
    return d, [f"line {n}: {why}: read leniently"]


def _objects(src: _Source, id_finder: re.Pattern[bytes]) -> Iterator[tuple[int, "dict | ReadItem", list[str]]]:
    """``(line number, object, warnings)`` of each non-empty line of a JSONL input.

    A line orjson refuses is read leniently with a warning, or is an error :class:`ReadItem`
    (:func:`_refused`); a line that is JSON but not an object, an error too.
    """
    for n, line in _lines(src):
        try:
            d = orjson.loads(line)
            warnings: list[str] = []
        except orjson.JSONDecodeError as e:
            d, warnings = _refused(n, line, e, id_finder)
            if isinstance(d, ReadItem):
                yield n, d, []
                continue
        if isinstance(d, dict):
            yield n, d, warnings
        else:
            yield n, ReadItem(error=f"line {n}: not a JSON object"), []


def read_jsonl(path: str | Path, lang: str | None) -> Iterator[ReadItem]:
    """JSONL of ``{id, name, text, lang}`` with optional ``type`` and ``level``; ``lang`` of the
    record wins over the command-line one.

    Raises:
        InputError: the input cannot be opened or read.
    """
    return _read_jsonl(_source(path), lang)


def _read_jsonl(src: _Source, lang: str | None) -> Iterator[ReadItem]:
    for n, d, warnings in _objects(src, _JSONL_ID):
        if isinstance(d, ReadItem):
            yield d
            continue
        raw_id = d.get("id")
        cid, problem = _as_id(raw_id)
        name = str(d.get("name") or "")
        who = " ".join(x for x in ("card", str(cid) if cid is not None else "", repr(name) if name else "") if x) \
            if cid is not None or name else "record"
        if problem:
            yield ReadItem(error=f"line {n}: {who}: 'id' must be an integer passcode, got {raw_id!r}", name=name)
            continue
        text = d.get("text", d.get("desc"))
        lg = d.get("lang") or lang
        if not isinstance(text, str):
            yield ReadItem(error=f"line {n}: {who}: 'text' missing or not a string", id=cid, name=name)
            continue
        if not lg:
            yield ReadItem(error=f"line {n}: {who}: no 'lang' (give --lang)", id=cid, name=name)
            continue
        warnings.extend(_record_warnings(d))
        item = _card(warnings, id=cid, name=name, lang=lg, text=text, frame=_frame_from_record(d, warnings))
        yield item


_TYPE_WORDS = frozenset(
    "monster spell trap card normal effect fusion ritual synchro xyz link pendulum tuner gemini spirit union toon "
    "flip token quick play quick-play continuous equip field counter special summon".split())


def _record_warnings(d: dict) -> list[str]:
    """Problems of a JSONL record that do not stop it: no id, a type line with no frame word,
    a level that is not a number."""
    out = []
    if d.get("id") is None:
        out.append("no 'id': the card has no passcode")
    typ = d.get("type")
    if isinstance(typ, str) and typ.strip():
        words = set(typ.replace("/", " ").replace("-", " ").lower().split())
        if words.isdisjoint(_TYPE_WORDS):
            out.append(f"type {typ!r} names no card frame (e.g. \"Dragon / Synchro / Effect\", \"Spell\"): frame unknown")
    lv = d.get("level")
    if lv is not None and _as_int(lv) is None:
        out.append(f"level {lv!r} is not a number: ignored")
    return out
