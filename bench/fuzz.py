#!/usr/bin/env python3
"""Fuzzing of ``tag`` with mutated real card texts (issue 8, section 2).  A benchmark, not a test.

    .venv/bin/python bench/fuzz.py                 # 100,000 cards, seed 8
    .venv/bin/python bench/fuzz.py --quick         # 5,000 cards and 4 texts of 1 MB
    .venv/bin/python bench/fuzz.py --n 20000 --seed 3 --mb 4 --keep

1. Takes the real texts of ``../shared/data``: yaml-yugi (``text`` in en, zh-CN, zh-TW and ja, with
   each card's type line and Level), every ``cdb/*.cdb`` (``desc`` with the ``type`` bits and Level)
   and the i18n-2012 zh-TW file.
2. Draws ``--n`` of them (``--seed``) and mutates each (kinds and shares in ``KINDS``): as is,
   truncated, junk characters, control characters (C0, C1, U+2028/2029, zero-width, BOM), astral
   characters, lone surrogates (JSON escapes), long (2-20 KB), a repeated fragment (2-30 KB), a mix
   of these, another card language than the text's, an empty or blank text, ``null``, a number or
   another JSON type in place of the text; plus ``--mb`` texts of about 1 MB (UTF-8): in turn real
   texts of one language card after card, and a piece of 10-60 characters of one repeated.  Each record gets the id ``1..N`` (its line number).
3. Writes them as JSONL (``{id, name, lang, text, type, level}``) to a temp folder and runs the real
   command line ``python -m extractor.cli tag FILE -o OUT --compact --no-progress`` in a child
   process (wall and CPU seconds, peak RSS: ``VmHWM`` of the child, see ``bench/_measure.py``).
4. Checks: every input line gives exactly one output line, in order, carrying its id; every output
   line is JSON and holds no raw U+2028 / U+2029 (line readers that use ``splitlines()`` split
   there); exit status 0; no traceback on stderr; no ``internal error`` line.
5. Times every card: a Python loop reads the same file with ``extractor.readers.read_cards`` and
   runs ``analyze`` + ``model_dump`` + ``orjson.dumps`` per card (what ``tag`` does), CPU time
   (``process_time``) and wall time (``perf_counter``) per card; checks that no card takes more than
   1 s of CPU time (wall time depends on what else the machine runs: it is printed with the load
   average, and the product's own per-card budget, ``pipeline.CARD_TIMEOUT``, is CPU time too) and
   that each condition's ``phrase`` is the text at its ``span``.  Peak memory of this process:
   ``resource.getrusage`` (``ru_maxrss``).

Prints a table per mutation kind (cards, error lines, ids lost, mean / p99 / max CPU ms per card,
max wall ms, cards over 1 s of CPU), the checks with PASS / FAIL and examples of each failure; exits
1 when a check fails.
Needs ../shared (exits 2 with a message without it).  ``--save`` writes bench/results/fuzz.md.
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import resource
import sqlite3
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import ROOT, SHARED, YAML_YUGI, finish, rel, require_shared, run_child  # noqa: E402

CDB_DIR = SHARED / "data" / "cdb"
I18N_TW = SHARED / "data" / "i18n-2012" / "cards.zh-TW.json"
MB = 1_000_000
SLOW = 1.0  # seconds: no card may take longer

# mutation kind -> weight (share of the drawn cards)
KINDS = {
    "as-is": 16, "truncated": 10, "junk": 10, "control": 10, "astral": 8, "surrogate": 6, "long": 3,
    "fragment": 2, "mix": 10, "other-lang": 4, "empty": 2, "blank": 2, "null": 1, "number": 1, "other-type": 1,
}
_JUNK = ("()[]{}<>\"'`.,;:!?/\\|+-*=_~^%$#@&" "「」『』【】《》〈〉（）“”‘’・·●○◎◆◇★☆①②③④⑤⑥⑦⑧⑨⑩"
         "，。、；：？！…—～＋＝＜＞／＼" "０１２３４５６７８９ＡＢＣ" "\u0301\u0308\u20dd" "\ue000\uf8ff\ufffd\ufffe\uffff")
_CONTROL = [chr(c) for c in range(0, 32)] + ["\x7f"] + [chr(c) for c in range(0x80, 0xA0)] + \
    ["\u2028", "\u2029", "\u200b", "\u200c", "\u200d", "\u200e", "\u200f", "\u2060", "\ufeff", "\u00ad"]
_ASTRAL = ["\U0001F600", "\U0001F9D9", "\U0001D400", "\U00020000", "\U0002A6D6", "\U000E0001", "\U0010FFFF",
           "\U0001F1EF\U0001F1F5", "\U0001F468\u200d\U0001F469\u200d\U0001F467"]
_TYPES = ["Fiend / Effect", "Dragon / Effect", "Warrior / Normal", "Spellcaster / Fusion / Effect",
          "Machine / Synchro / Tuner / Effect", "Dragon / Xyz / Effect", "Cyberse / Link / Effect",
          "Fairy / Ritual / Effect", "Dragon / Pendulum / Effect", "Spell", "Trap", None]


# -- the real texts ---------------------------------------------------------------------------------

def load_sources() -> list[dict]:
    """Every real text: ``{name, lang, text, type, level}`` (type: a type line or cdb type bits)."""
    import orjson

    out: list[dict] = []
    with open(YAML_YUGI, "rb") as f:
        for line in f:
            if not line.strip():
                continue
            d = orjson.loads(line)
            typ = d.get("monster_type_line") or d.get("card_type")
            level = d.get("level") or d.get("rank")
            for lang in ("en", "zh-CN", "zh-TW", "ja"):
                t = (d.get("text") or {}).get(lang)
                if t:
                    out.append({"name": (d.get("name") or {}).get(lang) or "", "lang": lang, "text": t,
                                "type": typ, "level": level})
    for path in sorted(CDB_DIR.glob("*.cdb")):
        lang = "zh-CN" if "zh-CN" in path.name else "zh-TW" if "zh-TW" in path.name else "en"
        con = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            rows = con.execute('SELECT t.name, t."desc", d.type, d.level FROM texts t JOIN datas d ON d.id = t.id').fetchall()
        finally:
            con.close()
        for name, desc, typ, level in rows:
            if isinstance(desc, str) and desc:
                out.append({"name": name or "", "lang": lang, "text": desc, "type": typ, "level": (level or 0) & 0xFF})
    if I18N_TW.exists():
        for c in json.loads(I18N_TW.read_text(encoding="utf-8")).get("cards", []):
            if isinstance(c.get("lore"), str) and c["lore"]:
                out.append({"name": c.get("name") or "", "lang": "zh-TW", "text": c["lore"], "type": None, "level": None})
    return out


# -- mutations -------------------------------------------------------------------------------------

def _insert(rng: random.Random, text: str, alphabet: list[str] | str, k: int) -> str:
    chars = list(text)
    for _ in range(k):
        chars.insert(rng.randint(0, len(chars)), rng.choice(alphabet))
    return "".join(chars)


def _grow(rng: random.Random, pool: list[dict], lang: str, size: int, first: str) -> str:
    """Real texts of ``lang``, card after card (line breaks between), up to ``size`` UTF-8 bytes."""
    parts, n = [first], len(first.encode())
    same = [s for s in rng.sample(pool, min(len(pool), 400)) if s["lang"] == lang] or [{"text": first}]
    while n < size:
        t = rng.choice(same)["text"]
        parts.append(t)
        n += len(t.encode()) + 1
    return "\n".join(parts)


def _log_uniform(rng: random.Random, lo: int, hi: int) -> int:
    return int(math.exp(rng.uniform(math.log(lo), math.log(hi))))


def _char_mutation(rng: random.Random, text: str) -> str:
    kind = rng.choice(["truncated", "junk", "control", "astral", "surrogate"])
    return MUTATE[kind](rng, text, None)


MUTATE = {
    "as-is": lambda rng, t, pool: t,
    "truncated": lambda rng, t, pool: t[:rng.randint(0, len(t))],
    "junk": lambda rng, t, pool: _insert(rng, t, _JUNK, rng.randint(1, max(1, len(t) // 4))),
    "control": lambda rng, t, pool: _insert(rng, t, _CONTROL, rng.randint(1, 20)),
    "astral": lambda rng, t, pool: _insert(rng, t, _ASTRAL, rng.randint(1, 20)),
    "surrogate": lambda rng, t, pool: _insert(rng, t, [chr(c) for c in (0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0xD83D)],
                                              rng.randint(1, 5)),
    "fragment": lambda rng, t, pool: _fragment(rng, t),
    "mix": lambda rng, t, pool: _char_mutation(rng, _char_mutation(rng, _char_mutation(rng, t))),
    "empty": lambda rng, t, pool: "",
    "blank": lambda rng, t, pool: rng.choice([" ", "\n", " \t\r\n ", "\u3000", "\u00a0\u2028"]),
    "null": lambda rng, t, pool: None,
    "number": lambda rng, t, pool: rng.choice([0, 12345, -1, 1.5, 1e308, 2 ** 70]),
    "other-type": lambda rng, t, pool: rng.choice([[t], {"en": t}, True, False]),
}


def _fragment(rng: random.Random, text: str) -> str:
    """A piece of 1-40 characters of the text, repeated to 2-30 KB (a backtracking test)."""
    if not text:
        return text
    a = rng.randint(0, len(text) - 1)
    piece = text[a:a + rng.randint(1, 40)]
    return piece * (_log_uniform(rng, 2_000, 30_000) // len(piece) + 1)


def make_records(pool: list[dict], n: int, n_mb: int, seed: int) -> list[dict]:
    """``n`` mutated records plus ``n_mb`` texts of about 1 MB; each ``{id, name, lang, text, type,
    level, _kind}`` (``_kind`` is the mutation, not written to the file)."""
    rng = random.Random(seed)
    kinds, weights = list(KINDS), list(KINDS.values())
    langs = ["en", "zh-CN", "zh-TW", "ja"]
    recs = []
    for i in range(n):
        src = rng.choice(pool)
        kind = rng.choices(kinds, weights)[0]
        lang, typ = src["lang"], src["type"]
        if kind == "long":
            text = _grow(rng, pool, lang, _log_uniform(rng, 2_000, 20_000), src["text"])
        elif kind == "other-lang":
            text, lang = src["text"], rng.choice([x for x in langs if x != src["lang"]])
        else:
            text = MUTATE[kind](rng, src["text"], pool)
        if rng.random() < 0.05:
            typ = rng.choice(_TYPES)
        recs.append({"id": i + 1, "name": src["name"], "lang": lang, "text": text, "type": typ,
                     "level": src["level"], "_kind": kind})
    for j in range(n_mb):  # real texts card after card, then a repeated fragment of one, in turn
        lang = ("en", "zh-CN", "zh-TW", "ja")[j // 2 % 4]
        src = rng.choice([s for s in rng.sample(pool, 2000) if s["lang"] == lang] or pool)
        if j % 2 == 0:
            text, kind = _grow(rng, pool, src["lang"], MB, src["text"]), "1 MB"
        else:
            a = rng.randint(0, max(0, len(src["text"]) - 10))
            piece = src["text"][a:a + rng.randint(10, 60)]
            text, kind = piece * (MB // len(piece.encode()) + 1), "1 MB fragment"
        recs.append({"id": n + j + 1, "name": src["name"], "lang": src["lang"], "text": text, "type": src["type"],
                     "level": src["level"], "_kind": kind})
    return recs


def write_jsonl(recs: list[dict], path: Path) -> None:
    """One JSON object per line; a text with a lone surrogate is written with ``\\uXXXX`` escapes
    (valid JSON), every other line as UTF-8."""
    with open(path, "w", encoding="utf-8") as f:
        for r in recs:
            obj = {k: v for k, v in r.items() if not k.startswith("_")}
            try:
                line = json.dumps(obj, ensure_ascii=False)
                line.encode("utf-8")
            except UnicodeEncodeError:
                line = json.dumps(obj, ensure_ascii=True)
            f.write(line + "\n")


# -- checks ----------------------------------------------------------------------------------------

def check_tag(recs: list[dict], out: Path, run) -> tuple[dict, dict[str, list[str]], Counter, Counter]:
    """The ``tag`` output against the input: per kind error lines and ids lost; the failures."""
    fails: dict[str, list[str]] = defaultdict(list)
    errors: Counter = Counter()
    lost: Counter = Counter()
    lines = out.read_bytes().split(b"\n") if out.exists() else []
    if lines and lines[-1] == b"":
        lines.pop()
    objs = []
    for k, line in enumerate(lines, 1):
        if b"\xe2\x80\xa8" in line or b"\xe2\x80\xa9" in line:  # U+2028 / U+2029: splitlines() splits there
            fails["no raw U+2028/U+2029 in an output line"].append(f"line {k} (id {recs[k - 1]['id'] if k <= len(recs) else '?'})")
        try:
            objs.append(json.loads(line))
        except ValueError as e:
            fails["output line is not JSON"].append(f"line {k}: {e}")
            objs.append(None)
    if len(objs) != len(recs):
        fails["one output line per input line"].append(f"{len(recs)} input lines, {len(objs)} output lines")
    for r, o in zip(recs, objs):
        if o is None:
            continue
        if o.get("error"):
            errors[r["_kind"]] += 1
            if "internal error" in o["error"]:
                fails["no internal error"].append(f"id {r['id']} ({r['_kind']}): {o['error'][:200]}")
        if o.get("id") != r["id"]:
            lost[r["_kind"]] += 1
            fails["every output line carries its id"].append(
                f"id {r['id']} ({r['_kind']}): output id {o.get('id')!r}, {str(o.get('error'))[:160]}")
    if run.returncode != 0:
        fails["exit status 0"].append(f"exit status {run.returncode}: {run.stderr[-500:]}")
    if "Traceback" in run.stderr:
        fails["no traceback on stderr"].append(run.stderr[run.stderr.index("Traceback"):][:800])
    summary = next((ln for ln in run.stderr.splitlines() if ln.startswith("cards ")), "")
    return {"lines": len(objs), "summary": summary}, fails, errors, lost


def time_cards(path: Path, recs: list[dict]) -> tuple[dict[str, list[tuple[float, float]]], dict[str, list[str]], list]:
    """Per-card (CPU, wall) seconds of analyze -> dump, by mutation kind; failures; the slowest cards
    (by CPU time)."""
    import orjson

    from extractor.patterns import load_catalog
    from extractor.pipeline import analyze
    from extractor.readers import read_cards

    cat = load_catalog()
    kind_of = {r["id"]: r["_kind"] for r in recs}
    times: dict[str, list[tuple[float, float]]] = defaultdict(list)
    fails: dict[str, list[str]] = defaultdict(list)
    slowest: list[tuple[float, int, str, int, str]] = []
    for item in read_cards(path, "en", "jsonl"):
        if item.card is None:
            continue
        card = item.card
        kind = kind_of.get(card.id, "?")
        c0, w0 = time.process_time(), time.perf_counter()
        try:
            res = analyze(card, cat)
            orjson.dumps(res.model_dump(mode="json"))
        except Exception as e:  # noqa: BLE001 - a fuzz finding, reported below
            fails["analyze and dump never raise"].append(f"id {card.id} ({kind}): {type(e).__name__}: {e}"[:300])
            continue
        dt, wall = time.process_time() - c0, time.perf_counter() - w0
        times[kind].append((dt, wall))
        slowest.append((dt, card.id, kind, len(card.text), res.error or ""))
        if dt > SLOW:
            fails[f"no card slower than {SLOW:g} s"].append(
                f"id {card.id} ({kind}, {len(card.text):,} chars): {dt:.2f} s CPU, {wall:.2f} s wall "
                f"{('error: ' + res.error[:120]) if res.error else ''}")
        for c in res.conditions:
            if c.phrase != card.text[c.span[0]:c.span[1]]:
                fails["phrase is the text at its span"].append(f"id {card.id} ({kind}): {c.pattern_id} {c.span}")
                break
    slowest.sort(reverse=True)
    return times, fails, slowest[:5]


# -- main ------------------------------------------------------------------------------------------

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=100_000, help="mutated cards (default 100,000)")
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--mb", type=int, default=16, help="texts of about 1 MB on top (default 16)")
    ap.add_argument("--quick", action="store_true", help="5,000 cards and 4 texts of 1 MB")
    ap.add_argument("--keep", action="store_true", help="keep the temp folder (input, output, stderr)")
    ap.add_argument("--save", action="store_true", help="also write bench/results/fuzz.md")
    args = ap.parse_args()
    if args.quick:
        args.n, args.mb = min(args.n, 5_000), min(args.mb, 4)
    require_shared(YAML_YUGI, CDB_DIR)

    t0 = time.perf_counter()
    load0 = os.getloadavg()[0]
    pool = load_sources()
    recs = make_records(pool, args.n, args.mb, args.seed)
    tmp = Path(tempfile.mkdtemp(prefix="ygo-fuzz-"))
    src, out = tmp / "fuzz.jsonl", tmp / "out.jsonl"
    write_jsonl(recs, src)
    prep = time.perf_counter() - t0
    print(f"{len(pool):,} real texts; {len(recs):,} records ({src.stat().st_size / MB:,.1f} MB) written in {prep:.1f} s "
          f"to {src}", file=sys.stderr)

    run = run_child(["-m", "extractor.cli", "tag", str(src), "-o", str(out), "--compact", "--no-progress"])
    (tmp / "stderr.txt").write_text(run.stderr, encoding="utf-8")
    info, fails, errors, lost = check_tag(recs, out, run)
    times, fails2, slowest = time_cards(src, recs)
    for k, v in fails2.items():
        fails[k].extend(v)
    own_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    by_kind = Counter(r["_kind"] for r in recs)
    lines = [f"# Fuzzing `tag` (bench/fuzz.py): {len(recs):,} cards, seed {args.seed}", "",
             "| mutation | cards | error lines | ids lost | mean CPU ms | p99 CPU ms | max CPU ms | max wall ms | over 1 s CPU |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]

    def row(name: str, n: int, err: int, ids: int, tw: list[tuple[float, float]]) -> str:
        if not tw:
            return f"| {name} | {n:,} | {err:,} | {ids:,} | - | - | - | - | 0 |"
        ts = sorted(t for t, _ in tw)
        p99 = ts[min(len(ts) - 1, int(0.99 * len(ts)))]
        return (f"| {name} | {n:,} | {err:,} | {ids:,} | {sum(ts) / len(ts) * 1000:.2f} | {p99 * 1000:.2f} | "
                f"{ts[-1] * 1000:.1f} | {max(w for _, w in tw) * 1000:.1f} | {sum(1 for x in ts if x > SLOW)} |")

    all_t: list[tuple[float, float]] = []
    for k in [k for k in (*KINDS, "1 MB", "1 MB fragment") if by_kind[k]]:
        all_t += times.get(k, [])
        lines.append(row(k, by_kind[k], errors[k], lost[k], times.get(k, [])))
    lines.append(row("**all**", len(recs), sum(errors.values()), sum(lost.values()), all_t))
    lines += ["", f"- `tag` child: {run.wall:.1f} s wall, {run.cpu:.1f} s CPU, peak RSS {run.maxrss_mib:.0f} MiB "
              f"(VmHWM); its summary: `{info['summary']}`",
              f"- per-card loop (this process, analyze + dump): {sum(t for t, _ in all_t):.1f} s CPU, "
              f"{sum(w for _, w in all_t):.1f} s wall for {len(all_t):,} cards (load average before / after: "
              f"{load0:.1f} / {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs); "
              f"peak RSS of this process {own_peak:.0f} MiB (getrusage ru_maxrss, input records held in memory)",
              "- slowest cards (CPU): " + "; ".join(f"id {i} ({k}, {n:,} chars) {dt * 1000:.0f} ms{' error' if e else ''}"
                                              for dt, i, k, n, e in slowest), "", "Checks:", ""]
    checks = ["one output line per input line", "output line is not JSON", "no raw U+2028/U+2029 in an output line",
              "every output line carries its id",
              "exit status 0", "no traceback on stderr", "no internal error", "analyze and dump never raise",
              f"no card slower than {SLOW:g} s", "phrase is the text at its span"]
    for c in checks + [c for c in fails if c not in checks]:
        label = "every output line is JSON" if c == "output line is not JSON" else c
        lines.append(f"- {'FAIL' if fails.get(c) else 'PASS'} {label}" + (f" ({len(fails[c]):,})" if fails.get(c) else ""))
        for ex in fails.get(c, [])[:3]:
            lines.append(f"    - {ex}")
    lines.append("")
    if args.keep:
        lines.append(f"Kept: {tmp}")
    else:
        import shutil
        shutil.rmtree(tmp, ignore_errors=True)
    cmd = f".venv/bin/python {rel(Path(__file__))} --n {args.n} --seed {args.seed} --mb {args.mb}"
    finish(lines, [cmd], "fuzz.md", args.save)
    return 1 if any(fails.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
