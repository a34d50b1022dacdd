"""The capture converters: term words (locations, Summon kinds, counts, quoted names) and the slot
reader of procedure sentences (costs, requirements, fragment choices), and :func:`_fields`, which
turns one match into the fields of its condition."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

import regex

from ..literals import required_literals
from ..textmap import compile_alternation
from .model import PatternError, Pattern

if TYPE_CHECKING:
    from .fragments import _Fragments

WHOLE_MATCH = "_"  # `group: _` captures the whole match


class _Vocab:
    """Location and Summon-kind words of one language, for captures."""

    def __init__(self, data: dict[str, Any]):
        voc = data.get("vocab", {}) or {}
        self.loc_words = {w: k for k, ws in (voc.get("locations") or {}).items() for w in ws}
        self.summon_words = {w: k for k, ws in (voc.get("summons") or {}).items() for w in ws}
        self.count_words = {str(w): int(k) for k, ws in (voc.get("counts") or {}).items() for w in ws}
        # monster Type words -> the English Type (ja: ドラゴン -> Dragon); a language without the
        # table keeps its words
        self.type_words = {str(w): k for k, ws in (voc.get("types") or {}).items() for w in ws}
        # card kind words -> the English kind (zh: 调整 -> Tuner, 陷阱卡 -> Trap), same rule
        self.kind_words = {str(w): k for k, ws in (voc.get("kinds") or {}).items() for w in ws}
        self.loc_re = compile_alternation(self.loc_words) if self.loc_words else None
        self.summon_re = compile_alternation(self.summon_words) if self.summon_words else None
        self.quote_re = regex.compile(voc.get("quote", r'"([^"]+)"'))
        self.slots: SlotReader | None = None  # set by load_catalog (it needs the fragments)
        # (pattern id, the captured groups' words) -> the fields of the match (see _fields)
        self.fields_memo: dict[tuple, dict[str, Any]] = {}
        # (capture type, captured words) -> the value read (see _read_fields): overlapping patterns
        # of one sentence capture the same words under different ids (bounded; cleared when full)
        self.reads: dict[tuple[str, str], Any] = {}

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["fields_memo"] = {}  # never kept in the cached catalog
        state["reads"] = {}
        return state

    def locations(self, s: str) -> tuple[str, ...]:
        if not self.loc_re:
            return ()
        out: list[str] = []
        for m in self.loc_re.finditer(s, None, None, False, False):
            k = self.loc_words[m.group(0)]
            if k not in out:
                out.append(k)
        return tuple(out)

    def summon(self, s: str) -> str | None:
        if not self.summon_re:
            return None
        m = self.summon_re.search(s, None, None, False)
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
      "1 LIGHT and 1 DARK monster"; its group ``alt`` (an "or" between two counts: 「３体か「X」
      カード１枚」) makes the count not read (``None``): a cost action has no alternatives, and
      alternatives are never summed; ``cost_place`` gives the places (group ``own``: the location
      words of the list; ``opp``: the same, the opponent's; any other group: its name, ``__``
      between several places); ``filter_*`` give the filter's typed parts.
    - ``requirement_clause`` finds the precondition, ``requirement_kind`` types it (its group
      names are the kinds; none matched: ``other``); ``requirement_whose`` says whose cards it
      speaks of (its groups ``you``, ``opponent``, ``both``, every match, each once);
      ``requirement_object`` finds the cards its kind counts (a group named after the kind, the
      words in group ``obj``), read as a cost object is: ``count`` and ``filter``
      (:meth:`_requirement_object`).
    - ``choice:F``: the name of the first named group of fragment ``F`` that matched (``_`` ->
      ``-``), e.g. ``proc_limit`` -> ``once-per-turn``; ``flag:F``: whether ``F`` matches;
      ``find:F``: the words ``F`` finds (its group ``t``), e.g. ``effect_trigger``.

    Seed 002 ("Built-In Special Summon ... requires a cost") for the costs; the places paid cards
    come from when the text names none are the game's: a Tribute is of monsters on the field, a
    discard and a reveal are of cards in the hand (seed 002: "Tributing", "discarding").
    Output values are plain JSON-like data (lists, dicts) that the condition classes validate into
    :class:`extractor.slots.CostAction` / :class:`extractor.slots.Requirement`.  Raises nothing; a
    fragment the language lacks reads as "nothing found".

    Speed devices (same readings; tests/test_slot_groups_fast.py): groups are read by number, never
    by name (:meth:`_items`, :meth:`_num`: ``regex`` reads a name by first trying it as a number
    and formatting the error that fails, ~2,000 instructions a name), and every ``search`` /
    ``finditer`` / ``sub`` passes ``concurrent=False`` positionally (no GIL release and retake per
    call, ~1,000 instructions; keywords cost more than they save), as ``Catalog.run`` does.
    """

    DEFAULT_PLACES = {"tribute": ["field"], "discard": ["hand"], "reveal": ["hand"]}
    #: the fragments it reads by name (a language may lack some: nothing is found then)
    FRAGMENTS = ("cost_action", "cost_aside", "cost_object_end", "cost_object_trim", "cost_destination", "cost_count",
                 "cost_each", "cost_each_scope", "cost_place", "lp_amount", "filter_attribute", "filter_type", "filter_kind", "filter_level",
                 "filter_archetype", "filter_except", "filter_face_up", "cost_above_materials", "requirement_clause", "requirement_kind",
                 "requirement_whose", "requirement_object")
    PLACE_GROUPS = ("hand", "deck", "gy", "banished", "extra", "field")

    def __init__(self, frags: "_Fragments", voc: "_Vocab"):
        self._frags = frags
        self._voc = voc
        self._rx: dict[str, Any] = {}
        # fragment -> its named groups as ``(name, index in Match.groups())``, in the order of its
        # ``groupindex`` (the order ``Match.groupdict()`` gives), and its ``groupindex``: the
        # readers read groups by number (see :meth:`_items`)
        self._groups: dict[str, tuple[tuple[tuple[str, int], ...], dict[str, int]]] = {}
        # fragment -> the literal clauses every text it matches in holds (required_literals; () when
        # none is known): a fragment is not searched in a text that lacks one (most procedure texts
        # name no position, no zone, no level: 4 in 5 searches of those fragments find nothing)
        self._need: dict[str, tuple] = {}
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
            rx = self._rx[name]
            gi = dict(rx.groupindex) if rx is not None else {}
            self._groups[name] = (tuple((g, i - 1) for g, i in gi.items()), gi)
            self._need[name] = (required_literals(rx.pattern) or ()) if rx is not None and not rx.flags & (
                regex.IGNORECASE | regex.VERBOSE | regex.FULLCASE) else ()
        return self._rx[name]

    def _num(self, name: str, group: str, missing: Any) -> Any:
        """The number of group ``group`` of fragment ``name`` (compiled), ``missing`` when the
        fragment has no such group (``group`` itself: ``Match.group`` then fails as it would by
        name).  Read by number: see :meth:`_items`."""
        return self._groups[name][1].get(group, missing)

    def _items(self, name: str, m: "regex.Match[str]") -> list[tuple[str, Any]]:
        """``list(m.groupdict().items())`` of a match ``m`` of fragment ``name`` (compiled), read
        by number: ``regex`` reads a group NAME by first trying it as a number and formatting the
        TypeError that fails (~2,000 instructions a name; ``groupdict()`` does so for each name),
        ``Match.groups()`` reads them all at once.  The same names in the same order (the
        fragment's ``groupindex`` order; a name written twice is one group), the same values."""
        gs = m.groups()
        return [(g, gs[i]) for g, i in self._groups[name][0]]

    def can(self, name: str, text: str) -> "regex.Pattern[str] | None":
        """The compiled fragment ``name`` when it may match in ``text``: ``None`` when the language
        has none or ``text`` lacks a literal every match of it holds (:func:`required_literals`;
        a speed device: searching it there would find nothing)."""
        rx = self.rx(name)
        if rx is None:
            return None
        for clause in self._need[name]:
            for lit in clause:
                if lit in text:
                    break
            else:
                return None
        return rx

    def find(self, name: str, text: str) -> "regex.Match[str] | None":
        """The first match of fragment ``name`` in ``text``."""
        rx = self.can(name, text)
        return rx.search(text, None, None, False) if rx is not None else None

    def find_text(self, name: str, text: str) -> str | None:
        """The words fragment ``name`` finds in ``text`` (its group ``t`` when it has one),
        stripped; ``None`` when it finds nothing."""
        m = self.find(name, text)
        if m is None:
            return None
        got = m.group(self._num(name, "t", 0))
        return got.strip(" ,:") if got else None

    def choice(self, name: str, text: str) -> str | None:
        """The name of the first named group of fragment ``name`` that matched in ``text``."""
        m = self.find(name, text)
        if m is None:
            return None
        for g, v in self._items(name, m):
            if v is not None:
                return g.replace("_", "-")
        return None

    def _number(self, s: str | None) -> int | None:
        if s is None:
            return None
        return int(s) if s.isdigit() else self._voc.count(s)

    def count(self, obj: str) -> list | None:
        """``[min, max]`` of the object's counts (summed; ``max`` ``None`` = "or more"), ``None``
        when none is stated or the counts are alternatives (group ``alt``)."""
        rx = self.can("cost_count", obj)
        if rx is None:
            return None
        lo, hi, seen = 0, 0, False
        for m in rx.finditer(obj, None, None, False, False):
            seen = True
            g = dict(self._items("cost_count", m))
            if g.get("alt") is not None:  # "3 or 1": alternatives, not a sum (no count is read)
                return None
            if g.get("any") is not None:
                lo, hi = lo + 1, None
                continue
            if g.get("one") is not None:
                lo, hi = lo + 1, None if hi is None else hi + 1
                continue
            if g.get("each") is not None:  # 各N / N体ずつ / "N each": N of each kind named before it
                n = (self._number(g["each"]) or 1) * self._each(obj, m.start())
                lo, hi = lo + n, None if hi is None else hi + n
                continue
            n = self._number(g["n"]) if g.get("n") is not None else 1
            top = self._number(g["max"]) if g.get("max") is not None else n
            if n is None or top is None:
                return None
            lo += n
            hi = None if (hi is None or g.get("more")) else hi + top
        return [lo, hi] if seen else None

    def _each(self, obj: str, at: int) -> int:
        """How many times an "each" count (各N, N体ずつ, "N each") is taken: once per kind named
        before it (:meth:`_kinds`); when it names one kind, once per place the object names
        (从自己的手卡和墓地把…怪兽各1只, "the above monsters, 1 each from your field and GY": 1 from
        each place, 2 in all, as the Japanese 自分のフィールド及び墓地から１体ずつ)."""
        kinds = self._kinds(obj[:at])
        if kinds == 1:
            return max(1, len(self.places(obj)))
        return kinds

    def _kinds(self, before: str) -> int:
        """How many kinds a 各 ("each") count is of, in the words ``cost_each_scope`` finds before it:
        ``cost_each``'s major separators + 1, else its quoted names (two or more), else its minor
        separators + 1."""
        rx = self.rx("cost_each")
        if rx is None:
            return 1
        if (scope := self.find("cost_each_scope", before)) is not None:
            before = scope.group(0)
        found = [m.lastgroup for m in rx.finditer(before, None, None, False, False)]
        major, names = found.count("major"), found.count("name")
        return major + 1 if major else names if names > 1 else found.count("minor") + 1

    def places(self, obj: str) -> list[str]:
        """The places the object's cards come from (project names, ``opp-`` for the opponent's)."""
        rx = self.can("cost_place", obj)
        out: list[str] = []
        if rx is None:
            return out
        for m in rx.finditer(obj, None, None, False, False):
            for g, v in self._items("cost_place", m):
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
            rx = self.can(name, phrase)  # (a fragment that cannot match leaves the phrase as it is)
            if rx is not None:
                phrase = rx.sub(" ", phrase, 0, None, None, False)
        phrase = _SPACE_PUNCT.sub(r"\1", _SPACES.sub(" ", phrase, 0, None, None, False), 0, None, None,
                                  False).strip(" ,.")
        f: dict[str, Any] = {"phrase": phrase}
        # the typed parts are read outside quoted names ("Blue-Eyes White Dragon" names no Type)
        # and outside the cards the filter leaves out (", except "X"")
        exc = self.rx("filter_except")
        kept = exc.sub("", obj, 0, None, None, False) if exc is not None else obj  # the object: counts keep their names
        bare = self._voc.quote_re.sub(" ", exc.sub("", phrase, 0, None, None, False) if exc is not None else phrase,
                                      0, None, None, False)

        def values(name: str, group: str | None = None, where: str = bare) -> list[str]:
            rx = self.can(name, where)
            out: list[str] = []
            num = self._num(name, group, group) if group and rx is not None else None
            for m in (rx.finditer(where, None, None, False, False) if rx is not None else ()):
                v = m.group(num) if group else next((g for g, x in self._items(name, m) if x is not None), None)
                if v and v not in out:
                    out.append(v)
            return out
        if a := values("filter_attribute"):
            f["attributes"] = a
        if t := values("filter_type", "type"):
            f["types"] = list(dict.fromkeys(self._voc.type_words.get(x, x) for x in t))
        if k := values("filter_kind", "kind"):
            f["card_kinds"] = list(dict.fromkeys(self._voc.kind_words.get(x, x) for x in k))
        if (m := self.find("filter_level", bare)) is not None:
            n = int(m.group(self._num("filter_level", "n", "n")))
            f["levels"] = [1, n] if m.group(self._num("filter_level", "lower", "lower")) else [n, None] \
                if m.group(self._num("filter_level", "higher", "higher")) else [n, n]
        arch = values("filter_archetype", "name", kept)
        if arch:
            f["archetypes"] = arch
        names = list(dict.fromkeys(x.group(1) for x in self._voc.quote_re.finditer(kept, None, None, False, False)
                                   if x.group(1) not in arch))
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
        verbs = self.can("cost_action", text)
        if verbs is None:
            return []
        found = list(verbs.finditer(text, None, None, False, False))
        out: list[dict[str, Any]] = []
        obj_num = self._num("cost_action", "obj", None)  # (a match's groupdict has the pattern's group names)
        for i, m in enumerate(found):
            action = next(g for g, v in self._items("cost_action", m) if v is not None and g != "obj").replace("_", "-")
            if obj_num is not None:  # the object is part of the match (Chinese: 把<obj>除外)
                obj = " ".join(m.captures(obj_num))
            else:  # the object follows the verb, up to the next verb (English)
                stop = found[i + 1].start() if i + 1 < len(found) else len(text)
                obj = text[m.end():stop]
            if (aside := self.can("cost_aside", obj)) is not None:
                obj = aside.sub("", obj, 0, None, None, False)
            e = self.find("cost_object_end", obj)
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
            d["amount"] = int(n.group(self._num("lp_amount", "n", "n"))) if n else None
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
        obj = obj.strip()
        rx = self.can("cost_object_trim", obj)
        return rx.sub("", obj, 0, None, None, False) if rx is not None else obj

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
        whose: list[str] = []
        rx = self.can("requirement_whose", phrase)
        for w in (rx.finditer(phrase, None, None, False, False) if rx is not None else ()):
            d = dict(self._items("requirement_whose", w))  # (once a match: it builds a dict)
            g = next((g for g in ("you", "opponent", "both") if d.get(g)), None)
            if g and g not in whose:
                whose.append(g)
        # every typed part (a requirement may state two); the kind is the first named group of the
        # first match (what ``choice("requirement_kind", phrase)`` reads, taken from this one scan)
        kinds = self.can("requirement_kind", phrase)
        kind: str | None = None
        parts: list[str] = []
        for i, k in enumerate(kinds.finditer(phrase, None, None, False, False) if kinds is not None else ()):
            for g, v in self._items("requirement_kind", k):
                if v is not None:
                    g = g.replace("_", "-")
                    if i == 0 and kind is None:
                        kind = g
                    if g not in parts:
                        parts.append(g)
        req = {"kind": kind or "other", "phrase": phrase, "whose": whose}
        if len(parts) > 1:
            req["parts"] = parts
        if kind is not None:
            count, filt = self._requirement_object(phrase, kind)
            if count is not None:
                req["count"] = count
            if filt is not None:
                req["filter"] = filt
        return req

    def _requirement_object(self, phrase: str, kind: str) -> tuple[list | None, dict[str, Any] | None]:
        """The count and filter of the cards a precondition of kind ``kind`` counts (``(None,
        None)``: not stated or not read), from the words fragment ``requirement_object`` finds:
        its group named after the kind (``cards_in_gy`` ...) must have matched, and it must be the
        only object of the phrase (two objects: which is the kind's is not said, both unread).
        The words (group ``obj``, every capture) are read as a cost object is (:meth:`count`,
        :meth:`card_filter`): "exactly 3 DARK monsters" is ``[3, 3]``, "3 or more" ``[3, None]``
        (group ``more``: 以上 after 种类 / 種類 / the count), "no" (group ``none``) ``[0, 0]``;
        a count is read only where a number is written ("a monster", 「X」: one or more, not
        read).  Seed: issue 10 §1, the requirement "exactly 3 DARK monsters in your GY"."""
        rx = self.can("requirement_object", phrase)
        if rx is None:
            return None, None
        found = list(rx.finditer(phrase, None, None, False, False))
        if len(found) != 1:
            return None, None
        m = found[0]
        g = dict(self._items("requirement_object", m))
        if g.get(kind.replace("-", "_")) is None:
            return None, None
        obj = " ".join(x.strip() for x in m.captures(self._num("requirement_object", "obj", "obj")) if x and x.strip())
        if not obj:
            return None, None
        count: list | None = None
        if g.get("none") is not None:
            count = [0, 0]
        elif _DIGIT.search(obj, None, None, False) and (count := self.count(obj)) is not None and g.get("more") is not None:
            count = [count[0], None]
        return count, self.card_filter(obj)


