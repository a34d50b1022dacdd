"""The compiled catalog, kept on disk (a speed device; see below)."""
from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

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
# off.  Other tables built from catalog files are kept the same way under the same key
# (:func:`cached_build`): the name alias table keyed by the normalizer (``names-<key>.pickle``).

_PICKLE_PROTOCOL = 5
_CACHE_KEEP = 8  # cache files kept (this key's and the newest others)
T = TypeVar("T")


def _cache_key(catalog_dir: Path) -> str:
    """The hash naming the cache of the catalog in ``catalog_dir`` (see above): of the Python,
    ``regex`` and pickle versions, then of each file's path (relative to its folder) and bytes, in
    the order of :func:`_key_files`.

    Raises:
        OSError: a file cannot be read."""
    import hashlib
    import sys

    h = hashlib.sha256(f"{sys.version}|regex {regex.__version__}|pickle {_PICKLE_PROTOCOL}".encode())
    for base in (catalog_dir, Path(__file__).resolve().parent.parent):  # the catalog, the extractor package
        for parts, path in _key_files(str(base)):
            h.update(f"\0{'/'.join(parts)}\0".encode())
            with open(path, "rb", buffering=0) as f:
                h.update(f.read())
    return h.hexdigest()[:32]


def _key_files(base: str, parts: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], str]]:
    """The files the cache key hashes under the folder ``base``: every regular file (or link to
    one) at any depth, but not in a ``__pycache__`` folder, not ending in ``.pyc``, not under a
    linked folder; as (path parts relative to ``base``, full path), sorted by their parts (the
    order of ``sorted(Path(base).rglob("*"))``).  With :func:`os.scandir` (a file's kind is read
    from its folder's listing): ~4x faster than ``pathlib``'s ``rglob``, ``is_file`` and
    ``relative_to`` per path, and ``__pycache__`` folders are not listed at all.

    Raises:
        OSError: a folder cannot be listed."""
    import os

    out: list[tuple[tuple[str, ...], str]] = []
    with os.scandir(base) as entries:
        for e in entries:
            if e.is_dir():
                if e.name != "__pycache__" and not e.is_symlink():
                    out += _key_files(e.path, parts + (e.name,))
            elif e.is_file() and not (e.name.endswith(".pyc") and len(e.name) > 4):
                out.append((parts + (e.name,), e.path))
    out.sort()
    return out


def _cache_dir() -> Path:
    import os

    env = os.environ.get("YGO_EXTRACTOR_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "ygo-extractor"


def _current_key() -> str:
    """The cache key (:func:`_cache_key`) of the shipped catalog and extractor package, found once
    per process (every later cached table of this process reads it again for free) through
    :func:`_stamped_key`.

    Raises:
        OSError: a file cannot be read."""
    global _KEY
    if _KEY is None:
        _KEY = _stamped_key(PATTERNS_DIR)
    return _KEY


# -- the key, remembered by the files' stat stamp (a speed device) -------------------------------
# Hashing every file of the catalog and the package (~1.5 MB: sha256 and the reads) cost ~45 M
# instructions at every start: 3.7 % of a one-card ``tag`` (1,220 M instructions, callgrind) and
# ~1 % of a 3,000-card one.  The key is a function of the files' bytes; their stat data (size,
# modification and change times in ns, inode, device) say whether any file may have changed since
# the key was hashed, as Python's own .pyc check and git's index do.  So the key is remembered in
# the cache folder as ``key-<stamp>.txt``, the stamp being a hash of the listing of
# :func:`_key_files` (paths relative to each folder) and each file's stat data; a start that finds
# the file of its stamp reads the key from it (~4 M instructions: the listing and one ``stat`` a
# file) instead of hashing.  Any write to a file changes its change time (which no program can set
# back), so an edit gives a new stamp and the key is hashed again.  A key is only remembered when
# the stamps read before and after hashing agree and no file was changed in the last
# ``_STAMP_SETTLE_NS`` (a file rewritten within one tick of the file system's clock could keep its
# times: the "racy" case git guards against the same way).  A problem with the folder or a damaged
# file means the key is hashed, as without it.

_STAMP_SETTLE_NS = 2_000_000_000


def stat_stamp(st: "os.stat_result") -> tuple[int, int, int, int, int]:
    """What tells that a file changed without reading it, from its ``os.stat`` result: size,
    modification and change times (ns), inode and device.  An edit always moves the change time
    (an ordinary process cannot set it back), as Python's bytecode check and git's index rely on.
    Used for the catalog key (:func:`_stamp`) and for files the key does not cover (the Chinese
    normalizer's OpenCC table: :func:`extractor.normalize.zh._opencc_stamp`).  Raises nothing."""
    return st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev


def _stamp(catalog_dir: Path) -> tuple[str, int]:
    """The stat stamp of the files :func:`_cache_key` hashes (see above): a hash of the Python,
    ``regex`` and pickle versions, each folder's path and, per file, its relative path and stat data
    (size, mtime_ns, ctime_ns, inode, device); with the newest mtime / ctime (ns) of those files.

    Raises:
        OSError: a folder cannot be listed or a file cannot be read."""
    import hashlib
    import os
    import sys

    h = hashlib.sha256(f"{sys.version}|regex {regex.__version__}|pickle {_PICKLE_PROTOCOL}".encode())
    newest = 0
    for base in (str(catalog_dir), str(Path(__file__).resolve().parent.parent)):
        h.update(f"\1{os.path.abspath(base)}".encode())
        for parts, path in _key_files(base):
            st = os.stat(path)
            newest = max(newest, st.st_mtime_ns, st.st_ctime_ns)
            h.update(f"\0{'/'.join(parts)}\0{' '.join(map(str, stat_stamp(st)))}".encode())
    return h.hexdigest()[:32], newest


def _stamped_key(catalog_dir: Path) -> str:
    """:func:`_cache_key` of ``catalog_dir`` (and the extractor package), read from the cache
    folder's ``key-<stamp>.txt`` when the files' stat stamp (:func:`_stamp`) has one, else hashed
    and, when the files have settled, written there (the newest few such files are kept).  Always
    the key :func:`_cache_key` gives for the files as they are (tests/test_start_up.py compares
    the two).

    Raises:
        OSError: a file cannot be read (as :func:`_cache_key`)."""
    import os
    import tempfile
    import time

    try:
        stamp, _ = _stamp(catalog_dir)
        memo = _cache_dir() / f"key-{stamp}.txt"
    except (OSError, RuntimeError):  # RuntimeError: no home folder
        return _cache_key(catalog_dir)
    try:
        with open(memo, encoding="ascii") as f:
            key = f.read()
        if len(key) == 32 and all(c in "0123456789abcdef" for c in key):
            return key
    except (OSError, ValueError):  # not there yet (or damaged): hash
        pass
    key = _cache_key(catalog_dir)
    try:
        after, newest = _stamp(catalog_dir)
        if after != stamp or newest > time.time_ns() - _STAMP_SETTLE_NS:
            return key  # a file changed while (or just before) it was hashed: not remembered
        memo.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".key-", suffix=".tmp", dir=memo.parent)
        try:
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(key)
            os.replace(tmp, memo)
        except BaseException:
            os.unlink(tmp)
            raise
        others = sorted((f for f in memo.parent.glob("key-*.txt") if f != memo),
                        key=lambda f: f.stat().st_mtime, reverse=True)
        for old in others[_CACHE_KEEP - 1:]:
            old.unlink(missing_ok=True)
    except OSError:
        pass
    return key


