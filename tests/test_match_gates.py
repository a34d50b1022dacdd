"""The gates of ``Catalog.run`` (required literals, the key literal of a run plan) never change a
result: every pattern that matches a text is tried on it."""
import pytest

from extractor.normalize import normalize
from extractor.patterns import ALL_SCOPES, load_catalog, required_literals as req

from conftest import yaml_yugi_texts


def test_required_literals_reads_conditionals_and_scoped_dotall():
    # a conditional holds one of its branches, like an alternation; no "no" branch: nothing required
    assert req(r"a(?(x)bc|bd)e") == (("ab",), ("bc", "bd"), ("e",))  # (both branches start with b)
    assert req(r"a(?(x)bc)e") == (("a",), ("e",))
    assert req(r"(?s:a.b)c") == (("a",), ("bc",))   # (?s:...) changes what "." matches only
    assert req(r"(?i:ab)c") is None and req(r"(?x:a b)") is None  # these change what a literal matches


def test_required_literals_keeps_what_every_branch_needs():
    # both branches need 「 and 」: each is a clause of its own, next to one literal of each branch
    got = req(r"(?:仅(?P<a>「[^」]+」)的效果|用(?P<b>「[^」]+」)来)特殊召唤")
    assert got[:2] == (("「",), ("」",)) and ("特殊召唤",) in got and len(got) == 4
    assert len(req(r"(?:仅「[^」]+」的效果|用(?P<b>「[^」]+」)来)")) == 1  # 仅「 is one literal: nothing shared
    assert req(r"xay|zaw") == (("xay", "zaw"),)  # no common clause: one of each branch
    # the longest piece that a literal of each branch holds: " except" is in every such text
    got = req(r"(?:Cannot be Special Summoned, except|(?<=cannot be Special Summoned except (?:by|with) ))x")
    assert ("annot be Special Summoned",) in got and ("x",) in got
    got = req(r"(?:Cannot be Summoned, except by|(?<=\bunless) except with)\s")
    assert (" except ",) in got
    # a branch's choice for the last clause skips what the common clauses already say
    got = req(r"(?:这张卡的效果特殊召唤|\(及这张卡的效果\))")
    assert ("这张卡的效果",) in got


def _brute(cat, text, lang, scopes=ALL_SCOPES):
    """Every pattern of the language run with ``finditer``, behind its written ``requires`` only
    (the prefilter the pattern's author declares; the gates under test are the engine's own)."""
    from extractor.normalize.common import lang_family

    fam = lang_family(lang)
    return sorted((p.id, m.start(), m.end()) for p in cat.by_lang[fam] if p.scope in scopes
                  and (not p.requires or any(r in text for r in p.requires)) for m in p.regex.finditer(text))


@pytest.mark.parametrize("lang", ["en", "zh-CN", "ja"])
def test_run_finds_what_every_pattern_finds_on_every_example(lang):
    cat = load_catalog()
    from extractor.normalize.common import lang_family

    fam = lang_family(lang)
    texts = [normalize(e["text"], lang).text for p in cat.by_lang[fam] for e in p.examples_match]
    texts += [normalize(t, lang).text for p in cat.by_lang[fam] for t in p.examples_no_match]
    found = 0
    for text in texts:
        for scopes in (ALL_SCOPES, ("monster", "any"), ("any",)):
            want = _brute(cat, text, lang, scopes)
            got = sorted((m.pattern.id, m.start, m.end) for m in cat.run(text, lang, scopes=scopes))
            assert got == want, text
            found += len(want)
    assert found > len(texts)


@pytest.mark.parametrize("lang,key", [("en", "Summon"), ("zh-CN", "召唤"), ("ja", "召喚")])
def test_plan_key_is_the_summon_word_and_texts_without_it_still_get_their_patterns(lang, key):
    cat = load_catalog()
    plan = cat._plan(lang, ALL_SCOPES)
    assert plan.key == key
    assert len(plan.without_key[0]) < len(plan.with_key[0])  # fewer literals to look up without it
    # a material line has no "Summon": its patterns are still tried and still match
    text = {"en": '"Elemental HERO Neos" + "Neo-Spacian Grand Mole"',
            "zh-CN": "「元素英雄 新宇侠」+「新空间侠·大地鼹鼠」", "ja": "「E・HERO ネオス」＋「N・グラン・モール」"}[lang]
    text = normalize(text, lang).text
    assert key not in text
    want = _brute(cat, text, lang)
    assert sorted((m.pattern.id, m.start, m.end) for m in cat.run(text, lang)) == want
    if lang != "ja":
        assert want  # the Fusion material line is read


