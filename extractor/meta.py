"""Versioned output (issue 12 §3): what produced a file of ``tag``, ``validate`` or ``audit``.

``build_meta(command, inputs) -> dict``::

    {"tool": "ygo-extractor", "version": "0.1.0", "command": "tag",
     "catalog_sha256": "<64 hex>",            # the pattern catalog (catalog_digest)
     "inputs": [{"name": "cards.cdb", "sha256": "<64 hex>", "bytes": 1234}],   # name only, no folders
     "created": "2026-12-01T17:30:00Z"}       # UTC, whole seconds

Standard input is ``{"name": "-", "sha256": null, "bytes": null}``.  Where it goes:
:func:`write_sidecar` writes ``<output>.meta.json`` beside a JSONL or CSV file, and beside the
HTML and SQL files of ``validate`` / ``audit`` (atomically, after the output is in place; it adds ``"output": {"name", "sha256", "bytes"}`` of the finished file);
:func:`write_sqlite_meta` writes a ``meta`` table (``key TEXT PRIMARY KEY, value TEXT``; lists and
objects as JSON) into an SQLite output.  :func:`read_meta` reads either back.
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence
from datetime import datetime, timezone
from functools import lru_cache
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

import orjson

__all__ = ["catalog_digest", "file_digest", "input_info", "build_meta", "output_meta", "sidecar_path", "write_sidecar", "write_sidecars",
           "write_sqlite_meta", "read_meta", "tool_version"]

TOOL = "ygo-extractor"
SIDECAR_SUFFIX = ".meta.json"


def tool_version() -> str:
    """The installed version of ygo-extractor (``importlib.metadata``), ``"unknown"`` when the
    package is imported from a tree that was never installed."""
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        dist = distribution(TOOL)
    except PackageNotFoundError:  # pragma: no cover - ./dev and the wheel both install it
        return "unknown"
    # the Version header read from the metadata's header block (what ``version(TOOL)`` gives) without
    # the email parser: importing it and parsing the whole file (the README is its body) cost ~4x more
    for line in (dist.read_text("METADATA") or dist.read_text("PKG-INFO") or "").splitlines():
        if not line.strip():
            break  # the end of the headers
        if line.startswith("Version:"):
            return line[len("Version:"):].strip()
    return dist.version  # pragma: no cover - no Version header where expected: the parser's reading


def _catalog_files(root: Traversable, prefix: str = "") -> list[tuple[str, Traversable]]:
    out = []
    for entry in root.iterdir():
        name = f"{prefix}{entry.name}"
        if entry.is_dir():
            if entry.name != "__pycache__":
                out.extend(_catalog_files(entry, name + "/"))
        elif entry.name.endswith(".yaml"):
            out.append((name, entry))
    return out


def catalog_digest(root: Traversable | None = None) -> str:
    """sha256 (hex) of the pattern catalog.

    Input: the catalog folder (default :data:`extractor.normalize.common.PATTERNS_DIR`, the
    ``patterns/`` folder or the installed ``extractor.catalog``; any Traversable).  Its ``.yaml``
    files at any depth (the files the wheel ships: ``__init__.py`` and caches are left out) are
    sorted by their ``/``-separated relative name, and each adds to the hash its name, a NUL byte,
    its size as 8 bytes big-endian and its bytes.  So the checkout and the installed wheel give the
    same digest, and a renamed or edited pattern file changes it.  Raises OSError when a file
    cannot be read.
    """
    if root is None:
        return _default_catalog_digest()
    h = hashlib.sha256()
    for name, entry in sorted(_catalog_files(root), key=lambda x: x[0]):
        data = entry.read_bytes()
        h.update(name.encode("utf-8") + b"\0" + len(data).to_bytes(8, "big") + data)
    return h.hexdigest()


@lru_cache(maxsize=1)
def _default_catalog_digest() -> str:
    """:func:`catalog_digest` of the shipped catalog.  When this process has already hashed the
    catalog and the package for the compiled catalog's cache key (``tag`` loads the catalog
    first), the digest is kept in that cache under the same key
    (:func:`extractor.patterns.cache.cached_build`, ``catalog-digest-<key>.pickle``): the key
    hashes every file of the catalog, so a kept digest is never stale.  Otherwise (``validate``,
    ``audit``: no catalog loaded) it is computed, as hashing the key would cost more."""
    import sys

    from .normalize.common import PATTERNS_DIR

    cache = sys.modules.get(__name__.rpartition(".")[0] + ".patterns.cache")
    if cache is not None and getattr(cache, "_KEY", None) is not None:
        return cache.cached_build("catalog-digest", lambda: catalog_digest(PATTERNS_DIR), str)
    return catalog_digest(PATTERNS_DIR)


def file_digest(path: str | os.PathLike) -> tuple[str, int]:
    """``(sha256 hex, size in bytes)`` of a file, read in 1 MiB blocks.  Raises OSError."""
    h = hashlib.sha256()
    n = 0
    with open(path, "rb") as fh:
        while block := fh.read(1 << 20):
            h.update(block)
            n += len(block)
    return h.hexdigest(), n


def input_info(path: str | None, digest: tuple[str, int] | None = None) -> dict[str, Any]:
    """``{"name", "sha256", "bytes"}`` of one input: ``name`` is the file name without its folders;
    ``None`` or ``-`` (standard input), and anything that is not a regular file (a pipe,
    ``/dev/stdin``), have ``sha256`` and ``bytes`` ``None``.  ``digest``: ``(sha256 hex, size)``
    of the file made while it was read (``tag``'s reader: the file is not read again), else the
    file is hashed here.  Raises OSError when a regular file cannot be read."""
    if path is None or str(path) == "-":
        return {"name": "-", "sha256": None, "bytes": None}
    p = Path(path)
    if not p.is_file():
        return {"name": p.name or str(path), "sha256": None, "bytes": None}
    sha, size = digest or file_digest(p)
    return {"name": p.name, "sha256": sha, "bytes": size}


def build_meta(command: str, inputs: Sequence[str | None], now: datetime | None = None,
               digests: Mapping[str, tuple[str, int]] | None = None) -> dict[str, Any]:
    """The metadata of one output (shape in the module docstring).

    Input: the ``command`` (``tag``, ``validate``, ``audit``), its input paths (``None`` / ``-``
    for standard input), ``now`` (default: the current UTC time), ``digests``: input path ->
    ``(sha256 hex, size)`` already made while reading it (:func:`input_info`).  Raises OSError
    when an input cannot be read for its digest.
    """
    now = (now or datetime.now(timezone.utc)).astimezone(timezone.utc).replace(microsecond=0)
    digests = digests or {}
    return {"tool": TOOL, "version": tool_version(), "command": command, "catalog_sha256": catalog_digest(),
            "inputs": [input_info(p, digests.get(p) if p is not None else None) for p in inputs],
            "created": now.strftime("%Y-%m-%dT%H:%M:%SZ")}


def output_meta(command: str, inputs: Sequence[str | None], output: str | None,
                digests: Mapping[str, tuple[str, int]] | None = None) -> dict[str, Any] | None:
    """:func:`build_meta` for an output written to a file; ``None`` for standard output (``output``
    ``None`` or ``-``), which has nowhere to put it.  ``digests``: as for :func:`build_meta`."""
    return None if output is None or str(output) == "-" else build_meta(command, inputs, digests=digests)


def sidecar_path(output: str | os.PathLike) -> Path:
    """``<output>.meta.json`` (the whole file name kept: ``tags.jsonl`` -> ``tags.jsonl.meta.json``)."""
    return Path(str(output) + SIDECAR_SUFFIX)


def write_sidecar(output: str | os.PathLike, meta: dict[str, Any],
                  digest: tuple[str, int] | None = None) -> Path | None:
    """Write ``<output>.meta.json`` beside a finished JSONL / CSV output, atomically.

    Input: the output path (``None`` / ``-``: standard output, nothing is written and ``None``
    returned; a device or pipe such as ``/dev/null`` likewise), ``meta`` from :func:`build_meta`.
    The sidecar holds ``meta`` plus ``output``: the output's name, sha256 and size, so a reader can
    tell the sidecar belongs to that file; ``digest``: its ``(sha256 hex, size)`` made while it
    was written (:class:`extractor.writers.Writer`), else the file is read back and hashed here.
    Output: the sidecar's path.  Raises OSError (the
    output is then left as it is; no partial sidecar).
    """
    if output is None or str(output) == "-" or not Path(output).is_file():
        return None
    from .atomic import atomic_path

    sha, size = digest or file_digest(output)
    data = {**meta, "output": {"name": Path(output).name, "sha256": sha, "bytes": size}}
    target = sidecar_path(output)
    with atomic_path(target) as tmp:
        tmp.write_bytes(orjson.dumps(data, option=orjson.OPT_INDENT_2) + b"\n")
    return target


def write_sidecars(outputs: Sequence[str | None], meta: dict[str, Any]) -> list[Path]:
    """:func:`write_sidecar` for each written file of a command (``-o``, ``--html``, ``--sql``, ...);
    ``None`` / ``-`` entries are skipped.  Output: the sidecars written.  Raises OSError."""
    return [p for out in outputs if out and str(out) != "-" and (p := write_sidecar(out, meta)) is not None]


def write_sqlite_meta(db: "sqlite3.Connection", meta: dict[str, Any]) -> None:
    """Create and fill the table ``meta (key TEXT PRIMARY KEY, value TEXT)`` of an SQLite output
    (inside its transaction: it is committed with the cards).  Strings are stored as they are;
    lists, objects and numbers as JSON."""
    db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT)")
    db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                   [(k, v if isinstance(v, str) else orjson.dumps(v).decode()) for k, v in meta.items()])


def read_meta(output: str | os.PathLike) -> dict[str, Any] | None:
    """The metadata of an output: the ``meta`` table of an SQLite file (JSON values decoded), else
    the ``<output>.meta.json`` sidecar; ``None`` when there is none.  Raises OSError /
    ``orjson.JSONDecodeError`` for an unreadable sidecar."""
    p = Path(output)
    if p.is_file():
        with open(p, "rb") as fh:
            is_sqlite = fh.read(16) == b"SQLite format 3\x00"
        if is_sqlite:
            import sqlite3  # (here: only an SQLite output needs it, and tag's start-up does not)

            con = sqlite3.connect(f"file:{p.resolve().as_posix()}?mode=ro", uri=True)
            try:
                try:
                    rows = con.execute("SELECT key, value FROM meta").fetchall()
                except sqlite3.OperationalError:
                    return None
            finally:
                con.close()
            out: dict[str, Any] = {}
            for k, v in rows:
                try:
                    out[k] = orjson.loads(v) if v[:1] in ("[", "{") or k in ("inputs",) else v
                except orjson.JSONDecodeError:
                    out[k] = v
            return out
    side = sidecar_path(p)
    if not side.is_file():
        return None
    return orjson.loads(side.read_bytes())
