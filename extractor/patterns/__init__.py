"""The pattern catalog (``patterns/<lang>/*.yaml``) and the matcher that runs it.

A pattern file holds ``language`` and a list ``patterns``; each pattern has:

- ``id``: unique, ``<lang>.<name>``;
- ``regex``: a ``regex``-module expression run on the NORMALIZED text (see ``extractor.normalize``);
- ``yields``: the condition it produces (``kind`` plus fixed fields of
  :mod:`extractor.conditions`);
- ``captures`` (optional): ``field: {group: NAME, as: TYPE}`` -- a field filled from a named
  group (``_``: the whole match; a list of names: the words of those that matched, one per
  line): ``locations`` (location words of the group), ``summon`` (a Summon kind word),
  ``names`` (quoted card names), ``name`` (the first quoted name), ``bool`` (the group matched);
  ``count`` (a number word or digit); ``cost`` / ``requirement`` (a procedure's cost actions and
  precondition, read with the language's fragments by :class:`SlotReader`); ``choice:F`` (the
  name of the group of fragment ``F`` that matched: ``choice:proc_limit`` -> ``once-per-turn``),
  ``flag:F`` (fragment ``F`` matches), ``find:F`` (the words ``F`` finds);
- ``scope`` (optional): ``monster`` (default: the monster text of a monster card), ``any``
  (any card text, the Pendulum Effect included) or ``extra`` (the monster text of an Extra Deck
  monster or of a card whose frame is unknown: the material lines, which
  :func:`extractor.structure.fit_material_lines` drops on any other card; a speed device);
- ``requires`` (optional): literals, at least one of which must be in the text (a fast prefilter);
- ``anchor`` (optional): a zero-width expression (lookarounds, ``^``) that ``regex`` starts with,
  character for character, followed by no top-level ``|``: every match starts where the anchor
  holds.  Patterns with the same anchor share one scan for those positions per text and are then
  tried only there (``regex.match`` at each position; the matches are the same as ``finditer``'s).
  A speed device only: it never changes what a pattern matches;
- ``within`` (optional): ``{breaks: "。;:", cue: [不能]}``: every match lies inside one piece of
  the text between two ``breaks`` characters that holds a ``cue`` literal, so the pattern (or,
  with an ``anchor``, the anchor's scan) runs only over those pieces (``loader._within``);
- ``anchor_after`` (optional, with ``anchor`` and ``within``): literals; inside a piece the anchor
  can hold only at the piece's start or right after one of them, so it is tried only there
  (``str.find``) instead of being scanned over every character.  The loader refuses a pattern
  whose anchor holds elsewhere in one of its examples; tests/test_match_gates.py checks the
  shipped ones on the corpus.  Both are speed devices: they never change what a pattern matches;
- ``examples``: ``match`` (texts it must match; an item may be ``{text, expect}`` with field
  values the condition must have) and ``no_match`` (texts it must not match).  Every example
  runs as a test.

Vocabularies for captures (location and Summon-kind words) live in ``patterns/terms/<lang>.yaml``
under ``vocab``.

Fragments (``patterns/fragments/<lang>.yaml``: ``language`` and a list ``fragments``) name the
pieces that patterns share, so that each is written once per language and a pattern reads like
the sentence it matches::

    - name: loc_list                      # letters, digits, _
      regex: '(?:自己的?)?{{loc}}(?:(?:·|、|或者?|和|以及|及)(?:自己的?)?{{loc}})*'
      examples: {match: [手卡或者卡组], no_match: [手卡的怪兽]}
    - name: loc                           # built from a term table instead of a regex:
      vocab: locations                    #   the words of vocab.locations of terms/<lang>.yaml,
      keys: [hand, deck, extra, gy, banished]   # only these entries (optional),
      words: [手卡, 卡组, 额外卡组, 墓地, 除外状态]  # only these words (optional; each must be there)
      examples: {match: [手牌]}

- ``{{name}}`` in a pattern's ``regex`` or ``anchor`` (or in another fragment) is replaced at load
  time by ``(?:<the fragment, expanded>)``; quantifiers apply to the whole (``{{placed}}?``).  A
  fragment may define named groups (``from_loc`` defines ``loc``) that captures then name.
- A vocab fragment is ``(?:w1|w2|...)``: the words escaped, longest first.
- Unknown names, a fragment that refers to itself (directly or through others), a fragment without
  ``match`` examples or with both / neither of ``regex`` and ``vocab`` raise :class:`PatternError`
  naming the file and the pattern (or fragment).
- Every fragment example runs as a test on the NORMALIZED example: with no mark the fragment must
  match the whole text; one ``‸`` (U+2038): it matches at that place (guards, lookarounds); two
  ``‸``: its match at the first one ends at the second.  ``no_match`` the same, negated.
- ``Pattern.source`` keeps the regex as written, ``Pattern.regex`` is compiled from the expanded
  one; ``bench/catalog_stats.py`` measures the written catalog (length, repeated pieces) and each
  pattern's reach over the shared databases.
"""
from __future__ import annotations

# The package, by idea: ``model`` (Pattern, Fragment, RawMatch, PatternError), ``loader`` (the YAML
# files, fragment expansion, :func:`load_catalog`), ``captures`` (the capture converters: term
# words, :class:`SlotReader`), ``runner`` (:class:`Catalog` and its run plans and gates), ``guard``
# (the CPU-time guard against runaway searches), ``cache`` (the compiled catalog kept on disk).
# Every name below is re-exported: the rest of the project, the tests and bench/ import them from
# extractor.patterns.
from .. import slots as _slots
from ..literals import required_literals
from .cache import _CACHE_KEEP, _PICKLE_PROTOCOL, _cache_dir, _cache_key, _disk_cached
from .captures import SlotReader, _fields, _Vocab
from .guard import REGEX_TIMEOUT
from .fragments import _REF, _Fragments, _FragmentsByLang, _read_yaml, load_fragments
from .loader import (_CAPTURE_TYPES, _FRAGMENT_CAPTURES, _SPECIAL_DIRS, WHOLE_MATCH, _load_file, _top_level_bar,
                     load_catalog)
from .model import EXAMPLE_MARK, Fragment, Pattern, PatternError, RawMatch
from .plan import _checks, _holds, _Plan
from .runner import ALL_SCOPES, Catalog, _anchored

__all__ = ["Pattern", "Fragment", "Catalog", "RawMatch", "load_catalog", "load_fragments", "PatternError"]


def _fragment_source(lang: str, name: str) -> str:
    """The expanded regex source of fragment ``name`` of language family ``lang`` (for the slot
    readers of :mod:`extractor.slots`)."""
    return load_catalog().fragments_of(lang)[name].expanded


_slots.fragment_source = _fragment_source
