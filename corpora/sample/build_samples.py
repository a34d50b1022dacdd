"""Builds the small sample inputs of corpora/sample/ (one per input kind the README shows) from the
shared card databases, for the card ids of corpora/sample/cards.jsonl.

    python3 corpora/sample/build_samples.py [--shared ../shared]

Writes: yaml-yugi.jsonl (yaml-yugi records), cards.cdb (a ygopro cdb: the goat-en-US rows),
ygoprodeck.json (YGOPRODeck ``{"data": [...]}`` built from the yaml-yugi English records),
i18n-zh-TW.json (the 2012 i18n file's records).  Uses the standard library only; the project is
not imported (the samples are inputs, not outputs).
"""
from __future__ import annotations

import argparse
import json
import sqlite3
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shared", default=str(HERE.parent.parent.parent / "shared"))
    a = ap.parse_args()
    shared = Path(a.shared)
    ids = sorted({json.loads(line)["id"] for line in open(HERE / "cards.jsonl", encoding="utf-8")})
    want = set(ids)

    recs = []
    with open(shared / "data/yaml-yugi/cards.jsonl", encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            if d.get("password") in want:
                recs.append(d)
    recs.sort(key=lambda d: d["password"])
    with open(HERE / "yaml-yugi.jsonl", "w", encoding="utf-8") as w:
        for d in recs:
            w.write(json.dumps(d, ensure_ascii=False) + "\n")

    data = []
    for d in recs:
        data.append({"id": d["password"], "name": d["name"]["en"], "desc": d["text"]["en"],
                     "type": d.get("monster_type_line") or (d.get("card_type") or "").capitalize(),
                     "level": d.get("level") or d.get("rank") or d.get("link_arrows") and len(d["link_arrows"])})
    with open(HERE / "ygoprodeck.json", "w", encoding="utf-8") as w:
        json.dump({"data": data}, w, ensure_ascii=False, indent=1)

    out = HERE / "cards.cdb"
    out.unlink(missing_ok=True)
    src = sqlite3.connect(f"file:{shared / 'data/cdb/goat-en-US.cdb'}?mode=ro", uri=True)
    dst = sqlite3.connect(out)
    for (sql,) in src.execute("select sql from sqlite_master where type='table'"):
        dst.execute(sql)
    # the sample's cards where goat has them, plus the first 15 goat monsters whose text speaks of a
    # Special Summon condition (a keyword search, not the tool's reading)
    extra = [r[0] for r in src.execute("select id from texts where desc like '%cannot be Normal Summoned%' "
                                       "or desc like '%cannot be Special Summoned%' order by id limit 15")]
    cdb_ids = sorted(want | set(extra))
    q = ",".join("?" * len(cdb_ids))
    for table in ("datas", "texts"):
        rows = src.execute(f"select * from {table} where id in ({q})", cdb_ids).fetchall()
        if rows:
            dst.executemany(f"insert into {table} values ({','.join('?' * len(rows[0]))})", rows)
    dst.commit()
    dst.execute("vacuum")
    dst.close()

    i18n = json.load(open(shared / "data/i18n-2012/cards.zh-TW.json", encoding="utf-8"))
    cards = [c for c in i18n["cards"] if c.get("id") in want]
    with open(HERE / "i18n-zh-TW.json", "w", encoding="utf-8") as w:
        json.dump({"cards": cards}, w, ensure_ascii=False, indent=1)
    print(f"yaml-yugi {len(recs)}, ygoprodeck {len(data)}, cdb rows "
          f"{sqlite3.connect(out).execute('select count(*) from datas').fetchone()[0]}, i18n {len(cards)}")


if __name__ == "__main__":
    main()
