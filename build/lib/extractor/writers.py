"""Output writers for ``tag``: JSONL (default), CSV and SQLite, always written atomically
(to a temporary file in the target folder, renamed into place only when complete), so a crash or
Ctrl-C never leaves a half-written output file.
"""
from __future__ import annotations

import csv
import io
import os
import sqlite3
import sys
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import orjson

FORMATS = ("jsonl", "csv", "sqlite")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def atomic_path(target: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``target``; on success it replaces ``target``."""
    target = Path(target)
    if not target.parent.is_dir():  # a typo in a path must not create folders
        raise FileNotFoundError(f"the output folder {str(target.parent)!r} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    try:
        yield Path(tmp)
        # mkstemp makes the file 0600: give it the mode a plain open() would (or the old file's)
        os.chmod(tmp, target.stat().st_mode & 0o7777 if target.is_file() else 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


class Writer:
    """Writes result dicts (the JSON form of ``CardResult``) in one format.

    Use as a context manager; ``write(obj)`` per card.  ``output`` ``None`` or ``-`` means
    standard output (JSONL and CSV only).
    """

    def __init__(self, output: str | None, fmt: str = "jsonl"):
        if fmt not in FORMATS:
            raise ValueError(f"unknown output format {fmt!r} (one of {', '.join(FORMATS)})")
        if fmt == "sqlite" and (output is None or output == "-"):
            raise ValueError("--format sqlite needs -o FILE")
        self.output, self.fmt = output, fmt

    def __enter__(self) -> "Writer":
        self._ctx = None
        if self.output in (None, "-"):
            self._fh = sys.stdout.buffer
        else:
            self._ctx = atomic_path(self.output)
            self._tmp = self._ctx.__enter__()
            try:
                if self.fmt == "sqlite":
                    self._db = sqlite3.connect(self._tmp)
                    self._db.execute("CREATE TABLE cards (id INTEGER, name TEXT, lang TEXT, tags TEXT, tributes INTEGER, "
                                     "conditions TEXT, profile TEXT, registers TEXT, warnings TEXT, error TEXT)")
                    self._db.execute("CREATE TABLE card_tags (id INTEGER, lang TEXT, tag TEXT)")
                    self._fh = None
                else:
                    self._fh = open(self._tmp, "wb")
            except BaseException as e:  # no temp file left behind
                self._ctx.__exit__(type(e), e, e.__traceback__)
                raise
        if self.fmt == "csv":
            self._buf = io.StringIO()
            self._csv = csv.writer(self._buf)
            self._csv.writerow(["id", "name", "lang", "tags", "tributes", "conditions", "registers", "warnings", "error"])
            self._flush_csv()
        return self

    def _flush_csv(self) -> None:
        self._fh.write(self._buf.getvalue().encode("utf-8"))
        self._buf.seek(0)
        self._buf.truncate()

    def write(self, obj: dict) -> None:
        if self.fmt == "jsonl":
            self._fh.write(orjson.dumps(obj) + b"\n")
        elif self.fmt == "csv":
            self._csv.writerow([obj.get("id"), obj.get("name"), obj.get("lang"), " ".join(obj.get("tags") or []),
                                obj.get("tributes"), ";".join(c["kind"] for c in obj.get("conditions") or []),
                                " ".join(obj.get("registers") or []), "; ".join(obj.get("warnings") or []),
                                obj.get("error") or ""])
            self._flush_csv()
        else:
            self._db.execute("INSERT INTO cards VALUES (?,?,?,?,?,?,?,?,?,?)", (
                obj.get("id"), obj.get("name"), obj.get("lang"), " ".join(obj.get("tags") or []), obj.get("tributes"),
                orjson.dumps(obj.get("conditions") or []).decode(), orjson.dumps(obj.get("profile")).decode(),
                " ".join(obj.get("registers") or []), orjson.dumps(obj.get("warnings") or []).decode(), obj.get("error")))
            self._db.executemany("INSERT INTO card_tags VALUES (?,?,?)",
                                 [(obj.get("id"), obj.get("lang"), t) for t in obj.get("tags") or []])

    def __exit__(self, et, ev, tb) -> None:
        try:
            if self.fmt == "sqlite":
                if et is None:
                    self._db.commit()
                self._db.close()
            elif self._ctx is not None:
                self._fh.close()
            else:
                self._fh.flush()
        except BaseException as e:  # e.g. disk full on the last flush: still remove the temp file
            if self._ctx is not None:
                self._ctx.__exit__(type(e), e, e.__traceback__)
            raise
        if self._ctx is not None:
            self._ctx.__exit__(et, ev, tb)
