"""The list of cards `validate --reference ja` reports on yaml-yugi, for a fresh judge.

Runs the reference mode on ../shared/data/yaml-yugi/cards.jsonl (reference ja; translations en
and zh-CN; default settings, as the CLI: --min-severity medium), prints the counts per translation
and per verdict, and writes

- docs/validate-judged/ja-reference-list.jsonl: one line per finding (every finding when there
  are at most --max of them, else a seeded sample of --max, drawn per verdict in proportion):
  ``n``, ``id``, ``name`` (English), the finding (``verdict``, ``departs``, ``kind``,
  ``condition``, ``slot``, ``severity``, ``reference`` and ``translations`` readings: values,
  spans into the original texts, phrases; ``detail``) and the three original texts;
- docs/validate-judged/ja-reference-list.md: a table with an EMPTY verdict column for the
  judge, and the three texts of each item below it.

The judge is not the author: this script never writes a verdict.

- the block between ``<!-- ja-reference-list -->`` and ``<!-- /ja-reference-list -->`` in
  docs/ja-validate.md: the counts per translation and per verdict, and the list of findings.

    .venv/bin/python bench/ja_reference_sample.py [--max 60] [--seed 11] [--no-write]
"""
from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from extractor.validate import validate_reference  # noqa: E402
from validate_runs import checkout_read  # noqa: E402  (the run reads this checkout's code and catalog)

YAML_YUGI = ROOT.parent / "shared" / "data" / "yaml-yugi" / "cards.jsonl"
OUT = ROOT / "docs" / "validate-judged"
LANGS = ("ja", "en", "zh-CN")


def _names() -> dict[int, str]:
    out = {}
    with open(YAML_YUGI, encoding="utf-8") as f:
        for line in f:
            r = json.loads(line)
            if r.get("password") is not None:
                out[int(r["password"])] = (r.get("name") or {}).get("en") or ""
    return out


