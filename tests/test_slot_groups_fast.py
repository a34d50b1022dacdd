"""Speed devices of the slot readers (``SlotReader`` in :mod:`extractor.patterns.captures`, the
material readers of :mod:`extractor.slots`): groups are read by number instead of by name and the
``regex`` calls pass ``concurrent=False`` positionally.  They must read what the plain way reads:
every group by its name (``Match.groupdict()``, ``Match.group(name)``) with default calls."""
import copy

import orjson
import pytest
import regex

from extractor import slots
from extractor.normalize import normalize
from extractor.normalize.common import lang_family
from extractor.patterns import captures, load_catalog
from extractor.patterns.captures import SlotReader, _convert


class _PlainSlotReader(SlotReader):
    """The slot reader reading every group by its name (the plain way)."""

    def _items(self, name, m):
        return list(m.groupdict().items())

    def _num(self, name, group, missing):
        return group if group in self.rx(name).groupindex else missing


class _Frag:
    def __init__(self, expanded):
        self.expanded = expanded


class _Frags:
    def __init__(self, table):
        self.table = table

    def get(self, name, who):
        if name not in self.table:
            raise captures.PatternError(name)
        return _Frag(self.table[name])


def test_items_and_numbers_are_the_groupdicts_on_small_inputs():
    # a name written twice is one group; the order is groupdict's (first written first)
    table = {"choice_frag": r"(?P<b_x>x)|(?P<a>y)(?P<b_x>z)?|(?P<c>w)(?P<t>v)?",
             "cost_count": r"(?P<alt>\d+ or \d+)|(?P<n>\d+)(?P<more> or more)?|(?P<any>any)"}
    voc = captures._Vocab({})
    fast, plain = SlotReader(_Frags(table), voc), _PlainSlotReader(_Frags(table), voc)
    for text in ("x", "y", "yz", "w", "wv", "qq", "zy"):
        for name in table:
            m = fast.find(name, text)
            assert (m is None) == (plain.find(name, text) is None)
            if m is not None:
                assert fast._items(name, m) == list(m.groupdict().items())
                for g in ("b_x", "a", "c", "t", "n", "missing"):
                    assert m.group(fast._num(name, g, 0)) == m.group(plain._num(name, g, 0))
        assert fast.choice("choice_frag", text) == plain.choice("choice_frag", text)
        assert fast.find_text("choice_frag", text) == plain.find_text("choice_frag", text)
    assert fast.choice("choice_frag", "zzw") == "c"
    assert fast.choice("choice_frag", "yz") == "b-x"  # (b_x is one group: z matched it; b_x comes first)
    assert fast.choice("choice_frag", "y") == "a"
    assert fast.find_text("choice_frag", "wv") == "v" and fast.find_text("choice_frag", "x") is None
    assert fast.find_text("cost_count", "2 or more") == "2 or more"  # (no group t: the whole match)
    for obj in ("2 or more", "any", "3 or 1", "1 and 2", "none"):
        assert fast.count(obj) == plain.count(obj)
    assert fast.count("2 or more") == [2, None] and fast.count("1 and 2") == [3, 3]
    assert fast.count("3 or 1") is None


def _replay(cat, texts_by_lang, monkeypatch):
    """Every (capture type, words) ``Catalog.run`` converts on the texts, read again by a fresh
    fast reader and a fresh plain one; the number of slot reads compared."""
    seen: dict[str, set] = {}

    def recording(typ, g, voc):
        seen.setdefault(id(voc), set()).add((typ, g))
        return _convert(typ, g, voc)

    for voc in cat.vocabs.values():  # (earlier runs of the process filled the memos: every capture is read afresh)
        monkeypatch.setattr(voc, "fields_memo", {})
        monkeypatch.setattr(voc, "reads", {})
    monkeypatch.setattr(captures, "_convert", recording)
    for lang, texts in texts_by_lang.items():
        for text in texts:
            cat.run(text, lang)
    monkeypatch.setattr(captures, "_convert", _convert)
    compared = 0
    for fam, voc in cat.vocabs.items():
        if voc.slots is None:
            continue
        fast_voc, plain_voc = copy.copy(voc), copy.copy(voc)
        fast_voc.slots = SlotReader(voc.slots._frags, fast_voc)
        plain_voc.slots = _PlainSlotReader(voc.slots._frags, plain_voc)
        for typ, g in sorted(seen.get(id(voc), ())):
            assert _convert(typ, g, fast_voc) == _convert(typ, g, plain_voc), (fam, typ, g)
            compared += typ not in ("locations", "summon", "names", "name", "count", "text", "bool")
        # the readers' parts on every captured phrase, the fields the conversions above may not reach
        for typ, g in sorted(seen.get(id(voc), ())):
            if typ in ("cost", "requirement"):
                assert fast_voc.slots.count(g) == plain_voc.slots.count(g), g
                assert fast_voc.slots.places(g) == plain_voc.slots.places(g), g
                assert fast_voc.slots.card_filter(g) == plain_voc.slots.card_filter(g), g
    return compared


