"""Seventh speed pass: zh.tribute-rule-required's ``requires`` names the literal each branch of its
regex opens with (这张卡只 / 此卡仅 ..., 解放的场合才能, 解放则不能, 只能解放 / 仅可解放, 必须把 /
必须解放) instead of 解放 alone.  The new literals are a stronger necessary condition: no yaml-yugi
text (zh-CN, and zh-TW normalized) nor Chinese example with a match is left out, and the generated
gate still gives what the masks and checks give on them; skipped when ../shared is absent."""
import pytest

from extractor.patterns import ALL_SCOPES, load_catalog

from test_zh_pattern_rewrites import _texts  # every zh-CN and zh-TW text and the Chinese examples

_PID = "zh.tribute-rule-required"
_OLD_REQUIRES = ["解放"]  # its `requires` before this pass


@pytest.fixture(scope="module")
def texts(shared):
    return _texts(shared, tw_every=1)


def test_tribute_rule_required_requires_leaves_out_no_text_with_a_match(texts):
    """Where the old ``requires`` let a text through and the new one does not, the pattern finds
    nothing; the new literals do leave texts out (else no gain); and the pattern does match."""
    p = next(q for q in load_catalog().by_lang["zh"] if q.id == _PID)
    assert set(p.requires) != set(_OLD_REQUIRES)
    old_in = new_in = matched = 0
    for text in texts:
        if not any(r in text for r in _OLD_REQUIRES):
            continue
        old_in += 1
        if any(r in text for r in p.requires):
            new_in += 1
            matched += bool(p.regex.search(text))
        else:
            assert p.regex.search(text) is None, text
    assert old_in > 1000 and new_in < old_in / 5 and matched > 20, (old_in, new_in, matched)


def test_generated_gate_with_the_new_requires_gives_what_the_masks_and_checks_give(texts):
    """The gate built with this ``requires`` list (its literals share pieces the gate groups under
    解放) lets through what the plain reading of the masks and checks lets through."""
    from extractor.patterns import _holds
    from extractor.patterns.runner import PLANNED_SCOPES

    cat = load_catalog()
    tried = 0
    for scopes in PLANNED_SCOPES:
        plan = cat._plan("zh-CN", scopes)
        i = next((i for i, q in enumerate(plan.patterns) if q.id == _PID), None)
        assert i is not None or scopes != ALL_SCOPES
        for text in texts[::3] + ["这张卡的效果发动的回合,自己不是「龙女仆」怪兽不能特殊召唤。"]:
            mask = plan.mask(text)
            known: dict[str, bool] = {}
            want = [j for j in range(len(plan.patterns)) if mask >> j & 1
                    and (not plan.checks[j] or _holds(plan.checks[j], text, known))]
            got = plan.gate(text)
            assert got == want, (scopes, text)
            tried += i is not None and i in got
    assert tried > 20