# compiled once: ``regex.sub(<str>, ...)`` looks its pattern up in regex's cache on every call
# (~20 us each, per cost object)
_SPACES = regex.compile(r"\s+")
_DIGIT = regex.compile(r"\d")
_SPACE_PUNCT = regex.compile(r"\s+([,.])")


# pattern id -> (the groups its captures read, by number (0: the whole match); its captures with
# the index of each of their groups in that tuple; the captures dict and the regex it was made from)
_CAPTURE_PLANS: dict[str, tuple[tuple, list, dict, Any]] = {}
_FIELDS_MEMO_SIZE = 8192


def _capture_plan(p: Pattern) -> tuple[tuple, list]:
    plan = _CAPTURE_PLANS.get(p.id)
    if plan is None or plan[2] is not p.captures or plan[3] is not p.regex:
        names: list[Any] = []
        caps = []
        for fld, (group, typ) in p.captures.items():
            idx = []
            for g in (group if isinstance(group, tuple) else (group,)):
                # a group by its number: ``regex`` reads a name by first trying it as a number
                # and formatting the TypeError that fails (~2,000 instructions a name); the same
                # group (names used twice share one number), the name itself when it is unknown
                g = 0 if g == WHOLE_MATCH else p.regex.groupindex.get(g, g)
                if g not in names:
                    names.append(g)
                idx.append(names.index(g))
            caps.append((fld, isinstance(group, tuple), tuple(idx), typ))
        plan = _CAPTURE_PLANS[p.id] = (tuple(names), caps, p.captures, p.regex)
    return plan[0], plan[1]


