"""yaml-yugi JSONL: one card a line, its name and text in ten languages."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

import orjson
from pydantic import ValidationError

from ..normalize.ja import plain_name

from ..frame import Frame
from .item import ReadItem, _card, _new_card
from .jsonl import _lines, _refused
from .lenient import _id_finder
from .source import _Source, _source
from .values import _as_id

_YAML_YUGI_ID = _id_finder(("password", "fake_password"))


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
    # One loop over the lines (not over _objects: a generator less per card) with the usual
    # record's steps written out; each result is that of the general steps: a line orjson refuses
    # goes through _refused, a card Card refuses through _card (its error message), a frame
    # through Frame.from_type_line (kept per type line, Level and card type, as its own cache does).
    key = yaml_yugi_key(lang)
    frames: dict[tuple, Frame] = {}
    loads, refused_error = orjson.loads, orjson.JSONDecodeError
    for n, line in _lines(src):
        try:
            d = loads(line)
            warnings: list[str] = []
        except refused_error as e:
            d, warnings = _refused(n, line, e, _YAML_YUGI_ID)
            if isinstance(d, ReadItem):
                yield d
                continue
        if not isinstance(d, dict):
            yield ReadItem(error=f"line {n}: not a JSON object")
            continue
        names = d.get("name")
        name = (names.get(key) or names.get("en") or "") if isinstance(names, dict) else ""
        if not isinstance(name, str):
            name = str(name)
        if "<r" in name:
            name = plain_name(name)
        cid = d.get("password")
        if type(cid) is not int:  # (the usual passcode: no problem to look for)
            cid, problem = _as_id(cid, "password")
            if cid is None and problem is None:
                cid, problem = _as_id(d.get("fake_password"), "fake_password")
            if problem:
                yield ReadItem(error=f"line {n}: card {name!r}: {problem}", name=name)
                continue
        texts = d.get("text")
        text = texts.get(key) if isinstance(texts, dict) else None
        if not text:
            who = f"card {cid} {name!r}" if cid is not None else f"line {n}: card {name!r} (no passcode)"
            asked = key if key == lang else f"{key} ({lang})"
            yield ReadItem(error=f"{who}: no {asked} text", id=cid, name=name)
            continue
        fk = (d.get("monster_type_line"), d.get("level") or d.get("rank") or d.get("link_arrows") and len(d["link_arrows"]),
              d.get("card_type"))
        keep = True
        try:
            frame = frames[fk]
        except KeyError:
            frame = None
        except TypeError:  # unhashable: a malformed record (a list where a type line goes)
            frame, keep = None, False
        if frame is None:
            try:
                frame = Frame.from_type_line(*fk)
            except (TypeError, AttributeError, ValidationError):  # a list, a number ... where a type line, Level or card type goes
                yield ReadItem(error=f"card {cid} {name!r}: unreadable card frame (monster_type_line, level / rank / "
                                     f"link_arrows, card_type: {fk!r})", id=cid, name=name)
                continue
            if keep:
                frames[fk] = frame
        pends = d.get("pendulum_effect")
        pend = pends.get(key) if isinstance(pends, dict) else None
        kw = {"id": cid, "name": name, "lang": lang, "text": text, "pendulum_effect": pend, "frame": frame}
        try:  # (_card's steps, inline)
            card = _new_card(kw)
        except ValidationError:
            yield _card(warnings, **kw)  # (the error naming the card)
            continue
        yield ReadItem(card, None, None, "", warnings)

