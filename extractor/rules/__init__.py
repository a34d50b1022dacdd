"""The summoning rules core: ``judge(scenario) -> Verdict``.

A *scenario* (format: ``../shared/rules/SCENARIOS.md``, version 1) asks one question about one
monster card: may it, in a stated state, be Normal Summoned / Set / Tribute Summoned / Tribute
Set / Flip Summoned / Gemini Summoned / Special Summoned in a stated way; or can a negating card
negate a kind of Summon (seed 002).

The card's Summoning Conditions come ONLY from ``card.text`` through the project pipeline
(:func:`extractor.pipeline.analyze_text`: normalizer -> patterns -> condition objects ->
profile), together with the type-line facts ``card.frame``, ``card.level`` and ``card.gemini``.
``card.name`` is never used, and ``expect``, ``source`` and ``note`` are never read.

Seeds (``../shared/seeds/``): 000 = ``000_2cce58483c21c2ec.txt`` (Summoning rules and
conditions), 002 = ``002_e557eadf37fb9071.txt`` (Special Summons, negation, Summoned correctly),
003 = ``003_ce6763b963d390f1.txt`` (Traditional Chinese: Normal / Flip / Special Summon, Fusion
Substitutes, revival limits), 004 = ``004_17e504aecb0a82bd.txt`` (Normal Summon, Set, Tribute,
Gemini, additional Normal Summons).

Errors: a scenario that breaks the format raises :class:`ScenarioError` (a ``ValueError``), whose
message names the offending field (``card.lang``, ``action.tributes`` ...).

The package, one file per idea: :mod:`.vocabulary` (SCENARIOS.md section 3), :mod:`.scenario`
(:class:`ScenarioError`, :func:`validate`: the input checks), :mod:`.facts` (:func:`card_facts`:
the card's profile as the rules see it), :mod:`.judging` (:class:`Verdict`, :func:`judge`,
:func:`judge_all`: the rules).  Everything is importable from ``extractor.rules`` as before.
"""
from __future__ import annotations

from .facts import CardFacts, card_facts, frame_of
from .judging import (Verdict, judge, judge_all, judge_flip, judge_gemini, judge_negation, judge_normal_family,
                    judge_special, normal_summon_limit, summon_left)
from .scenario import ScenarioError, validate
from .vocabulary import *  # noqa: F401,F403 (the scenario vocabulary, as the single module had it)
from .vocabulary import REASONS

__all__ = ["Verdict", "ScenarioError", "judge", "card_facts", "CardFacts", "REASONS"]