def _fields(p: Pattern, m: "regex.Match[str]", voc: _Vocab | None) -> dict[str, Any]:
    """The fields of the condition of match ``m`` of ``p`` (a new dict): ``p.yields`` and the
    captures read from their groups (see the ``captures`` format in :mod:`extractor.patterns`).
    A pure function of the pattern and the words of its captured groups, so it is remembered per
    language (bounded); each group is read from the match once (``regex``'s ``Match.group``
    costs ~1 us a call).  Raises nothing."""
    if not p.captures:
        return dict(p.yields)
    names, caps = _capture_plan(p)
    vals = m.group(*names) if len(names) > 1 else (m.group(names[0]),)
    memo = voc.fields_memo if voc is not None else None
    if memo is None:
        return _read_fields(p, vals, caps, voc)
    key = (p.id, vals)
    got = memo.get(key)
    if got is None:
        got = _read_fields(p, vals, caps, voc, voc.reads)
        if len(memo) >= _FIELDS_MEMO_SIZE:
            memo.clear()
        memo[key] = got
    return dict(got)


_NOT_SET = object()  # what _convert gives when the field is not set
_READS_SIZE = 8192


def _read_fields(p: Pattern, vals: tuple, caps: list, voc: _Vocab | None,
                 reads: dict | None = None) -> dict[str, Any]:
    """:func:`_fields` without the memo: ``vals`` are the words of the groups ``caps`` index.
    ``reads``: the language's ``(capture type, words) -> value`` memo (:attr:`_Vocab.reads`), or
    ``None`` to read every capture afresh."""
    out = dict(p.yields)
    for fld, several, idx, typ in caps:
        if several:  # several groups: the words of those that matched, one per line
            g = "\n".join(x for x in (vals[i] for i in idx) if x is not None) or None
        else:
            g = vals[idx[0]]
        if typ == "bool":
            out[fld] = g is not None
            continue
        if g is None or voc is None:
            continue
        if typ == "text":
            out[fld] = g
            continue
        if reads is None:
            val = _convert(typ, g, voc)
        else:
            key = (typ, g)
            val = reads.get(key, reads)  # (the dict itself: not read yet)
            if val is reads:
                val = _convert(typ, g, voc)
                if len(reads) >= _READS_SIZE:
                    reads.clear()
                reads[key] = val
        if val is not _NOT_SET:
            out[fld] = val
    return out


