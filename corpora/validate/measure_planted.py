"""Run ``validate`` on the planted corpus and print what it finds, per alteration class.

    .venv/bin/python corpora/validate/measure_planted.py [--save]

``--save`` also writes ``corpora/validate/RESULTS.md``.  The corpus is built WITHOUT the tool
(``build_planted.py``); this script is the only part that runs it.  For each planted pair, a
planted difference counts as *found* when the card's report holds a mismatch matching its
``expected`` entry: ``kind`` among the accepted kinds, ``condition`` among the accepted condition
groups and, for a ``slot-differs``, the expected ``slot``.  Structure classes (issue 10) are also
counted *loosely*: any condition mismatch at all on that card (today's tool has none of their slots).
Figures at the default severity (``medium``, what the CLI shows) and at ``low`` (everything).
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from extractor.validate import validate  # noqa: E402

CARD_LEVEL = ("card-missing-in-source", "card-missing-in-target", "empty-text", "truncated-text")


def load_expected(folder: Path = HERE) -> dict[int, dict]:
    """``planted-expected.jsonl`` as ``{id: record}``."""
    return {d["id"]: d for d in map(json.loads, (folder / "planted-expected.jsonl").read_text(encoding="utf-8").splitlines())}


#: the slot names ``validate`` reports for an expected slot: a Synchro line states its Tuner and
#: non-Tuner counts (``materials.tuner`` / ``materials.non_tuner``), not a total ``materials.count``
SLOT_NAMES = {"materials.count": ("materials.count", "materials.tuner", "materials.non_tuner")}


def matches(m, e: dict) -> bool:
    """Whether mismatch ``m`` (a ``validate`` Mismatch) is the expected report ``e`` (slot names
    through :data:`SLOT_NAMES`)."""
    return (m.kind in e["kind"] and m.condition in e["condition"]
            and (m.kind != "slot-differs" or m.slot in SLOT_NAMES.get(e["slot"], (e["slot"],))))


@dataclass
class ClassFigure:
    """Found / planted for one alteration class at one severity."""
    name: str
    structure: bool
    planted: int = 0
    found: int = 0
    found_loose: int = 0
    missed: list = field(default_factory=list)
    other: list = field(default_factory=list)  # (id, reports beyond the expected one)


@dataclass
class Figures:
    """The whole measurement at one severity."""
    severity: str
    classes: dict
    unaltered: int
    unaltered_reported: dict  # id -> [(kind, condition, slot, severity)]
    compared: int


def measure(severity: str = "medium", folder: Path = HERE) -> Figures:
    """Run ``validate`` (en -> zh-CN) on the corpus in ``folder`` and count, per class, the planted
    differences found (see the module docstring) and the unaltered pairs that report anything."""
    exp = load_expected(folder)
    rep = validate(folder / "planted-en.jsonl", folder / "planted-zh-CN.jsonl", source_lang="en",
                   target_lang="zh-CN", min_severity=severity)
    cards = {c.id: c for c in rep.cards}
    classes: dict[str, ClassFigure] = {}
    unaltered_reported = {}
    for cid, x in sorted(exp.items()):
        card = cards.get(cid)
        ms = [m for m in card.mismatches if m.kind not in CARD_LEVEL] if card else []
        if not x["alteration"]:
            if card and card.mismatches:
                unaltered_reported[cid] = [(m.kind, m.condition, m.slot, m.severity) for m in card.mismatches]
            continue
        f = classes.setdefault(x["alteration"], ClassFigure(x["alteration"], x["structure"]))
        f.planted += 1
        hit = all(any(matches(m, e) for m in ms) for e in x["expected"])
        f.found += hit
        f.found_loose += bool(ms)
        if not hit:
            f.missed.append((cid, x["lang"]))
        extra = [(m.kind, m.condition, m.slot) for m in ms if not any(matches(m, e) for e in x["expected"])]
        if extra:
            f.other.append((cid, extra))
    return Figures(severity, classes, sum(1 for x in exp.values() if not x["alteration"]), unaltered_reported,
                   rep.cards_compared)


def table(figs: list[Figures]) -> str:
    """A Markdown table: one row per class, one found column per severity."""
    names = sorted(figs[0].classes.values(), key=lambda c: (c.structure, c.name))
    head = "| class | structure | planted | " + " | ".join(f"found / any report (`{f.severity}`)" for f in figs) + " |"
    lines = [head, "|---|---|---:|" + "---:|" * len(figs)]
    for c in names:
        cells = []
        for f in figs:
            x = f.classes[c.name]
            cells.append(f"{x.found} / {x.found_loose}")
        lines.append(f"| {c.name} | {'yes' if c.structure else 'no'} | {c.planted} | " + " | ".join(cells) + " |")
    for structure in (False, True):
        tot = [sum(x.found for x in f.classes.values() if x.structure == structure) for f in figs]
        loose = [sum(x.found_loose for x in f.classes.values() if x.structure == structure) for f in figs]
        n = sum(x.planted for x in figs[0].classes.values() if x.structure == structure)
        lines.append(f"| **all {'structure' if structure else 'condition'} classes** | {'yes' if structure else 'no'} "
                     f"| {n} | " + " | ".join(f"{a} / {b}" for a, b in zip(tot, loose)) + " |")
    lines.append("")
    for f in figs:
        lines.append(f"Unaltered pairs silent at `{f.severity}`: {f.unaltered - len(f.unaltered_reported)} / "
                     f"{f.unaltered}; reported: " + (", ".join(
                         f"{cid} {r}" for cid, r in f.unaltered_reported.items()) or "none") + ".")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--save", action="store_true", help="also write corpora/validate/RESULTS.md")
    args = ap.parse_args(argv)
    figs = [measure("medium"), measure("low")]
    out = table(figs)
    missed = [f"- {c.name}: missed at `medium` {c.missed}" + (f"; other reports {c.other}" if c.other else "")
              for c in sorted(figs[0].classes.values(), key=lambda c: (c.structure, c.name)) if c.missed or c.other]
    text = out + "\n\n" + "\n".join(missed) + "\n"
    print(text)
    if args.save:
        import subprocess
        at = subprocess.run(["git", "log", "-1", "--format=%h", "--", "extractor", "patterns"], cwd=ROOT,
                            capture_output=True, text=True).stdout.strip() or "unknown"
        (HERE / "RESULTS.md").write_text(
            "# Planted corpus: what `validate` finds\n\n"
            "`.venv/bin/python corpora/validate/measure_planted.py --save` (corpus built by `build_planted.py` "
            "without running the tool); `extractor/` and `patterns/` at {at}. Cells: planted differences found "
            "(the expected condition / slot reported) / pairs with any condition report.\n\n".format(at=at) + text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
