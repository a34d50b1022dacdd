"""Seventh speed pass, the Chinese patterns that are not clause-start procedures: each rewrite (a
stronger ``requires``, a fragment or a regex written for fewer engine steps) keeps every match.  The
old forms are written out here and compared with the catalog's on the yaml-yugi texts (zh-CN, and
zh-TW normalized) and on every Chinese example; skipped when ../shared is absent."""
import re

import pytest
import regex

from extractor.normalize import normalize
from extractor.patterns import load_catalog

# pattern id -> its `requires` before this pass (the new literals are a stronger necessary condition)
_OLD_REQUIRES = {
    "zh.special-summons-itself": ["特殊召唤"],
    "zh.must-be-special-summoned-own-effect": ["特殊召唤"],
    "zh.additional-normal-summon-object": ["召唤"],
    "zh.must-be-special-summoned-named-card": ["效果"],
    "zh.must-be-special-summoned-own-effect-trigger": ["通常召唤"],
    "zh.special-summon-only-by-summon": ["特殊召唤"],
    "zh.tribute-rule-optional": ["解放"],
}

# fragment -> its regex before this pass
_OLD_FRAGMENTS = {
    "lock_pre": "(?:[^,。;:]{0,30}?(?:回合中?|结束时|为止|期间)|只要[^,。;:]{0,40}?存在),?",
    "lock_who": "(?P<both>双方(?:玩家)?|两方)|(?P<opponent>对方|对手)|(?P<you>自己|你)",
    "mat_not_line": "(?:「[^」\\n]*」|[^\\n。「])*?(?:选择|发动|代替|可以|这张卡|解放|送去墓地|除外|加入手)",
}

# pattern id -> its regex as written before this pass (fragments as {{name}})
_OLD_REGEX = {
    "zh.special-summons-itself": "(?:(?:(?<=[。,:;/\\n])|(?<=可以|可))(?:{{from_locs}}?(?:把|将)这张卡|这张卡)"
    "{{from_locs}}?{{position}}?特殊召唤(?:(?:至|到)[^。,]{1,10}?场上)?(?=[。,/\\n(]|$)|(?<=时,|[:;])这张卡可以?"
    "{{from_locs}}{{position}}?特殊召唤(?=[。,/\\n(]|$)|(?<=[,:]可以?|才能发动。){{from_locs}}{{position}}?"
    "特殊召唤这张卡(?=[。,/\\n(]|$)){{effect_so_far}}",
}


def _texts(shared, tw_every: int = 3) -> list[str]:
    """The normalized zh-CN texts of every yaml-yugi card, the zh-TW ones of every ``tw_every``-th,
    and every example of the Chinese patterns (shared with the other zh rewrite tests)."""
    import orjson

    out = []
    with open(shared / "data" / "yaml-yugi" / "cards.jsonl", "rb") as f:
        for n, line in enumerate(f):
            text = orjson.loads(line).get("text") or {}
            for lang, every in (("zh-CN", 1), ("zh-TW", tw_every)):
                if text.get(lang) and n % every == 0:
                    out.append(normalize(text[lang], lang).text)
    cat = load_catalog()
    for p in cat.by_lang["zh"]:
        out += [normalize(e["text"], "zh-CN").text for e in p.examples_match]
        out += [normalize(t if isinstance(t, str) else t["text"], "zh-CN").text for t in p.examples_no_match]
    return out


@pytest.fixture(scope="module")
def texts(shared):
    return _texts(shared)


def _found(rx, text):
    return [(m.span(), {k: m.captures(k) for k in rx.groupindex}) for m in rx.finditer(text)]


def _expand(frags, source: str, old: dict[str, str]) -> str:
    """``source`` with each {{name}} replaced by its fragment (``old[name]`` where given), as the
    loader does it: each fragment inside ``(?:...)``, its own references expanded first."""
    def one(m):
        name = m.group(1)
        return "(?:" + _expand(frags, old.get(name, frags[name].source), old) + ")"
    return re.sub(r"\{\{(\w+)\}\}", one, source)


def requires_left_out(pid: str, old_requires, texts) -> tuple[int, int]:
    """For a pattern whose ``requires`` was made stronger: among the texts the ``old_requires``
    let through, fails (AssertionError naming the text) on one the new literals leave out that holds
    a match; returns ``(texts left out, matches found)``, which the caller bounds from below (the
    new literals must leave texts out, and the pattern must still match).  Shared by every test of a
    stronger ``requires`` (tests/test_zh_requires_eighth.py, tests/test_zh_proc_requires.py)."""
    p = load_catalog().get(pid)
    assert set(p.requires) != set(old_requires)
    left_out = matched = 0
    for t in texts:
        if not any(r in t for r in old_requires):
            continue
        found = list(p.regex.finditer(t))
        if not any(r in t for r in p.requires):
            left_out += 1
            assert not found, (pid, t)
        matched += len(found)
    return left_out, matched


@pytest.mark.parametrize("pid", sorted(_OLD_REQUIRES))
def test_stronger_requires_leave_out_no_text_with_a_match(pid, texts):
    """Where the old ``requires`` let a text through and the new one does not, the pattern finds
    nothing; and the new literals do leave texts out (else the gate would be no gain)."""
    left_out, matched = requires_left_out(pid, _OLD_REQUIRES[pid], texts)
    assert left_out > 100 and matched >= 5, (left_out, matched)


@pytest.mark.parametrize("pid", ["zh.player-lock-cannot", "zh.player-lock-can-only", "zh.material-line-count",
                                 "zh.material-line-xyz", "zh.material-line-fusion", "zh.material-line-synchro",
                                 "zh.material-line-fusion-run-on", "zh.special-summons-itself"])
def test_rewritten_fragments_and_regexes_find_what_the_old_ones_found(pid, texts):
    """``pid`` with the fragments (and its own regex) as they were before this pass finds the same
    spans and captures on every text as the catalog's pattern."""
    cat = load_catalog()
    frags = cat.fragments["zh"]
    p = cat.get(pid)
    source = _OLD_REGEX.get(pid, p.source)
    old_rx = regex.compile(_expand(frags, source, _OLD_FRAGMENTS), p.regex.flags & ~(regex.UNICODE | regex.VERSION0))
    assert old_rx.pattern != p.regex.pattern  # (one of the old forms is in it)
    found = 0
    for t in texts:
        want = _found(old_rx, t)
        assert _found(p.regex, t) == want, (pid, t)
        found += len(want)
    assert found >= (1 if pid.endswith("run-on") else 20), found  # (the run-on lines are rare)
