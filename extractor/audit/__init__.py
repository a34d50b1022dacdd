"""Audit a ygopro / EDOPro ``cards.cdb``: does what the database says about each card (the type
bits of ``datas.type``, the ``alias`` groups) agree with what the card's text says?

``audit(path) -> AuditReport``.  Every card is read with :func:`extractor.readers.read_cards`
and analyzed with :func:`extractor.pipeline.analyze`, the same pipeline as ``tag``; the audit
compares the result (conditions with their spans, the summoning profile) with the raw
``datas`` row, opened read-only (``mode=ro``: the database is never written).

Checks (:data:`CHECKS`), one :class:`Finding` per problem:

- ``special-summon-flag-missing``: a Main Deck, non-Ritual monster whose text says it cannot be
  Normal Summoned or Set (profile ``special_summon.special_summon_monster``) lacks the type bit
  ``0x2000000``.  Seed 000 ("Normal Summoning Conditions"): "Cannot be Normal Summoned or Set.
  ... included on all Special Summon-only cards".
- ``special-summon-flag-extra``: the bit is set, the text does not say so.  ``high`` only when
  the text states nothing that could mean it (no Special Summon condition, no unread wording);
  ``medium`` when the text gives a Special Summon method or procedure without the "Cannot be
  Normal Summoned/Set" sentence (older and translated texts leave it out), allows a Set, or
  restricts the Summon only while a condition holds (Guardian style);
  ``low`` on a Ritual / Extra Deck monster (the frame already forbids the Normal Summon; the
  class is Main Deck, non-Ritual only) and on a text the tool cannot read (wording the catalog
  does not read, a language without patterns).  Empty texts are not judged here (``empty-text``).
- ``empty-text``: an empty or whitespace-only text.  A monster with no text and no Special Summon
  bit looks Normal-Summonable to every engine (``high``).
- ``alias-conditions-differ``: an alternate artwork row (``datas.alias`` = the base passcode, the
  two passcodes less than 20 apart as ygopro's ``CARD_ARTWORK_VERSIONS_OFFSET``; rows whose
  ``alias`` only makes the name "always treated as" another card are not artworks) states other
  Summoning Conditions than its base row: an errata kept in one row only.  Compared with
  :func:`extractor.validate.compare_conditions`, the comparison of ``validate``.
- ``frame-text-conflict``: the type bits and the text disagree about the frame: a material line on
  a card without an Extra Deck bit, a Pendulum Effect block without the Pendulum bit, the Gemini
  reminder (the catalog's ``gemini`` condition) without the Gemini bit, the Toon reminder without
  the Toon bit.  The wording is data: ``patterns/cues/audit-<lang>.yaml`` (:func:`load_audit_cues`).
- ``unreadable``: a record the reader or the pipeline could not read (the error names the card);
  ``no-datas-row``: a ``texts`` row with no ``datas`` row (nothing to compare the text with).

:func:`sql_patch` writes ``UPDATE datas SET type = ...`` statements for the type-bit findings:
each fix the text proves fully is applied; the others (a Pendulum bit without its Scales, a
material line whose Extra Deck kind is unknown, findings below ``high``) are written as comments.
"""
from __future__ import annotations

from .cues import AuditCue, AuditCueError, find_cue, load_audit_cues, material_line
from .html import render_html
from .report import CHECKS, SEVERITIES, TYPE_BIT_CHECKS, AuditReport, CardAudit, Finding, iter_output
from .run import ARTWORK_OFFSET, audit
from .sql import sql_patch

__all__ = ["CHECKS", "SEVERITIES", "TYPE_BIT_CHECKS", "Finding", "CardAudit", "AuditReport", "audit", "sql_patch",
           "render_html", "iter_output", "load_audit_cues", "AuditCue", "AuditCueError", "find_cue", "material_line",
           "ARTWORK_OFFSET"]