@pytest.mark.parametrize("lang", ["en", "zh-CN", "ja"])
def test_slot_reads_are_the_plain_reads_on_every_example(lang, monkeypatch):
    cat = load_catalog()
    fam = lang_family(lang)
    texts = [normalize(e["text"], lang).text for p in cat.by_lang[fam] for e in p.examples_match]
    assert _replay(cat, {lang: texts}, monkeypatch) > 20


def _plain_read_count(text, lang, default=(1, 1)):
    last = None
    for last in slots._frag(lang, "mat_count").finditer(text):
        pass
    if last is None:
        return default
    lo = int(last.group("cmin"))
    if last.group("cmax"):
        return (lo, int(last.group("cmax")))
    return (lo, None) if last.group("cmore") else (lo, lo)


def _check_material_reads(lang, phrases):
    fam = lang_family(lang)
    for text in phrases:
        assert slots.read_count(text, fam) == _plain_read_count(text, fam), text
        f = slots.read_filter.__wrapped__(text, fam)
        t = text.strip()
        assert f.names == tuple(dict.fromkeys(m.group("name") for m in slots._frag(fam, "quoted_name").finditer(t)))
        if '"' in t or "「" in t:
            assert f.archetypes == tuple(dict.fromkeys(m.group("arch") for m in slots._frag(fam, "archetype").finditer(t)))
        lv = slots._frag(fam, "mat_level").search(text)
        line = slots.read_material_line.__wrapped__("xyz", text, fam)
        assert line.level == (int(lv.group("lv")) if lv else None)


def test_material_reads_are_the_plain_reads_on_small_inputs():
    load_catalog()  # (sets the fragment source)
    _check_material_reads("en", ['2 Level 4 monsters', '1 Tuner + 1+ non-Tuner monsters', '2+ "Blue-Eyes" monsters',
                                 '"Elemental HERO Avian" + "Elemental HERO Burstinatrix"', '2 or more (max. 5)', 'x'])
    _check_material_reads("zh-CN", ["4星怪兽×2", "调整＋调整以外的怪兽1只以上", "「青眼」怪兽2只以上", "无"])
    assert slots.read_count("2 or more (max. 5)", "en") == (2, 5)
    assert slots.read_count("1+ monsters", "en") == (1, None)


def _yaml_yugi(shared, langs, every=3):
    texts: dict[str, list[str]] = {lang: [] for lang in langs}
    with open(shared / "data" / "yaml-yugi" / "cards.jsonl", "rb") as f:
        for n, line in enumerate(f):
            t = orjson.loads(line).get("text") or {}
            for lang in texts:
                if t.get(lang) and n % every == 0:
                    texts[lang].append(normalize(t[lang], lang).text)
    return texts


def test_slot_and_material_reads_are_the_plain_reads_on_the_corpus(shared, monkeypatch):
    texts = _yaml_yugi(shared, ("en", "zh-CN", "ja"))
    for ts in texts.values():
        assert len(ts) > 3000
    cat = load_catalog()
    assert _replay(cat, texts, monkeypatch) > 500
    for lang, ts in texts.items():
        # every line of an Extra Deck text is read as a material line would be (most are not one:
        # the readers must still agree)
        _check_material_reads(lang, [line for t in ts for line in t.split("\n")[:1]])


def test_default_and_positional_calls_agree_on_a_fragment():
    rx = regex.compile(r"(?P<n>\d+)(?P<more>以上)?")
    text = "把手卡2只以上和墓地的3只怪兽除外" * 6
    assert [(m.span(), m.groupdict()) for m in rx.finditer(text, None, None, False, False)] == \
        [(m.span(), m.groupdict()) for m in rx.finditer(text)]
    assert rx.sub("", text, 0, None, None, False) == rx.sub("", text)
    assert rx.split(text, 0, False) == rx.split(text)
