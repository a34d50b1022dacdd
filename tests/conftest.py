from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def shared() -> Path:
    """../shared, or skip (it is present in CI and on developers' machines)."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED


def yaml_yugi_texts(shared: Path, lang: str, every: int = 1) -> list[str]:
    """The normalized ``lang`` texts of every ``every``-th yaml-yugi card (line numbers from 0;
    the cards that have a text in ``lang``), for tests that compare a fast path with the plain one
    on real texts.  ``shared``: the fixture of that name (the test skips without ../shared)."""
    import orjson

    from extractor.normalize import normalize

    texts = []
    with open(shared / "data" / "yaml-yugi" / "cards.jsonl", "rb") as f:
        for n, line in enumerate(f):
            if n % every:
                continue
            t = (orjson.loads(line).get("text") or {}).get(lang)
            if t:
                texts.append(normalize(t, lang).text)
    return texts
