"""The sidecar's catalog digest kept under the compiled catalog's cache key
(:func:`extractor.meta._default_catalog_digest`): always the digest of the catalog's files."""
from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("YGO_EXTRACTOR_CACHE_DIR", str(folder))
    monkeypatch.delenv("YGO_EXTRACTOR_NO_CACHE", raising=False)
    return folder


def test_catalog_digest_kept_under_the_catalog_key(cache):
    """Once the compiled catalog's key is known (tag loads the catalog first), the catalog digest
    is kept in the cache under that key; kept or not, it is the digest computed from the files."""
    from extractor.normalize.common import PATTERNS_DIR
    from extractor.patterns import cache as pc
    from extractor.meta import _default_catalog_digest, catalog_digest

    if not isinstance(PATTERNS_DIR, Path):
        pytest.skip("the catalog is not on a file system: nothing is kept")
    fresh = catalog_digest(PATTERNS_DIR)
    pc._current_key()
    _default_catalog_digest.cache_clear()
    try:
        assert _default_catalog_digest() == fresh  # built and kept
        kept = list(cache.glob("catalog-digest-*.pickle"))
        assert [p.name for p in kept] == [f"catalog-digest-{pc._current_key()}.pickle"]
        _default_catalog_digest.cache_clear()
        assert _default_catalog_digest() == fresh  # read back
        assert catalog_digest() == fresh
    finally:
        _default_catalog_digest.cache_clear()
