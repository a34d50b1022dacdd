#!/usr/bin/env python3
"""Round trip of the condition objects: parse, render back, compare with the original sentence.

    .venv/bin/python bench/roundtrip.py                   # en (the issue's figure), zh-CN and ja
    .venv/bin/python bench/roundtrip.py --lang ja         # Japanese only
    .venv/bin/python bench/roundtrip.py --lang en --show 30   # print 30 sentences that do not come back
    .venv/bin/python bench/roundtrip.py --save            # also writes bench/results/roundtrip.md

Reads ``../shared/data/yaml-yugi/cards.jsonl`` in each language, analyzes every card
(:func:`extractor.pipeline.analyze`), and for every procedure (``builtin-special-summon``) and
material line (``material-line``) renders the object (:func:`extractor.render.render`, the card's
own name for the once-per-turn sentence and Xyz alternatives) in the same language and compares it with the object's
original phrase (the sentence it was read from).  Both sides are folded the same way before the
comparison: :func:`extractor.normalize.normalize` (old wordings -> current ones, Chinese registers
-> one), the card's own quoted name -> "this card" (このカード in Japanese), in Japanese effect numbers (① ...:
layout, not wording; the Japanese patterns' phrases start at them) dropped, lower case, every character that is not a letter, digit or "+" dropped; in English "N or
more" is folded to "N+" (the older and the current wording of the same count).  A limit ("once per
turn this way") that the card states in a sentence of its own outside the object's phrase (Japanese
writes it at the head of the text: このカード名の①の方法による特殊召喚は１ターンに１度しかできない) is
no part of that phrase: when the phrase equals the rendering without the limit, the object counts
as whole, and the report says how many did so.  A sentence that
does not come back whole is shown as a word diff: ``-[...]`` what the object failed to keep (in the
original, not in the rendering), ``+[...]`` what the rendering says instead; the table of the most
common losses counts the ``-[...]`` pieces.  Prints a markdown report; needs ../shared.
"""
from __future__ import annotations

import argparse
import collections
import difflib
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import regex  # noqa: E402
from _common import RESULTS, YAML_YUGI, require_shared  # noqa: E402

from extractor.normalize import lang_family, normalize  # noqa: E402
from extractor.pipeline import analyze  # noqa: E402
from extractor.readers import read_yaml_yugi  # noqa: E402
from extractor.render import render  # noqa: E402

KINDS = ("builtin-special-summon", "material-line")
_DROP = regex.compile(r"[^\p{L}\p{N}+]+")
_OR_MORE = regex.compile(r"\b(\d+) or more\b")
_EFFECT_NUMBER = regex.compile(r"[\u2460-\u2473]")  # ① .. ⑳
#: what the card's own quoted name folds to, per language family
THIS_CARD = {"en": "this card", "zh": "这张卡", "ja": "このカード"}


def fold(text: str, lang: str, name: str = "") -> str:
    """The comparison form of a sentence: normalized (extractor.normalize), the card's own quoted
    name -> "this card" (a name is a placeholder where the object did not keep it), "N or more" ->
    "N+" (English), lower case, runs of anything but letters, digits and "+" -> one space."""
    t = normalize(text, lang).text
    if name:
        name = normalize(name, lang).text
        this = THIS_CARD[lang_family(lang)]
        t = t.replace(f'"{name}"', this).replace(f"「{name}」", this)
    if lang_family(lang) == "ja":
        t = _EFFECT_NUMBER.sub(" ", t)
    if lang_family(lang) == "en":
        t = _OR_MORE.sub(r"\1+", t)
    return _DROP.sub(" ", t.lower()).strip()


def tokens(folded: str, lang: str) -> list[str]:
    """Words (English) or characters (Chinese, Japanese; spaces dropped) of a folded sentence."""
    return folded.split() if lang_family(lang) == "en" else [ch for ch in folded if not ch.isspace()]


def diff(orig: str, rend: str, lang: str) -> tuple[str, list[str]]:
    """A word diff of two folded sentences: the text with ``-[lost]`` and ``+[added]`` marks, and the
    list of lost pieces (original words the rendering does not have, one piece per place)."""
    a, b = tokens(orig, lang), tokens(rend, lang)
    sep = " " if lang_family(lang) == "en" else ""
    out, lost = [], []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(sep.join(a[i1:i2]))
            continue
        if i2 > i1:
            piece = sep.join(a[i1:i2])
            out.append(f"-[{piece}]")
            lost.append(piece)
        if j2 > j1:
            out.append(f"+[{sep.join(b[j1:j2])}]")
    return sep.join(out) if sep else " ".join(out), lost


