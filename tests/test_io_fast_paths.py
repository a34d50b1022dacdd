"""The reading and writing shortcuts of ``tag`` give what the long way gives: JSONL lines read in
1 MiB blocks (:func:`extractor.readers.jsonl._lines`) are the lines file iteration gives; the
input's sha256 made while reading it and the output's made while writing it (the sidecar's
digests, :mod:`extractor.meta`) are those of the files read back; the yaml-yugi reader's one loop
(:func:`extractor.readers.yaml_yugi._read_yaml_yugi`) gives the items of the general steps
(``_objects``, ``_card``, ``Frame.from_type_line``), written out below as they were.  Real cards
from ../shared/data (skipped when it is absent) and made-up lines for the odd cases."""
from __future__ import annotations

import hashlib
import json

import pytest
from click.testing import CliRunner

import extractor.meta as meta
import extractor.readers.jsonl as jsonl
import extractor.writers as writers
from extractor.cli import main
from extractor.frame import Frame
from extractor.meta import file_digest, read_meta
from extractor.normalize.ja import plain_name
from extractor.readers import ReadItem, open_input, read_cards
from extractor.readers.item import _card
from extractor.readers.jsonl import _objects
from extractor.readers.source import _Source
from extractor.readers.values import _as_id
from extractor.readers.yaml_yugi import _YAML_YUGI_ID, _read_yaml_yugi, yaml_yugi_key


def _lines_as_iterated(path) -> list[tuple[int, bytes]]:
    """The lines as ``_lines`` gave them before: file iteration, a BOM opening a line cut, blank lines left out."""
    out = []
    with open(path, "rb") as f:
        for n, line in enumerate(f, 1):
            if line.startswith(b"\xef\xbb\xbf"):
                line = line[3:]
            if line and not line.isspace():
                out.append((n, line))
    return out


def _yaml_yugi_long_way(src, lang):
    """``_read_yaml_yugi`` as it was: over ``_objects``, through ``_card`` and ``Frame.from_type_line``."""
    key = yaml_yugi_key(lang)
    for n, d, warnings in _objects(src, _YAML_YUGI_ID):
        if isinstance(d, ReadItem):
            yield d
            continue
        names = d.get("name")
        if not isinstance(names, dict):
            names = {}
        name = names.get(key) or names.get("en") or ""
        name = plain_name(name if isinstance(name, str) else str(name))
        cid, problem = _as_id(d.get("password"), "password")
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
        frame = Frame.from_type_line(d.get("monster_type_line"), d.get("level") or d.get("rank") or d.get("link_arrows")
                                     and len(d["link_arrows"]), d.get("card_type"))
        pends = d.get("pendulum_effect")
        pend = pends.get(key) if isinstance(pends, dict) else None
        yield _card(warnings, id=cid, name=name, lang=lang, text=text, pendulum_effect=pend, frame=frame)


def _same_items(got: list[ReadItem], want: list[ReadItem]) -> None:
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g == w
        assert (g.card is None) == (w.card is None)
        if g.card is not None:
            assert g.card.model_dump() == w.card.model_dump() and g.card.frame == w.card.frame


# -- lines read in blocks -------------------------------------------------------------------------

ODD = [b"", b"\n", b"\n\n", b"{}", b"{}\n", b"\xef\xbb\xbf{}\n", b"{}\r\n{}", b"  \n\t\n{}\n   ", b"\xef\xbb\xbf\n{}",
       b"x" * 50 + b"\n" + b"y" * 3, b"a\nbb\nccc\ndddd\n" * 5, b"\n" * 9 + b"z", b"\xef\xbb\xbf" * 3 + b"\n"]


@pytest.mark.parametrize("block", [1, 2, 3, 7, 64, 1 << 20])
def test_lines_read_in_blocks_are_the_lines_file_iteration_gives(tmp_path, monkeypatch, block):
    monkeypatch.setattr(jsonl, "_BLOCK", block)
    for i, data in enumerate(ODD):
        path = tmp_path / f"{i}.jsonl"
        path.write_bytes(data)
        src = _Source(path)
        assert list(jsonl._lines(src)) == _lines_as_iterated(path), data
        assert src.digest == (hashlib.sha256(data).hexdigest(), len(data))  # read whole: the digest is kept