def test_gated_is_what_run_tries():
    cat = load_catalog()
    text = normalize("这张卡不能通常召唤。把自己墓地1只光属性怪兽除外的场合可以特殊召唤。", "zh-CN").text
    ids = [p.id for p in cat.gated(text, "zh-CN")]
    assert "zh.cannot-normal-summon-set" in ids
    assert all(m.pattern.id in ids for m in cat.run(text, "zh-CN"))
    assert "zh.material-line-xyz" not in ids  # no ×, no Rank: the gates leave it out


def test_fields_are_remembered_per_captured_words_and_each_match_gets_its_own_dict():
    from extractor.patterns import load_catalog as load

    cat = load.__wrapped__(None)  # a fresh catalog: an empty memo
    text = normalize("Cannot be Normal Summoned/Set. Must be Special Summoned (from your hand) by banishing "
                     "1 LIGHT and 1 DARK monster from your GY.", "en").text
    first = [(m.pattern.id, m.fields) for m in cat.run(text, "en")]
    assert cat.vocabs["en"].fields_memo  # remembered
    first[0][1]["kind"] = "changed by a caller"
    again = [(m.pattern.id, m.fields) for m in cat.run(text, "en")]
    assert again[0][1]["kind"] != "changed by a caller"
    fresh = load.__wrapped__(None)
    fresh.vocabs["en"].fields_memo = None  # the plain reading gives the same fields
    assert [(m.pattern.id, m.fields) for m in fresh.run(text, "en")] == again
    assert any(f.get("cost") for _, f in again)  # the cost was read (banish 1 LIGHT and 1 DARK)


def test_run_plans_and_slot_fragments_are_built_with_the_catalog_and_kept_in_its_pickle():
    import pickle

    from extractor.patterns import load_catalog as load
    from extractor.patterns.runner import PLANNED_SCOPES

    cat = load.__wrapped__.__wrapped__(None)  # built from the files
    assert {(fam, sc) for fam in cat.by_lang for sc in PLANNED_SCOPES} <= set(cat._fam_plans)
    back = pickle.loads(pickle.dumps(cat, protocol=5))
    assert set(back._fam_plans) == set(cat._fam_plans) and back._plans == {}
    assert back.vocabs["zh"].slots._rx  # compiled fragments came with it
    plan = back._plan("zh-TW", ALL_SCOPES)
    assert plan is back._fam_plans[("zh", ALL_SCOPES)] and plan.patterns[0] is back.by_lang["zh"][0]
    text = normalize("这张卡不能通常召唤。把自己墓地1只光属性怪兽除外的场合可以特殊召唤。", "zh-CN").text
    assert [(m.pattern.id, m.start, m.fields) for m in back.run(text, "zh-CN")] == \
        [(m.pattern.id, m.start, m.fields) for m in cat.run(text, "zh-CN")]


def test_material_lines_are_read_only_where_the_frame_keeps_them():
    # scope "extra": tried on Extra Deck monsters and cards of unknown frame, never on a Main Deck
    # monster, whose first line is no material line (fit_material_lines would drop it)
    from extractor.frame import Frame
    from extractor.pipeline import analyze_text

    cat = load_catalog()
    for fam in ("en", "zh", "ja"):  # every material-line pattern of every language
        assert all(p.scope == "extra" for p in cat.by_lang[fam] if p.yields["kind"] == "material-line")
    mats = [p for p in cat.by_lang["zh"] if p.yields["kind"] == "material-line"]
    assert mats
    text = "「元素英雄 新宇侠」+「新空间侠·大地鼹鼠」\n这张卡用融合召唤才能从额外卡组特殊召唤。"
    assert any(m.pattern in mats for m in cat.run(normalize(text, "zh-CN").text, "zh-CN"))
    assert not any(m.pattern in mats for m in cat.run(normalize(text, "zh-CN").text, "zh-CN", scopes=("monster", "any")))
    kinds = {f: [c.kind for c in analyze_text(text, "zh-CN", Frame.from_type_line(t) if t else None)[0]]
             for f, t in (("fusion", "Warrior / Fusion / Effect"), ("main", "Warrior / Effect"), ("unknown", None))}
    assert "material-line" in kinds["fusion"] and "material-line" in kinds["unknown"]
    assert "material-line" not in kinds["main"]


