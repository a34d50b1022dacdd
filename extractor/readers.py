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
"""
from __future__ import annotations

import io
import json
import os
import re
import sqlite3
import stat
import sys
from dataclasses import dataclass, field
from itertools import chain, islice
from pathlib import Path
from typing import Any, BinaryIO, Iterable, Iterator

import orjson
from pydantic import ValidationError

from .card import Card
from .frame import Frame, cdb_type_problem
from .langcheck import looks_like

FORMATS = ("cdb", "yaml-yugi", "ygoprodeck", "i18n", "jsonl")

#: the path that means standard input
STDIN = "-"
_BOM = b"\xef\xbb\xbf"
_SQLITE = b"SQLite format 3"
_HEAD = 4096  # bytes looked at to detect the format


class InputError(Exception):
    """The input as a whole cannot be read (missing file, unknown format, a cdb on a pipe)."""


@dataclass(slots=True)
class ReadItem:
    """One record: ``card`` or ``error`` (with whatever ``id``/``name`` could be read; ``id`` is
    always an ``int`` or ``None``)."""

    card: Card | None = None
    error: str | None = None
    id: int | None = None
    name: str = ""
    warnings: list[str] = field(default_factory=list)


# -- the input: a file, standard input or a pipe, opened once -------------------------------------

class _HeadThenRest(io.RawIOBase):
    """A raw stream giving ``head`` and then what is left of ``rest`` (a pipe whose first bytes
    were read to detect the format)."""

    def __init__(self, head: bytes, rest: BinaryIO, owns_rest: bool):
        super().__init__()
        self._head = memoryview(head)
        self._pos = 0
        self._rest = rest
        self._owns = owns_rest

    def readable(self) -> bool:
        return True

    def readinto(self, b) -> int:  # type: ignore[override]
        if self._pos < len(self._head):
            n = min(len(b), len(self._head) - self._pos)
            b[:n] = self._head[self._pos:self._pos + n]
            self._pos += n
            return n
        read1 = getattr(self._rest, "read1", self._rest.read)
        data = read1(len(b))
        n = len(data)
        b[:n] = data
        return n

    def close(self) -> None:
        if not self.closed and self._owns:
            self._rest.close()
        super().close()


class _Source:
    """An input opened once for reading.

    ``label``: the path as given, or ``standard input``; ``path``: a regular file that can be
    opened again (and handed to SQLite), else ``None``; ``head``: its first bytes, read to
    detect the format.  :meth:`open` gives a binary stream over the WHOLE input: a regular file
    is opened again, a pipe or standard input goes on where the head ended with the head put
    back in front (so it can be opened once).

    Raises:
        InputError: a missing file, a folder, a file that cannot be opened or read.
    """

    def __init__(self, path: str | Path):
        self._rest: BinaryIO | None = None
        self._owns = True
        if str(path) == STDIN:
            self.label, self.path = "standard input", None
            stream = getattr(sys.stdin, "buffer", None)
            if stream is None:
                raise InputError("standard input: not available")
            self._owns = False
        else:
            p = Path(path)
            self.label = str(path)
            if not p.exists():
                raise InputError(f"{path}: no such file")
            if p.is_dir():
                raise InputError(f"{path}: is a directory, expected a card database file")
            try:
                stream = open(p, "rb")
            except OSError as e:
                raise InputError(f"{path}: cannot be opened ({e.strerror or e})") from e
            self.path = p if stat.S_ISREG(os.fstat(stream.fileno()).st_mode) else None
        try:
            self.head: bytes = stream.read(_HEAD)  # a buffered read: up to _HEAD bytes or the end
        except OSError as e:
            raise InputError(f"{self.label}: cannot be read ({e.strerror or e})") from e
        if self.path is not None:
            stream.close()
        else:
            self._rest = stream

    @property
    def suffix(self) -> str:
        return Path(self.label).suffix.lower() if self.label != "standard input" else ""

    def open(self) -> BinaryIO:
        """A binary stream over the whole input, from its first byte.

        Raises:
            InputError: a pipe or standard input opened a second time.
        """
        if self.path is not None:
            try:
                return open(self.path, "rb")
            except OSError as e:
                raise InputError(f"{self.label}: cannot be opened ({e.strerror or e})") from e
        if self._rest is None:
            raise InputError(f"{self.label}: a pipe can be read only once")
        rest, self._rest = self._rest, None
        return io.BufferedReader(_HeadThenRest(self.head, rest, self._owns), buffer_size=1 << 16)

    def read_all(self) -> bytes:
        """The whole input as bytes (a leading UTF-8 byte-order mark left out)."""
        with self.open() as f:
            try:
                data = f.read()
            except OSError as e:
                raise InputError(f"{self.label}: cannot be read ({e.strerror or e})") from e
        return data[len(_BOM):] if data.startswith(_BOM) else data

    def detect(self) -> str:
        """The format, from :attr:`head` (see :func:`detect_format`)."""
        head = self.head
        if head.startswith(_SQLITE):
            return "cdb"
        if self.suffix == ".cdb":
            raise InputError(_not_sqlite(self))
        if head[:2] in (b"\xff\xfe", b"\xfe\xff"):
            raise InputError(f"{self.label}: UTF-16 text; save it as UTF-8")
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
        raise InputError(f"{self.label}: unknown format (expected a cards.cdb, yaml-yugi JSONL, YGOPRODeck JSON or JSONL)")


_LIST_KEY = re.compile(rb'"(data|cards)"\s*:\s*\[')


def _not_sqlite(src: _Source) -> str:
    if not src.head:
        return f"{src.label}: empty file (0 bytes), not a cards.cdb"
    return f"{src.label}: not a SQLite database, so not a cards.cdb"


def _source(path: "str | Path | _Source") -> _Source:
    return path if isinstance(path, _Source) else _Source(path)


def detect_format(path: str | Path) -> str:
    """Guess the format of ``path`` from its first bytes (a UTF-8 byte-order mark is skipped).

    Input: a file path.  (For standard input or a pipe use :func:`read_cards`, which detects the
    format and reads the cards from one opening: detecting here would use up the first bytes.)
    Output: one of :data:`FORMATS`; an empty file is ``jsonl`` (no cards).

    Raises:
        InputError: missing file, a folder, unknown format, UTF-16 text, a ``.cdb`` file that is
        empty or not SQLite.
    """
    return _source(path).detect()


# -- ids, numbers and lenient JSON ---------------------------------------------------------------

_INT = re.compile(r"[+-]?\d+")


def _as_int(v: Any) -> int | None:
    """``v`` as an int: ints, integral floats (``1.0``), digit strings (``"123"``); else ``None``."""
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, float):
        return int(v) if v.is_integer() else None
    if isinstance(v, bytes):
        v = v.decode("utf-8", "replace")
    if isinstance(v, str) and _INT.fullmatch(v.strip()):
        return int(v.strip())
    return None


def _as_id(v: Any, key: str = "id") -> tuple[int | None, str | None]:
    """``(passcode, problem)`` of a raw id value: ``123``, ``"123"``, ``1.0`` -> an int and no
    problem; ``None`` -> ``(None, None)``; anything else (``"abc"``, ``1.5``, ``True``) ->
    ``None`` and a problem naming the raw value."""
    if v is None:
        return None, None
    cid = _as_int(v)
    if cid is None:
        raw = v.decode("utf-8", "replace") if isinstance(v, bytes) else v
        return None, f"{key} {raw!r} is not an integer passcode"
    return cid, None


_SURROGATE = re.compile("[\ud800-\udfff]")


def _scrub(obj: Any) -> tuple[Any, int, int]:
    """``(obj, surrogates, replacements)``: ``obj`` with every lone surrogate in its strings (and
    keys) replaced by U+FFFD, the number replaced, and the number of U+FFFD it then holds."""
    if isinstance(obj, str):
        s, n = _SURROGATE.subn("\ufffd", obj)
        return s, n, s.count("\ufffd")
    if isinstance(obj, list):
        out, ns, nr = [], 0, 0
        for x in obj:
            y, a, b = _scrub(x)
            out.append(y)
            ns, nr = ns + a, nr + b
        return out, ns, nr
    if isinstance(obj, dict):
        d, ns, nr = {}, 0, 0
        for k, x in obj.items():
            k2, a, b = _scrub(k)
            y, c, e = _scrub(x)
            d[k2] = y
            ns, nr = ns + a + c, nr + b + e
        return d, ns, nr
    return obj, 0, 0


_NOT_JSON = object()


def _lenient_json(data: bytes, strict_error: Exception) -> tuple[Any, str]:
    """Decode JSON that orjson refused: invalid UTF-8 bytes and lone surrogate escapes become
    U+FFFD, raw control characters in strings and ``NaN`` are accepted (the standard library's
    parser, ``strict=False``).

    Output: ``(object, what was wrong)``, or ``(_NOT_JSON, why)`` when it cannot be read at all
    (``why``: ``"not JSON"`` or ``"nested too deeply to read"``).
    """
    try:
        text, bad_bytes = data.decode("utf-8"), False
    except UnicodeDecodeError:
        text, bad_bytes = data.decode("utf-8", errors="replace"), True
    try:
        obj, surrogates, _ = _scrub(json.loads(text.removeprefix("\ufeff"), strict=False))
    except ValueError:
        return _NOT_JSON, "not JSON"
    except RecursionError:
        return _NOT_JSON, "nested too deeply to read"
    why = []
    if bad_bytes:
        why.append("invalid UTF-8 bytes")
    if surrogates:
        why.append(f"{surrogates} lone surrogate escape{'s' if surrogates > 1 else ''} (such as \\udc00)")
    if why:
        return obj, " and ".join(why) + ", replaced by U+FFFD"
    return obj, f"not strict JSON ({strict_error})"


def _id_finder(keys: tuple[str, ...]) -> re.Pattern[bytes]:
    return re.compile(rb'"(?:' + b"|".join(re.escape(k.encode()) for k in keys) + rb')"\s*:\s*"?\s*(-?\d+)')


_JSONL_ID = _id_finder(("id",))
_YAML_YUGI_ID = _id_finder(("password", "fake_password"))


# -- cdb ----------------------------------------------------------------------------------------

def _card(warnings: list[str] | None = None, **kw) -> ReadItem:
    """A :class:`ReadItem` holding ``Card(**kw)`` (with ``warnings``), or an error naming the card
    when a field has the wrong type (e.g. a ``lang`` that is not a string)."""
    try:
        return ReadItem(card=Card(**kw), warnings=warnings or [])
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(x) for x in err.get("loc", ()))
        cid = kw.get("id")
        return ReadItem(error=f"card {cid} {kw.get('name', '')!r}: bad {where} ({err['msg']})",
                        id=cid if isinstance(cid, int) else None, name=str(kw.get("name", "")))


def read_cdb(path: str | Path, lang: str) -> Iterator[ReadItem]:
    """Cards of a ygopro ``cards.cdb`` (opened read-only), ordered by id.

    One item per id, whatever the tables hold: a ``texts`` row with no ``datas`` row is read with
    an unknown frame; a ``datas`` row with no ``texts`` row, and a ``texts`` row whose name and
    desc are both NULL, are errors naming the card; an id found in several rows of one table
    (tables without a primary key) is read from its first row, with a warning; an impossible
    ``type`` (see :func:`extractor.frame.cdb_type_problem`) gives an unknown frame and a warning;
    an id that is not an integer (``'abc'``) is an error with ``id`` ``None`` naming the raw
    value (``'123'`` and ``1.0`` are read as 123 and 1); text that is not valid UTF-8 is read with
    U+FFFD in place of the bad bytes, with a warning.

    Raises:
        InputError: at once (before any card): an empty or non-SQLite file, a cdb on a pipe or
        standard input, a SQLite file without the ``texts``/``datas`` tables.
    """
    src = _source(path)
    if src.path is None:
        raise InputError(f"{src.label}: a SQLite cards.cdb cannot be read from a pipe or standard input; "
                         "give the file's name instead")
    if not src.head.startswith(_SQLITE):
        raise InputError(_not_sqlite(src))
    # as_uri() percent-encodes '#', '?', '%' ... (a raw path would cut the URI there and open,
    # or even create, another file)
    uri = src.path.resolve().as_uri() + "?mode=ro"
    con = None
    try:
        con = sqlite3.connect(uri, uri=True)
        try:
            texts = con.execute('SELECT id, name, "desc" FROM texts').fetchall()
        except sqlite3.OperationalError as e:
            if "decode" not in str(e):
                raise
            # text that is not UTF-8: read the raw bytes and decode them card by card (a bad
            # byte costs that card a warning, not the whole file)
            con.text_factory = bytes
            texts = con.execute('SELECT id, name, "desc" FROM texts').fetchall()
        datas = con.execute("SELECT id, type, level FROM datas").fetchall()
    except sqlite3.DatabaseError as e:
        raise InputError(f"{src.label}: not a readable cards.cdb ({e})") from e
    finally:
        if con is not None:
            con.close()
    return _cdb_items(texts, datas, lang)


def _cdb_items(texts: list[tuple], datas: list[tuple], lang: str) -> Iterator[ReadItem]:
    by_text: dict[int, list[tuple]] = {}
    by_data: dict[int, list[tuple]] = {}
    bad: list[ReadItem] = []
    for raw_id, name, desc in texts:
        cid, problem = _as_id(raw_id)
        if cid is None:
            nm = _cdb_str(name, "name", []) or ""
            bad.append(ReadItem(error=f"texts row {nm!r}: {problem or 'no id'}", name=nm))
        else:
            by_text.setdefault(cid, []).append((name, desc))
    for raw_id, typ, level in datas:
        cid, problem = _as_id(raw_id)
        if cid is None:
            bad.append(ReadItem(error=f"datas row (type {_show(typ)}): {problem or 'no id'}"))
        else:
            by_data.setdefault(cid, []).append((typ, level))
    for cid in sorted(by_text.keys() | by_data.keys()):
        yield _cdb_item(cid, by_text.get(cid), by_data.get(cid), lang)
    yield from bad


def _show(v: Any) -> str:
    return repr(v.decode("utf-8", "replace")) if isinstance(v, bytes) else repr(v)


def _dup_note(rows: list[tuple] | None, table: str) -> str | None:
    if not rows or len(rows) < 2:
        return None
    same = " (identical)" if all(r == rows[0] for r in rows) else ""
    return f"{len(rows)} {table} rows with this id{same}: the first is read, the others are ignored"


def _cdb_str(v: Any, col: str, warnings: list[str]) -> str | None:
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, bytes):
        try:
            return v.decode("utf-8")
        except UnicodeDecodeError:
            warnings.append(f"{col}: invalid UTF-8 bytes, replaced by U+FFFD")
            return v.decode("utf-8", "replace")
    return str(v)  # a number stored as the name


def _cdb_item(cid: int, trows: list[tuple] | None, drows: list[tuple] | None, lang: str) -> ReadItem:
    notes = [n for n in (_dup_note(trows, "texts"), _dup_note(drows, "datas")) if n]
    if not trows:
        more = f" ({'; '.join(notes)})" if notes else ""
        return ReadItem(error=f"card {cid}: has a datas row but no texts row{more}", id=cid)
    warnings = list(notes)
    name = _cdb_str(trows[0][0], "name", warnings)
    desc = _cdb_str(trows[0][1], "desc", warnings)
    if name is None and desc is None:
        more = f" ({'; '.join(notes)})" if notes else ""
        return ReadItem(error=f"card {cid}: its texts row has no name and no desc (both NULL){more}", id=cid)
    frame = _cdb_frame(drows[0][0], drows[0][1], warnings) if drows else Frame()
    return _card(warnings, id=cid, name=name or "", lang=lang, text=desc or "", frame=frame)


def _cdb_frame(typ: Any, level: Any, warnings: list[str]) -> Frame:
    """The frame of a ``datas`` row; problems with ``type`` / ``level`` go to ``warnings``."""
    lv = _as_int(level)
    if level is not None and lv is None:
        warnings.append(f"level {_show(level)} is not a number: ignored")
    bits = _as_int(typ)
    if bits is None:
        what = "no type (NULL)" if typ is None else f"type {_show(typ)} is not a number"
        warnings.append(f"{what}: frame unknown")
        return Frame()
    problem = cdb_type_problem(bits)
    if problem:
        warnings.append(f"{problem}: frame unknown")
    return Frame.from_cdb(bits, lv)


# -- JSONL and yaml-yugi ------------------------------------------------------------------------

def _lines(src: _Source) -> Iterator[tuple[int, bytes]]:
    """``(line number, line)`` of each non-blank line; a byte-order mark opening a line is left out."""
    with src.open() as f:
        try:
            for n, line in enumerate(f, 1):
                if line.startswith(_BOM):
                    line = line[len(_BOM):]
                if line.strip():
                    yield n, line
        except OSError as e:
            raise InputError(f"{src.label}: cannot be read ({e.strerror or e})") from e


def _objects(src: _Source, id_finder: re.Pattern[bytes]) -> Iterator[tuple[int, "dict | ReadItem", list[str]]]:
    """``(line number, object, warnings)`` of each non-empty line of a JSONL input.

    A line orjson refuses is read leniently (:func:`_lenient_json`) with a warning; a line that is
    not JSON at all gives an error :class:`ReadItem` in its place, with the id ``id_finder`` sees
    in it (``"id": 12``) when there is one; a line that is JSON but not an object, an error too.
    """
    for n, line in _lines(src):
        warnings: list[str] = []
        try:
            d = orjson.loads(line)
        except orjson.JSONDecodeError as e:
            d, why = _lenient_json(line, e)
            if d is _NOT_JSON:
                m = id_finder.search(line)
                cid = int(m.group(1)) if m else None
                who = f"line {n}: card {cid}" if cid is not None else f"line {n}"
                yield n, ReadItem(error=f"{who}: {why} ({e})", id=cid), []
                continue
            warnings.append(f"line {n}: {why}: read leniently")
        if isinstance(d, dict):
            yield n, d, warnings
        else:
            yield n, ReadItem(error=f"line {n}: not a JSON object"), []


def read_yaml_yugi(path: str | Path, lang: str) -> Iterator[ReadItem]:
    """yaml-yugi JSONL; ``lang`` picks ``text[lang]`` (``en``, ``zh-CN``, ``zh-TW``, ...; other
    spellings of these through :func:`yaml_yugi_key`: ``zh-Hant`` reads ``zh-TW``).
    The id is ``password`` (or ``fake_password``).  A card with no text in ``lang`` is an error
    line naming the card; so is a ``password`` that is not an integer.

    Raises:
        InputError: the input cannot be opened or read.
    """
    return _read_yaml_yugi(_source(path), lang)


#: yaml-yugi's own key for a language code that names the same writing another way (looked up
#: lower-case): Traditional Chinese is ``zh-TW`` there, Simplified ``zh-CN``
_YAML_YUGI_KEYS = {"zh-hant": "zh-TW", "zh-tw": "zh-TW", "zh-hk": "zh-TW", "zh-hans": "zh-CN", "zh-cn": "zh-CN",
                   "zh": "zh-CN", "en-us": "en", "en-gb": "en", "ja-jp": "ja"}


def yaml_yugi_key(lang: str) -> str:
    """The key of yaml-yugi's ``name`` / ``text`` / ``pendulum_effect`` objects for ``lang``:
    ``zh-Hant`` / ``zh-HK`` -> ``zh-TW``, ``zh-Hans`` / ``zh`` -> ``zh-CN``, ``en-US`` -> ``en``,
    any case (``zh-cn`` -> ``zh-CN``); another code is returned as given.  Raises nothing.

    The language check (:func:`extractor.normalize.lang_family`) accepts these spellings, so
    they must find the text too (data/README.md: ``text`` in en, ja, ko, zh-TW, zh-CN, ...).
    """
    return _YAML_YUGI_KEYS.get(lang.strip().lower(), lang) if isinstance(lang, str) else lang


def _read_yaml_yugi(src: _Source, lang: str) -> Iterator[ReadItem]:
    key = yaml_yugi_key(lang)
    for n, d, warnings in _objects(src, _YAML_YUGI_ID):
        if isinstance(d, ReadItem):
            yield d
            continue
        names = d.get("name") if isinstance(d.get("name"), dict) else {}
        name = names.get(key) or names.get("en") or ""
        name = name if isinstance(name, str) else str(name)
        cid, problem = _as_id(d.get("password"), "password")
        if cid is None and problem is None:
            cid, problem = _as_id(d.get("fake_password"), "fake_password")
        if problem:
            yield ReadItem(error=f"line {n}: card {name!r}: {problem}", name=name)
            continue
        text = (d.get("text") if isinstance(d.get("text"), dict) else {}).get(key)
        if not text:
            who = f"card {cid} {name!r}" if cid is not None else f"line {n}: card {name!r} (no passcode)"
            asked = key if key == lang else f"{key} ({lang})"
            yield ReadItem(error=f"{who}: no {asked} text", id=cid, name=name)
            continue
        frame = Frame.from_type_line(d.get("monster_type_line"), d.get("level") or d.get("rank") or d.get("link_arrows") and len(d["link_arrows"]),
                                     d.get("card_type"))
        pend = (d.get("pendulum_effect") or {}).get(key) if isinstance(d.get("pendulum_effect"), dict) else None
        yield _card(warnings, id=cid, name=name, lang=lang, text=text, pendulum_effect=pend, frame=frame)


def _frame_from_record(d: dict, warnings: list[str]) -> Frame:
    typ = d.get("type") or d.get("type_line") or d.get("frame") or d.get("frameType")
    level = _as_int(d.get("level")) or _as_int(d.get("rank")) or _as_int(d.get("linkval"))
    if isinstance(typ, int) and not isinstance(typ, bool):
        problem = cdb_type_problem(typ)
        if problem:
            warnings.append(f"{problem}: frame unknown")
        return Frame.from_cdb(typ, level)
    return Frame.from_type_line(typ, level) if isinstance(typ, str) and typ else Frame(level=level)


# -- JSON documents -----------------------------------------------------------------------------

def _json_records(src: _Source, key: str, text_key: str, lang: str, *, pendulum_key: str | None = None,
                  bare_list: bool = False) -> Iterator[ReadItem]:
    """Cards of a JSON input holding ``{key: [records]}`` (or a bare list when ``bare_list``);
    ``text_key`` (or ``text``) is the card text.  A record's own ``lang`` wins over ``lang``.
    A document orjson refuses is read leniently; each record whose strings then hold U+FFFD
    carries a warning.  A record whose ``id`` is not an integer is an error naming the raw value.

    Raises:
        InputError: at once: the input is not JSON or holds no record list.
    """
    data = src.read_all()
    lenient = ""
    try:
        doc = orjson.loads(data)
    except orjson.JSONDecodeError as e:
        doc, lenient = _lenient_json(data, e)
        if doc is _NOT_JSON:
            raise InputError(f"{src.label}: {lenient} ({e})") from e
    items = doc.get(key) if isinstance(doc, dict) else (doc if bare_list else None)
    if not isinstance(items, list):
        raise InputError(f"{src.label}: expected {{\"{key}\": [...]}}")
    return _records(items, text_key, lang, pendulum_key, lenient)


def _records(items: list, text_key: str, lang: str, pendulum_key: str | None, lenient: str) -> Iterator[ReadItem]:
    for i, d in enumerate(items, 1):
        if not isinstance(d, dict):
            yield ReadItem(error=f"record {i}: not an object")
            continue
        warnings: list[str] = []
        if lenient:
            try:
                changed = _scrub(d)[2] > 0
            except RecursionError:
                changed = True
            if changed:
                warnings.append(f"record {i}: {lenient}: read leniently")
        name = str(d.get("name", ""))
        cid, problem = _as_id(d.get("id"))
        if problem:
            yield ReadItem(error=f"record {i}: card {name!r}: {problem}", name=name)
            continue
        text = d.get(text_key) if d.get(text_key) is not None else d.get("text")
        if not isinstance(text, str):
            yield ReadItem(error=f"card {cid} {name!r}: no text ({text_key})", id=cid, name=name)
            continue
        frame = _frame_from_record(d, warnings)
        yield _card(warnings, id=cid, name=name, lang=d.get("lang") or lang, text=text,
                    pendulum_effect=d.get(pendulum_key) if pendulum_key else None, frame=frame)


def read_ygoprodeck(path: str | Path, lang: str) -> Iterator[ReadItem]:
    """YGOPRODeck-style JSON: ``{"data": [...]}`` or a bare list; ``desc`` is the text,
    ``pend_desc`` a separate Pendulum Effect.

    Raises:
        InputError: at once: not JSON, no record list.
    """
    return _json_records(_source(path), "data", "desc", lang, pendulum_key="pend_desc", bare_list=True)


def read_i18n(path: str | Path, lang: str) -> Iterator[ReadItem]:
    """``{"cards": [{"id", "name", "lore"}]}``: no frame information (text only).

    Raises:
        InputError: at once: not JSON, no record list.
    """
    return _json_records(_source(path), "cards", "lore", lang)


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


# -- language of a whole file -------------------------------------------------------------------

def guess_lang(texts: Iterable[str]) -> str:
    """The language of a sample of card texts: ``ja`` (kana), ``zh-TW`` (Han with Traditional
    characters), ``zh-CN`` (other Han) or ``en`` (Latin script, or nothing to tell by).

    The writing is judged by :func:`extractor.langcheck.looks_like` on the first 200 characters
    of each text (one Han character is enough here: a file of short Chinese texts is Chinese).
    """
    sample = "\n".join(t[:200] for t in texts)
    seen = looks_like(sample, min_han=1, limit=None)
    if seen == "ja":
        return "ja"
    if seen == "zh":
        from .normalize.zh import has_traditional
        return "zh-TW" if has_traditional(sample) else "zh-CN"
    return "en"


def _relabel(items: Iterator[ReadItem], sample_size: int = 50) -> Iterator[ReadItem]:
    """Items of a one-language file read with no ``--lang``: the language is guessed from the
    first ``sample_size`` texts and set on every card (the reader's default was ``en``)."""
    head = list(islice(items, sample_size))
    lang = guess_lang(it.card.text for it in head if it.card is not None)
    for it in chain(head, items):
        if lang != "en" and it.card is not None:
            it.card = it.card.model_copy(update={"lang": lang})
        yield it


def read_cards(path: str | Path, lang: str | None = None, fmt: str | None = None) -> Iterator[ReadItem]:
    """Read any supported input.

    Input: ``path``: a file, ``-`` for standard input, ``/dev/stdin`` or a pipe (every format but
    ``cdb``); ``lang``: the language of the texts; when ``None`` it is guessed from the texts of a
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
    fmt = fmt or src.detect()
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
