"""The compiled catalog, kept on disk (a speed device; see below)."""
from __future__ import annotations

from pathlib import Path

import regex

from ..normalize.common import PATTERNS_DIR
from .runner import Catalog

# -- the compiled catalog, kept on disk ------------------------------------------------------
# Compiling the catalog (YAML, then ``regex``'s pure-Python parser for ~100 expressions) costs ~0.1 s
# of CPU at every start: more than tagging 1,000 cards, and a third of a one-card ``explain``.  The
# compiled catalog is kept in the user's cache folder (``$YGO_EXTRACTOR_CACHE_DIR``, else
# ``$XDG_CACHE_HOME/ygo-extractor`` or ``~/.cache/ygo-extractor``) as ``catalog-<key>.pickle``
# (``regex`` pickles its compiled code, so loading it skips the parser: ~5 ms).  The key is a hash
# of every file of the catalog, every module of the extractor package, and the Python and ``regex``
# versions: any edit anywhere makes a new key, and a file is only ever read under its own key.  A
# speed device only: any problem with the cache (a folder that cannot be written, a damaged file)
# means the catalog is built from its files as without it; ``YGO_EXTRACTOR_NO_CACHE=1`` turns it
# off.

_PICKLE_PROTOCOL = 5
_CACHE_KEEP = 8  # cache files kept (this key's and the newest others)


def _cache_key(catalog_dir: Path) -> str:
    """The hash naming the cache of the catalog in ``catalog_dir`` (see above).

    Raises:
        OSError: a file cannot be read."""
    import hashlib
    import sys

    h = hashlib.sha256(f"{sys.version}|regex {regex.__version__}|pickle {_PICKLE_PROTOCOL}".encode())
    for base in (catalog_dir, Path(__file__).resolve().parent.parent):  # the catalog, the extractor package
        for f in sorted(base.rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts and f.suffix != ".pyc":
                h.update(f"\0{f.relative_to(base).as_posix()}\0".encode())
                h.update(f.read_bytes())
    return h.hexdigest()[:32]


def _cache_dir() -> Path:
    import os

    env = os.environ.get("YGO_EXTRACTOR_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "ygo-extractor"


def _disk_cached(build):
    """Wrap ``load_catalog(root)``: for the shipped catalog (``root`` None, on a file system) load
    the compiled catalog from the cache file of the current key when there is one; else build it
    and write that file (atomically; of the files of other keys the newest few are kept).  A problem with
    the cache is never an error: the catalog is then built from its files."""
    import functools
    import os

    @functools.wraps(build)
    def load(root: str | None = None) -> "Catalog":
        if root is not None or os.environ.get("YGO_EXTRACTOR_NO_CACHE") or not isinstance(PATTERNS_DIR, Path):
            return build(root)
        import pickle
        import tempfile

        try:
            path = _cache_dir() / f"catalog-{_cache_key(PATTERNS_DIR)}.pickle"
        except (OSError, RuntimeError):  # RuntimeError: no home folder
            return build(root)
        try:
            with open(path, "rb") as f:
                cat = pickle.load(f)
            if isinstance(cat, Catalog):
                return cat
        except Exception:  # missing, unreadable or damaged: build it again
            pass
        cat = build(root)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(prefix=".catalog-", suffix=".tmp", dir=path.parent)
            try:
                with os.fdopen(fd, "wb") as f:
                    pickle.dump(cat, f, protocol=_PICKLE_PROTOCOL)
                os.replace(tmp, path)
            except BaseException:
                os.unlink(tmp)
                raise
            # keep the newest few (other installs, other versions); remove the rest
            others = sorted((f for f in path.parent.glob("catalog-*.pickle") if f != path),
                            key=lambda f: f.stat().st_mtime, reverse=True)
            for old in others[_CACHE_KEEP - 1:]:
                old.unlink(missing_ok=True)
        except (OSError, pickle.PickleError):
            pass
        return cat

    return load