# -- the `within` gate: only the sentence pieces that hold a cue -----------------------------------

def test_pieces_are_the_sentence_pieces_that_hold_a_cue():
    from extractor.patterns.runner import _pieces

    text = "①:A不能B。C。D不能E;F仅可G:H"
    assert _pieces(text, "。;:", ("不能",)) == [(2, 6), (9, 13)]   # A不能B, D不能E
    assert _pieces(text, "。;:", ("不能", "仅可")) == [(2, 6), (9, 13), (14, 18)]
    assert _pieces(text, "。;:", ("只能",)) == []
    assert _pieces("不能不能", "。", ("不能",)) == [(0, 4)]   # one piece, once


def test_within_is_checked_when_the_catalog_is_loaded(tmp_path):
    from extractor.patterns import PatternError
    from extractor.patterns.loader import _within

    assert _within({"breaks": "。;:", "cue": ["不能"]}, "x") == ("。;:", ("不能",))
    assert _within({"breaks": "。", "cue": "しか"}, "x") == ("。", ("しか",))
    assert _within(None, "x") is None
    for bad in ({"breaks": "。"}, {"cue": ["不能"]}, {"breaks": "。", "cue": ["不能。"]}, {"breaks": "", "cue": ["x"]}, "。"):
        with pytest.raises(PatternError, match="'within' needs"):
            _within(bad, "zh/x.yaml: pattern p")


def test_within_gated_patterns_find_what_finditer_finds_on_examples_and_the_corpus(shared):
    """The claim of each ``within`` gate (no match holds a break character, each holds a cue)
    held against plain ``finditer`` over whole texts: the patterns' examples joined into one text,
    and the yaml-yugi texts that hold a cue."""
    import orjson

    cat = load_catalog()
    gated = [p for p in cat.patterns if p.within is not None]
    assert {p.id for p in gated} >= {"zh.player-lock-cannot", "zh.player-lock-can-only",
                                      "ja.player-lock-cannot", "ja.player-lock-only",
                                      # anchored: the gate names where the anchor (proc_start) is scanned
                                      "zh.builtin-special-summon-situation", "zh.builtin-special-summon-this-card-can",
                                      "zh.builtin-special-summon-method", "zh.builtin-special-summon-verb-first"}
    texts = {"zh-CN": [], "ja": []}
    with open(shared / "data" / "yaml-yugi" / "cards.jsonl", "rb") as f:
        for line in f:
            t = orjson.loads(line).get("text") or {}
            for lang in texts:
                if t.get(lang):
                    texts[lang].append(t[lang])
    checked = found = 0
    normalized: dict[tuple[str, str], str] = {}
    for p in gated:
        lang = "zh-CN" if p.lang == "zh" else p.lang
        joined = "".join(e["text"] for e in p.examples_match) + "".join(p.examples_no_match)
        cued = [x for x in texts[lang] if any(c in x for c in p.within[1] + ("不可",))]  # 不可: 不能 once normalized
        for raw in [joined] + cued[:2500]:
            text = normalized.get((raw, lang))
            if text is None:
                text = normalized[(raw, lang)] = normalize(raw, lang).text
            want = [(m.start(), m.end()) for m in p.regex.finditer(text)]
            got = [(m.start, m.end) for m in cat.run(text, lang) if m.pattern is p]
            assert got == want, (p.id, text)
            checked += 1
            found += len(want)
    assert checked > 1000 and found > 500


def _zh_catalog(tmp_path, anchor: str, regex: str, examples: list[str]) -> str:
    (tmp_path / "zh").mkdir()
    ex = ", ".join(repr(e) for e in examples)
    (tmp_path / "zh" / "x.yaml").write_text(
        "language: zh-CN\npatterns:\n  - id: zh.x\n    anchor: '" + anchor + "'\n    regex: '" + regex + "'\n"
        "    within: {breaks: 。, cue: [特殊召唤]}\n    yields: {kind: cannot-special-summon}\n"
        "    examples: {match: [" + ex + "]}\n", encoding="utf-8")
    return str(tmp_path)


