"""Text in another language than the one asked for: one ``language mismatch: ...`` warning per card
(extractor/langcheck.py, called from pipeline.analyze_text; issue 8 §2)."""
import json

import pytest

from extractor.frame import Frame
from extractor.langcheck import language_mismatch, looks_like
from extractor.pipeline import analyze, analyze_text
from extractor.card import Card
from extractor.readers import guess_lang, read_cards

PREFIX = "language mismatch: "

EN = "Cannot be Normal Summoned/Set. Must be Special Summoned by banishing 1 LIGHT and 1 DARK monster from your GY."
ZH_CN = "这张卡不能通常召唤。从自己墓地把光属性和暗属性的怪兽各1只除外的场合可以特殊召唤。"
ZH_TW = "這張卡不能通常召喚。從自己墓地把光屬性和暗屬性的怪獸各1隻除外的場合可以特殊召喚。"
JA = "このカードは通常召喚できない。自分の墓地から光属性と闇属性のモンスターを１体ずつ除外した場合に特殊召喚できる。"
KO = "이 카드는 일반 소환할 수 없다. 자신 묘지의 빛 속성과 어둠 속성 몬스터를 1장씩 제외했을 경우에만 특수 소환할 수 있다."
# Chinese quoting Japanese card names (yaml-yugi zh-CN does this): still Chinese
ZH_WITH_KANA_NAMES = "①：自己场上有「ヴォルカニック／火山种」怪兽存在的场合可以发动。从卡组将1张「ボムトークン」加入手牌。"


@pytest.mark.parametrize("text, seen", [
    (EN, "en"), (ZH_CN, "zh"), (ZH_TW, "zh"), (JA, "ja"), (KO, "ko"), (ZH_WITH_KANA_NAMES, "zh"),
    ("<ruby>青眼<rt>ブルーアイズ</rt></ruby>の白龍を特殊召喚する。", "ja"),
    ("神魚＋舌魚", None),  # a short Japanese material line: too few characters to tell
    ("「慈悲深き修道女」＋「堕天使マリー」", None),  # only quoted names
    ("", None), ("1000 ②", None),
])
def test_looks_like(text, seen):
    assert looks_like(text) == seen


@pytest.mark.parametrize("text, lang, seen", [
    (ZH_CN, "en", "zh"), (ZH_TW, "en-US", "zh"), (EN, "zh-CN", "en"), (JA, "zh-CN", "ja"), (JA, "zh-TW", "ja"),
    (ZH_CN, "ja", "zh"), (JA, "en", "ja"), (KO, "en", "ko"),
])
def test_language_mismatch_names_what_it_saw_and_what_was_asked(text, lang, seen):
    w = language_mismatch(text, lang)
    assert w == f"language mismatch: the text looks like {seen}, read as {lang}"


@pytest.mark.parametrize("text, lang", [
    (EN, "en"), (ZH_CN, "zh-CN"), (ZH_CN, "zh-TW"), (ZH_TW, "zh-CN"), (JA, "ja"), (ZH_WITH_KANA_NAMES, "zh-CN"),
    ("神魚＋舌魚", "ja"), ("", "en"), (ZH_CN, "ko"),  # unsupported language: reported elsewhere
])
def test_no_mismatch(text, lang):
    assert language_mismatch(text, lang) is None


def mismatches(warnings):
    return [w for w in warnings if w.startswith(PREFIX)]


def test_analyze_gives_one_warning_per_card():
    res = analyze(Card(id=1, name="x", lang="en", text=ZH_CN + ZH_CN, pendulum_effect=ZH_CN,
                       frame=Frame.from_type_line("Fiend / Effect", 8)))
    assert mismatches(res.warnings) == ["language mismatch: the text looks like zh, read as en"]
    ok = analyze(Card(id=2, name="y", lang="zh-CN", text=ZH_CN, frame=Frame.from_type_line("Fiend / Effect", 8)))
    assert mismatches(ok.warnings) == [] and "special-summon-monster" in ok.tags
    warnings: list[str] = []
    analyze_text(JA, "zh-CN", warnings=warnings)
    assert mismatches(warnings) == ["language mismatch: the text looks like ja, read as zh-CN"]
    # a Pendulum card whose monster text is empty is judged by its Pendulum Effect
    pend = analyze(Card(id=3, lang="en", text="", pendulum_effect=ZH_CN))
    assert len(mismatches(pend.warnings)) == 1


def test_a_chinese_cdb_read_as_english(tmp_path):
    from test_readers import MONSTER, EFFECT, make_cdb
    db = make_cdb(tmp_path / "zh.cdb", [(1, MONSTER | EFFECT, 8), (2, MONSTER | EFFECT, 4)],
                  [(1, "甲", ZH_CN), (2, "乙", "不能特殊召唤。这张卡不能通常召唤。")])
    results = [analyze(it.card) for it in read_cards(db, "en")]
    assert [len(mismatches(r.warnings)) for r in results] == [1, 1]
    guessed = [analyze(it.card) for it in read_cards(db)]  # without --lang the language is guessed
    assert [it.lang for it in guessed] == ["zh-CN", "zh-CN"] and all(not mismatches(r.warnings) for r in guessed)


def test_guess_lang_reuses_looks_like():
    assert guess_lang([ZH_WITH_KANA_NAMES] * 3) == "zh-CN"  # quoted Japanese names are not Japanese
    assert guess_lang(["不能特殊召唤。"]) == "zh-CN"  # one short Chinese text is enough for a whole file
    assert guess_lang([ZH_TW]) == "zh-TW"
    assert guess_lang([JA, EN]) == "ja"
    assert guess_lang([EN]) == "en" and guess_lang([]) == "en" and guess_lang([KO]) == "en"