def test_lines_of_real_files_and_their_digests(shared, monkeypatch):
    path = shared / "data" / "yaml-yugi" / "cards.jsonl"
    src = _Source(path)
    got = list(jsonl._lines(src))
    assert len(got) > 10_000 and got == _lines_as_iterated(path)
    assert src.digest == file_digest(path)
    monkeypatch.setattr(jsonl, "_BLOCK", 4093)  # (a prime: lines straddle blocks everywhere)
    src = _Source(path)
    assert list(jsonl._lines(src))[:3000] == got[:3000]


def test_a_pipe_is_read_a_line_at_a_time_and_has_no_digest(tmp_path, monkeypatch):
    import io
    import sys

    data = b"\xef\xbb\xbf{\"a\": 1}\n\n{\"b\": 2}"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    src = open_input("-")
    assert list(jsonl._lines(src)) == [(1, b"{\"a\": 1}\n"), (3, b"{\"b\": 2}")]
    assert src.digest is None


def test_read_all_keeps_the_digest_of_a_json_document(shared):
    path = shared / "data" / "i18n-2012" / "cards.ja.json"
    src = open_input(path)
    items = list(read_cards(src, "ja"))
    assert items and src.digest == file_digest(path)


# -- the yaml-yugi reader's one loop ----------------------------------------------------------------

@pytest.mark.parametrize("lang", ["zh-CN", "en", "ja", "zh-Hant", "ko"])
def test_yaml_yugi_reader_gives_the_items_of_the_general_steps_on_real_cards(shared, lang):
    path = shared / "data" / "yaml-yugi" / "cards.jsonl"
    got = list(_read_yaml_yugi(_Source(path), lang))
    _same_items(got, list(_yaml_yugi_long_way(_Source(path), lang)))
    assert sum(it.card is not None for it in got) > (10_000 if lang in ("en", "zh-CN", "ja") else 500)
    if lang != "en":  # cards without a text in that language: error items compared too
        assert any(it.error for it in got)


def test_yaml_yugi_reader_gives_the_items_of_the_general_steps_on_odd_lines(tmp_path):
    good = {"password": 1, "name": {"en": "A", "zh-CN": "甲"}, "text": {"en": "Text.", "zh-CN": "文。"},
            "monster_type_line": "Dragon / Link / Effect", "link_arrows": ["top", "left"], "card_type": "Monster"}
    lines = [json.dumps(good), json.dumps({**good, "password": "12"}), json.dumps({**good, "password": True}),
             json.dumps({**good, "password": None, "fake_password": 7}), json.dumps({**good, "password": None}),
             json.dumps({**good, "password": 1.5}), json.dumps({**good, "text": "no dict"}),
             json.dumps({**good, "text": {"en": 5, "zh-CN": 5}}), json.dumps({**good, "name": ["x"]}),
             json.dumps({**good, "name": {"en": 12, "zh-CN": None}}),
             json.dumps({**good, "name": {"ja": "<ruby>巨<rt>きょ</rt></ruby>", "en": "<ruby>X<rt>y</rt></ruby>"}}),
             json.dumps({**good, "level": 4.0}),
             json.dumps({**good, "level": 4}), json.dumps({**good, "level": "4"}), json.dumps({**good, "rank": 3}),
             json.dumps({**good, "card_type": "Spell", "monster_type_line": None}),
             json.dumps({**good, "pendulum_effect": {"en": "P.", "zh-CN": "灵摆。"}}),
             json.dumps({**good, "pendulum_effect": "x"}), json.dumps([1, 2]), "not json {", '{"password": 5, "text": ',
             '{"password": 9, "name": {"en": "\\udc00 bad"}, "text": {"en": "T\\udc00", "zh-CN": "\\udc00文"}}',
             '{"password": 10, "text": {"en": "T\x01", "zh-CN": "x\x01"}}', "", "   "]
    path = tmp_path / "odd.jsonl"
    path.write_bytes("\n".join(lines).encode("utf-8") + b"\n\xff\xfe{\"password\": 3}\n")
    for lang in ("en", "zh-CN", "zh-TW", "zh"):
        got = list(_read_yaml_yugi(_Source(path), lang))
        _same_items(got, list(_yaml_yugi_long_way(_Source(path), lang)))
        if lang != "zh-TW":  # (no zh-TW text: every line an error there)
            assert sum(it.card is not None for it in got) >= 8 and sum(it.error is not None for it in got) >= 8


@pytest.mark.parametrize("field, value", [("monster_type_line", ["a list"]), ("card_type", ["a list"]),
                                          ("level", ["a list"]), ("monster_type_line", 7), ("level", "seven")])