def test_within_with_an_anchor_scans_the_anchor_only_inside_the_pieces(tmp_path):
    """With ``anchor``, ``within`` says where the anchor holds: it is scanned only in the pieces
    with a cue, and the pattern is matched there on the whole text (its match may cross a break)."""
    root = _zh_catalog(tmp_path, "(?<=。|^)(?=[^。]*特殊召唤)", "(?<=。|^)(?=[^。]*特殊召唤)[^。]*。[^。]*",
                       ["A。B特殊召唤。C"])
    cat = load_catalog(root)
    p = cat.patterns[0]
    assert p.within == ("。", ("特殊召唤",)) and p.anchor is not None
    text = "A特殊召唤。B。C特殊召唤。D"
    assert [(m.start, m.end) for m in cat.run(text, "zh-CN")] == [(m.start(), m.end()) for m in p.regex.finditer(text)] \
        == [(0, 7), (8, 15)]   # each match crosses its 。; the piece "B" (no cue) is not scanned


def test_within_with_an_anchor_that_holds_outside_the_pieces_is_refused(tmp_path):
    from extractor.patterns import PatternError

    # this anchor holds after every 。, also before a sentence without 特殊召唤
    root = _zh_catalog(tmp_path, "(?<=。)", "(?<=。)[^。]+", ["A。B。C特殊召唤"])
    with pytest.raises(PatternError, match="zh.x: 'anchor' holds outside the pieces of 'within'"):
        load_catalog(root)


def test_situation_gates_keep_the_matches_of_the_old_lookaheads_on_the_corpus(shared):
    """``situation_gate`` / ``this_card_can_gate`` (fragments) are necessary conditions: the two
    procedure patterns (and the named-card pattern) with the lookaheads they replaced find the same matches and groups on the
    yaml-yugi zh-CN texts and the zh-TW ones (normalized)."""
    import regex

    cat = load_catalog()
    frags = cat.fragments["zh"]
    old = {"situation_gate": "(?=[^。]*?(?:的场合|时))", "this_card_can_gate": "(?=[^。]*?这张卡[^。]*?特殊召唤)"}
    texts = yaml_yugi_texts(shared, "zh-CN", 2) + yaml_yugi_texts(shared, "zh-TW", 5)
    # zh.must-be-special-summoned-named-card: its first lookahead lost a lookbehind that every
    # alternative's first character made redundant (and that kept the engine from scanning for it)
    old["named"] = "(?=[仅只用以通「]|(?<=[。,/\\n]))"
    found = 0
    for pid, name in (("zh.builtin-special-summon-situation", "situation_gate"),
                      ("zh.builtin-special-summon-this-card-can", "this_card_can_gate"),
                      ("zh.must-be-special-summoned-named-card", "named")):
        p = cat.get(pid)
        gate = "(?=[仅只用以通「])" if name == "named" else "(?:" + frags[name].expanded + ")"
        assert p.regex.pattern.count(gate) == 1
        slow = regex.compile(p.regex.pattern.replace(gate, old[name]), p.regex.flags & ~(regex.UNICODE | regex.VERSION0))
        for t in texts:
            want = [(m.span(), m.groupdict()) for m in slow.finditer(t)]
            assert [(m.span(), m.groupdict()) for m in p.regex.finditer(t)] == want, (pid, t)
            found += len(want)
    assert found > 250


# (sixth pass) first tests added in front of a pattern's own lookaheads: the pattern as it was
# (the test removed) must find the same matches and groups on the corpus
_FIRST_TESTS = {
    # the first 召唤 after 把/将 is not 特殊召唤 (a lone 召 lets it through)
    "zh.additional-normal-summon-object": "(?=[^。,召]{0,50}+(?:召(?!唤)|(?<!特殊)召唤))",
    # 自己 then 对/1/在/决, or a quoted name then 1/在/决
    "zh.summon-limit": "(?=自己[对1在决]|「[^「」]*+(?:「[^」]*+」[^「」]*+)*+」[1在决])",
    # (after the proc_start anchor, in method_head) 把/将/让, or a 「, before the next 。
    "zh.builtin-special-summon-method": "(?=[^。把将让「]*+[把将让「])",
}


