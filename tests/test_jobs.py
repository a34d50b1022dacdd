"""`tag --jobs N`: the same output, in the same order, as one process."""
from pathlib import Path

import orjson
from click.testing import CliRunner

from extractor.cli import main
from extractor.parallel import CHUNK, analyze_items
from extractor.patterns import load_catalog
from extractor.readers import read_cards

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "corpora" / "sample" / "cards.jsonl"


def _mixed_input(tmp_path: Path) -> Path:
    """The sample's cards many times over (more than a few chunks), with lines that cannot be read
    near the start, in between and at the end."""
    lines = [l for l in SAMPLE.read_bytes().splitlines() if l.strip()]
    out = [lines[0], b"not json near the start"]  # (format detection reads the first line)
    i = 1
    while len(out) < 3 * CHUNK * 2 + 7:
        d = orjson.loads(lines[i % len(lines)])
        d["id"] = 1_000_000 + len(out)  # every line its own id: the order shows in the output
        out.append(orjson.dumps(d))
        if len(out) % 37 == 0:
            out.append(b'{"id": 5, "name": "no text"}')
        i += 1
    out += [b"[1, 2]", b"not json at the end"]
    path = tmp_path / "mixed.jsonl"
    path.write_bytes(b"\n".join(out) + b"\n")
    return path


def _tag(src: Path, out: Path, *args: str) -> bytes:
    r = CliRunner().invoke(main, ["tag", str(src), "-o", str(out), "--no-progress", *args])
    assert r.exit_code == 0, r.output
    return out.read_bytes()


def test_jobs_give_the_same_output_in_the_same_order(tmp_path):
    src = _mixed_input(tmp_path)
    one = _tag(src, tmp_path / "one.jsonl")
    two = _tag(src, tmp_path / "two.jsonl", "--jobs", "2")
    assert two == one
    lines = [orjson.loads(l) for l in one.splitlines()]
    assert "error" in lines[1] and "error" in lines[-1] and "error" in lines[-2] and "error" not in lines[0]
    ids = [d["id"] for d in lines if 1_000_000 <= (d.get("id") or 0) < 2_000_000]
    assert ids == sorted(ids) and len(ids) > 3 * CHUNK
    assert any(d.get("tags") for d in lines)  # real results, not only errors
    assert _tag(src, tmp_path / "c2.jsonl", "--jobs", "3", "--compact") == _tag(src, tmp_path / "c1.jsonl", "--compact")


def test_analyze_items_pairs_every_item_with_its_own_result(tmp_path):
    src = _mixed_input(tmp_path)
    cat = load_catalog()
    got = list(analyze_items(read_cards(src), cat, jobs=2))
    items = list(read_cards(src))
    assert len(got) == len(items)
    for (item, res), again in zip(got, items):
        assert (item.id, item.error) == (again.id, again.error)
        if item.card is None:
            assert res is None
        else:
            assert res.model_dump(mode="json")["id"] == item.card.id
            assert res.tags == analyze_items_one(item, cat).tags


def analyze_items_one(item, cat):
    ((_, res),) = list(analyze_items([item], cat, jobs=1))
    return res
