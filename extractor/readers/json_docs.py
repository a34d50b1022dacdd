"""JSON documents: YGOPRODeck ``{"data": [...]}`` and the 2012 i18n ``{"cards": [...]}``."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import orjson

from .item import ReadItem, _card, _frame_from_record
from .lenient import _NOT_JSON, _lenient_json, _scrub
from .source import InputError, _Source, _source
from .values import _as_id


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
