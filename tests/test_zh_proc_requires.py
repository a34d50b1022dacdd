"""Eighth speed pass, the Chinese clause-start procedure patterns.  Stronger ``requires`` literals,
each read off what every match holds right before its 特殊召唤 (or around its 这张卡).  Where the old
``requires`` (特殊召唤) let a text through and the new literals do not, the pattern finds nothing
(``finditer``: at every position, not only at its anchor's), on every yaml-yugi text (zh-CN, and
zh-TW normalized) and every Chinese example; and the new literals do leave texts out.  And the
after_cannot_normal_summon anchor, now tried only at the pieces of a ``within`` gate and after its
``anchor_after`` literals, holds where the scan over the whole text found it.  Skipped when
../shared is absent."""

import pytest

from extractor.patterns import load_catalog

from test_zh_pattern_rewrites import _texts, requires_left_out  # shared with the other zh rewrite tests

# pattern id -> its `requires` before this pass
_OLD_REQUIRES = {
    "zh.builtin-special-summon-situation": ["特殊召唤"],
    "zh.builtin-special-summon-this-card-can": ["特殊召唤"],
    "zh.builtin-special-summon-method": ["特殊召唤"],
    "zh.builtin-special-summon-verb-first": ["特殊召唤"],
    "zh.builtin-special-summon-cost-comma": ["特殊召唤"],
}


@pytest.fixture(scope="module")
def texts(shared) -> list[str]:
    """The normalized zh-CN and zh-TW texts of every yaml-yugi card, and every Chinese example."""
    return _texts(shared, tw_every=1)


@pytest.mark.parametrize("pid", sorted(_OLD_REQUIRES))
def test_stronger_requires_leave_out_no_text_with_a_match(pid, texts):
    left_out, matched = requires_left_out(pid, _OLD_REQUIRES[pid], texts)
    # (the literals rule out texts, else they would be no gain; the matches are still found)
    assert left_out > 1000 and matched >= 10, (left_out, matched)



@pytest.mark.parametrize("pid", ["zh.builtin-special-summon-after-cannot-normal-summon",
                                 "zh.must-be-special-summoned-own-effect-trigger"])
def test_after_cannot_normal_summon_anchor_tried_after_its_literals_holds_where_the_whole_scan_found_it(pid, texts):
    """The two patterns at ``after_cannot_normal_summon`` got ``within`` (the sentences with 特殊召唤)
    and ``anchor_after`` (\\n, 召唤,) in this pass instead of the anchor scanned over the whole text:
    the anchor tried at the pieces' starts and after those literals holds at the same positions as
    that scan, on every text."""
    from extractor.patterns.runner import _after_positions, _pieces

    p = load_catalog().get(pid)
    assert p.within == ("。", ("特殊召唤",)) and p.anchor_after == ("\n", "召唤,")
    found = 0
    for t in texts:
        want = [m.start() for m in p.anchor.finditer(t)]
        assert _after_positions(t, _pieces(t, *p.within), p.anchor, p.anchor_after) == want, (pid, t)
        found += len(want)
    assert found > 300, found
