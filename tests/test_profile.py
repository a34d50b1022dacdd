"""Profile rules (language-independent): conditions + frame -> profile -> tags.

Conditions are built directly (no text), as a Chinese or English pattern would produce them.
Rules: TAGS.md / eval README mapping rules, SCENARIOS.md 4.2-4.4, seeds 000 and 002.
"""
from __future__ import annotations

from extractor.conditions import (AdditionalNormalSummon, BuiltinSpecialSummon, CannotNormalSummon,
                                  CannotSpecialSummon, CannotSpecialSummonFrom, MustBeSpecialSummoned,
                                  MustFirstBeSummonedBy, SpecialSummonOnlyBy, SpecialSummonsItself,
                                  TributesRequired)
from extractor.frame import Frame
from extractor.profile import build_profile
from extractor.tags import tags_from_profile

MAIN = Frame(kind="main_monster", level=8)
FUSION = Frame(kind="fusion", level=8)
_K = dict(span=(0, 1), pattern_id="test", lang="xx")


def tags(conds, frame=MAIN):
    return set(tags_from_profile(build_profile(conds, frame)))


def cns(set_allowed=False):
    return CannotNormalSummon(set_allowed=set_allowed, **_K)


def test_nomi_procedure_from_hand_by_default():
    t = tags([cns(), BuiltinSpecialSummon(exclusive=True, **_K)])
    assert {"nomi", "revive-limit", "special-summon-monster", "builtin-special-summon",
            "builtin-special-summon-from:hand"} <= t
    assert "semi-nomi" not in t


def test_must_first_procedure_is_semi_nomi():
    t = tags([cns(), BuiltinSpecialSummon(exclusive=True, first=True, locations=("hand", "gy"), **_K)])
    assert {"semi-nomi", "builtin-special-summon-from:hand", "builtin-special-summon-from:gy"} <= t
    assert "nomi" not in t


def test_by_card_effect_is_neither_even_with_a_self_summoning_effect():
    t = tags([cns(), MustBeSpecialSummoned(method="card-effect", exclusive=False, **_K),
              SpecialSummonsItself(locations=("hand",), **_K)])
    assert t == {"cannot-normal-summon", "cannot-normal-set", "special-summon-monster"}


def test_self_summoning_effect_alone_makes_semi_nomi_without_procedure():
    t = tags([cns(), SpecialSummonsItself(locations=("hand",), **_K)])
    assert "semi-nomi" in t and "revive-limit" in t
    assert "builtin-special-summon" not in t


def test_cannot_normal_summon_alone_is_only_a_special_summon_monster():
    assert tags([cns()]) == {"cannot-normal-summon", "cannot-normal-set", "special-summon-monster"}


def test_named_card_method_is_nomi_without_procedure():
    t = tags([cns(), MustBeSpecialSummoned(method="named-card", named_cards=("X",), **_K)])
    assert "nomi" in t and "builtin-special-summon" not in t


def test_extra_deck_procedure_defaults_to_extra_and_is_not_nomi():
    t = tags([BuiltinSpecialSummon(exclusive=True, **_K),
              CannotSpecialSummonFrom(locations=("extra",), **_K)], FUSION)
    assert {"builtin-special-summon", "builtin-special-summon-from:extra", "revive-limit",
            "cannot-normal-summon", "cannot-normal-set"} <= t
    assert "nomi" not in t and "special-summon-monster" not in t
    assert "cannot-special-summon-from:extra" not in t  # its own procedure uses that location


def test_cannot_special_summon_needs_no_procedure():
    assert "cannot-special-summon" in tags([CannotSpecialSummon(**_K)])
    assert "cannot-special-summon" not in tags([CannotSpecialSummon(**_K), BuiltinSpecialSummon(**_K)])


def test_pendulum_only_by_has_no_revive_limit_but_fusion_does():
    assert tags([SpecialSummonOnlyBy(summon="pendulum", **_K)]) == {"special-summon-only-by:pendulum"}
    assert "revive-limit" in tags([SpecialSummonOnlyBy(summon="fusion", **_K)], FUSION)


def test_must_first_be_ritual_is_not_a_tag():
    t = tags([MustFirstBeSummonedBy(summon="ritual", **_K)], Frame(kind="ritual", level=8))
    assert not any(x.startswith("must-first-be") for x in t)


def test_three_tributes_and_the_set():
    p = build_profile([TributesRequired(**_K)], MAIN)
    assert p.normal_summon.tributes == 3 and p.normal_summon.set_allowed
    assert "cannot-normal-set" not in tags([TributesRequired(**_K)])
    both = [TributesRequired(**_K), TributesRequired(set_allowed=False, **_K)]
    assert {"tributes-required:3", "cannot-normal-set"} <= tags(both)
    assert not build_profile(both, MAIN).normal_summon.mausoleum_allowed


def test_grant_on_a_spell_has_no_monster_parts():
    p = build_profile([AdditionalNormalSummon(**_K)], Frame(kind="spell"))
    assert p.normal_summon is None and tags_from_profile(p) == ["grants-additional-normal-summon"]


def test_every_fact_keeps_its_basis():
    conds = [cns(), SpecialSummonsItself(**_K), BuiltinSpecialSummon(**_K)]
    p = build_profile(conds, MAIN)
    assert p.special_summon.self_summon_effects == [1]
    assert p.special_summon.procedures[0].basis == 2
    assert 0 in p.normal_summon.basis


def test_own_effect_method_turns_a_plain_self_summon_into_an_effect():
    conds = [cns(), MustBeSpecialSummoned(method="own-effect", **_K),
             BuiltinSpecialSummon(locations=("hand", "gy"), **_K)]
    p = build_profile(conds, MAIN)
    assert p.special_summon.procedures == [] and p.special_summon.self_summon_effects == [2]
    assert "nomi" in tags(conds) and "builtin-special-summon" not in tags(conds)
