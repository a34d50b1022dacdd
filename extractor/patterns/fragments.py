"""The fragments of the catalog (``patterns/fragments/<lang>.yaml``): named, shared pieces of
pattern expressions, written once per language family and expanded on demand (``{{name}}``), some
built from the term tables' vocabularies.  Read by :mod:`.loader` (patterns) and typed by
:mod:`.captures` (slot readers)."""
from __future__ import annotations

from importlib.resources.abc import Traversable
from typing import Any

import regex

from ..normalize.common import load_terms
from .model import Fragment, PatternError

_REF = regex.compile(r"\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}")


def _read_yaml(path: Traversable, where: str) -> Any:
    import yaml  # only a cold build of the catalog parses its files (a warm run loads it compiled)

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
