"""Build the planted-mismatch corpus of `validate` from real yaml-yugi en / zh-CN pairs.

    .venv/bin/python corpora/validate/build_planted.py [../shared/data/yaml-yugi/cards.jsonl]

Takes 50 real pairs whose conditions AGREE (no mismatch, at least one condition on each side,
no Pendulum Effect), alters one side of 24 of them and keeps 26 unaltered:

- ``drop-ns-target``  (6): the Chinese "不能通常召唤" clause removed -> missing-in-target
  cannot-normal-summon;
- ``drop-ns-source``  (4): the English "Cannot be Normal Summoned/Set." removed -> extra-in-target
  cannot-normal-summon;
- ``gy-to-deck``      (5): 墓地 -> 卡组 in the Chinese condition that names the GY as a location ->
  slot-differs locations;
- ``drop-first``      (5): English "Must first be" -> "Must be" -> slot-differs first_only;
- ``tribute-count``   (4): the Chinese 3-Tribute count (3只 ... 解放) -> 2 -> a tributes-required
  mismatch (slot-differs count, or missing-in-target when 2 Tributes are no condition at all).

The alteration is chosen from the TEXT (a phrase of the wanted kind), never from what the tool
then reports.  Writes ``planted-en.jsonl`` and ``planted-zh-CN.jsonl`` (``{id, name, lang, type,
level, text}``, readable by ``validate``) and ``planted-expected.jsonl`` (``{id, alteration, side,
before, after, expected: [{kind: [...], condition, slot}]}``; ``expected`` is empty for an
unaltered pair).  Deterministic: same data, same patterns -> same corpus.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import orjson
import regex

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from extractor.patterns import load_catalog  # noqa: E402
from extractor.pipeline import analyze_text  # noqa: E402
from extractor.readers import read_yaml_yugi  # noqa: E402
from extractor.validate import compare_conditions  # noqa: E402

OUT = Path(__file__).resolve().parent
PLAN = {"drop-ns-target": 6, "drop-ns-source": 4, "gy-to-deck": 5, "drop-first": 5, "tribute-count": 4}
UNALTERED = 26


def _load(path: Path):
    en = {it.card.id: it.card for it in read_yaml_yugi(path, "en") if it.card and it.card.id}
    zh = {it.card.id: it.card for it in read_yaml_yugi(path, "zh-CN") if it.card and it.card.id}
    meta = {}
    for line in open(path, "rb"):
        d = orjson.loads(line)
        if d.get("password"):
            meta[d["password"]] = (d.get("monster_type_line"), d.get("level") or d.get("rank")
                                   or (len(d["link_arrows"]) if d.get("link_arrows") else None))
    return en, zh, meta


def _cut(text: str, s: int, e: int, follow: str) -> str:
    """``text`` without ``[s, e)`` and one following character of ``follow`` plus spaces."""
    if e < len(text) and text[e] in follow:
        e += 1
    while e < len(text) and text[e] == " ":
        e += 1
    return text[:s] + text[e:]


def _alter(kind: str, en_text: str, zh_text: str, ce, cz):
    """(side, new_text, before, after, expected) or None when this pair has no such phrase."""
    if kind == "drop-ns-target":
        c = next((c for c in cz if c.kind == "cannot-normal-summon"), None)
        if c is None or len([x for x in cz if x.kind == "cannot-normal-summon"]) != 1:
            return None
        new = _cut(zh_text, c.span[0], c.span[1], "。，,")
        return ("target", new, c.phrase, "", [{"kind": ["missing-in-target"], "condition": "cannot-normal-summon", "slot": None}])
    if kind == "drop-ns-source":
        c = next((c for c in ce if c.kind == "cannot-normal-summon" and c.phrase == "Cannot be Normal Summoned/Set"), None)
        if c is None or len([x for x in ce if x.kind == "cannot-normal-summon"]) != 1:
            return None
        new = _cut(en_text, c.span[0], c.span[1], ".")
        return ("source", new, c.phrase, "", [{"kind": ["extra-in-target"], "condition": "cannot-normal-summon", "slot": None}])
    if kind == "gy-to-deck":
        for c in cz:
            locs = getattr(c, "locations", ())
            if "gy" not in locs or "deck" in locs:
                continue
            # the 墓地 the Summon is made from / forbidden from: "从(自己的?)墓地(中)?特殊召唤"
            m = regex.search(r"从(?:自己的?)?(?:[^从。,]{0,8}[·、・])?(墓地)(?:中)?(?:[^。,]{0,4})?特殊召唤", c.phrase)
            if not m:
                continue
            s = c.span[0] + m.start(1)
            new = zh_text[:s] + "卡组" + zh_text[s + 2:]
            return ("target", new, c.phrase, new[c.span[0]:c.span[1]],
                    [{"kind": ["slot-differs"], "condition": _group(c.kind), "slot": "locations"}])
        return None
    if kind == "drop-first":
        c = next((c for c in ce if getattr(c, "first", False) and "Must first be" in c.phrase), None)
        if c is None:
            return None
        i = en_text.index("Must first be", c.span[0])
        new = en_text[:i] + "Must be" + en_text[i + len("Must first be"):]
        return ("source", new, "Must first be", "Must be",
                [{"kind": ["slot-differs"], "condition": "special-summon-method", "slot": "first_only"}])
    if kind == "tribute-count":
        c = next((c for c in cz if c.kind == "tributes-required"), None)
        if c is None:
            return None
        m = regex.search(r"[3３](?=只)", c.phrase) or regex.search(r"[3３]", c.phrase)
        if not m:
            return None
        s = c.span[0] + m.start()
        new = zh_text[:s] + "2" + zh_text[s + 1:]
        return ("target", new, c.phrase, new[c.span[0]:c.span[1] ],
                [{"kind": ["slot-differs", "missing-in-target"], "condition": "tributes-required", "slot": "count"}])
    raise ValueError(kind)


def _group(kind: str) -> str:
    return "special-summon-method" if kind in ("builtin-special-summon", "must-be-special-summoned") else kind


def main(argv: list[str]) -> None:
    path = Path(argv[1]) if len(argv) > 1 else ROOT.parent / "shared" / "data" / "yaml-yugi" / "cards.jsonl"
    en, zh, meta = _load(path)
    cat = load_catalog()
    agreeing = []
    for cid in sorted(set(en) & set(zh)):
        e, z = en[cid], zh[cid]
        if e.pendulum_effect or z.pendulum_effect or not e.frame.is_monster:
            continue
        ce, *_ = analyze_text(e.text, "en", e.frame, catalog=cat)
        cz, *_ = analyze_text(z.text, "zh-CN", e.frame, catalog=cat)
        if not ce or not cz:
            continue
        mm, _, _ = compare_conditions(ce, cz, e.frame)
        if mm:
            continue
        agreeing.append((cid, ce, cz))
    rnd = random.Random(20261129)
    rnd.shuffle(agreeing)
    used: set[int] = set()
    rows = []  # (cid, en_text, zh_text, expected_record)
    for kind, n in PLAN.items():
        got = 0
        for cid, ce, cz in agreeing:
            if got == n:
                break
            if cid in used:
                continue
            r = _alter(kind, en[cid].text, zh[cid].text, ce, cz)
            if r is None:
                continue
            side, new, before, after, expected = r
            used.add(cid)
            got += 1
            et, zt = (new, zh[cid].text) if side == "source" else (en[cid].text, new)
            rows.append((cid, et, zt, {"id": cid, "alteration": kind, "side": side, "before": before, "after": after,
                                       "expected": expected}))
        if got < n:
            print(f"warning: only {got} pairs for {kind}", file=sys.stderr)
    # unaltered: spread over condition kinds
    by_kind: dict[str, list[int]] = {}
    for cid, ce, cz in agreeing:
        if cid not in used:
            by_kind.setdefault(min(c.kind for c in ce), []).append(cid)
    keep: list[int] = []
    while len(keep) < UNALTERED and any(by_kind.values()):
        for k in sorted(by_kind):
            if by_kind[k] and len(keep) < UNALTERED:
                keep.append(by_kind[k].pop(0))
    for cid in keep:
        rows.append((cid, en[cid].text, zh[cid].text, {"id": cid, "alteration": None, "side": None, "before": None,
                                                        "after": None, "expected": []}))
    rows.sort(key=lambda r: r[0])

    def rec(cid: int, text: str, lang: str, name: str) -> bytes:
        typ, lvl = meta.get(cid, (None, None))
        return orjson.dumps({"id": cid, "name": name, "lang": lang, "type": typ, "level": lvl, "text": text}) + b"\n"

    (OUT / "planted-en.jsonl").write_bytes(b"".join(rec(c, et, "en", en[c].name) for c, et, _, _ in rows))
    (OUT / "planted-zh-CN.jsonl").write_bytes(b"".join(rec(c, zt, "zh-CN", zh[c].name) for c, _, zt, _ in rows))
    (OUT / "planted-expected.jsonl").write_bytes(b"".join(orjson.dumps(x) + b"\n" for *_, x in rows))
    print(f"{len(agreeing)} agreeing pairs; wrote {len(rows)} pairs, {sum(1 for r in rows if r[3]['alteration'])} altered",
          file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
