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
- ``scope`` (optional): ``monster`` (default: the monster text of a monster card) or ``any``
  (any card text, the Pendulum Effect included);
- ``requires`` (optional): literals, at least one of which must be in the text (a fast prefilter);
- ``anchor`` (optional): a zero-width expression (lookarounds, ``^``) that ``regex`` starts with,
  character for character, followed by no top-level ``|``: every match starts where the anchor
  holds.  Patterns with the same anchor share one scan for those positions per text and are then
  tried only there (``regex.match`` at each position; the matches are the same as ``finditer``'s).
  A speed device only: it never changes what a pattern matches;
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

import _signal
import signal
import threading
from dataclasses import dataclass, field
from functools import lru_cache
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import regex
import yaml

from . import slots as _slots
from .conditions import CONDITION_CLASSES
from .normalize.common import PATTERNS_DIR, lang_family, load_terms
from .literals import required_literals
from .textmap import compile_alternation

__all__ = ["Pattern", "Fragment", "Catalog", "RawMatch", "load_catalog", "load_fragments", "PatternError"]

REGEX_TIMEOUT = 1.0  # seconds per Catalog.run call: a guard against runaway patterns


# The guard.  ``regex``'s own ``timeout=`` costs ~1.8 us per call (more than most searches take), so
# in the main thread one CPU-time timer (``ITIMER_VIRTUAL`` / ``SIGVTALRM``) is armed per
# ``Catalog.run`` call instead: ``regex`` checks for signals while it matches, so the handler's
# TimeoutError stops a runaway search.  Elsewhere (other threads, no ``setitimer``, or another
# handler already owns SIGVTALRM) every search gets ``timeout=REGEX_TIMEOUT`` as before.
_TIMER = getattr(signal, "ITIMER_VIRTUAL", None)
_SIGNAL = getattr(signal, "SIGVTALRM", None)
_MAIN_THREAD = threading.main_thread().ident
_setitimer = getattr(signal, "setitimer", None)


class _Alarm:
    armed = False


def _on_alarm(signum: int, frame: Any) -> None:
    if _Alarm.armed:
        _Alarm.armed = False
        raise TimeoutError(f"regex search over {REGEX_TIMEOUT} s")


def _arm() -> bool:
    """Arm the timer; False when the per-search ``timeout=`` must be used instead."""
    if _TIMER is None or threading.get_ident() != _MAIN_THREAD:
        return False
    handler = _signal.getsignal(_SIGNAL)  # (signal.getsignal wraps this in an enum: slower)
    if handler is not _on_alarm:
        if handler != signal.SIG_DFL or signal.getitimer(_TIMER) != (0.0, 0.0):
            return False  # someone else uses the timer
        signal.signal(_SIGNAL, _on_alarm)
    _Alarm.armed = True
    _setitimer(_TIMER, REGEX_TIMEOUT)
    return True


def _disarm() -> None:
    # (the timer must be stopped, not only the guard: a timer left running would fire after the
    # handler is gone, at interpreter exit, and SIGVTALRM's default action ends the process)
    _Alarm.armed = False
    _setitimer(_TIMER, 0)


class PatternError(ValueError):
    """A pattern file is malformed; the message names the file and the pattern id."""


@dataclass(slots=True)
class RawMatch:
    """One pattern match in normalized text (offsets into the normalized text)."""

    pattern: "Pattern"
    start: int
    end: int
    fields: dict[str, Any]


@dataclass(slots=True)
class Pattern:
    id: str
    lang: str
    regex: "regex.Pattern[str]"
    yields: dict[str, Any]
    captures: dict[str, tuple[str, str]]
    scope: str = "monster"
    requires: tuple[str, ...] = ()
    anchor: "regex.Pattern[str] | None" = None
    examples_match: list[dict[str, Any]] = field(default_factory=list)
    examples_no_match: list[str] = field(default_factory=list)
    file: str = ""
    note: str = ""
    source: str = ""  # the regex as written in the file (fragment references not expanded)
    anchor_source: str = ""  # the anchor as written


@dataclass(slots=True)
class Fragment:
    """A named piece of regex of one language (``patterns/fragments/<lang>.yaml``).

    ``source`` is the regex as written (it may refer to other fragments), ``expanded`` the regex
    with every reference replaced; ``vocab`` names the term-table list it was built from, if any.
    """

    name: str
    lang: str
    source: str
    expanded: str
    examples_match: list[str] = field(default_factory=list)
    examples_no_match: list[str] = field(default_factory=list)
    file: str = ""
    note: str = ""
    vocab: str = ""

    def check(self, text: str) -> bool:
        """Whether the fragment matches an example (NORMALIZED text, see :data:`EXAMPLE_MARK`).

        No mark: the fragment matches the whole text.  One mark: it matches (possibly the empty
        string, for a guard) at the marked position.  Two marks: it matches exactly the text
        between them.
        """
        parts = text.split(EXAMPLE_MARK)
        rx = regex.compile(self.expanded)
        if len(parts) == 1:
            return rx.fullmatch(text) is not None
        plain = "".join(parts)
        start = len(parts[0])
        m = rx.match(plain, start)
        if len(parts) == 2:
            return m is not None
        if len(parts) == 3:
            return m is not None and m.end() == start + len(parts[1])
        raise ValueError(f"fragment {self.name}: an example has more than two {EXAMPLE_MARK!r} marks: {text!r}")


EXAMPLE_MARK = "‸"  # ‸ : a position in a fragment example


class _Vocab:
    """Location and Summon-kind words of one language, for captures."""

    def __init__(self, data: dict[str, Any]):
        voc = data.get("vocab", {}) or {}
        self.loc_words = {w: k for k, ws in (voc.get("locations") or {}).items() for w in ws}
        self.summon_words = {w: k for k, ws in (voc.get("summons") or {}).items() for w in ws}
        self.count_words = {str(w): int(k) for k, ws in (voc.get("counts") or {}).items() for w in ws}
        self.loc_re = compile_alternation(self.loc_words) if self.loc_words else None
        self.summon_re = compile_alternation(self.summon_words) if self.summon_words else None
        self.quote_re = regex.compile(voc.get("quote", r'"([^"]+)"'))
        self.slots: SlotReader | None = None  # set by load_catalog (it needs the fragments)

    def locations(self, s: str) -> tuple[str, ...]:
        if not self.loc_re:
            return ()
        out: list[str] = []
        for m in self.loc_re.finditer(s):
            k = self.loc_words[m.group(0)]
            if k not in out:
                out.append(k)
        return tuple(out)

    def summon(self, s: str) -> str | None:
        if not self.summon_re:
            return None
        m = self.summon_re.search(s)
        return self.summon_words[m.group(0)] if m else None

    def count(self, s: str) -> int | None:
        s = s.strip()
        if s.isdigit():
            return int(s)
        return self.count_words.get(s)


class SlotReader:
    """Reads the slots of a procedure sentence (issue 10 §1) with the fragments of one language.

    The capture converters ``as: cost``, ``as: requirement``, ``as: choice:<fragment>`` and ``as:
    flag:<fragment>`` call it on a captured group (``group: _`` = the whole match).  The words are
    all data (``patterns/fragments/<lang>.yaml``); the NAMES of a fragment's groups are the values:

    - ``cost_action``: one group per cost action (``send_to_gy`` -> ``send-to-gy``), found left to
      right; each action's object is the fragment's group ``obj`` when it has one (Chinese puts
      the object before the verb: 把<obj>除外), else the text up to the next verb or to
      ``cost_object_end``;
      ``cost_destination`` (where the cards go: "to the GY") is cut off the object;
      ``cost_count`` (groups ``n``, ``more``, ``max``, ``any``) gives the count, summed over
      "1 LIGHT and 1 DARK monster"; ``cost_place`` gives the places (group ``own``: the location
      words of the list; ``opp``: the same, the opponent's; any other group: its name, ``__``
      between several places); ``filter_*`` give the filter's typed parts.
    - ``requirement_clause`` finds the precondition, ``requirement_kind`` types it (its group
      names are the kinds; none matched: ``other``); ``requirement_whose`` says whose cards it
      speaks of (its groups ``you``, ``opponent``, ``both``, every match, each once).
    - ``choice:F``: the name of the first named group of fragment ``F`` that matched (``_`` ->
      ``-``), e.g. ``proc_limit`` -> ``once-per-turn``; ``flag:F``: whether ``F`` matches;
      ``find:F``: the words ``F`` finds (its group ``t``), e.g. ``effect_trigger``.

    Seed 002 ("Built-In Special Summon ... requires a cost") for the costs; the places paid cards
    come from when the text names none are the game's: a Tribute is of monsters on the field, a
    discard and a reveal are of cards in the hand (seed 002: "Tributing", "discarding").
    Output values are plain JSON-like data (lists, dicts) that the condition classes validate into
    :class:`extractor.slots.CostAction` / :class:`extractor.slots.Requirement`.  Raises nothing; a
    fragment the language lacks reads as "nothing found".
    """

    DEFAULT_PLACES = {"tribute": ["field"], "discard": ["hand"], "reveal": ["hand"]}
    #: the fragments it reads by name (a language may lack some: nothing is found then)
    FRAGMENTS = ("cost_action", "cost_aside", "cost_object_end", "cost_object_trim", "cost_destination", "cost_count",
                 "cost_each", "cost_each_scope", "cost_place", "lp_amount", "filter_attribute", "filter_type", "filter_kind", "filter_level",
                 "filter_archetype", "filter_except", "filter_face_up", "cost_above_materials", "requirement_clause", "requirement_kind",
                 "requirement_whose")
    PLACE_GROUPS = ("hand", "deck", "gy", "banished", "extra", "field")

    def __init__(self, frags: "_Fragments", voc: "_Vocab"):
        self._frags = frags
        self._voc = voc
        self._rx: dict[str, Any] = {}
        # text -> reading: overlapping patterns often capture the same words (bounded; cleared
        # when full).  The readings are never mutated (conditions validate copies of them).
        self._memo: dict[tuple[str, str], Any] = {}

    def _remember(self, key: tuple[str, str], value: Any) -> Any:
        if len(self._memo) >= 4096:
            self._memo.clear()
        self._memo[key] = value
        return value

    def rx(self, name: str) -> "regex.Pattern[str] | None":
        """The compiled fragment ``name`` (``None`` when the language has none)."""
        if name not in self._rx:
            try:
                self._rx[name] = regex.compile(self._frags.get(name, "slot reader").expanded)
            except PatternError:
                self._rx[name] = None
        return self._rx[name]

    def find(self, name: str, text: str) -> "regex.Match[str] | None":
        """The first match of fragment ``name`` in ``text``."""
        rx = self.rx(name)
        return rx.search(text) if rx is not None else None

    def find_text(self, name: str, text: str) -> str | None:
        """The words fragment ``name`` finds in ``text`` (its group ``t`` when it has one),
        stripped; ``None`` when it finds nothing."""
        m = self.find(name, text)
        if m is None:
            return None
        got = m.group("t") if "t" in m.groupdict() else m.group(0)
        return got.strip(" ,:") if got else None

    def choice(self, name: str, text: str) -> str | None:
        """The name of the first named group of fragment ``name`` that matched in ``text``."""
        m = self.find(name, text)
        if m is None:
            return None
        for g, v in m.groupdict().items():
            if v is not None:
                return g.replace("_", "-")
        return None

    def _number(self, s: str | None) -> int | None:
        if s is None:
            return None
        return int(s) if s.isdigit() else self._voc.count(s)

    def count(self, obj: str) -> list | None:
        """``[min, max]`` of the object's counts (summed; ``max`` ``None`` = "or more"), ``None``
        when none is stated."""
        rx = self.rx("cost_count")
        if rx is None:
            return None
        lo, hi, seen = 0, 0, False
        for m in rx.finditer(obj):
            seen = True
            g = m.groupdict()
            if g.get("any") is not None:
                lo, hi = lo + 1, None
                continue
            if g.get("one") is not None:
                lo, hi = lo + 1, None if hi is None else hi + 1
                continue
            if g.get("each") is not None:  # 各N: N of each kind named before it
                n = int(g["each"]) * self._kinds(obj[:m.start()])
                lo, hi = lo + n, None if hi is None else hi + n
                continue
            n = self._number(g["n"]) if g.get("n") is not None else 1
            top = self._number(g["max"]) if g.get("max") is not None else n
            if n is None or top is None:
                return None
            lo += n
            hi = None if (hi is None or g.get("more")) else hi + top
        return [lo, hi] if seen else None

    def _kinds(self, before: str) -> int:
        """How many kinds a 各 ("each") count is of, in the words ``cost_each_scope`` finds before it:
        ``cost_each``'s major separators + 1, else its quoted names (two or more), else its minor
        separators + 1."""
        rx = self.rx("cost_each")
        if rx is None:
            return 1
        if (scope := self.find("cost_each_scope", before)) is not None:
            before = scope.group(0)
        found = [m.lastgroup for m in rx.finditer(before)]
        major, names = found.count("major"), found.count("name")
        return major + 1 if major else names if names > 1 else found.count("minor") + 1

    def places(self, obj: str) -> list[str]:
        """The places the object's cards come from (project names, ``opp-`` for the opponent's)."""
        rx = self.rx("cost_place")
        out: list[str] = []
        if rx is None:
            return out
        for m in rx.finditer(obj):
            for g, v in m.groupdict().items():
                if v is None:
                    continue
                if g == "own":
                    found = list(self._voc.locations(v))
                elif g == "opp":
                    found = ["opp-" + x for x in self._voc.locations(v)]
                else:
                    found = [x.replace("opp_", "opp-") for x in g.split("__")]
                out.extend(x for x in found if x not in out)
                break
        return out

    def card_filter(self, obj: str) -> dict[str, Any]:
        """The filter of a cost object: ``phrase`` (count, places and destination taken out) and
        its typed parts (``attributes``, ``types``, ``card_kinds``, ``levels``, ``archetypes``,
        ``names``, ``face_up``) where stated."""
        phrase = obj
        for name in ("cost_destination", "cost_place", "cost_count"):
            rx = self.rx(name)
            if rx is not None:
                phrase = rx.sub(" ", phrase)
        phrase = _SPACE_PUNCT.sub(r"\1", _SPACES.sub(" ", phrase)).strip(" ,.")
        f: dict[str, Any] = {"phrase": phrase}
        # the typed parts are read outside quoted names ("Blue-Eyes White Dragon" names no Type)
        # and outside the cards the filter leaves out (", except "X"")
        exc = self.rx("filter_except")
        kept = exc.sub("", obj) if exc is not None else obj  # the object: counts keep their names
        bare = self._voc.quote_re.sub(" ", exc.sub("", phrase) if exc is not None else phrase)

        def values(name: str, group: str | None = None, where: str = bare) -> list[str]:
            rx = self.rx(name)
            out: list[str] = []
            for m in (rx.finditer(where) if rx is not None else ()):
                v = m.group(group) if group else next((g for g, x in m.groupdict().items() if x is not None), None)
                if v and v not in out:
                    out.append(v)
            return out
        if a := values("filter_attribute"):
            f["attributes"] = a
        if t := values("filter_type", "type"):
            f["types"] = t
        if k := values("filter_kind", "kind"):
            f["card_kinds"] = k
        if (m := self.find("filter_level", bare)) is not None:
            n = int(m.group("n"))
            f["levels"] = [1, n] if m.group("lower") else [n, None] if m.group("higher") else [n, n]
        arch = values("filter_archetype", "name", kept)
        if arch:
            f["archetypes"] = arch
        names = list(dict.fromkeys(x.group(1) for x in self._voc.quote_re.finditer(kept) if x.group(1) not in arch))
        if names:
            f["names"] = names
        if self.find("filter_face_up", obj) is not None:
            f["face_up"] = True
        if self.find("cost_above_materials", obj) is not None:
            f["materials"] = True
        return f

    def cost(self, text: str) -> list[dict[str, Any]]:
        """The cost actions of ``text``, in text order: ``[{action, count | amount, places,
        filter}]`` (``[]``: nothing is paid)."""
        if ("cost", text) in self._memo:
            return self._memo[("cost", text)]
        return self._remember(("cost", text), self._cost(text))

    def _cost(self, text: str) -> list[dict[str, Any]]:
        verbs = self.rx("cost_action")
        if verbs is None:
            return []
        end_rx = self.rx("cost_object_end")
        found = list(verbs.finditer(text))
        out: list[dict[str, Any]] = []
        for i, m in enumerate(found):
            action = next(g for g, v in m.groupdict().items() if v is not None and g != "obj").replace("_", "-")
            if "obj" in m.groupdict():  # the object is part of the match (Chinese: 把<obj>除外)
                obj = " ".join(m.captures("obj"))
            else:  # the object follows the verb, up to the next verb (English)
                stop = found[i + 1].start() if i + 1 < len(found) else len(text)
                obj = text[m.end():stop]
            if (aside := self.rx("cost_aside")) is not None:
                obj = aside.sub("", obj)
            e = end_rx.search(obj) if end_rx is not None else None
            if e is not None:
                obj = obj[:e.start()]
            obj = self._trim(obj)
            key = (action, obj)
            out.append(self._memo[key] if key in self._memo else self._remember(key, self._action(action, obj)))
        return out

    def _action(self, action: str, obj: str) -> dict[str, Any]:
        """One cost action read from its object (the words of the paid cards)."""
        d: dict[str, Any] = {"action": action}
        if action == "pay-lp":
            n = self.find("lp_amount", obj)
            d["amount"] = int(n.group("n")) if n else None
        elif action in ("detach", "remove-counter"):
            cnt = self.count(obj)
            d["amount"] = cnt[0] if cnt and cnt[0] == cnt[1] else None
        else:
            d["count"] = self.count(obj)
            places = self.places(obj) or list(self.DEFAULT_PLACES.get(action, []))
            if places:
                d["places"] = places
            d["filter"] = self.card_filter(obj)
        return d

    def _trim(self, obj: str) -> str:
        rx = self.rx("cost_object_trim")
        obj = obj.strip()
        return rx.sub("", obj) if rx is not None else obj

    def requirement(self, text: str) -> dict[str, Any] | None:
        """The precondition of ``text`` (``{kind, phrase}``), ``None`` when it states none."""
        if ("requirement", text) in self._memo:
            return self._memo[("requirement", text)]
        return self._remember(("requirement", text), self._requirement(text))

    def _requirement(self, text: str) -> dict[str, Any] | None:
        m = self.find("requirement_clause", text)
        if m is None:
            return None
        phrase = m.group(0).strip(" ,")
        kind = self.choice("requirement_kind", phrase) or "other"
        whose: list[str] = []
        rx = self.rx("requirement_whose")
        for w in (rx.finditer(phrase) if rx is not None else ()):
            g = next((g for g in ("you", "opponent", "both") if w.groupdict().get(g)), None)
            if g and g not in whose:
                whose.append(g)
        kinds = self.rx("requirement_kind")  # every typed part (a requirement may state two)
        parts = list(dict.fromkeys(g.replace("_", "-") for k in (kinds.finditer(phrase) if kinds is not None else ())
                                   for g, v in k.groupdict().items() if v is not None))
        req = {"kind": kind, "phrase": phrase, "whose": whose}
        if len(parts) > 1:
            req["parts"] = parts
        return req


# compiled once: ``regex.sub(<str>, ...)`` looks its pattern up in regex's cache on every call
# (~20 us each, per cost object)
_SPACES = regex.compile(r"\s+")
_SPACE_PUNCT = regex.compile(r"\s+([,.])")


class Catalog:
    """All patterns of every language, compiled, grouped by language family."""

    def __init__(self, patterns: list[Pattern], vocabs: dict[str, _Vocab]):
        self.patterns = patterns
        self.by_lang: dict[str, list[Pattern]] = {}
        for p in patterns:
            self.by_lang.setdefault(p.lang, []).append(p)
        self.vocabs = vocabs
        # pattern id -> the literal clauses run() tests before trying it (see required_literals)
        self.checks: dict[str, tuple[tuple[str, ...], ...]] = {p.id: _checks(p) for p in patterns}
        # (language code, scopes) -> the run plan (see _plan) and the capture vocabulary
        self._plans: dict[tuple[str, tuple[str, ...]], tuple[list[tuple[str, int]], int, list[Pattern], _Vocab | None]] = {}

    def __len__(self) -> int:
        return len(self.patterns)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_plans"] = {}  # run plans are rebuilt on first use
        return state

    def get(self, pattern_id: str) -> Pattern:
        for p in self.patterns:
            if p.id == pattern_id:
                return p
        raise KeyError(pattern_id)

    def run(self, text: str, lang: str, start: int = 0, end: int | None = None,
            scopes: tuple[str, ...] = ("monster", "any")) -> list[RawMatch]:
        """Every match of every pattern of ``lang`` with a scope in ``scopes`` inside
        ``text[start:end]`` (normalized text), in catalog order.  Overlapping matches of different
        patterns are all kept (like spaCy's SpanRuler); each knows its pattern.

        Raises:
            TimeoutError: the patterns ran longer than ``REGEX_TIMEOUT`` seconds (CPU time) on this
                text; the message names the pattern that was running.
        """
        plan = self._plans.get((lang, scopes))
        if plan is None:  # lang_family raises ValueError for a language the project does not read
            fam = lang_family(lang)
            plan = self._plans[(lang, scopes)] = (*_plan([p for p in self.by_lang.get(fam, ()) if p.scope in scopes]),
                                                  self.vocabs.get(fam))
        literal_masks, always, patterns, voc = plan
        if end is None:
            end = len(text)
        region = text[start:end] if (start or end != len(text)) else text
        # every `requires` literal is looked up once per text; a pattern runs when one of its
        # literals is present (bit i of the mask = the i-th pattern, catalog order)
        mask = always
        for lit, bits in literal_masks:
            if lit in region:
                mask |= bits
        if not mask:
            return []
        checks = self.checks
        known: dict[str, bool] = {}  # literal -> in region, for this text
        out: list[RawMatch] = []
        p = None
        starts: dict[str, list[int]] = {}  # anchor -> positions in region where it holds
        guarded = None  # armed before the first search (often no pattern has to run)
        try:
            while mask:
                low = mask & -mask
                mask ^= low
                p = patterns[low.bit_length() - 1]
                clauses = checks.get(p.id)
                if clauses and not _holds(clauses, region, known):
                    continue  # the text lacks something every match needs
                if guarded is None:
                    guarded = _arm()
                if p.anchor is not None:
                    pos = starts.get(p.anchor.pattern)
                    if pos is None:
                        if p.anchor.pattern == "^" and not p.anchor.flags & regex.MULTILINE:
                            pos = [0]  # the start of the region only: no scan (~2 us a text)
                        else:
                            it = p.anchor.finditer(region) if guarded else p.anchor.finditer(region, timeout=REGEX_TIMEOUT)
                            pos = [m.start() for m in it]
                        starts[p.anchor.pattern] = pos
                    found = _anchored(p.regex, region, pos, guarded)
                    if found is not None:
                        out.extend(RawMatch(p, m.start() + start, m.end() + start, _fields(p, m, voc)) for m in found)
                        continue
                it = p.regex.finditer(region) if guarded else p.regex.finditer(region, timeout=REGEX_TIMEOUT)
                for m in it:
                    out.append(RawMatch(p, m.start() + start, m.end() + start, _fields(p, m, voc)))
        except TimeoutError as e:
            where = f"pattern {p.id} ({p.file})" if p is not None else "pattern matching"
            raise TimeoutError(f"{where} timed out") from e
        finally:
            if guarded:
                _disarm()
        return out


# -- the compiled catalog, kept on disk ------------------------------------------------------
# Compiling the catalog (YAML, then ``regex``'s pure-Python parser for ~100 expressions) costs ~0.1 s
# of CPU at every start: more than tagging 1,000 cards, and a third of a one-card ``explain``.  The
# compiled catalog is kept in the user's cache folder (``$YGO_EXTRACTOR_CACHE_DIR``, else
# ``$XDG_CACHE_HOME/ygo-extractor`` or ``~/.cache/ygo-extractor``) as ``catalog-<key>.pickle``
# (``regex`` pickles its compiled code, so loading it skips the parser: ~5 ms).  The key is a hash
# of every file of the catalog, every module of this package, and the Python and ``regex``
# versions: any edit anywhere makes a new key, and a file is only ever read under its own key.  A
# speed device only: any problem with the cache (a folder that cannot be written, a damaged file)
# means the catalog is built from its files as without it; ``YGO_EXTRACTOR_NO_CACHE=1`` turns it
# off.

_PICKLE_PROTOCOL = 5
_CACHE_KEEP = 8  # cache files kept (this key's and the newest others)


def _cache_key(catalog_dir: Path) -> str:
    """The hash naming the cache of the catalog in ``catalog_dir`` (see above).

    Raises:
        OSError: a file cannot be read."""
    import hashlib
    import sys

    h = hashlib.sha256(f"{sys.version}|regex {regex.__version__}|pickle {_PICKLE_PROTOCOL}".encode())
    for base in (catalog_dir, Path(__file__).resolve().parent):
        for f in sorted(base.rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc":
                h.update(f"\0{f.relative_to(base).as_posix()}\0".encode())
                h.update(f.read_bytes())
    return h.hexdigest()[:32]


def _cache_dir() -> Path:
    import os

    env = os.environ.get("YGO_EXTRACTOR_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "ygo-extractor"


def _disk_cached(build):
    """Wrap ``load_catalog(root)``: for the shipped catalog (``root`` None, on a file system) load
    the compiled catalog from the cache file of the current key when there is one; else build it
    and write that file (atomically; of the files of other keys the newest few are kept).  A problem with
    the cache is never an error: the catalog is then built from its files."""
    import functools
    import os

    @functools.wraps(build)
    def load(root: str | None = None) -> "Catalog":
        if root is not None or os.environ.get("YGO_EXTRACTOR_NO_CACHE") or not isinstance(PATTERNS_DIR, Path):
            return build(root)
        import pickle
        import tempfile

        try:
            path = _cache_dir() / f"catalog-{_cache_key(PATTERNS_DIR)}.pickle"
        except (OSError, RuntimeError):  # RuntimeError: no home folder
            return build(root)
        try:
            with open(path, "rb") as f:
                cat = pickle.load(f)
            if isinstance(cat, Catalog):
                return cat
        except Exception:  # missing, unreadable or damaged: build it again
            pass
        cat = build(root)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".catalog-", suffix=".tmp", dir=path.parent)
            try:
                with os.fdopen(fd, "wb") as f:
                    pickle.dump(cat, f, protocol=_PICKLE_PROTOCOL)
                os.replace(tmp, path)
            except BaseException:
                os.unlink(tmp)
                raise
            # keep the newest few (other installs, other versions); remove the rest
            others = sorted((f for f in path.parent.glob("catalog-*.pickle") if f != path),
                            key=lambda f: f.stat().st_mtime, reverse=True)
            for old in others[_CACHE_KEEP - 1:]:
                old.unlink(missing_ok=True)
        except (OSError, pickle.PickleError):
            pass
        return cat

    return load


def _checks(p: Pattern, keep: int = 3) -> tuple[tuple[str, ...], ...]:
    """The clauses of :func:`required_literals` that :meth:`Catalog.run` tests for pattern ``p``:
    at most ``keep``, those whose shortest literal is longest (they rule out the most texts),
    leaving out any that the pattern's own ``requires`` already implies; ``()`` for a pattern
    compiled with flags that change what a literal matches."""
    if p.regex.flags & (regex.IGNORECASE | regex.VERBOSE | regex.FULLCASE):
        return ()
    cnf = required_literals(p.regex.pattern)
    if not cnf:
        return ()
    req = set(p.requires)
    # a clause is implied by `requires` when each of its literals holds one of the clause's
    useful = [c for c in cnf if not (req and all(any(lit in r for lit in c) for r in req))]
    useful.sort(key=lambda c: -min(map(len, c)))
    return tuple(useful[:keep])


def _holds(clauses: tuple[tuple[str, ...], ...], region: str, known: dict[str, bool]) -> bool:
    """Every clause has a literal in ``region`` (``known`` remembers each literal looked up)."""
    for clause in clauses:
        for lit in clause:
            found = known.get(lit)
            if found is None:
                found = known[lit] = lit in region
            if found:
                break
        else:
            return False
    return True


def _plan(ps: list[Pattern]) -> tuple[list[tuple[str, int]], int, list[Pattern]]:
    """The run plan of a pattern list: for each ``requires`` literal the bit mask of the patterns
    that name it, the mask of the patterns without ``requires`` (always run), and the patterns."""
    masks: dict[str, int] = {}
    always = 0
    for i, p in enumerate(ps):
        if not p.requires:
            always |= 1 << i
        for r in p.requires:
            masks[r] = masks.get(r, 0) | (1 << i)
    return sorted(masks.items()), always, ps


def _anchored(rx: "regex.Pattern[str]", region: str, positions: list[int],
              guarded: bool) -> list["regex.Match[str]"] | None:
    """``rx.finditer(region)`` when every match of ``rx`` starts at one of ``positions``
    (ascending): ``rx.match`` at each position not inside the previous match.  ``None`` when
    ``rx`` matched the empty string (then ``finditer`` itself must run)."""
    found = []
    last = 0
    for a in positions:
        if a < last:
            continue
        m = rx.match(region, a) if guarded else rx.match(region, a, timeout=REGEX_TIMEOUT)
        if m is not None:
            if m.end() == a:
                return None
            found.append(m)
            last = m.end()
    return found


def _top_level_bar(rx: str) -> bool:
    """True if ``rx`` has a ``|`` outside every group and character class."""
    depth = 0
    in_class = False
    i = 0
    while i < len(rx):
        c = rx[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            if rx[i + 1:i + 2] == "^":
                i += 1
            if rx[i + 1:i + 2] == "]":
                i += 1
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "|" and depth == 0:
            return True
        i += 1
    return False


def _fields(p: Pattern, m: "regex.Match[str]", voc: _Vocab | None) -> dict[str, Any]:
    out = dict(p.yields)
    for fld, (group, typ) in p.captures.items():
        if isinstance(group, tuple):  # several groups: the words of those that matched, one per line
            g = "\n".join(x for x in (m.group(y) for y in group) if x is not None) or None
        else:
            g = m.group(0) if group == WHOLE_MATCH else m.group(group)
        if typ == "bool":
            out[fld] = g is not None
            continue
        if g is None or voc is None:
            continue
        if typ == "locations":
            locs = voc.locations(g)
            if locs:
                out[fld] = locs
        elif typ == "summon":
            k = voc.summon(g)
            if k:
                out[fld] = k
        elif typ == "names":
            out[fld] = tuple(x.group(1) for x in voc.quote_re.finditer(g))
        elif typ == "name":
            x = voc.quote_re.search(g)
            out[fld] = x.group(1) if x else g.strip()
        elif typ == "count":
            c = voc.count(g)
            if c is not None:
                out[fld] = c
        elif typ == "text":
            out[fld] = g
        elif voc.slots is None:
            continue
        elif typ == "cost":
            cost = voc.slots.cost(g)
            if cost:
                out[fld] = cost
        elif typ == "requirement":
            req = voc.slots.requirement(g)
            if req is not None:
                out[fld] = req
        else:  # choice:<fragment> / flag:<fragment> / find:<fragment>
            kind, _, frag = typ.partition(":")
            if kind == "flag":
                out[fld] = voc.slots.find(frag, g) is not None
            elif kind == "find":
                val = voc.slots.find_text(frag, g)
                if val:
                    out[fld] = val
            else:
                val = voc.slots.choice(frag, g)
                if val is not None:
                    out[fld] = val
    return out


_CAPTURE_TYPES = {"locations", "summon", "names", "name", "bool", "count", "text", "cost", "requirement"}
_FRAGMENT_CAPTURES = ("choice", "flag", "find")  # `as: choice:<fragment>` / `flag:<fragment>` / `find:<fragment>`
WHOLE_MATCH = "_"  # `group: _` captures the whole match

_REF = regex.compile(r"\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}")
_SPECIAL_DIRS = ("terms", "cues", "fragments")


def _read_yaml(path: Traversable, where: str) -> Any:
    try:
        with path.open(encoding="utf-8") as f:
            return yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except yaml.YAMLError as e:
        raise PatternError(f"{where}: not valid YAML ({e})") from e


class _Fragments:
    """The fragments of one language family: written regexes by name, expanded on demand."""

    def __init__(self, fam: str, vocab: dict[str, Any] | None = None):
        self.fam = fam
        self.written: dict[str, dict[str, Any]] = {}  # name -> the YAML entry (+ "file")
        self.done: dict[str, Fragment] = {}
        self.vocab = vocab or {}

    def add_file(self, path: Traversable, where: str) -> None:
        data = _read_yaml(path, where)
        if not isinstance(data, dict) or "fragments" not in data or "language" not in data:
            raise PatternError(f"{where}: needs the keys 'language' and 'fragments'")
        for i, d in enumerate(data["fragments"] or []):
            name = d.get("name") if isinstance(d, dict) else None
            if not name or not regex.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", str(name)):
                raise PatternError(f"{where}: fragment #{i + 1} needs a 'name' (letters, digits, _)")
            if name in self.written:
                raise PatternError(f"{where}: fragment {name!r} is defined twice")
            if ("regex" in d) == ("vocab" in d):
                raise PatternError(f"{where}: fragment {name}: needs exactly one of 'regex' and 'vocab'")
            if not (d.get("examples") or {}).get("match"):
                raise PatternError(f"{where}: fragment {name}: needs at least one 'match' example")
            self.written[name] = dict(d, file=where)

    def _from_vocab(self, name: str, d: dict[str, Any]) -> str:
        """``(?:w1|w2|...)``: the words of ``vocab.<list>`` (``keys``: only those entries; ``words``:
        only those words), longest first, escaped."""
        table = (self.vocab.get("vocab") or {}).get(d["vocab"])
        if not isinstance(table, dict):
            raise PatternError(f"{d['file']}: fragment {name}: no list {d['vocab']!r} under 'vocab' in "
                               f"patterns/terms/{self.fam}.yaml")
        keys = d.get("keys") or list(table)
        unknown = [k for k in keys if k not in table]
        if unknown:
            raise PatternError(f"{d['file']}: fragment {name}: {unknown} not in vocab.{d['vocab']}")
        words = [str(w) for k in keys for w in table[k]]
        if d.get("words") is not None:
            missing = [w for w in d["words"] if w not in words]
            if missing:
                raise PatternError(f"{d['file']}: fragment {name}: words {missing} are not in vocab.{d['vocab']}")
            words = [w for w in words if w in d["words"]]
        words = sorted(dict.fromkeys(words), key=lambda w: (-len(w), w))
        return "(?:" + "|".join(regex.escape(w) for w in words) + ")"

    def get(self, name: str, where: str, chain: tuple[str, ...] = (), origin: str = "") -> Fragment:
        """The fragment ``name`` expanded (``where``: the file and entry that refer to it;
        ``origin``: the pattern whose expansion led here, named in errors)."""
        origin = origin or where
        if name in self.done:
            return self.done[name]
        if name in chain:
            loop = " -> ".join(chain[chain.index(name):] + (name,))
            raise PatternError(f"{origin}: fragments refer to each other in a cycle: {loop} "
                               f"(patterns/fragments/{self.fam}.yaml)")
        d = self.written.get(name)
        if d is None:
            at = "" if where == origin else f" (in {where})"
            raise PatternError(f"{origin}: unknown fragment {{{{{name}}}}}{at} (language {self.fam}; "
                               f"fragments live in patterns/fragments/{self.fam}.yaml)")
        fwhere = f"{d['file']}: fragment {name}"
        source = self._from_vocab(name, d) if "vocab" in d else str(d["regex"])
        expanded = self.expand(source, fwhere, chain + (name,), origin)
        try:
            regex.compile(expanded)
        except regex.error as e:
            raise PatternError(f"{fwhere}: bad regex ({e})") from e
        ex = d.get("examples") or {}
        frag = Fragment(name=name, lang=self.fam, source=source, expanded=expanded,
                        examples_match=[str(x) for x in ex.get("match") or ()],
                        examples_no_match=[str(x) for x in ex.get("no_match") or ()],
                        file=d["file"], note=d.get("note", ""), vocab=d.get("vocab", ""))
        self.done[name] = frag
        return frag

    def expand(self, rx: str, where: str, chain: tuple[str, ...] = (), origin: str = "") -> str:
        """``rx`` with every ``{{name}}`` replaced by ``(?:<that fragment, expanded>)``."""
        return _REF.sub(lambda m: "(?:" + self.get(m.group(1), where, chain, origin).expanded + ")", rx)

    def all(self) -> dict[str, Fragment]:
        for name in self.written:
            self.get(name, f"{self.written[name]['file']}: fragment {name}")
        return dict(self.done)


def _load_file(path: Traversable, where: str, seen: set[str],
               fragments: dict[str, _Fragments] | None = None) -> list[Pattern]:
    data = _read_yaml(path, where)
    if not isinstance(data, dict) or "patterns" not in data or "language" not in data:
        raise PatternError(f"{where}: needs the keys 'language' and 'patterns'")
    fam = lang_family(data["language"])
    frags = fragments[fam] if fragments is not None else _Fragments(fam)
    out: list[Pattern] = []
    for i, d in enumerate(data["patterns"] or []):
        pid = d.get("id") if isinstance(d, dict) else None
        if not pid:
            raise PatternError(f"{where}: pattern #{i + 1} has no id")
        if pid in seen:
            raise PatternError(f"{where}: pattern id {pid!r} is used twice")
        seen.add(pid)
        for key in ("regex", "yields", "examples"):
            if key not in d:
                raise PatternError(f"{where}: pattern {pid}: missing {key!r}")
        kind = d["yields"].get("kind")
        if kind not in CONDITION_CLASSES:
            raise PatternError(f"{where}: pattern {pid}: unknown condition kind {kind!r}")
        written = str(d["regex"])
        source = frags.expand(written, f"{where}: pattern {pid}")
        try:
            rx = regex.compile(source)
        except regex.error as e:
            raise PatternError(f"{where}: pattern {pid}: bad regex ({e})") from e
        caps: dict[str, tuple[str, str]] = {}
        for fld, spec in (d.get("captures") or {}).items():
            group, typ = spec.get("group"), spec.get("as")
            kind, _, frag = str(typ).partition(":")
            if kind in _FRAGMENT_CAPTURES and frag:
                frags.get(frag, f"{where}: pattern {pid} (capture {fld})")  # raises when unknown
            elif typ not in _CAPTURE_TYPES:
                raise PatternError(f"{where}: pattern {pid}: capture {fld!r} needs 'as' in "
                                   f"{sorted(_CAPTURE_TYPES)} or choice:<fragment> / flag:<fragment>")
            groups = tuple(group) if isinstance(group, list) else group
            if any(g not in rx.groupindex and g != WHOLE_MATCH for g in (groups if isinstance(groups, tuple) else (groups,))):
                raise PatternError(f"{where}: pattern {pid}: capture {fld!r} needs a named group of "
                                   f"the regex (or {WHOLE_MATCH!r}: the whole match), or a list of them")
            caps[fld] = (groups, typ)
        ex = d["examples"] or {}
        matches = [e if isinstance(e, dict) else {"text": e} for e in (ex.get("match") or [])]
        if not matches:
            raise PatternError(f"{where}: pattern {pid}: needs at least one 'match' example")
        req = d.get("requires") or ()
        anchor = None
        if d.get("anchor"):
            a = frags.expand(str(d["anchor"]), f"{where}: pattern {pid} (anchor)")
            if not source.startswith(a) or _top_level_bar(a) or _top_level_bar(source[len(a):]):
                raise PatternError(f"{where}: pattern {pid}: 'regex' must start with 'anchor' and neither part may "
                                   f"have a top-level '|'")
            try:
                anchor = regex.compile(a)
            except regex.error as e:
                raise PatternError(f"{where}: pattern {pid}: bad anchor ({e})") from e
        if anchor is not None and any(m.end() > m.start() for e in matches for m in anchor.finditer(e["text"])):
            raise PatternError(f"{where}: pattern {pid}: 'anchor' must be zero-width (lookarounds, ^)")
        out.append(Pattern(id=pid, lang=fam, regex=rx, yields=dict(d["yields"]), captures=caps,
                           scope=d.get("scope", "monster"), requires=tuple([req] if isinstance(req, str) else req), anchor=anchor,
                           examples_match=matches, examples_no_match=list(ex.get("no_match") or []),
                           file=str(where), note=d.get("note", ""), source=written,
                           anchor_source=str(d.get("anchor") or "")))
    return out


class _FragmentsByLang(dict):
    """Language family -> its :class:`_Fragments`, loaded on first use."""

    def __init__(self, base: Traversable):
        super().__init__()
        self.base = base

    def __missing__(self, fam: str) -> _Fragments:
        frags = self[fam] = load_fragments(self.base, fam)
        return frags


def load_fragments(base: Traversable, fam: str) -> _Fragments:
    """The fragments of ``fam`` (``<base>/fragments/<fam>.yaml``; none when the file is absent),
    able to build fragments from ``patterns/terms/<fam>.yaml``'s ``vocab`` lists."""
    try:
        terms = load_terms(fam)
    except FileNotFoundError:
        terms = {}
    frags = _Fragments(fam, terms)
    path = base.joinpath("fragments", f"{fam}.yaml")
    if path.is_file():
        frags.add_file(path, f"patterns/fragments/{fam}.yaml")
    return frags


@lru_cache(maxsize=4)
@_disk_cached
def load_catalog(root: str | None = None) -> Catalog:
    """Load every ``*.yaml`` under ``<root>/<lang>/`` (default: the project's ``patterns/``).

    Raises:
        PatternError: a file is malformed (names the file and the pattern).
    """
    base: Traversable = Path(root) if root else PATTERNS_DIR
    patterns: list[Pattern] = []
    seen: set[str] = set()
    vocabs: dict[str, _Vocab] = {}
    fragments = _FragmentsByLang(base)
    for lang_dir in sorted((p for p in base.iterdir() if p.is_dir() and p.name not in _SPECIAL_DIRS
                            and not p.name.startswith(("_", "."))), key=lambda p: p.name):
        for path in sorted((f for f in lang_dir.iterdir() if f.name.endswith(".yaml")), key=lambda f: f.name):
            patterns.extend(_load_file(path, f"patterns/{lang_dir.name}/{path.name}", seen, fragments))
    for fam in {p.lang for p in patterns}:
        vocabs[fam] = _Vocab(load_terms(fam))
        vocabs[fam].slots = SlotReader(fragments[fam], vocabs[fam])
    cat = Catalog(patterns, vocabs)
    # every fragment of every language, expanded (unused ones too: their examples are tests)
    cat.fragments = {fam: f.all() for fam, f in fragments.items()}
    return cat


def _fragment_source(lang: str, name: str) -> str:
    """The expanded regex source of fragment ``name`` of language family ``lang`` (for the slot
    readers of :mod:`extractor.slots`)."""
    return load_catalog().fragments[lang][name].expanded


_slots.fragment_source = _fragment_source