def test_a_card_with_an_unreadable_frame_is_an_error_line_and_the_next_card_is_read(tmp_path, field, value):
    """A malformed type line, Level or card type: that card's error line names it; the rest goes on
    (a list there used to end the whole read with a traceback)."""
    path = tmp_path / "bad.jsonl"
    bad = {"password": 1, "name": {"en": "Bad"}, "text": {"en": "T."}, "monster_type_line": "Dragon / Effect", field: value}
    good = {"password": 2, "name": {"en": "Good"}, "text": {"en": "Cannot be Normal Summoned/Set."},
            "monster_type_line": "Dragon / Effect", "level": 7}
    path.write_text(json.dumps(bad) + "\n" + json.dumps(good) + "\n", encoding="utf-8")
    items = list(_read_yaml_yugi(_Source(path), "en"))
    assert len(items) == 2
    assert items[0].card is None and items[0].id == 1
    assert "card 1 'Bad'" in items[0].error and "unreadable card frame" in items[0].error
    assert items[1].card is not None and items[1].card.id == 2


# -- the sidecar's digests, made while reading and writing ----------------------------------------

@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_tag_sidecar_digests_are_those_of_the_files_and_neither_is_read_again(shared, tmp_path, monkeypatch, fmt):
    src = tmp_path / "in.jsonl"
    with open(shared / "data" / "yaml-yugi" / "cards.jsonl", "rb") as f:
        src.write_bytes(b"".join(line for _, line in zip(range(1500), f)))  # > 1 MiB of output: several blocks
    out = tmp_path / f"out.{fmt}"
    monkeypatch.setattr(writers, "_BUFFER", 1 << 16)  # many blocks written and hashed

    def no_reading(path):
        raise AssertionError(f"{path} read again for its digest")

    monkeypatch.setattr(meta, "file_digest", no_reading)
    r = CliRunner().invoke(main, ["tag", str(src), "--lang", "zh-CN", "-o", str(out), "--no-progress"])
    assert r.exit_code == 0, r.output
    monkeypatch.undo()
    side = read_meta(out)
    assert side["inputs"] == [{"name": "in.jsonl", "sha256": file_digest(src)[0], "bytes": src.stat().st_size}]
    assert side["output"] == {"name": out.name, "sha256": file_digest(out)[0], "bytes": out.stat().st_size}
    assert out.stat().st_size > 1 << 16


def test_tag_sidecar_of_a_cdb_still_hashes_the_input(shared, tmp_path):
    cdb = shared / "data" / "cdb" / "goat-en-US.cdb"
    out = tmp_path / "o.jsonl"
    r = CliRunner().invoke(main, ["tag", str(cdb), "-o", str(out), "--no-progress"])
    assert r.exit_code == 0, r.output
    side = read_meta(out)
    assert side["inputs"][0]["sha256"] == file_digest(cdb)[0] and side["output"]["sha256"] == file_digest(out)[0]


@pytest.mark.parametrize("lang", ["en", "zh-CN", "ja"])
def test_a_file_with_a_sidecar_gets_the_lines_the_plain_writer_writes(shared, tmp_path, monkeypatch, lang):
    from test_fast_paths_objects import _shared_cards  # every step-th yaml-yugi card

    from extractor.pipeline import analyze, dump_result
    from extractor.writers import Writer, dumps_line

    results = [analyze(c) for c in _shared_cards(lang, 9)]
    odd = {"id": 1, "name": "A\u2028B\u2029C\u0085D \u00e2\u0080 \u00c2", "tags": ["\u2028"], "profile": None}
    objs = [dump_result(r) for r in results] + [dump_result(r, parts=True) for r in results] + [odd]
    monkeypatch.setattr(writers, "_BUFFER", 4096)  # several blocks held, written and hashed
    held, plain = tmp_path / "held.jsonl", tmp_path / "plain.jsonl"
    with Writer(str(held), "jsonl", meta={"tool": "test"}) as w:
        assert w.write == w._write_held  # the path under test
        for obj in objs:
            w.write(obj)
    with Writer(str(plain), "jsonl") as w:
        for obj in objs:
            w.write(obj)
    assert held.read_bytes() == plain.read_bytes()
    assert plain.read_bytes().endswith(dumps_line(odd, newline=True)) and b"\\u2028" in plain.read_bytes()
    assert held.stat().st_size > 3 * 4096 and read_meta(held)["output"]["sha256"] == file_digest(held)[0]