def _convert(typ: str, g: str, voc: _Vocab) -> Any:
    """The value capture type ``typ`` reads from the words ``g`` (see the ``captures`` format in
    :mod:`extractor.patterns`), :data:`_NOT_SET` when the field is not set.  A pure function of
    ``typ``, ``g`` and the language (the values are never mutated: conditions validate copies)."""
    if typ == "locations":
        return voc.locations(g) or _NOT_SET
    if typ == "summon":
        return voc.summon(g) or _NOT_SET
    if typ == "names":
        return tuple(x.group(1) for x in voc.quote_re.finditer(g, None, None, False, False))
    if typ == "name":
        x = voc.quote_re.search(g, None, None, False)
        return x.group(1) if x else g.strip()
    if typ == "count":
        c = voc.count(g)
        return _NOT_SET if c is None else c
    if voc.slots is None:
        return _NOT_SET
    if typ == "cost":
        return voc.slots.cost(g) or _NOT_SET
    if typ == "requirement":
        req = voc.slots.requirement(g)
        return _NOT_SET if req is None else req
    # choice:<fragment> / flag:<fragment> / find:<fragment>
    kind, _, frag = typ.partition(":")
    if kind == "flag":
        return voc.slots.find(frag, g) is not None
    if kind == "find":
        return voc.slots.find_text(frag, g) or _NOT_SET
    val = voc.slots.choice(frag, g)
    return _NOT_SET if val is None else val
