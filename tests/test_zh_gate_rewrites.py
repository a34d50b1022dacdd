"""Seventh speed pass, the gates of the two costliest Chinese clause-start procedures
(zh.builtin-special-summon-situation and zh.builtin-special-summon-this-card-can): ``situation_gate``
and ``this_card_can_gate`` were rewritten for the engine's literal search and made stricter (a 时 only
after 存在/没有/以上/以下 or a 仅/只; no 。 : ; or line break before this card's 这张卡).  Each pattern
with the old gate written out here finds the same spans and captures as the catalog's on every
yaml-yugi text (zh-CN and zh-TW, normalized) and on every Chinese example; skipped when ../shared is
absent."""

import pytest
import regex

from extractor.patterns import load_catalog

from test_zh_pattern_rewrites import _expand, _found, _texts  # shared with the other zh rewrite tests

# fragment -> its regex before this pass
_OLD_FRAGMENTS = {
    "situation_gate": "(?=[^。]*?(?:的场合|时),?(?=[才仅只可能直以表里攻守在从把将进特])(?:[^。]|\\([^)]{1,12}\\))*?特殊召唤)",
    "this_card_can_gate": "(?=[^。]*?这张卡(?:1回合1次)?(?:才能|仅可|只能|可|能)(?:[^。]|\\([^)]{1,12}\\))*?特殊召唤)"
    "(?=[^。]*?这张卡[^。]*?特殊召唤)",
}

# pattern id -> the gate fragment it starts with (after its proc_start anchor)
_GATED = {
    "zh.builtin-special-summon-situation": "situation_gate",
    "zh.builtin-special-summon-this-card-can": "this_card_can_gate",
}


@pytest.fixture(scope="module")
def texts(shared) -> list[str]:
    """The normalized zh-CN and zh-TW texts of every yaml-yugi card, and every example of the
    Chinese patterns."""
    return _texts(shared, tw_every=1)


@pytest.mark.parametrize("pid", sorted(_GATED))
def test_rewritten_gate_finds_what_the_old_gate_found(pid, texts):
    """``pid`` with its gate as it was before this pass finds the same spans and captures on every
    text as the catalog's pattern (finditer: at every position, not only at the anchor's)."""
    cat = load_catalog()
    frags = cat.fragments["zh"]
    p = cat.get(pid)
    assert frags[_GATED[pid]].source != _OLD_FRAGMENTS[_GATED[pid]]
    old_rx = regex.compile(_expand(frags, p.source, _OLD_FRAGMENTS), p.regex.flags & ~(regex.UNICODE | regex.VERSION0))
    assert old_rx.pattern != p.regex.pattern
    found = 0
    for t in texts:
        if "特殊召唤" not in t:  # (proc_start needs 特殊召唤 later in the sentence)
            continue
        want = _found(old_rx, t)
        assert _found(p.regex, t) == want, (pid, t)
        found += len(want)
    assert found >= 300, found


@pytest.mark.parametrize("pid", sorted(_GATED))
def test_new_gate_is_stricter_and_implies_the_old_gate(pid, texts):
    """At every position where the procedure's anchor holds, the new gate holds only where the old
    one did, and it lets fewer positions through (else the stricter form would buy nothing)."""
    cat = load_catalog()
    frags = cat.fragments["zh"]
    name = _GATED[pid]
    new = regex.compile(_expand(frags, frags[name].source, {}))
    old = regex.compile(_expand(frags, _OLD_FRAGMENTS[name], {}))
    anchor = cat.get(pid).anchor
    n_new = n_old = 0
    for t in texts:
        if "特殊召唤" not in t:
            continue
        for m in anchor.finditer(t):
            a = m.start()
            got_new, got_old = new.match(t, a) is not None, old.match(t, a) is not None
            assert got_old or not got_new, (name, t, a)
            n_new += got_new
            n_old += got_old
    assert 0 < n_new < n_old, (n_new, n_old)
