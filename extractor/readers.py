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
"""
from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from itertools import chain, islice
from typing import Iterable, Iterator

import orjson
from pydantic import ValidationError

from .frame import Frame
from .card import Card

FORMATS = ("cdb", "yaml-yugi", "ygoprodeck", "i18n", "jsonl")


class InputError(Exception):
    """The input as a whole cannot be read (missing file, unknown format)."""


@dataclass(slots=True)
class ReadItem:
    """One record: ``card`` or ``error`` (with whatever ``id``/``name`` could be read)."""

    card: Card | None = None
    error: str | None = None
    id: int | None = None
    name: str = ""
    warnings: list[str] = field(default_factory=list)


def detect_format(path: str | Path) -> str:
    """Guess the format of ``path`` from its first bytes.

    Raises:
        InputError: missing file or unknown format.
    """
    p = Path(path)
    if not p.exists():
        raise InputError(f"{path}: no such file")
    if p.is_dir():
        raise InputError(f"{path}: is a directory, expected a card database file")
    with open(p, "rb") as f:
        head = f.read(4096)
    if not head.strip():
        return "jsonl"  # an empty file: no cards
    if head.startswith(b"SQLite format 3"):
        return "cdb"
    s = head.lstrip()
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
    raise InputError(f"{path}: unknown format (expected a cards.cdb, yaml-yugi JSONL, YGOPRODeck JSON or JSONL)")


_LIST_KEY = re.compile(rb'"(data|cards)"\s*:\s*\[')


def _card(**kw) -> ReadItem:
    """A :class:`ReadItem` holding ``Card(**kw)``, or an error naming the card when a field has
    the wrong type (e.g. a ``lang`` that is not a string)."""
    try:
        return ReadItem(card=Card(**kw))
    except ValidationError as e:
        err = e.errors()[0]
        where = ".".join(str(x) for x in err.get("loc", ()))
        return ReadItem(error=f"card {kw.get('id')} {kw.get('name', '')!r}: bad {where} ({err['msg']})",
                        id=kw.get("id"), name=str(kw.get("name", "")))


def _int_or_none(v) -> int | None:
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    if isinstance(v, str) and v.strip().lstrip("-").isdigit():
        return int(v)
    return None


def read_cdb(path: str | Path, lang: str) -> Iterator[ReadItem]:
    """Cards of a ygopro ``cards.cdb`` (opened read-only).  Rows with a ``texts`` row but no
    ``datas`` row get an unknown frame and a warning-free read; ``datas`` rows with no text are
    reported as errors."""
    # as_uri() percent-encodes '#', '?', '%' ... (a raw path would cut the URI there and open,
    # or even create, another file)
    uri = Path(path).resolve().as_uri() + "?mode=ro"
    con = None
    try:
        con = sqlite3.connect(uri, uri=True)
        rows = con.execute(
            'SELECT t.id, t.name, t."desc", d.type, d.level FROM texts t LEFT JOIN datas d ON d.id = t.id '
            'UNION ALL SELECT d.id, NULL, NULL, d.type, d.level FROM datas d '
            'WHERE NOT EXISTS (SELECT 1 FROM texts t WHERE t.id = d.id) ORDER BY 1').fetchall()
    except sqlite3.DatabaseError as e:
        raise InputError(f"{path}: not a readable cards.cdb ({e})") from e
    finally:
        if con is not None:
            con.close()
    for cid, name, desc, typ, level in rows:
        if name is None and desc is None:
            yield ReadItem(error=f"card {cid}: has a datas row but no texts row", id=cid)
            continue
        frame = Frame.from_cdb(typ, level) if isinstance(typ, int) else Frame()
        yield _card(id=cid, name=name or "", lang=lang, text=desc or "", frame=frame)


def _lines(path: str | Path) -> Iterator[tuple[int, bytes]]:
    with open(path, "rb") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                yield n, line


def _objects(path: str | Path) -> Iterator[tuple[int, "dict | ReadItem"]]:
    """``(line number, object)`` of each non-empty line of a JSONL file; a line that is not a
    JSON object gives an error :class:`ReadItem` in its place."""
    for n, line in _lines(path):
        try:
            d = orjson.loads(line)
        except orjson.JSONDecodeError as e:
            yield n, ReadItem(error=f"line {n}: not JSON ({e})")
            continue
        yield n, (d if isinstance(d, dict) else ReadItem(error=f"line {n}: not a JSON object"))


def read_yaml_yugi(path: str | Path, lang: str) -> Iterator[ReadItem]:
    """yaml-yugi JSONL; ``lang`` picks ``text[lang]`` (``en``, ``zh-CN``, ``zh-TW``, ...).
    The id is ``password`` (or ``fake_password``).  A card with no text in ``lang`` is an error
    line naming the card."""
    for n, d in _objects(path):
        if isinstance(d, ReadItem):
            yield d
            continue
        cid = _int_or_none(d.get("password")) or _int_or_none(d.get("fake_password"))
        names = d.get("name") if isinstance(d.get("name"), dict) else {}
        name = names.get(lang) or names.get("en") or ""
        text = (d.get("text") if isinstance(d.get("text"), dict) else {}).get(lang)
        if not text:
            who = f"card {cid} {name!r}" if cid is not None else f"line {n}: card {name!r} (no passcode)"
            yield ReadItem(error=f"{who}: no {lang} text", id=cid, name=name)
            continue
        frame = Frame.from_type_line(d.get("monster_type_line"), d.get("level") or d.get("rank") or d.get("link_arrows") and len(d["link_arrows"]),
                                     d.get("card_type"))
        pend = (d.get("pendulum_effect") or {}).get(lang) if isinstance(d.get("pendulum_effect"), dict) else None
        yield _card(id=cid, name=name, lang=lang, text=text, pendulum_effect=pend, frame=frame)


def _frame_from_record(d: dict) -> Frame:
    typ = d.get("type") or d.get("type_line") or d.get("frame") or d.get("frameType")
    level = _int_or_none(d.get("level")) or _int_or_none(d.get("rank")) or _int_or_none(d.get("linkval"))
    if isinstance(typ, int) and not isinstance(typ, bool):
        return Frame.from_cdb(typ, level)
    return Frame.from_type_line(typ, level) if isinstance(typ, str) and typ else Frame(level=level)


def _json_records(path: str | Path, key: str, text_key: str, lang: str, *, pendulum_key: str | None = None,
                  bare_list: bool = False) -> Iterator[ReadItem]:
    """Cards of a JSON file holding ``{key: [records]}`` (or a bare list when ``bare_list``);
    ``text_key`` (or ``text``) is the card text.  A record's own ``lang`` wins over ``lang``.

    Raises:
        InputError: the file is not JSON or holds no record list.
    """
    try:
        data = orjson.loads(Path(path).read_bytes())
    except orjson.JSONDecodeError as e:
        raise InputError(f"{path}: not JSON ({e})") from e
    items = data.get(key) if isinstance(data, dict) else (data if bare_list else None)
    if not isinstance(items, list):
        raise InputError(f"{path}: expected {{\"{key}\": [...]}}")
    for i, d in enumerate(items, 1):
        if not isinstance(d, dict):
            yield ReadItem(error=f"record {i}: not an object")
            continue
        cid = _int_or_none(d.get("id"))
        name = str(d.get("name", ""))
        text = d.get(text_key) if d.get(text_key) is not None else d.get("text")
        if not isinstance(text, str):
            yield ReadItem(error=f"card {cid} {name!r}: no text ({text_key})", id=cid, name=name)
            continue
        yield _card(id=cid, name=name, lang=d.get("lang") or lang, text=text,
                    pendulum_effect=d.get(pendulum_key) if pendulum_key else None, frame=_frame_from_record(d))


def read_ygoprodeck(path: str | Path, lang: str) -> Iterator[ReadItem]:
    """YGOPRODeck-style JSON: ``{"data": [...]}`` or a bare list; ``desc`` is the text,
    ``pend_desc`` a separate Pendulum Effect."""
    return _json_records(path, "data", "desc", lang, pendulum_key="pend_desc", bare_list=True)


def read_i18n(path: str | Path, lang: str) -> Iterator[ReadItem]:
    """``{"cards": [{"id", "name", "lore"}]}``: no frame information (text only)."""
    return _json_records(path, "cards", "lore", lang)


def read_jsonl(path: str | Path, lang: str | None) -> Iterator[ReadItem]:
    """JSONL of ``{id, name, text, lang}`` with optional ``type`` and ``level``; ``lang`` of the
    record wins over the command-line one."""
    for n, d in _objects(path):
        if isinstance(d, ReadItem):
            yield d
            continue
        raw_id = d.get("id")
        cid = _int_or_none(raw_id)
        name = str(d.get("name") or "")
        who = " ".join(x for x in ("card", str(cid) if cid is not None else "", repr(name) if name else "") if x) \
            if cid is not None or name else "record"
        if raw_id is not None and cid is None:
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
        item = _card(id=cid, name=name, lang=lg, text=text, frame=_frame_from_record(d))
        item.warnings.extend(_record_warnings(d))
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
    if lv is not None and _int_or_none(lv) is None:
        out.append(f"level {lv!r} is not a number: ignored")
    return out


_KANA = re.compile("[\u3041-\u3096\u30a1-\u30fa]")  # kana, but not ・ and ー (Chinese texts use them)
_HAN = re.compile(r"[\u4e00-\u9fff]")


def guess_lang(texts: Iterable[str]) -> str:
    """The language of a sample of card texts: ``ja`` (kana), ``zh-TW`` (Han with Traditional
    characters), ``zh-CN`` (other Han) or ``en``."""
    sample = "".join(t[:200] for t in texts)
    if _KANA.search(sample):
        return "ja"
    if _HAN.search(sample):
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
    """Read any supported input.  ``lang``: the language of the texts; when ``None`` it is
    guessed from the texts of a cdb, YGOPRODeck or i18n file (:func:`guess_lang`), is ``en`` for
    yaml-yugi, and comes from each record of a JSONL file.

    Raises:
        InputError: the file as a whole cannot be read.
    """
    fmt = fmt or detect_format(path)
    if lang is None and fmt in ("cdb", "ygoprodeck", "i18n"):
        return _relabel(read_cards(path, "en", fmt))
    lg = lang or "en"
    if fmt == "cdb":
        return read_cdb(path, lg)
    if fmt == "yaml-yugi":
        return read_yaml_yugi(path, lg)
    if fmt == "ygoprodeck":
        return read_ygoprodeck(path, lg)
    if fmt == "i18n":
        return read_i18n(path, lg)
    if fmt == "jsonl":
        return read_jsonl(path, lang)
    raise InputError(f"unknown format {fmt!r} (one of {', '.join(FORMATS)})")
