"""The shortcuts of the reading stage and the first pass over names give what the long way gives:
ruby markup removed by the standard ``re`` engine (:func:`extractor.normalize.ja.plain_name`), the
passcode read without
``_as_int`` (:func:`extractor.readers.values._as_id`) and the tool's version read from the
metadata's header block (:func:`extractor.meta.tool_version`).  Real names from ../shared/data
(skipped when it is absent)."""
from __future__ import annotations

import importlib.metadata

import orjson
import pytest

from extractor.meta import tool_version
from extractor.normalize.ja import _RT, plain_name
from extractor.readers.values import _as_id, _as_int


@pytest.fixture(scope="module")
def yaml_yugi_names(shared) -> dict[str, list[str]]:
    """Every name of yaml-yugi by language (``ja``, ``zh-CN``, ``en``, ``ko``, ...)."""
    out: dict[str, list[str]] = {}
    with open(shared / "data" / "yaml-yugi" / "cards.jsonl", "rb") as f:
        for line in f:
            for lang, name in (orjson.loads(line).get("name") or {}).items():
                if isinstance(name, str):
                    out.setdefault(lang, []).append(name)
    return out


def test_plain_name_gives_what_the_regex_engine_gives_on_every_yaml_yugi_name(yaml_yugi_names):
    names = [n for ns in yaml_yugi_names.values() for n in ns]
    marked = [n for n in names if "<r" in n]
    assert len(marked) > 5000  # the Japanese names with ruby markup are there to compare
    assert [plain_name(n) for n in names] == [_RT.sub("", n) for n in names]
    assert all("<ruby>" not in plain_name(n) and "<rt>" not in plain_name(n) for n in marked)


@pytest.mark.parametrize("value", [0, 1, 89631139, -5, 2**70, True, False, None, "123", " 7 ", "1.5", "abc", 1.0,
                                   1.5, b"42", b"x", [], {}])
def test_as_id_of_an_int_is_the_long_way(value):
    cid = _as_int(value)
    expected = (None, None) if value is None else (cid, None) if cid is not None else None
    got = _as_id(value, "password")
    if expected is None:
        assert got[0] is None and got[1] and "password" in got[1]
    else:
        assert got == expected and type(got[0]) is type(expected[0])


def test_tool_version_is_what_importlib_metadata_says():
    assert tool_version() == importlib.metadata.version("ygo-extractor")
