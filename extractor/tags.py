"""Flat tags of ``../shared/eval/TAGS.md``, computed from a card's :class:`~extractor.profile.Profile`.

``tags_from_profile(profile) -> list[str]`` (sorted).  Tags are never computed from conditions
directly, so the profile and the tags cannot disagree.
"""
from __future__ import annotations

from .profile import Profile


def tags_from_profile(p: Profile) -> list[str]:
    """The TAGS.md tags of a card with profile ``p`` (sorted list of strings)."""
    tags: set[str] = set()
    if p.grants_additional_normal_summon:
        tags.add("grants-additional-normal-summon")
    ns, ss = p.normal_summon, p.special_summon
    if ns is None or ss is None:
        return sorted(tags)
    if not ns.allowed:
        tags.add("cannot-normal-summon")
    if not ns.set_allowed:
        tags.add("cannot-normal-set")
    if ss.special_summon_monster:
        tags.add("special-summon-monster")
    if ss.revive_limit:
        tags.add("revive-limit")
    if ss.nomi:
        tags.add("nomi")
    if ss.semi_nomi:
        tags.add("semi-nomi")
    if ss.cannot_special_summon:
        tags.add("cannot-special-summon")
    for k in ss.only_by:
        tags.add(f"special-summon-only-by:{k}")
    for k in ss.must_first_be:
        if k != "ritual":  # TAGS.md: must-first-be kinds are fusion/synchro/xyz/link (Ritual: frame rule)
            tags.add(f"must-first-be:{k}")
    if ss.procedures:
        tags.add("builtin-special-summon")
        for pr in ss.procedures:
            for loc in pr.locations:
                tags.add(f"builtin-special-summon-from:{loc}")
    for loc in ss.cannot_from:
        tags.add(f"cannot-special-summon-from:{loc}")
    if ns.tributes == 3:
        tags.add("tributes-required:3")
    if 3 in ns.alternative_tributes:
        tags.add("tribute-summon-3-optional")
    if 0 in ns.alternative_tributes:
        tags.add("normal-summon-without-tributes")
    if ns.while_condition:
        tags.add("summon-condition-while")
    if p.gemini:
        tags.add("gemini")
    if ss.fusion_materials_only:
        tags.add("fusion-materials-only")
    return sorted(tags)