def cause(c, lost: list[str], lang: str) -> str:
    """Why an object does not come back whole, by rules on the object and the lost pieces: an Xyz
    alternative that kept no material, a procedure read after a lead sentence that is not kept
    ("Must be either Fusion Summoned, or ...", 融合召喚及び以下の方法でのみ), only short pieces lost
    (particles, word order: the renderer's wording differs, nothing of substance is missing; a piece of
    at most 2 characters in Chinese / Japanese, 1 word in English), else words the object did not keep."""
    if c.kind == "material-line" and c.line.alternative and not c.line.parts:
        return "Xyz alternative: no material kept (the monster it is overlaid on)"
    if "either" in c.pattern_id:
        return "lead sentence not kept (Fusion Summon or this way)"
    short = 1 if lang_family(lang) == "en" else 2
    if all(len(tokens(x, lang)) <= short for x in lost):
        return "wording only: particles, word order, one short word (renderer)"
    return "words of the original not kept by the object (or misplaced)"


def _same(o: str, r: str, lang: str) -> bool:
    """Whether two folded sentences are equal (spaces ignored outside English)."""
    return o == r if lang_family(lang) == "en" else o.replace(" ", "") == r.replace(" ", "")


def run(lang: str, show: int) -> tuple[str, dict]:
    """Round-trip one language; returns the markdown section and the figures."""
    t0 = time.time()
    per_kind = collections.Counter()
    same_kind = collections.Counter()
    losses = collections.Counter()
    causes = collections.Counter()
    failed = []
    header_limit = 0
    for item in read_yaml_yugi(YAML_YUGI, lang):
        card = getattr(item, "card", None)
        if card is None:
            continue
        res = analyze(card)
        for c in res.conditions:
            if c.kind not in KINDS:
                continue
            per_kind[c.kind] += 1
            rend = render(c, lang, name=card.name)
            o, r = fold(c.phrase, lang, card.name), fold(rend, lang, card.name)
            if _same(o, r, lang):
                same_kind[c.kind] += 1
                continue
            if getattr(c, "limit", None) and _same(o, fold(render(c.model_copy(update={"limit": None}), lang,
                                                                  name=card.name), lang, card.name), lang):
                same_kind[c.kind] += 1
                header_limit += 1
                continue
            text, lost = diff(o, r, lang)
            losses.update(lost or ["(word order or added words only)"])
            causes[cause(c, lost, lang)] += 1
            failed.append((card.id, card.name, c.kind, c.phrase, rend, text))
    total, same = sum(per_kind.values()), sum(same_kind.values())
    lines = [f"## {lang}", "",
             f"{same} of {total} procedures and material lines come back whole: **{same / max(total, 1):.1%}** "
             f"({time.time() - t0:.0f} s)", "",
             f"Of these, {header_limit} procedures state their limit in a sentence outside the phrase (compared "
             "without the limit).", "", "| kind | objects | whole | share |", "|---|---:|---:|---:|"]
    for k in KINDS:
        lines.append(f"| {k} | {per_kind[k]} | {same_kind[k]} | {same_kind[k] / max(per_kind[k], 1):.1%} |")
    lines += ["", "Why sentences do not come back whole (`cause` in bench/roundtrip.py):", "",
              "| cause | sentences |", "|---|---:|"]
    for why, n in causes.most_common():
        lines.append(f"| {why} | {n} |")
    lines += ["", "Most common losses (original words the rendering did not give back):", "",
              "| lost | times |", "|---|---:|"]
    for piece, n in losses.most_common(25):
        lines.append(f"| `{piece}` | {n} |")
    if show:
        lines += ["", f"First {min(show, len(failed))} of {len(failed)} sentences that do not come back whole:", ""]
        for cid, name, kind, phrase, rend, text in failed[:show]:
            lines += [f"- {cid} {name} ({kind})", f"  - original: `{phrase}`", f"  - rendered: `{rend}`",
                      f"  - diff: `{text}`"]
    return "\n".join(lines) + "\n", {"total": total, "whole": same}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lang", action="append", help="en, zh-CN, ja (default: all three)")
    ap.add_argument("--show", type=int, default=15, help="sentences that do not come back to print (default 15)")
    ap.add_argument("--save", action="store_true", help="also write bench/results/roundtrip.md")
    args = ap.parse_args()
    require_shared(YAML_YUGI)
    langs = args.lang or ["en", "zh-CN", "ja"]
    report = ["# Round trip: parse, render, compare (`bench/roundtrip.py`)", "",
              "Command: `.venv/bin/python bench/roundtrip.py" + "".join(f" --lang {x}" for x in args.lang or [])
              + (f" --show {args.show}" if args.show != 15 else "") + " --save`", ""]
    for lang in langs:
        section, _ = run(lang, args.show)
        report.append(section)
    text = "\n".join(report)
    print(text)
    if args.save:
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / "roundtrip.md").write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
