"""Loading the catalog: the YAML files, the fragments and their expansion, :func:`load_catalog`."""
from __future__ import annotations

from functools import lru_cache
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import regex

from ..conditions import CONDITION_CLASSES
from ..normalize.common import PATTERNS_DIR, lang_family, load_terms
from .cache import _disk_cached
from .captures import WHOLE_MATCH, SlotReader, _Vocab
from .fragments import _Fragments, _FragmentsByLang, _read_yaml
from .model import Pattern, PatternError
from .runner import Catalog, _after_positions, _pieces


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

_CAPTURE_TYPES = {"locations", "summon", "names", "name", "bool", "count", "text", "cost", "requirement"}
_FRAGMENT_CAPTURES = ("choice", "flag", "find")  # `as: choice:<fragment>` / `flag:<fragment>` / `find:<fragment>`

_SPECIAL_DIRS = ("terms", "cues", "fragments")


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
        within = _within(d.get("within"), f"{where}: pattern {pid}")
        if within is not None and anchor is not None:  # the gate claims where the anchor holds
            for e in matches:
                t = e["text"]
                if [m.start() for a, b in _pieces(t, *within) for m in anchor.finditer(t, a, b)] != \
                        [m.start() for m in anchor.finditer(t)]:
                    raise PatternError(f"{where}: pattern {pid}: 'anchor' holds outside the pieces of 'within' "
                                       f"in the example {t!r}")
        no_match = list(ex.get("no_match") or [])
        after = _anchor_after(d.get("anchor_after"), anchor, within, f"{where}: pattern {pid}")
        for t in [e["text"] for e in matches] + [e if isinstance(e, str) else e.get("text", "") for e in no_match]:
            if after and _after_positions(t, _pieces(t, *within), anchor, after) != \
                    [m.start() for a, b in _pieces(t, *within) for m in anchor.finditer(t, a, b)]:
                raise PatternError(f"{where}: pattern {pid}: 'anchor' holds in a piece of 'within' at a place that is "
                                   f"not its start and not right after one of 'anchor_after' in the example {t!r}")
        out.append(Pattern(id=pid, lang=fam, regex=rx, yields=dict(d["yields"]), captures=caps,
                           scope=d.get("scope", "monster"), requires=tuple([req] if isinstance(req, str) else req), anchor=anchor,
                           examples_match=matches, examples_no_match=no_match,
                           file=str(where), note=d.get("note", ""), source=written,
                           anchor_source=str(d.get("anchor") or ""), within=within, anchor_after=after))
    return out


def _within(spec: Any, where: str) -> tuple[str, tuple[str, ...]] | None:
    """A pattern's ``within`` field (``{breaks: "。;:", cue: [不能]}``, a gate: every match of the
    pattern lies inside one piece of the text between two ``breaks`` characters -- its regex can
    never match one of them -- and that piece holds one of the ``cue`` literals, which the regex
    needs) as ``(breaks, cues)``; ``None`` when absent.  With an ``anchor`` the claim is about the
    anchor: every position where it holds lies in such a piece (the anchor is scanned only there;
    the pattern is matched at those positions on the whole text, so its match may cross a break;
    the loader checks the claim on the pattern's examples).  The claim is the author's, like
    ``requires``: tests/test_match_gates.py holds every gated pattern to it on the examples and on
    the corpus.

    Raises:
        PatternError: not a mapping of a non-empty ``breaks`` string and a non-empty ``cue`` list
            of non-empty literals holding no break character."""
    if spec is None:
        return None
    breaks = spec.get("breaks") if isinstance(spec, dict) else None
    cues = spec.get("cue") if isinstance(spec, dict) else None
    if isinstance(cues, str):
        cues = [cues]
    if (not isinstance(breaks, str) or not breaks or not isinstance(cues, list) or not cues
            or not all(isinstance(c, str) and c and not any(b in c for b in breaks) for c in cues)):
        raise PatternError(f"{where}: 'within' needs 'breaks' (the characters no match holds, a string) "
                           f"and 'cue' (literals without those characters, one of which every match holds)")
    return breaks, tuple(cues)


def _anchor_after(spec: Any, anchor: Any, within: Any, where: str) -> tuple[str, ...]:
    """A pattern's ``anchor_after`` field (a list of literals: inside a piece of ``within`` the
    anchor holds only at the piece's start or right after one of them; the loader checks the claim
    on the pattern's examples) as a tuple; ``()`` when absent.

    Raises:
        PatternError: not a non-empty list of non-empty strings, or no ``anchor`` and ``within``."""
    if spec is None:
        return ()
    if anchor is None or within is None:
        raise PatternError(f"{where}: 'anchor_after' needs 'anchor' and 'within'")
    if isinstance(spec, str):
        spec = [spec]
    if not isinstance(spec, list) or not spec or not all(isinstance(x, str) and x for x in spec):
        raise PatternError(f"{where}: 'anchor_after' needs a list of literals")
    return tuple(spec)


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
        slots = vocabs[fam].slots = SlotReader(fragments[fam], vocabs[fam])
        # compiled now, so that the cached catalog keeps them (~10 ms a language per process)
        used = {typ.partition(":")[2] for p in patterns if p.lang == fam for _, typ in p.captures.values() if ":" in typ}
        for name in sorted(set(SlotReader.FRAGMENTS) | used):
            slots.rx(name)
    cat = Catalog(patterns, vocabs)
    # every fragment of every language, expanded (unused ones too: their examples are tests)
    cat.fragments = {fam: f.all() for fam, f in fragments.items()}
    return cat
