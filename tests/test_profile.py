"""Profile rules (language-independent): conditions + frame -> profile -> tags.

Conditions are built directly (no text), as a Chinese or English pattern would produce them.
Rules: TAGS.md / eval README mapping rules, SCENARIOS.md 4.2-4.4, seeds 000 and 002.
"""
from __future__ import annotations

from extractor.conditions import (AdditionalNormalSummon, BuiltinSpecialSummon, CannotNormalSummon,
                                  CannotSpecialSummon, CannotSpecialSummonFrom, MustBeSpecialSummoned,
                                  MustFirstBeSummonedBy, NormalSummonWithoutTributes, RitualSummonWith,
                                  SpecialSummonOnlyBy, SpecialSummonsItself, TributeSummonOptional,
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


# --- the facts the rules core reads from the profile (one reading for tag and judge) ------------

def test_tribute_counts_for_summon_and_set():
    ns = build_profile([], MAIN).normal_summon
    assert (ns.tributes, ns.summon_counts, ns.set_counts) == (2, [2], [2])
    # "Normal Summon/Set ... without Tributing": 0 for both; "(but not Set)" optional 3: Summon only
    ns = build_profile([NormalSummonWithoutTributes(set_allowed=True, **_K), TributeSummonOptional(**_K)], MAIN).normal_summon
    assert (ns.tributes, ns.alternative_tributes) == (2, [0, 3])
    assert ns.summon_counts == [0, 2, 3] and ns.set_counts == [0, 2]
    # Chinese 召唤 alone: a face-up Summon without Tributes, the Set still needs them
    ns = build_profile([NormalSummonWithoutTributes(**_K)], Frame(kind="main_monster", level=5)).normal_summon
    assert ns.summon_counts == [0, 1] and ns.set_counts == [1]


def test_required_three_is_the_only_count_and_the_set_may_be_forbidden():
    ns = build_profile([TributesRequired(set_allowed=False, **_K), NormalSummonWithoutTributes(**_K)], MAIN).normal_summon
    assert (ns.tributes, ns.summon_counts, ns.set_counts, ns.set_allowed) == (3, [3], [], False)
    assert ns.alternative_tributes == []


def test_cannot_normal_summon_but_set_keeps_the_set_count():
    ns = build_profile([cns(set_allowed=True)], Frame(kind="main_monster", level=6)).normal_summon
    assert (ns.allowed, ns.set_allowed, ns.summon_counts, ns.set_counts, ns.tributes) == (False, True, [], [1], 1)


def test_frame_locked_and_unknown_level_have_no_counts():
    ns = build_profile([], FUSION).normal_summon
    assert (ns.allowed, ns.set_allowed, ns.tributes, ns.summon_counts) == (False, False, None, [])
    ns = build_profile([cns(set_allowed=True)], Frame(kind="main_monster")).normal_summon
    assert ns.tributes is None and ns.set_allowed and ns.set_counts == []


def test_method_limit_on_every_frame_but_nomi_only_for_main_deck():
    only = build_profile([BuiltinSpecialSummon(exclusive=True, **_K)], FUSION).special_summon
    assert (only.method_limit, only.nomi, only.semi_nomi) == ("only", False, False)
    first = build_profile([BuiltinSpecialSummon(exclusive=True, first=True, **_K)], FUSION).special_summon
    assert (first.method_limit, first.semi_nomi) == ("first", False)
    main = build_profile([cns(), BuiltinSpecialSummon(exclusive=True, **_K)], MAIN).special_summon
    assert (main.method_limit, main.nomi) == ("only", True)
    # a Special Summon Monster with an unmarked procedure: Semi-Nomi (seed 000); on a Fusion: no limit
    assert build_profile([cns(), BuiltinSpecialSummon(**_K)], MAIN).special_summon.method_limit == "first"
    assert build_profile([BuiltinSpecialSummon(**_K)], FUSION).special_summon.method_limit is None


def test_normal_summonable_card_with_only_a_named_method():
    # "Cannot be Special Summoned, except with the effect of a "X" card": limited, but not a Nomi
    conds = [MustBeSpecialSummoned(method="named-card", named_cards=("X",), **_K)]
    ss = build_profile(conds, Frame(kind="main_monster", level=4)).special_summon
    assert (ss.method_limit, ss.nomi, ss.special_summon_monster, ss.revive_limit) == ("only", False, False, False)
    assert tags(conds, Frame(kind="main_monster", level=4)) == set()


def test_by_a_card_effect_sets_no_method_limit():
    ss = build_profile([cns(), MustBeSpecialSummoned(method="card-effect", exclusive=False, **_K)], MAIN).special_summon
    assert ss.method_limit is None and not ss.revive_limit and ss.method_card_effect


def test_blanket_ban_is_a_play_fact_and_the_tag_keeps_its_scope():
    assert build_profile([cns(), CannotSpecialSummon(**_K)], MAIN).special_summon.cannot_special_summon
    assert "cannot-special-summon" not in tags([cns(), CannotSpecialSummon(**_K)])
    assert build_profile([CannotSpecialSummon(**_K)], FUSION).special_summon.cannot_special_summon
    assert "cannot-special-summon" not in tags([CannotSpecialSummon(**_K)], FUSION)
    named = MustBeSpecialSummoned(method="named-card", named_cards=("X",), **_K)
    assert not build_profile([CannotSpecialSummon(**_K), named], MAIN).special_summon.cannot_special_summon


def test_ritual_spell_condition_is_a_revive_limit_on_any_frame():
    ss = build_profile([RitualSummonWith(ritual_spell="R", **_K)], MAIN).special_summon
    assert (ss.ritual_condition, ss.ritual_spell, ss.revive_limit) == (True, "R", True)
    assert not build_profile([], MAIN).special_summon.ritual_condition
    # a database without card types (i18n-2012): the text's Ritual condition still gives the limit
    assert "revive-limit" in tags([RitualSummonWith(ritual_spell="R", **_K)], Frame())
    assert "revive-limit" in tags([BuiltinSpecialSummon(first=True, locations=("extra",), **_K)], Frame())
