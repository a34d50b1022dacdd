"""ygopro / EDOPro ``cards.cdb``: SQLite ``datas`` + ``texts``, opened read-only."""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from ..frame import Frame, cdb_type_problem
from .item import ReadItem, _card
from .source import _SQLITE, InputError, _not_sqlite, _source
from .values import _as_id, _as_int, _show


@contextmanager
def open_cdb(path: Path, label: str) -> Iterator[Any]:
    """A read-only ``sqlite3`` connection to the cards.cdb at ``path``, closed on leaving; any
    SQLite error inside the block (not a database, a missing table, a corrupt page) becomes an
    :class:`InputError` "``label``: not a readable cards.cdb (...)".  The path goes through
    ``as_uri()``, which percent-encodes '#', '?', '%' (a raw path would cut the URI there and open,
    or even create, another file).

    Raises:
        InputError: as said."""
    import sqlite3

    uri = Path(path).resolve().as_uri() + "?mode=ro"
    con = None
    try:
        con = sqlite3.connect(uri, uri=True)
        yield con
    except sqlite3.DatabaseError as e:
        raise InputError(f"{label}: not a readable cards.cdb ({e})") from e
    finally:
        if con is not None:
            con.close()


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
    import sqlite3  # here, not at the top: reading the other formats does not load SQLite

    with open_cdb(src.path, src.label) as con:
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