# -- real data: silent on the right language, one warning on the wrong one --------------------------

def test_real_texts_read_in_their_own_language_give_no_warning(shared):
    path = shared / "data" / "yaml-yugi" / "cards.jsonl"
    if not path.exists():
        pytest.skip("yaml-yugi is not present")
    wrong = {}
    counted = 0
    with open(path, "rb") as f:
        for line in f:
            d = json.loads(line)
            for lang in ("en", "zh-CN", "zh-TW", "ja"):
                t = (d.get("text") or {}).get(lang)
                if t:
                    counted += 1
                    w = language_mismatch(t, lang)
                    if w:
                        wrong[(d.get("password"), lang)] = w
    assert counted > 40000
    assert wrong == {}


def test_real_cdb_read_as_the_other_language(shared):
    zh = shared / "data" / "cdb" / "goat-zh-CN.cdb"
    en = shared / "data" / "cdb" / "goat-en-US.cdb"
    if not (zh.exists() and en.exists()):
        pytest.skip("goat cdbs are not present")
    for path, lang, seen in ((zh, "en", "zh"), (en, "zh-CN", "en")):
        cards = [it.card for it in read_cards(path, lang) if it.card]
        flagged = sum(1 for c in cards if language_mismatch(c.text, c.lang) ==
                      f"language mismatch: the text looks like {seen}, read as {lang}")
        assert flagged >= 0.95 * len(cards), (path.name, flagged, len(cards))
        right = [it.card for it in read_cards(path) if it.card]  # guessed language: silent
        assert not any(language_mismatch(c.text, c.lang) for c in right)


def test_the_fast_paths_agree_with_looks_like(shared):
    """language_mismatch settles most texts without counting; it must say what looks_like says."""
    from extractor.normalize import lang_family
    path = shared / "data" / "yaml-yugi" / "cards.jsonl"
    if not path.exists():
        pytest.skip("yaml-yugi is not present")
    texts = [EN, ZH_CN, ZH_TW, JA, KO, ZH_WITH_KANA_NAMES, "神魚＋舌魚", "“Blue-Eyes” + ●", "ATK 1000 / DEF 1000"]
    with open(path, "rb") as f:
        for i, line in enumerate(f):
            if i % 25:
                continue
            d = json.loads(line)
            texts.extend(t for t in (d.get("text") or {}).values() if t)
    assert len(texts) > 2000
    for t in texts:
        seen = looks_like(t)
        for lang in ("en", "zh-CN", "zh-TW", "ja"):
            want = None if seen in (None, lang_family(lang)) else f"{PREFIX}the text looks like {seen}, read as {lang}"
            assert language_mismatch(t, lang) == want, (t[:80], lang)


# -- Japanese vs Chinese on real texts (issue 11 §4: they share Han characters) -------------------

@pytest.mark.parametrize("text, seen", [
    ("通常怪兽×2", "zh"),  # 4 Han characters: told by the Simplified form 兽 (Japanese: 獣)
    ("①：此卡可直接攻击。", "zh"),  # 击 (Japanese: 撃)
    ("「恶魔的智慧」＋「魔天老」。", "zh"),  # only quoted names, but 恶 is never Japanese
    ("悪魔の知恵＋魔天老", "ja"),  # one kana (under the kana share), 悪 is never Chinese
    ("「プチテンシ」＋「スリーピィ」", None),  # quoted names only (Chinese texts quote Japanese names)
    ("神魚＋舌魚", None),  # nothing tells
])
def test_short_texts_told_by_their_character_forms(text, seen):
    assert looks_like(text) == seen


def test_simplified_and_japanese_forms_are_disjoint():
    from extractor.langcheck import JAPANESE_ONLY, SIMPLIFIED_ONLY
    assert not SIMPLIFIED_ONLY & JAPANESE_ONLY


def test_japanese_and_chinese_texts_of_yaml_yugi_both_ways(shared):
    """Every yaml-yugi ja and zh-CN text: read as its own language, no warning; read as the other,
    a warning, except texts that cannot tell (a material line of quoted names only, in kana or in
    forms both write)."""
    path = shared / "data" / "yaml-yugi" / "cards.jsonl"
    if not path.exists():
        pytest.skip("yaml-yugi is not present")
    n = {"ja": 0, "zh-CN": 0}
    silent: dict[str, list[str]] = {"ja": [], "zh-CN": []}
    with open(path, encoding="utf-8") as f:
        for line in f:
            texts = json.loads(line).get("text") or {}
            for lang, other in (("ja", "zh-CN"), ("zh-CN", "ja")):
                t = texts.get(lang)
                if not t:
                    continue
                n[lang] += 1
                assert language_mismatch(t, lang) is None, (lang, t[:80])
                w = language_mismatch(t, other)
                if w is None:
                    silent[lang].append(t)
                else:
                    assert w == f"language mismatch: the text looks like {lang[:2]}, read as {other}"
    assert n["ja"] > 14000 and n["zh-CN"] > 14000
    # the texts not told apart are short material lines of names ("A" + "B")
    for lang, ts in silent.items():
        assert len(ts) < 0.005 * n[lang], (lang, len(ts))
        for t in ts:
            assert len(t) < 60 and ("＋" in t or "+" in t), (lang, t)