@pytest.mark.parametrize("pid", sorted(_FIRST_TESTS))
def test_first_tests_keep_the_matches_of_the_pattern_without_them_on_the_corpus(pid, shared):
    """A first test (a necessary condition before a pattern's own lookaheads, for speed) changes no
    match: ``pid`` with and without it finds the same spans and groups on the yaml-yugi zh-CN
    texts and the zh-TW ones (normalized), and on its own examples."""
    import regex

    cat = load_catalog()
    p = cat.get(pid)
    first = _FIRST_TESTS[pid]
    assert p.regex.pattern.count(first) == 1
    slow = regex.compile(p.regex.pattern.replace(first, ""), p.regex.flags & ~(regex.UNICODE | regex.VERSION0))
    texts = yaml_yugi_texts(shared, "zh-CN", 1) + yaml_yugi_texts(shared, "zh-TW", 3)
    texts += _example_texts(cat, "zh", "zh-CN")
    found = tried = 0
    for t in texts:
        if p.requires and not any(r in t for r in p.requires):
            continue
        tried += 1
        want = [(m.span(), m.groupdict()) for m in slow.finditer(t)]
        assert [(m.span(), m.groupdict()) for m in p.regex.finditer(t)] == want, (pid, t)
        found += len(want)
    assert found >= 10 and tried > 100


# -- the generated gate and the anchored expressions without their anchor (fourth pass) ----------

def _plain_gate(plan, region):
    """What the gate of ``plan`` must give: the plain reading of its masks and checks."""
    from extractor.patterns import _holds

    mask = plan.mask(region)
    known: dict[str, bool] = {}
    return [i for i in range(len(plan.patterns))
            if mask >> i & 1 and (not plan.checks[i] or _holds(plan.checks[i], region, known))]


def _example_texts(cat, fam, lang):
    texts = [normalize(e["text"], lang).text for p in cat.by_lang[fam] for e in p.examples_match]
    texts += [normalize(t if isinstance(t, str) else t["text"], lang).text
              for p in cat.by_lang[fam] for t in p.examples_no_match]
    return texts


@pytest.mark.parametrize("lang", ["en", "zh-CN", "ja"])
def test_generated_gate_gives_what_the_masks_and_checks_give_on_every_example(lang):
    from extractor.normalize.common import lang_family
    from extractor.patterns.runner import PLANNED_SCOPES

    cat = load_catalog()
    fam = lang_family(lang)
    texts = _example_texts(cat, fam, lang)
    let_through = 0
    for scopes in PLANNED_SCOPES:
        plan = cat._plan(lang, scopes)
        for text in texts + ["", "召唤", "Summon", "召喚", texts[0][:3]]:
            got = plan.gate(text)
            assert got == _plain_gate(plan, text), (scopes, text)
            let_through += len(got)
    assert let_through > len(texts)


def test_generated_gate_gives_what_the_masks_and_checks_give_on_the_corpus(shared):
    from extractor.patterns.runner import PLANNED_SCOPES

    cat = load_catalog()
    texts = {lang: yaml_yugi_texts(shared, lang, 5) for lang in ("en", "zh-CN", "ja")}
    for lang, ts in texts.items():
        assert len(ts) > 2000
        for scopes in PLANNED_SCOPES:
            plan = cat._plan(lang, scopes)
            for text in ts:
                assert plan.gate(text) == _plain_gate(plan, text), (lang, scopes, text)


def test_gate_looks_a_literal_up_only_inside_the_block_of_a_piece_it_holds():
    from extractor.patterns.plan import _gate_source

    cat = load_catalog()
    plan = cat._plan("zh-CN", ALL_SCOPES)
    src = plan.gate_source
    assert src == _gate_source(plan.patterns, plan.checks, plan.key)  # built from the plan alone
    lines = src.splitlines()
    summon = next(i for i, x in enumerate(lines) if x.strip() == "if '召唤' in r:")
    special = next(i for i, x in enumerate(lines) if "'特殊召唤' in r" in x and x.lstrip().startswith("if"))
    indent = len(lines[summon]) - len(lines[summon].lstrip())
    assert special > summon and len(lines[special]) - len(lines[special].lstrip()) > indent
    # every line between them is inside the 召唤 block
    assert all(len(x) - len(x.lstrip()) > indent for x in lines[summon + 1:special + 1])
    # a check literal used by several patterns is kept in a local variable (looked up once)
    assert "k0 if k0 is not None else (k0 := " in src


