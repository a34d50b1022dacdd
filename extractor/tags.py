"""Flat tags of ``../shared/eval/TAGS.md``, computed from a card's :class:`~extractor.profile.Profile`.

``tags_from_profile(profile) -> list[str]`` (sorted).  Tags are never computed from conditions
directly, so the profile and the tags cannot disagree.  Where a tag's scope is narrower than the
play fact it names (TAGS.md scope notes, eval README mapping rules), the narrowing is written
here, next to the tag, and nowhere else: the rules core reads the same profile facts unnarrowed.
"""
from __future__ import annotations

from .profile import Profile, shared

#: The tag names of TAGS.md without their ``:<value>`` part (the vocabulary :func:`tags_from_profile`
#: writes in; ``query`` checks ``tag:`` terms against it).
TAG_NAMES: tuple[str, ...] = (
    "cannot-normal-summon", "cannot-normal-set", "special-summon-monster", "revive-limit", "nomi", "semi-nomi",
    "cannot-special-summon", "special-summon-only-by", "must-first-be", "builtin-special-summon",
    "builtin-special-summon-from", "cannot-special-summon-from", "tributes-required", "tribute-summon-3-optional",
    "normal-summon-without-tributes", "summon-condition-while", "gemini", "fusion-materials-only",
    "grants-additional-normal-summon")

#: Ritual and Extra Deck monsters (TAGS.md: "frame-locked")
_FRAME_LOCKED = frozenset({"ritual", "fusion", "synchro", "xyz", "link"})


#: ``id`` of a profile :func:`extractor.profile.build_profile` shares (:func:`extractor.profile.shared`:
#: kept alive for the whole process, so the id stays its own) -> its tags
_SHARED_TAGS: dict[int, tuple[str, ...]] = {}


def tags_from_profile(p: Profile) -> list[str]:
    """The TAGS.md tags of a card with profile ``p`` (sorted list of strings, the caller's own).

    The tags of a shared profile (most cards': :func:`extractor.profile.build_profile`) are
    computed once and copied for each card."""
    got = _SHARED_TAGS.get(id(p))
    if got is not None:
        return list(got)
    tags = _tags(p)
    if shared(p):
        _SHARED_TAGS[id(p)] = tuple(tags)
    return tags


def _tags(p: Profile) -> list[str]:
    """:func:`tags_from_profile` computed afresh."""
    tags: set[str] = set()
    if p.grants_additional_normal_summon:
        tags.add("grants-additional-normal-summon")
    ns, ss = p.normal_summon, p.special_summon
    if ns is None or ss is None:
        return sorted(tags)
    locked = p.card_kind in _FRAME_LOCKED
    flags = {
        "cannot-normal-summon": not ns.allowed,
        "cannot-normal-set": not ns.set_allowed,
        "special-summon-monster": ss.special_summon_monster,
        "revive-limit": ss.revive_limit,
        "nomi": ss.nomi,
        "semi-nomi": ss.semi_nomi,
        # TAGS.md: "cannot be Special Summoned at all, and has no procedure of its own"; eval README:
        # "is not a special-summon-monster and is not frame-locked"
        "cannot-special-summon": ss.cannot_special_summon and not ss.special_summon_monster and not locked,
        "tributes-required:3": ns.tributes == 3,
        "tribute-summon-3-optional": 3 in ns.alternative_tributes,
        "normal-summon-without-tributes": 0 in ns.alternative_tributes,
        "summon-condition-while": ns.while_condition,
        "gemini": p.gemini,
        "fusion-materials-only": ss.fusion_materials_only,
    }
    tags.update(t for t, on in flags.items() if on)
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
    return sorted(tags)