_KEY: str | None = None


def cached_build(kind: str, build: Callable[[], T], expect: type) -> T:
    """The value ``build()`` makes, kept in the cache folder as ``<kind>-<key>.pickle`` under the
    key of the shipped catalog and extractor package (:func:`_current_key`: any edit of a catalog
    file -- the patterns, the normalizer's term tables, the name alias table -- or of a module makes
    a new key).  A file of the current key whose content is an ``expect`` is returned as read;
    else ``build()`` runs and its value is written (atomically; of the other keys' ``<kind>-``
    files the newest few are kept).  Input: a file name prefix (letters and dashes), a function of
    no arguments, the type of its value.  Output: that value.  A problem with the cache (turned off
    by ``YGO_EXTRACTOR_NO_CACHE``, a catalog not on a file system, a folder that cannot be written,
    a damaged file) is never an error: ``build()`` is then called as without it.  Raises what
    ``build`` raises."""
    import os
    import pickle
    import tempfile

    if os.environ.get("YGO_EXTRACTOR_NO_CACHE") or not isinstance(PATTERNS_DIR, Path):
        return build()
    try:
        path = _cache_dir() / f"{kind}-{_current_key()}.pickle"
    except (OSError, RuntimeError):  # RuntimeError: no home folder
        return build()
    try:
        with open(path, "rb") as f:
            value = pickle.load(f)
        if isinstance(value, expect):
            return value
    except Exception:  # missing, unreadable or damaged: build it again
        pass
    value = build()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{kind}-", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(value, f, protocol=_PICKLE_PROTOCOL)
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise
        # keep the newest few (other installs, other versions); remove the rest
        others = sorted((f for f in path.parent.glob(f"{kind}-*.pickle") if f != path),
                        key=lambda f: f.stat().st_mtime, reverse=True)
        for old in others[_CACHE_KEEP - 1:]:
            old.unlink(missing_ok=True)
    except (OSError, pickle.PickleError):
        pass
    return value


def _disk_cached(build):
    """Wrap ``load_catalog(root)``: for the shipped catalog (``root`` None, on a file system) load
    the compiled catalog from the cache file of the current key when there is one; else build it
    and write that file (:func:`cached_build` with the prefix ``catalog``).  A problem with the
    cache is never an error: the catalog is then built from its files."""
    import functools

    @functools.wraps(build)
    def load(root: str | None = None) -> "Catalog":
        if root is not None:
            return build(root)
        return cached_build("catalog", lambda: build(None), Catalog)

    return load