def test_a_check_literal_looked_up_in_a_nested_block_is_looked_up_again_outside_it(tmp_path):
    """A piece the gate groups siblings under (能, held by three ``requires`` literals in the 解放
    block) is looked up only where 解放 is present; a pattern whose check is 能 alone must still be
    let through on a text with 能 and without 解放 (the bug a ``requires`` list of
    zh.tribute-rule-required once showed on 这张卡的效果发动的回合,自己不是「龙女仆」怪兽不能特殊召唤。)."""
    (tmp_path / "zh").mkdir()
    no_a = ["解放1只", "解放2只", "解放3只", "X1", "X2", "X3", "X4", "X5"]
    (tmp_path / "zh" / "x.yaml").write_text(
        "language: zh-CN\npatterns:\n"
        "  - id: zh.a\n    requires: [解放的场合才能, 解放则不能, 只能解放]\n"
        "    regex: '(?:解放的场合才能|解放则不能|只能解放)'\n    yields: {kind: cannot-special-summon}\n"
        "    examples: {match: [把1只怪兽解放的场合才能召唤], no_match: [" + ", ".join(no_a) + "]}\n"
        "  - id: zh.b\n    regex: '能\\d'\n    yields: {kind: cannot-special-summon}\n"
        "    examples: {match: [不能1, 不能2, 不能3]}\n", encoding="utf-8")
    cat = load_catalog(str(tmp_path))
    plan = cat._plan("zh-CN", ALL_SCOPES)
    assert plan.checks[1] == (("能",),) and plan.key is None
    lines = plan.gate_source.splitlines()
    depth = {x.strip(): len(x) - len(x.lstrip()) for x in lines}
    outer = next(x for x in depth if x.startswith("if '解放' in r"))
    inner = next(x for x in depth if "'能' in r" in x and x.startswith("if"))
    assert depth[inner] > depth[outer]  # the case under test: 能 is looked up inside the 解放 block
    for text in ["不能1", "把1只怪兽解放的场合才能召唤", "解放1只不能2", "解放1只", "X1", ""]:
        assert plan.gate(text) == _plain_gate(plan, text), (text, plan.gate_source)
    assert plan.gate("不能1") == [1]
    assert [m.pattern.id for m in cat.run("不能1", "zh-CN")] == ["zh.b"]


def test_gate_is_not_pickled_and_is_built_again_on_first_use():
    import pickle

    from extractor.patterns import load_catalog as load

    cat = load.__wrapped__.__wrapped__(None)
    back = pickle.loads(pickle.dumps(cat, protocol=5))
    plan = back._fam_plans[("zh", ALL_SCOPES)]
    assert plan.gate is None and plan.gate_source
    text = normalize("这张卡不能通常召唤。把自己墓地1只光属性怪兽除外的场合可以特殊召唤。", "zh-CN").text
    assert [m.pattern.id for m in back.run(text, "zh-CN")] == [m.pattern.id for m in cat.run(text, "zh-CN")]
    assert plan.gate is not None


def test_anchored_patterns_are_matched_without_their_anchor_where_that_gives_the_same_match():
    import regex

    from extractor.patterns.model import Pattern
    from extractor.patterns.plan import _after_anchor
    from extractor.patterns.runner import _anchored

    cat = load_catalog()
    stripped = [p for p in cat.by_lang["zh"] if p.anchor is not None and _after_anchor(p) is not p.regex]
    assert len(stripped) >= 6  # the builtin Special Summon patterns that share the clause-start anchor
    checked = 0
    for p in stripped:
        rest = _after_anchor(p)
        assert p.regex.pattern == p.anchor.pattern + rest.pattern and rest.groupindex == p.regex.groupindex
        for e in p.examples_match:
            text = normalize(e["text"], "zh-CN").text
            pos = [m.start() for m in p.anchor.finditer(text)]
            full = [(m.span(), m.groups()) for m in _anchored(p.regex, text, pos, False) or ()]
            assert [(m.span(), m.groups()) for m in _anchored(rest, text, pos, False) or ()] == full
            checked += bool(full)
    assert checked > 20
    # kept whole: "^" (position 0 without a scan), an anchor that holds a group or consumes text
    for anchor, rx in (("^", "^ab"), ("(?=(a))", "(?=(a))ab"), ("(?:a|(?<=b))", "(?:a|(?<=b))c")):
        p = Pattern(id="t", lang="en", regex=regex.compile(rx), yields={}, captures={}, anchor=regex.compile(anchor))
        assert _after_anchor(p) is p.regex, anchor
    p = Pattern(id="t", lang="en", regex=regex.compile("(?<=x)(?=a)ab"), yields={}, captures={},
                anchor=regex.compile("(?<=x)(?=a)"))
    assert _after_anchor(p).pattern == "ab"


# -- joined literals (fifth pass): a group's start / end joined to the literal runs beside it ------

