"""Cues: loose wording that MAY state a Summoning Condition of a kind (``patterns/cues/<lang>.yaml``).

``validate`` reads the conditions of two texts with the pattern catalog.  When a condition is read
on one side only, the other side either does not state it (a real difference) or states it in
words the catalog does not read (older and fan translations say the same thing in many ways).
A cue tells the two apart: wording about that kind of condition (不能…召唤, 只能…特殊召唤, "Tribute",
降临 ...) on the other side, outside every phrase the catalog did read there, makes the absence
uncertain, and ``validate`` reports it as such (severity ``low``, pointing at the cue).  Cues never
create conditions and are never used by ``tag``.

File format (one file per language family, like the pattern files): ``language`` and a list
``cues`` of ``{group, regex, examples: {match, no_match}}``; ``group`` is a condition group of
:func:`extractor.validate.canonical`; ``regex`` (``regex`` module) runs on the NORMALIZED text
(:mod:`extractor.normalize`).  Every example runs as a test (``tests/test_cues.py``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import regex

from .normalize.common import PATTERNS_DIR, lang_family, load_yaml
from .textmap import MappedText

__all__ = ["Cue", "load_cues", "unread_cue", "CueError"]

CUES_DIR = PATTERNS_DIR.joinpath("cues")


class CueError(ValueError):
    """A cue file is malformed (the message names the file and the entry)."""


@dataclass(frozen=True)
class Cue:
    """One cue: the condition ``group`` it hints at, its compiled ``regex``, its examples."""

    group: str
    lang: str
    regex: "regex.Pattern[str]"
    examples_match: tuple[str, ...] = field(default=())
    examples_no_match: tuple[str, ...] = field(default=())


@lru_cache(maxsize=16)
def load_cues(lang: str, kind: str = "") -> tuple[Cue, ...]:
    """The cues of ``lang``'s family (``en``, ``zh``) from ``patterns/cues/<kind><fam>.yaml``
    (``kind`` ``""``: the validate and coverage cues; ``"audit-"``: the audit's frame cues); an empty
    tuple when there is no such file.

    Raises:
        CueError: the file is malformed or a regex does not compile (names the file and the entry).
    """
    fam = lang_family(lang)
    name = f"{kind}{fam}.yaml"
    path = CUES_DIR.joinpath(name)
    if not path.is_file():
        return ()
    doc = load_yaml(path) or {}
    out = []
    for i, d in enumerate(doc.get("cues") or []):
        try:
            rx = regex.compile(d["regex"])
            group = str(d["group"])
        except (KeyError, TypeError, regex.error) as e:
            raise CueError(f"patterns/cues/{name}: cue #{i + 1}: {e}") from None
        ex = d.get("examples") or {}
        out.append(Cue(group, fam, rx, tuple(ex.get("match") or ()), tuple(ex.get("no_match") or ())))
    return tuple(out)


def unread_cue(mt: MappedText, lang: str, group: str,
               read_spans: list[tuple[int, int]]) -> tuple[int, int] | None:
    """Where ``mt`` (one normalized side) has wording about ``group`` that was not read.

    Input: the normalized text with its map to the original, its language, a condition group,
    and the ORIGINAL ``[start, end)`` character spans of every phrase read on that side.
    Output: the original ``[start, end)`` span of the first cue match that no single read phrase
    contains (wording outside what was read: a cue sentence "只能在…的场合,…这张卡从手卡特殊召唤" of
    which only the last clause was read still counts), or ``None``.
    """
    for cue in load_cues(lang):
        if cue.group != group:
            continue
        for m in cue.regex.finditer(mt.text):
            if m.end() <= m.start():
                continue
            s, e = mt.to_original(m.start(), m.end())
            if not any(rs <= s and e <= re_ for rs, re_ in read_spans):
                return (s, e)
    return None
