"""Card facts: the card's :class:`~extractor.profile.Profile` (pipeline: text -> conditions ->
profile) and the scenario's type-line facts, as the rules core sees one card."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..frame import Frame
from ..profile import Profile
from .vocabulary import (EXTRA_FRAMES)


def frame_of(card: dict) -> Frame:
    """The pipeline :class:`Frame` for a scenario card (``normal``/``effect``/``pendulum`` are
    Main Deck monsters; SCENARIOS.md 4.3: "``pendulum`` behaves like ``effect``")."""
    f = card["frame"]
    kind = f if f in EXTRA_FRAMES or f == "ritual" else "main_monster"
    return Frame(kind=kind, level=card["level"], pendulum=f == "pendulum", gemini=bool(card.get("gemini")),
                 normal=f == "normal")


@lru_cache(maxsize=4096)
def _norm_name(name: str, lang: str) -> str:
    """A card name in the pipeline's normalized form (so a Traditional name quoted in the text
    and the same name in ``action`` compare equal); quotes and spaces are dropped."""
    from ..normalize import normalize
    t = normalize(name, lang).text
    return "".join(ch for ch in t if ch not in "\"'「」“”『』《》 \u3000").casefold()


@dataclass(frozen=True)
class CardFacts:
    """The rules' view of one card: its :class:`~extractor.profile.Profile` (the one reading of
    the card for play, shared with ``tag``) and the scenario's type-line facts.

    Every Summoning fact (Tribute counts, Set allowed, Nomi / Semi-Nomi, revive limit, blanket and
    location bans, procedures, named cards) is read from ``profile``; nothing here re-reads the
    conditions.  ``frame``: the scenario frame (``effect``, ``fusion`` ...); ``lang``: the script
    the names are compared in; ``gemini``: a Gemini (type line, or the Gemini reminder text on an
    ``effect`` frame).
    """

    profile: Profile
    frame: str
    lang: str
    gemini: bool

    @property
    def ns(self) -> NormalSummonProfile:
        return self.profile.normal_summon  # type: ignore[return-value]  # a monster always has one

    @property
    def ss(self) -> SpecialSummonProfile:
        return self.profile.special_summon  # type: ignore[return-value]

    @property
    def procedure_locations(self) -> tuple[str, ...]:
        """Where the card's built-in procedures Special Summon it from (empty: no procedure)."""
        return tuple(dict.fromkeys(loc for p in self.ss.procedures for loc in p.locations))

    @property
    def nomi(self) -> bool:
        """Special Summoned only by its stated method, for any frame (SCENARIOS.md 4.3: an Extra
        Deck or Ritual text may forbid other Special Summons too; TAGS.md: "the rules core treats
        it alike in play")."""
        return self.ss.method_limit == "only"

    @property
    def text_condition(self) -> bool:
        """Nomi, Semi-Nomi or Ritual: conditions that also bind a Special Summon from the hand,
        Deck or Extra Deck (SCENARIOS.md 4.4)."""
        return self.ss.method_limit is not None or self.ss.ritual_condition or self.frame == "ritual"

    @property
    def named_cards(self) -> frozenset[str]:
        """The named-card method(s), normalized for comparing with ``named-card:<name>``."""
        return frozenset(_norm_name(n, self.lang) for n in self.ss.named_cards)

    @property
    def ritual_spell(self) -> str | None:
        """The Ritual Spell the text names, normalized (``None``: none named)."""
        return _norm_name(self.ss.ritual_spell, self.lang) if self.ss.ritual_spell else None


@lru_cache(maxsize=4096)
def _facts_cached(text: str, lang: str, frame: str, level: int, gemini: bool) -> CardFacts:
    from ..pipeline import analyze_text

    fr = frame_of({"frame": frame, "level": level, "gemini": gemini})
    _conds, profile, _tags, _mt, _seg = analyze_text(text, lang, fr)
    return CardFacts(profile=profile, frame=frame, lang=lang,
                     gemini=gemini or (profile.gemini and frame == "effect"))


def card_facts(card: dict) -> CardFacts:
    """Facts of a scenario ``card`` (keys ``text``, ``lang``, ``frame``, ``level``, ``gemini``;
    ``name`` is ignored).  Runs the pipeline once per distinct card (cached).

    Seed 000: "Summoning Rules ... are primarily dictated by Level, but may also be influenced by
    inherent limitations in their Summoning Conditions": both come from the profile.  Seed 004:
    "In OCG text, "Normal Summon/Set" would be referred to as 通常召喚, while "Normal Summon (but
    not set)" would be referred to as only 召喚" (carried by ``set_allowed`` on the conditions and
    the profile's ``set_counts``).
    """
    return _facts_cached(card["text"], card["lang"], card["frame"], card["level"], bool(card.get("gemini")))