def test_required_literals_join_a_group_to_the_runs_beside_it():
    # every branch of the group ends with 召喚: with できない after it, 召喚できない is in the text
    got = req(r"(?P<who>自分|相手)は(?P<what>特殊召喚|通常召喚|召喚)できない")
    assert ("召喚できない",) in got and ("できない",) not in got  # (implied by 召喚できない: dropped)
    assert req(r"x(?:ab|ac)") == (("xa",), ("ab", "ac"))         # the branches' common start after x
    assert req(r"a(?!x)b") == (("ab",),)                          # a lookaround takes no character
    assert req(r"a(?:b|)c") == (("a",), ("c",))                   # an empty branch: nothing joined
    assert req(r"a(?:bc)?d") == (("a",), ("d",))                  # an optional group: nothing joined
    assert req(r"a[xy]b") == (("a",), ("b",))                     # a class: nothing joined


@pytest.mark.parametrize("lang", ["en", "zh-CN", "ja"])
def test_every_required_literal_clause_holds_where_its_pattern_matches_on_the_corpus(lang, shared):
    """Every clause :func:`required_literals` reads from a pattern (not only the checks the gates
    keep) holds on every yaml-yugi text (a seventh of them) the pattern finds a match in; and
    ``Catalog.run`` finds there what each pattern's ``finditer`` finds behind its written
    ``requires``."""
    from extractor.normalize.common import lang_family
    from extractor.patterns import _holds

    cat = load_catalog()
    fam = lang_family(lang)
    cnf = {p.id: req(p.regex.pattern) for p in cat.by_lang[fam]}
    texts = yaml_yugi_texts(shared, lang, 7)
    assert len(texts) > 1500
    met = 0
    for text in texts:
        for p in cat.by_lang[fam]:
            if cnf[p.id] and p.regex.search(text) is not None:
                assert _holds(cnf[p.id], text, {}), (p.id, text)
                met += 1
        got = sorted((m.pattern.id, m.start, m.end) for m in cat.run(text, lang))
        assert got == _brute(cat, text, lang), text
    assert met > 500


def test_slot_fragments_are_not_searched_where_a_literal_they_need_is_absent():
    from extractor.patterns import load_catalog as load

    slots = load.__wrapped__(None).vocabs["ja"].slots
    assert ("表示で",) in slots._need["forced_position"]
    text = "自分フィールドにモンスターが存在しない場合、このカードは手札から特殊召喚できる。"
    assert slots.can("forced_position", text) is None and slots.find("forced_position", text) is None
    assert slots.choice("forced_position", "手札から攻撃表示で特殊召喚できる") == "attack"


@pytest.mark.parametrize("lang", ["en", "zh-CN", "ja"])
def test_fields_read_behind_the_fragment_gates_are_those_read_without_them_on_the_corpus(lang, shared):
    """Every match's fields (costs, requirements, choices, flags) on yaml-yugi texts (a fifth of
    them) are the same with the slot reader's literal gates (``SlotReader.can``) and without."""
    from extractor.normalize.common import lang_family
    from extractor.patterns import load_catalog as load

    fam = lang_family(lang)
    gated, plain = load.__wrapped__(None), load.__wrapped__(None)
    for cat in (gated, plain):
        cat.vocabs[fam].fields_memo = None  # every match read afresh
    plain.vocabs[fam].slots._need = {k: () for k in plain.vocabs[fam].slots._need}
    texts = yaml_yugi_texts(shared, lang, 5)
    read = 0
    for text in texts:
        got = [(m.pattern.id, m.start, m.fields) for m in gated.run(text, lang)]
        assert got == [(m.pattern.id, m.start, m.fields) for m in plain.run(text, lang)], text
        read += sum(1 for _, _, f in got if f.get("cost") or f.get("requirement"))
    assert read > 200


def _zh_anchored_catalog(tmp_path, extra: str, examples: list[str]) -> str:
    """A one-pattern zh catalog: anchored at a sentence start (or after ①:) in a sentence with
    特殊召唤, gated by ``within``, with ``extra`` YAML lines (anchor_after)."""
    (tmp_path / "zh").mkdir()
    ex = ", ".join(repr(e) for e in examples)
    (tmp_path / "zh" / "x.yaml").write_text(
        "language: zh-CN\npatterns:\n  - id: zh.x\n    anchor: '(?:^|(?<=[。:]))(?=[^。]*特殊召唤)'\n"
        "    regex: '(?:^|(?<=[。:]))(?=[^。]*特殊召唤)这张卡[^。]*'\n"
        "    within: {breaks: 。, cue: [特殊召唤]}\n" + extra +
        "    yields: {kind: cannot-special-summon}\n    examples: {match: [" + ex + "]}\n", encoding="utf-8")
    return str(tmp_path)