def _value(v) -> str:
    return "—" if v is None else json.dumps(v, ensure_ascii=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max", type=int, default=60, help="at most this many findings in the sample (default 60)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--no-write", action="store_true", help="print the counts only")
    a = ap.parse_args()
    t0 = time.perf_counter()
    print(f"Code and pattern catalog: {checkout_read()}")
    rep = validate_reference(YAML_YUGI, [None, None], reference_lang="ja", translation_langs=["en", "zh-CN"])
    dt = time.perf_counter() - t0
    s = rep.summary()
    print(f"validate --reference ja (en, zh-CN) on yaml-yugi: {dt:.1f} s")
    for lg, d in s["translations"].items():
        print(f"  {lg}: compared {d['compared']}, agreeing {d['agreeing']}, departs alone on {d['departs_alone']} "
              f"cards ({d['findings_alone']}), with the other on {d['departs_with_others']}, card problems "
              f"{d['card_problems']}")
    print(f"  cards per verdict: {s['verdicts']}; problems of the ja text: {s['reference_problems']}")
    for lg, nr in s["not_read"].items():
        print(f"  not compared (never read in ja or {lg}): {nr}")
    names = _names()
    items = []
    for c in rep.cards:
        for f in c.findings:
            items.append((c, f))
    print(f"  cards reported {len(rep.cards)}, findings {len(items)}")
    for c, f in items:
        print(f"    {c.id} {names.get(c.id, '')!r}: {f.verdict} {','.join(f.departs) or f.side} {f.kind} "
              f"{f.condition or ''} {f.slot or ''}")
    if len(items) > a.max:
        rng = random.Random(a.seed)
        by: dict[str, list] = {}
        for it in items:
            by.setdefault(it[1].verdict, []).append(it)
        chosen = []
        for v, its in sorted(by.items()):
            k = max(1, round(a.max * len(its) / len(items)))
            chosen += rng.sample(its, min(k, len(its)))
        items = sorted(chosen[:a.max], key=lambda it: (it[0].id, it[0].findings.index(it[1])))
        print(f"  sample: {len(items)} findings (seed {a.seed})")
    if a.no_write:
        return
    lines, rows, texts = [], [], []
    for n, (c, f) in enumerate(items, 1):
        name = names.get(c.id, "") or c.name
        lines.append({"n": n, "id": c.id, "name": name, "finding": f.model_dump(mode="json"),
                      "texts": {lg: c.texts.get(lg) for lg in LANGS},
                      "pendulum": {lg: c.pendulum.get(lg) for lg in LANGS if c.pendulum.get(lg)}})
        vals = ""
        if f.slot:
            vals = ": " + " / ".join(f"{r.lang} {_value(r.value) if r.compared else '(not compared)'}"
                                   for r in [f.reference, *f.translations])
        what = f"{f.kind}, {f.condition or '—'}, {f.slot or '—'}{vals}"
        who = ", ".join(f.departs) if f.departs else f"({f.side} text)"
        rows.append(f"| {n} | {c.id} {name} | {f.verdict}: {who} | {what} | {f.severity} |  |")
        texts.append(f"### {n}. {c.id} {name}\n\nThe tool: {f.detail}\n")
        for lg in LANGS:
            t = c.texts.get(lg)
            texts.append(f"- **{lg}**: {t if t is not None else '(missing)'}")
            if c.pendulum.get(lg):
                texts.append(f"  - Pendulum Effect: {c.pendulum[lg]}")
        rd = [f.reference, *f.translations] if f.reference else []
        for r in rd:
            texts.append(f"- {r.lang} phrase read: {('«' + r.phrase + '»') if r.phrase else '—'}"
                         f"{' (departs)' if r.departs else ''}{'' if r.compared else ' (not compared)'}")
        texts.append("")
    (OUT / "ja-reference-list.jsonl").write_text(
        "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    head = f"""# `validate --reference ja` on yaml-yugi: the findings, for a fresh judge

Command: `ygo-extractor validate ../shared/data/yaml-yugi/cards.jsonl --reference ja --target-lang en
--target-lang zh-CN` (default settings), built by `.venv/bin/python bench/ja_reference_sample.py`;
{len(lines)} findings on {len({x['id'] for x in lines})} cards. The lines with every reading (values,
spans into the original texts) are in `ja-reference-list.jsonl`.

The tool compares each translation (en, zh-CN) with the Japanese original and names the text it
thinks departs from the Japanese: `one: en` (only the English departs; the Chinese agrees with
the Japanese), `all-agree: en, zh-CN` (both translations depart the same way: the tool thinks
the Japanese is the odd one out: a misreading of the Japanese by the tool, or an errata the
translations do not follow), `all-differ` (both depart, differently).

How to judge (see also `JUDGING.md`; the Japanese text is the original): for each line, read the
three texts and decide

- **right**: the texts do differ in that condition/slot, and the text(s) the tool names are the
  one(s) that depart from the Japanese (for `all-agree`: both translations state the same thing
  and the Japanese states something else);
- **real, wrong text**: the texts do differ there, but another text departs than the one named;
- **tool error**: the texts state the same condition and the tool misread one of them (say which).

Leave the last column for the judge. Register differences (这张卡不能 / 此卡不可, 祭品 / 解放) are
never a difference.

| n | id, card | tool: which text departs | finding (kind, condition, slot: values ja / en / zh-CN) | sev | judgement |
|---|---|---|---|---|---|
"""
    (OUT / "ja-reference-list.md").write_text(head + "\n".join(rows) + "\n\n## The texts\n\n" + "\n".join(texts),
                                                encoding="utf-8")
    _update_doc(rep, s, names, dt)
    print(f"  wrote {OUT / 'ja-reference-list.jsonl'} and .md")


def _update_doc(rep, s, names, dt) -> None:
    """Rewrite the list block of docs/ja-validate.md from this run."""
    doc = ROOT / "docs" / "ja-validate.md"
    text = doc.read_text(encoding="utf-8")
    start, end = "<!-- ja-reference-list -->", "<!-- /ja-reference-list -->"
    if start not in text or end not in text:
        print(f"  {doc}: no list block, not updated")
        return
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    out = [start, "",
           f"Run {datetime.date.today().isoformat()} at {commit} (`extractor/` and `patterns/`), default settings; "
           "`.venv/bin/python bench/ja_reference_sample.py` rewrites this block and the judge's files.", "",
           "| translation | cards compared | agreeing | departs alone (cards) | with the other (cards) "
           "| alone: missing / extra / slot | card problems |",
           "|---|---:|---:|---:|---:|---|---:|"]
    for lg, d in s["translations"].items():
        fa = d["findings_alone"]
        out.append(f"| {lg} | {d['compared']:,} | {d['agreeing']:,} | **{d['departs_alone']}** | "
                   f"{d['departs_with_others']} | {fa['missing-in-translation']} / {fa['extra-in-translation']} / "
                   f"{fa['slot-differs']} | {d['card_problems']} |")
    v = s["verdicts"]
    out += ["", f"Cards per verdict: one translation departs **{v['one']}**, both depart the same way "
                f"(`all-agree`: likely a misreading of the Japanese or an errata) **{v['all-agree']}**, both depart "
                f"differently **{v['all-differ']}**; problems of the Japanese text {s['reference_problems']}. "
                f"{len(rep.cards)} cards in all.", ""]
    for lg, nr in s["not_read"].items():
        if nr:
            out.append(f"Not compared, the Japanese or {lg} patterns never read it (differences per slot): "
                       + ", ".join(f"{k} {n}" for k, n in sorted(nr.items(), key=lambda kv: -kv[1])) + ".")
    out += ["", "| id | card | verdict: which text departs | finding (kind, condition, slot: values ja / en / zh-CN) "
                "| sev |", "|---|---|---|---|---|"]
    for c in rep.cards:
        for f in c.findings:
            vals = ""
            if f.slot:
                vals = ": " + " / ".join(f"{r.lang} {_value(r.value) if r.compared else '(not compared)'}"
                                   for r in [f.reference, *f.translations])
            who = ", ".join(f.departs) if f.departs else f"({f.side} text)"
            out.append(f"| {c.id} | {names.get(c.id, '') or c.name} | {f.verdict}: {who} | {f.kind}, "
                       f"{f.condition or '—'}, {f.slot or '—'}{vals} | {f.severity} |")
    i18n = ROOT.parent / "shared" / "data" / "i18n-2012"
    if (i18n / "cards.ja.json").exists():
        r3 = validate_reference(i18n / "cards.ja.json", [i18n / "cards.en.json", i18n / "cards.zh-CN.json"],
                                reference_lang="ja", translation_langs=["en", "zh-CN"])
        s3 = r3.summary()
        per = "; ".join(f"{lg}: compared {d['compared']:,}, departs alone on {d['departs_alone']} cards, with the "
                        f"other on {d['departs_with_others']}" for lg, d in s3["translations"].items())
        out += ["", "Three files (the 2012 i18n JSON, no card types; not judged): `ygo-extractor validate "
                    "../shared/data/i18n-2012/cards.ja.json ../shared/data/i18n-2012/cards.en.json "
                    "../shared/data/i18n-2012/cards.zh-CN.json --reference ja --target-lang en --target-lang zh-CN`: "
                    f"{per}; cards per verdict {s3['verdicts']}; {len(r3.cards)} cards in all."]
    out += ["", "This list's files (each new run rewrites them; the judged sample of the first run is kept apart as "
                "validate-judged/ja-reference-sample.{md,jsonl}): [validate-judged/ja-reference-list.md](validate-judged/ja-reference-list.md) "
                "(verdict column empty; the three texts of each finding below the table) and "
                "[validate-judged/ja-reference-list.jsonl](validate-judged/ja-reference-list.jsonl) (every reading, "
                "spans into the original texts).", "", end]
    i, j = text.index(start), text.index(end) + len(end)
    doc.write_text(text[:i] + "\n".join(out) + text[j:], encoding="utf-8")
    print(f"  updated {doc}")


if __name__ == "__main__":
    main()
