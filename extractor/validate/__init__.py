"""Validate translated card text: do two texts of the same card state the same Summoning
Conditions?

``validate(source, target, source_lang=..., target_lang=...) -> ValidationReport`` pairs the
cards of two inputs by passcode, extracts the conditions of BOTH texts with
:func:`extractor.pipeline.analyze_text` and compares them as condition objects.  Only
conditions read from the TEXT are compared: the frame (card type) is the same on both sides and
says nothing about the translation; it only picks the default location of a procedure.

Wording never matters: the normalizers map every Chinese register and script to one canonical
form, the patterns read the text into condition objects, and whatever a comparison needs to know
about how a statement was worded (first or only, a situation stated inside a procedure, an
"only" resting on a bare 才能) is a FIELD of those objects, set when the text was read
(:mod:`extractor.conditions`, "Readings").  The comparison sees a condition only through a
projection without its phrase and language (:class:`~extractor.validate.views.View`).

The parts:

- :mod:`.inputs`: reading the two inputs, pairing cards by passcode;
- :mod:`.text_checks`: checks of one text on its own (truncation);
- :mod:`.views`: the canonical view of a condition (group and slots);
- :mod:`.rules`: the meaning rules, a registry (name, seed sentence, what it decides);
- :mod:`.pairing`: pairing the conditions of two texts within a group;
- :mod:`.severity`: how much a difference matters;
- :mod:`.compare`: :func:`compare_conditions`, one card's two lists of conditions;
- :mod:`.check`: :func:`validate`, card by card (card-level problems: a card on one side only,
  an empty, truncated or unanalyzable text, with the side);
- :mod:`.report`: the models and the ``-o`` output; :mod:`.html`: the HTML report;
- :mod:`.reference`: :func:`validate_reference`, every translation compared with the original
  (reference) text, saying which translation departs (``validate --reference ja``).
"""
from __future__ import annotations

from .check import check_card, validate
from .compare import compare_conditions
from .html import render_html, render_reference_html
from .report import (ALL_KINDS, CARD_PROBLEM_KINDS, CONDITION_MISMATCH_KINDS, MISMATCH_KINDS, CardReport, Mark,
                     Mismatch, Severity, ValidationReport, iter_output)
from .reference import (FORMAT as REFERENCE_FORMAT, Finding, Reading, ReferenceCard, ReferenceReport,
                        iter_reference_output, reference_line_schema, validate_reference)
from .rules import RULES, Rule
from .text_checks import NO_FINAL_PUNCT, truncation
from .views import EFFECT_KINDS, View, canonical

__all__ = ["validate", "check_card", "compare_conditions", "render_html", "iter_output", "truncation",
           "canonical", "View", "ValidationReport", "CardReport", "Mismatch", "Mark", "Severity", "RULES", "Rule",
           "MISMATCH_KINDS", "CARD_PROBLEM_KINDS", "ALL_KINDS", "CONDITION_MISMATCH_KINDS", "EFFECT_KINDS",
           "NO_FINAL_PUNCT", "validate_reference", "ReferenceReport", "ReferenceCard", "Finding", "Reading",
           "iter_reference_output", "reference_line_schema", "REFERENCE_FORMAT", "render_reference_html"]