def test_anchor_after_is_read_and_used_by_run(tmp_path):
    """``anchor_after`` (the anchor tried only at a piece's start and after those literals) gives
    what ``finditer`` gives."""
    root = _zh_anchored_catalog(tmp_path, "    anchor_after: [':']\n", ["这张卡特殊召唤。①:这张卡可以特殊召唤"])
    cat = load_catalog(root)
    p = cat.patterns[0]
    assert p.anchor_after == (":",)
    text = "A。①:这张卡特殊召唤。①:特殊召唤这张卡。B:这张卡特殊召唤"
    want = [(m.start(), m.end()) for m in p.regex.finditer(text)]
    assert [(m.start, m.end) for m in cat.run(text, "zh-CN")] == want == [(4, 11), (24, 31)]


def test_anchor_after_that_misses_a_position_is_refused(tmp_path):
    from extractor.patterns import PatternError

    # the anchor also holds after ":" inside a sentence; anchor_after names only "/"
    root = _zh_anchored_catalog(tmp_path, "    anchor_after: [/]\n", ["①:这张卡可以特殊召唤"])
    with pytest.raises(PatternError, match="zh.x: 'anchor' holds in a piece of 'within' at a place"):
        load_catalog(root)


def test_anchor_after_needs_an_anchor_and_a_list_of_literals():
    from extractor.patterns import PatternError
    from extractor.patterns.loader import _anchor_after

    assert _anchor_after(None, None, None, "p") == ()
    with pytest.raises(PatternError, match="'anchor_after' needs 'anchor' and 'within'"):
        _anchor_after(["x"], None, ("。", ("y",)), "p")
    with pytest.raises(PatternError, match="'anchor_after' needs a list of literals"):
        _anchor_after([""], object(), ("。", ("y",)), "p")


def test_anchor_after_gives_the_positions_of_the_scan_on_the_corpus(shared):
    """Each pattern with ``anchor_after`` (the procedure patterns at proc_start): the anchor tried
    at the pieces' starts and after the literals holds at the same positions as the anchor scanned
    over every character of the pieces, on the yaml-yugi zh-CN texts and every other zh-TW one."""
    from extractor.patterns.runner import _after_positions, _pieces

    cat = load_catalog()
    ps = [p for p in cat.patterns if p.anchor_after]
    assert {"zh.builtin-special-summon-situation", "zh.builtin-special-summon-this-card-can"} <= {p.id for p in ps}
    texts = yaml_yugi_texts(shared, "zh-CN", 1) + yaml_yugi_texts(shared, "zh-TW", 2)
    found = 0
    for p in ps:
        for t in texts:
            pieces = _pieces(t, *p.within)
            want = [m.start() for a, b in pieces for m in p.anchor.finditer(t, a, b)]
            assert _after_positions(t, pieces, p.anchor, p.anchor_after) == want, (p.id, t)
            found += len(want)
    assert found > 20000


def _pieces_general(region, breaks, cues):
    """The pieces of :func:`_pieces` by its general path (any breaks and cues), written out."""
    spans = set()
    for cue in cues:
        i = region.find(cue)
        while i >= 0:
            a = max(region.rfind(c, 0, i) for c in breaks) + 1
            b = min([j for j in (region.find(c, i) for c in breaks) if j >= 0] or [len(region)])
            spans.add((a, b))
            i = region.find(cue, b)
    return sorted(spans)


def test_pieces_of_one_break_and_one_cue_are_those_of_the_general_path_on_the_corpus(shared):
    """The fast path of ``_pieces`` (one break character, one cue: the zh procedure patterns'
    gate) gives the pieces of the general path on the yaml-yugi zh-CN texts and every other zh-TW
    one, and on texts that start or end with the break or the cue."""
    from extractor.patterns.runner import _pieces

    texts = yaml_yugi_texts(shared, "zh-CN", 1) + yaml_yugi_texts(shared, "zh-TW", 2)
    texts += ["特殊召唤", "。特殊召唤。", "特殊召唤。A特殊召唤特殊召唤", "", "。。"]
    found = 0
    for t in texts:
        got = _pieces(t, "。", ("特殊召唤",))
        assert got == _pieces_general(t, "。", ("特殊召唤",)), t
        found += len(got)
    assert found > 10000
