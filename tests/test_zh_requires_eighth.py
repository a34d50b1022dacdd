"""Eighth speed pass, the Chinese patterns that are not clause-start procedures: each stronger
``requires`` keeps every match.  The old ``requires`` are written out here; where the old literals
let a text through and the new ones do not, the pattern must find nothing, on the yaml-yugi texts
(zh-CN, and zh-TW normalized) and every Chinese example; skipped when ../shared is absent."""
import pytest


from test_zh_pattern_rewrites import _texts, requires_left_out

# pattern id -> its `requires` before this pass
_OLD_REQUIRES = {
    # 1回合 is in most once-per-turn effects; a match holds 」 or 自己 right before it
    "zh.summon-limit": ["1回合", "决斗中", "1场决斗"],
    # 进行 is in many texts; a match ends in 的召唤 / 的通常召唤 / 的上级召唤
    "zh.additional-normal-summon-conduct": ["进行"],
}


@pytest.fixture(scope="module")
def texts(shared):
    return _texts(shared)


@pytest.mark.parametrize("pid", sorted(_OLD_REQUIRES))
def test_stronger_requires_leave_out_no_text_with_a_match(pid, texts):
    """No text the old ``requires`` let through and the new one leaves out holds a match; the new
    literals leave texts out (else the gate gains nothing) and the pattern still matches."""
    left_out, matched = requires_left_out(pid, _OLD_REQUIRES[pid], texts)
    assert left_out > 500 and matched >= 50, (left_out, matched)
